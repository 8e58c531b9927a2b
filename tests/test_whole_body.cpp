// The centre of mass, centroidal momentum, energy, Jacobian rates, H⁻¹ and the Coriolis matrix
// (algorithms/com.hpp, centroidal.hpp, energy.hpp, jacobians.hpp, frames.hpp, minv.hpp,
// coriolis.hpp) against identities that do not use their code: the bodies' own masses and poses,
// central differences along the motion, H and the bias forces of the CRBA and the RNEA, and the
// Newton-Euler equations of the whole robot. Every model, fixed and floating, 20 random states.
#include <gtest/gtest.h>

#include <random>

#include "algorithms/centroidal.hpp"
#include "algorithms/com.hpp"
#include "algorithms/coriolis.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/energy.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/minv.hpp"
#include "algorithms/minv_aba.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "emit/kernel_spec_parts.hpp"
#include "model/topology.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

constexpr int kStates = test::states(20);
constexpr double kIdentity = 1e-10, kDifference = 1e-6;

class WholeBody : public test::ModelTest {
protected:
    std::mt19937_64 rng{43};
};

// d/dt f along q(t) = q ⊕ t q̇ (and q̇(t) = q̇ + t q̈ where f takes it): the five-point stencil, h = 1e-3.
template <class F> auto rate(const F& f_at) {
    const double h = 1e-3;
    return ((f_at(-2 * h) - 8 * f_at(-h) + 8 * f_at(h) - f_at(2 * h)) / (12 * h)).eval();
}
VecX<double> vec(const Vec3<double>& x) { return x; }

// ‖a − b‖∞ / max(1, ‖b‖∞)
double err(const MatX<double>& a, const MatX<double>& b) { return test::rel_err(a, b); }

TEST_P(WholeBody, CentreOfMassIsTheBodiesAndMovesAsItsJacobianSays) {
    for (int n = 0; n < kStates; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        // Σ mᵢ cᵢ / m, each body's centre of mass cᵢ = h/m in its frame, placed in the world by ⁰Xᵢ
        const Kinematics<double> kin = forward_kinematics<double>(model, s.q, VecX<double>::Zero(model.nv));
        double m = 0;
        Vec3<double> mc = Vec3<double>::Zero();
        for (int i = 0; i < model.N(); ++i) {
            const RigidBodyInertia<double>& I = model.bodies[i].I;
            if (I.m == 0) continue;
            const Transform<double> X = kin.X_0[i].inverse();  // ᵢX_0⁻¹: the body's points in world coordinates
            m += I.m;
            mc += I.m * (X.E * Vec3<double>(I.h / I.m) - X.E * X.r);
        }
        const CenterOfMass<double> c = center_of_mass<double>(model, s.q, &s.qd, &s.qdd);
        EXPECT_NEAR(c.m, m, 1e-12 * m);
        ASSERT_LT(err(c.c, mc / m), kIdentity) << n;
        // ċ and c̈ by central differences of c and ċ along the motion; ċ = Jc q̇
        const Vec3<double> cd = rate([&](double t) { return vec(center_of_mass<double>(model, test::plus(model, s.q, s.qd * t)).c); });
        const Vec3<double> cdd = rate([&](double t) {
            const VecX<double> qd = s.qd + t * s.qdd;
            return vec(center_of_mass<double>(model, test::plus(model, s.q, s.qd * t), &qd).cd);
        });
        ASSERT_LT(err(c.cd, cd), kDifference) << n;
        ASSERT_LT(err(c.cdd, cdd), kDifference) << n;
        ASSERT_LT(err(com_jacobian<double>(model, s.q) * s.qd, c.cd), kIdentity) << n;
    }
}

// h_G = A_G q̇ (against the bodies' momenta summed, centroidal_momentum_rate), its linear part m ċ,
// ḣ_G = A_G q̈ + Ȧ_G q̇, ḣ_G by central differences of h_G along the motion, and, on a floating
// base, ḣ_G the net external wrench about the centre of mass: the base's wrench that the RNEA
// returns (τ's first six, base coordinates, about its origin) plus gravity m g through c.
TEST_P(WholeBody, CentroidalMomentumAndItsRate) {
    const bool floating = model.bodies[0].joint.type == JointType::Floating;
    for (int n = 0; n < kStates; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        const Centroidal<double> c = centroidal<double>(model, s.q, s.qd);
        const CentroidalRate<double> r = centroidal_momentum_rate<double>(model, s.q, s.qd, s.qdd);
        const CenterOfMass<double> com = center_of_mass<double>(model, s.q, &s.qd);
        ASSERT_LT(err(c.h, r.h), kIdentity) << n;
        ASSERT_LT(err(lin(c.h), com.m * com.cd), kIdentity) << n;
        ASSERT_LT(err(r.hdot, c.A * s.qdd + c.Adot_qd), kIdentity) << n;
        const Vec6<double> hdot = rate([&](double t) {
            const VecX<double> qd = s.qd + t * s.qdd;
            return centroidal<double>(model, test::plus(model, s.q, s.qd * t), qd).h;
        });
        ASSERT_LT(err(r.hdot, hdot), kDifference) << n;
        if (!floating) continue;
        const VecX<double> tau = rnea<double>(model, s.q, s.qd, s.qdd, s.gravity);
        const Kinematics<double> kin = forward_kinematics<double>(model, s.q, s.qd);
        const Vec6<double> base = kin.X_0[0].transpose_apply(Vec6<double>(tau.head<6>()));  // world, about the origin
        const Vec6<double> wrench = spatial<double>(ang(base) - com.c.cross(lin(base)), lin(base) + com.m * s.gravity);
        ASSERT_LT(err(r.hdot, wrench), kIdentity) << n;
    }
}

TEST_P(WholeBody, EnergyIsHalfQdHQdAndItsGradientIsGravity) {
    for (int n = 0; n < kStates; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        const Energy<double> e = energy<double>(model, s.q, s.qd, s.gravity);
        const MatX<double> H = crba<double>(model, s.q);
        ASSERT_NEAR(e.T, 0.5 * s.qd.dot(H * s.qd), kIdentity * std::max(1.0, std::abs(e.T))) << n;
        VecX<double> dV(model.nv);
        for (int k = 0; k < model.nv; ++k)
            dV[k] = rate([&](double t) {
                VecX<double> v(1);
                v[0] = energy<double>(model, test::plus(model, s.q, VecX<double>::Unit(model.nv, k) * t), s.qd, s.gravity).V;
                return v;
            })[0];
        ASSERT_LT(err(dV, gravity_vector<double>(model, s.q, s.gravity)), kDifference) << n;
    }
}

// H⁻¹ H = 1 (through the LTDL factors and by the articulated-body recursion); C q̇ = nle − g; Ḣ = C + Cᵀ with Ḣ by central differences of the CRBA along q̇.
TEST_P(WholeBody, MinvInvertsHAndCoriolisFactorsTheBiasForces) {
    const Vec3<double> no_gravity = Vec3<double>::Zero();
    for (int n = 0; n < kStates; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        const MatX<double> H = crba<double>(model, s.q);
        ASSERT_LT(err(minv<double>(model, s.q) * H, MatX<double>::Identity(model.nv, model.nv)), kIdentity) << n;
        ASSERT_LT(err(minv_aba<double>(model, s.q) * H, MatX<double>::Identity(model.nv, model.nv)), kIdentity) << n;
        const MatX<double> C = coriolis<double>(model, s.q, s.qd);
        ASSERT_LT(err(C * s.qd, rnea<double>(model, s.q, s.qd, VecX<double>::Zero(model.nv), no_gravity)), kIdentity) << n;
        const MatX<double> H_dot = rate([&](double t) { return crba<double>(model, test::plus(model, s.q, s.qd * t)); });
        ASSERT_LT(err(C + C.transpose(), H_dot), kDifference) << n;
    }
}

// On a fixed base (q̇ the coordinates' rates), C is the matrix of H's Christoffel symbols of the first
// kind: C_ij = Σ_k ½ (∂H_ij/∂q_k + ∂H_ik/∂q_j − ∂H_jk/∂q_i) q̇_k, each ∂H/∂q_k by central differences.
TEST_P(WholeBody, CoriolisIsTheChristoffelMatrixOnAFixedBase) {
    for (const Body& b : model.bodies)
        if (!b.joint.one_dof()) GTEST_SKIP() << "joint " << b.joint_name << ": a floating or ball joint's velocity is not q's rate";
    for (int n = 0; n < 3; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        std::vector<MatX<double>> dH;
        for (int k = 0; k < model.nv; ++k)
            dH.push_back(rate([&](double t) { return crba<double>(model, test::plus(model, s.q, VecX<double>::Unit(model.nv, k) * t)); }));
        MatX<double> C = MatX<double>::Zero(model.nv, model.nv);
        for (int i = 0; i < model.nv; ++i)
            for (int j = 0; j < model.nv; ++j)
                for (int k = 0; k < model.nv; ++k) C(i, j) += 0.5 * (dH[k](i, j) + dH[j](i, k) - dH[i](j, k)) * s.qd[k];
        ASSERT_LT(err(coriolis<double>(model, s.q, s.qd), C), kDifference) << n;
    }
}

// J̇ by central differences of the Jacobian along q̇, for the spatial Jacobian and for every body's
// URDF link as a frame; and J̇_f q̇ is frame_motion's acceleration at q̈ = 0.
TEST_P(WholeBody, JacobianRatesAreTheJacobiansDerivatives) {
    std::vector<LinkFrame> frames;
    for (const Body& b : model.bodies)
        if (b.is_link()) frames.push_back(*link_frame(model, b.name));
    for (int n = 0; n < 5; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        const JacobianRate<double> J = spatial_jacobian_rate<double>(model, s.q, s.qd);
        ASSERT_LT(err(J.Jdot, rate([&](double t) { return spatial_jacobian<double>(model, test::plus(model, s.q, s.qd * t)); })),
                  kDifference) << n;
        const VecX<double> zero = VecX<double>::Zero(model.nv);
        const std::vector<FrameState<double>> motion = frame_states<double>(model, frames, s.q, s.qd, zero);
        for (size_t f = 0; f < frames.size(); ++f) {
            const MatX<double> Jdot = frame_jacobian_rate<double>(model, frames[f], s.q, s.qd);
            ASSERT_LT(err(Jdot, rate([&](double t) { return frame_jacobian<double>(model, frames[f], test::plus(model, s.q, s.qd * t)); })),
                      kDifference) << frames[f].link;
            ASSERT_LT(err(Jdot * s.qd, motion[f].a), kIdentity) << frames[f].link;
        }
    }
}

// The traced kernels compute no branch-induced zero: where two dofs share no path from the root
// (Featherstone §3), C's entry is the constant 0 of the trace, and so is H⁻¹'s where they have no
// common ancestor.
TEST_P(WholeBody, BranchInducedZerosOfCAndMinvAreNeverComputed) {
    if (model.nv > 40) GTEST_SKIP() << "traced on the smaller models only (the test's time)";
    const std::vector<int> lambda = expanded_parent(model);
    const std::vector<std::vector<bool>> pattern = jsim_pattern(lambda);
    int zeros = 0;
    const KernelSpec& minv_spec = kernel_spec("minv");
    ASSERT_EQ(minv_spec.alternatives.size(), 1u);
    for (const char* name : {"coriolis", "minv", "minv by the articulated-body recursion"}) {
        const bool by_aba = std::string(name) == "minv by the articulated-body recursion";
        const Kernel k = trace_kernel(model, by_aba ? *minv_spec.alternatives[0] : kernel_spec(name));
        for (int i = 0; i < model.nv; ++i)
            for (int j = 0; j < model.nv; ++j) {
                bool nonzero = pattern[i][j] || pattern[j][i];
                if (std::string(name) != "coriolis") {  // a common ancestor
                    nonzero = false;
                    for (int a = i; a >= 0 && !nonzero; a = lambda[a])
                        for (int b = j; b >= 0 && !nonzero; b = lambda[b]) nonzero = a == b;
                }
                if (nonzero) continue;
                ++zeros;
                EXPECT_TRUE(k.graph->is_const(k.output_nodes[0][i * model.nv + j], 0.0)) << name << " (" << i << ", " << j << ")";
            }
    }
    RecordProperty("branch_induced_zeros", zeros);
}

// A_G the other way, by summing the bodies' Jacobians (Orin et al. eq. 22): A_G = Σᵢ shift_c(I⁰ᵢ J⁰ᵢ),
// I⁰ᵢ body i's inertia in world coordinates and J⁰ᵢ the spatial Jacobian's columns that support it.
template <class S> MatX<S> centroidal_by_jacobians(const Model& model, const VecX<S>& q) {
    const Kinematics<S> kin = forward_kinematics<S>(model, q, VecX<S>::Zero(model.nv));
    const MatX<S> J = spatial_jacobian<S>(model, q);
    MatX<S> A = MatX<S>::Zero(6, model.nv);
    for (int i = 0; i < model.N(); ++i) {
        const RigidBodyInertia<S> I = model.bodies[i].I.cast<S>().expressed_in_parent(kin.X_0[i]);
        for (int j = i; j >= 0; j = model.bodies[j].lambda)
            for (int k = model.bodies[j].v_index; k < model.bodies[j].v_index + model.bodies[j].joint.nv(); ++k)
                A.col(k) += I * Vec6<S>(J.col(k));
    }
    const FirstMoment<S> fm = first_moment<S>(model, kin, nullptr);
    const Vec3<S> c = fm.mc * (S(1) / fm.m);
    for (int k = 0; k < model.nv; ++k) A.col(k) = about_point<S>(c, Vec6<S>(A.col(k)));
    return A;
}

// The composite-rigid-body recursion that centroidal uses against summing Jacobians: the same A_G,
// and fewer operations (the choice, by count).
TEST_P(WholeBody, CentroidalByTheCompositeRecursionIsTheCheaperWay) {
    for (int n = 0; n < 3; ++n) {
        const test::RandomState s = test::random_state(model, rng);
        ASSERT_LT(err(centroidal<double>(model, s.q, s.qd).A, centroidal_by_jacobians<double>(model, s.q)), kIdentity) << n;
    }
    if (model.nv > 40) return;  // traced on the smaller models only (the test's time)
    KernelSpec by_jacobians = spec_parts::spec("centroidal_by_jacobians", "", {spec_parts::q_in(), spec_parts::qd_in()},
        {{"A", "", [](const Model&) { return 6; }, spec_parts::nv, ArrayLayout::RowMajor}},
        [](const Model& m, const auto& x) {
            using S = spec_parts::ScalarOf<std::decay_t<decltype(x)>>;
            return std::vector{spec_parts::row_major(centroidal_by_jacobians<S>(m, x[0]))};
        });
    KernelSpec ccrba = by_jacobians;  // A_G alone, as centroidal computes it
    ccrba.trace = [](const Model& m, const Arrays<sym::Expr>& x) {
        return Arrays<sym::Expr>{spec_parts::row_major(centroidal<sym::Expr>(m, x[0], x[1]).A)};
    };
    const long recursion = trace_kernel(model, ccrba).ops().total(), summed = trace_kernel(model, by_jacobians).ops().total();
    RecordProperty("ops_ccrba", recursion);
    RecordProperty("ops_summed_jacobians", summed);
    EXPECT_LT(recursion, summed);
}

// minv is traced both ways (the LTDL factors, the articulated-body recursion) and the kernel is the
// one of fewer operations, its report "method" naming it with both counts.
TEST_P(WholeBody, MinvKeepsTheMethodOfFewerOperations) {
    if (model.nv > 40) GTEST_SKIP() << "traced on the smaller models only (the test's time)";
    const KernelSpec& spec = kernel_spec("minv");
    const Kernel kept = trace_kernel(model, spec);
    const long ltdl_ops = trace_kernel(model, [&] {
        KernelSpec alone = spec;
        alone.alternatives.clear();
        return alone;
    }()).ops().total();
    const long aba_ops = trace_kernel(model, *spec.alternatives[0]).ops().total();
    RecordProperty("ops_ltdl", ltdl_ops);
    RecordProperty("ops_articulated_body", aba_ops);
    EXPECT_EQ(kept.ops().total(), std::min(ltdl_ops, aba_ops));
    const std::string chosen = ltdl_ops <= aba_ops ? "ltdl:" : "articulated-body:";
    EXPECT_EQ(kept.method.rfind(chosen, 0), 0u) << kept.method;
    EXPECT_NE(kept.method.find("ltdl " + std::to_string(ltdl_ops) + ", articulated-body " + std::to_string(aba_ops)), std::string::npos)
        << kept.method;
}

INSTANTIATE_TEST_SUITE_P(AllModels, WholeBody, ::testing::ValuesIn(test::all_models()), test::case_name);

}  // namespace
}  // namespace rbdgen
