#include "emit/prepare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <random>

#include "algorithms/crba.hpp"
#include "algorithms/rnea.hpp"
#include "model/error.hpp"

namespace rbdgen {
namespace {

// The largest relative change of τ = RNEA(q, q̇, q̈) and of H(q) that snapping makes, over 50 random states.
double snapping_effect(const Model& before, const Model& after) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    double worst = 0;
    for (int s = 0; s < 50; ++s) {
        VecX<double> q = VecX<double>::NullaryExpr(before.nq, [&] { return 3 * u(rng); });
        for (const Body& b : before.bodies)
            if (b.joint.type == JointType::Floating) q.segment<4>(b.q_index + 3).normalize();
        const VecX<double> qd = VecX<double>::NullaryExpr(before.nv, [&] { return 2 * u(rng); });
        const VecX<double> qdd = VecX<double>::NullaryExpr(before.nv, [&] { return 5 * u(rng); });
        const Vec3<double> g(0, 0, -9.81);
        const VecX<double> t0 = rnea<double>(before, q, qd, qdd, g), t1 = rnea<double>(after, q, qd, qdd, g);
        const MatX<double> H0 = crba<double>(before, q), H1 = crba<double>(after, q);
        worst = std::max(worst, (t1 - t0).cwiseAbs().maxCoeff() / std::max(1.0, t0.cwiseAbs().maxCoeff()));
        worst = std::max(worst, (H1 - H0).cwiseAbs().maxCoeff() / std::max(1.0, H0.cwiseAbs().maxCoeff()));
    }
    return worst;
}

}  // namespace

void refuse_overflow(const Model& model, const std::string& scalar) {
    const double largest = scalar == "float" ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int s = 0; s < 4; ++s) {
        VecX<double> q = VecX<double>::NullaryExpr(model.nq, [&] { return 3 * u(rng); });
        for (const Body& b : model.bodies)
            if (b.joint.type == JointType::Floating) q.segment<4>(b.q_index + 3).normalize();
        const VecX<double> qd = VecX<double>::NullaryExpr(model.nv, [&] { return u(rng); });
        const VecX<double> tau = rnea<double>(model, q, qd, qd, Vec3<double>(0, 0, -9.81));
        const MatX<double> H = crba<double>(model, q);
        for (const Body& b : model.bodies)
            for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k)
                if (!(std::abs(tau[k]) <= largest) || !(H.row(k).cwiseAbs().maxCoeff() <= largest))
                    throw Error(model.source + ": at joint '" + b.joint_name + "' the dynamics overflow " + scalar +
                                " arithmetic (inverse dynamics or the inertia matrix is " +
                                (std::isnan(tau[k]) ? "not a number" : "beyond " + fmt::format("{:g}", largest)) +
                                " at a sample state); check the masses, inertias and lengths of the links it moves");
    }
}

PreparedModel prepare_model(const Model& urdf_model, double snap_tolerance) {
    PreparedModel p;
    Model snapped = urdf_model;
    p.snap = snap_near_exact_constants(snapped, snap_tolerance);
    p.snap_effect = p.snap.snapped.empty() ? 0.0 : snapping_effect(urdf_model, snapped);
    FrameChoice frames = choose_internal_frames(snapped);
    p.model = std::move(frames.model);
    p.dh_transforms = frames.dh_transforms;
    return p;
}

}  // namespace rbdgen
