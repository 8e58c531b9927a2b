#include "model/snap.hpp"

#include <fmt/format.h>

#include <cmath>

namespace rbdgen {
namespace {

bool exact(double v) { return v == 0.0 || v == 1.0 || v == -1.0; }

// Snap every entry of m, or none; returns the largest change (0 if nothing moved or not all near).
template <class M> double snap_all(M& m, double tol) {
    M snapped = m;
    double change = 0;
    for (int k = 0; k < m.size(); ++k) {
        const double t = snapped_to_exact(m.data()[k], tol);
        if (!exact(t)) return 0;
        change = std::max(change, std::abs(m.data()[k] - t));
        snapped.data()[k] = t;
    }
    m = snapped;
    return change;
}

}  // namespace

double snapped_to_exact(double v, double tol) {
    for (double target : {0.0, 1.0, -1.0})
        if (std::abs(v - target) <= tol) return target;
    return v;
}

SnapReport snap_near_exact_constants(Model& model, double tol) {
    SnapReport report;
    if (tol <= 0) return report;
    auto note = [&](const Body& b, const char* what, double change) {
        if (change == 0) return;
        report.snapped.push_back(fmt::format("joint '{}': {} (largest change {:.1e})", b.joint_name, what, change));
        report.max_change = std::max(report.max_change, change);
    };
    for (Body& b : model.bodies) {
        note(b, "placement rotation snapped to a signed permutation", snap_all(b.X_tree.E, tol));
        double change = 0;
        for (int k = 0; k < 3; ++k)
            if (b.X_tree.r[k] != 0 && std::abs(b.X_tree.r[k]) <= tol) change = std::max(change, std::abs(b.X_tree.r[k])), b.X_tree.r[k] = 0;
        note(b, "placement translation entries snapped to 0", change);
        if (b.joint.type != JointType::Floating) {
            const double c = snap_all(b.joint.axis, tol);
            b.joint.axis.normalize();
            note(b, "axis snapped to a coordinate axis", c);
        }
    }
    return report;
}

}  // namespace rbdgen
