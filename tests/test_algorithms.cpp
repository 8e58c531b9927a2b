// The reference algorithms against oracles that do not share their code: ABA(RNEA(q̈)) = q̈, two
// forward dynamics agreeing, H's columns from RNEA, H symmetric positive definite, LᵀDL = H without
// fill, virtual work for external forces and gravity, Jacobians against FK velocities, the power
// balance d/dt(kinetic energy) = q̇ᵀ(τ − g) by finite differences, and the axial screws' closed forms
// against 6×6 Plücker matrices. Random states, fixed seeds.
#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "model/topology.hpp"
#include "model/urdf_loader.hpp"

#include <fmt/format.h>
#include "test_support.hpp"

namespace rbdgen {
namespace {

constexpr int kStates = test::states(200);

class Physics : public test::ModelTest {
protected:
    std::mt19937_64 rng{12345};
};

TEST_P(Physics, AbaInvertsRnea) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> tau = rnea<double>(model, x.q, x.qd, x.qdd, x.gravity);
        worst = std::max(worst, test::rel_err(aba<double>(model, x.q, x.qd, tau, x.gravity), x.qdd));
    }
    EXPECT_LT(worst, 1e-10);
    std::cout << GetParam().label() << ": ABA(RNEA(qdd)) worst relative error " << worst << "\n";
}

TEST_P(Physics, CrbaLtdlForwardDynamicsEqualsAba) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> qdd_aba = aba<double>(model, x.q, x.qd, x.tau, x.gravity);
        worst = std::max(worst, test::rel_err(fd_crba_ltdl<double>(model, x.q, x.qd, x.tau, x.gravity), qdd_aba));
    }
    EXPECT_LT(worst, 1e-10);
    std::cout << GetParam().label() << ": CRBA+LTDL vs ABA worst relative error " << worst << "\n";
}

TEST_P(Physics, JsimColumnsAreRneaOfUnitAccelerations) {
    for (int s = 0; s < kStates / 10; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> zero = VecX<double>::Zero(model.nv);
        const MatX<double> H = crba<double>(model, x.q);
        const VecX<double> bias = rnea<double>(model, x.q, zero, zero, x.gravity);
        for (int i = 0; i < model.nv; ++i) {
            const VecX<double> e = VecX<double>::Unit(model.nv, i);
            const VecX<double> column = rnea<double>(model, x.q, zero, e, x.gravity) - bias;
            EXPECT_LT(test::rel_err(H.col(i), column), 1e-12) << "column " << i;
        }
    }
}

TEST_P(Physics, JsimIsSymmetricPositiveDefiniteAndLtdlHasNoFill) {
    const std::vector<int> lambda = expanded_parent(model);
    const auto pattern = jsim_pattern(lambda);
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const MatX<double> H = crba<double>(model, x.q);
        ASSERT_EQ((H - H.transpose()).cwiseAbs().maxCoeff(), 0.0);
        ASSERT_GT(Eigen::SelfAdjointEigenSolver<MatX<double>>(H).eigenvalues().minCoeff(), 0.0);
        for (int i = 0; i < model.nv; ++i)
            for (int j = 0; j < model.nv; ++j)
                if (!pattern[i][j]) ASSERT_EQ(H(i, j), 0.0) << "branch-induced zero H(" << i << "," << j << ")";

        MatX<double> LD = H;
        ltdl<double>(LD, lambda);
        MatX<double> L = MatX<double>::Identity(model.nv, model.nv);
        VecX<double> D(model.nv);
        for (int i = 0; i < model.nv; ++i) {
            D[i] = LD(i, i);
            for (int j = 0; j < i; ++j) {
                if (!in_subtree(lambda, i, j)) ASSERT_EQ(LD(i, j), 0.0) << "fill-in at L(" << i << "," << j << ")";
                L(i, j) = LD(i, j);
            }
        }
        EXPECT_LT(test::rel_err(L.transpose() * D.asDiagonal() * L, H), 1e-12);

        MatX<double> LL = H;
        ltl<double>(LL, lambda);
        const MatX<double> Lt = LL.triangularView<Eigen::Lower>();
        EXPECT_LT(test::rel_err(Lt.transpose() * Lt, H), 1e-12);

        // The four products and solves of Appendix A against dense triangular algebra.
        const VecX<double> b = x.tau;
        for (const auto& [F, diag] : {std::pair{L, Diagonal::Unit}, std::pair{Lt, Diagonal::Stored}}) {
            const MatX<double>& S = diag == Diagonal::Unit ? LD : LL;
            EXPECT_LT(test::rel_err(L_times<double>(S, lambda, b, diag), F * b), 1e-12);
            EXPECT_LT(test::rel_err(Lt_times<double>(S, lambda, b, diag), F.transpose() * b), 1e-12);
            VecX<double> y = b;
            L_solve<double>(S, lambda, y, diag);
            EXPECT_LT(test::rel_err(F * y, b), 1e-10);
            y = b;
            Lt_solve<double>(S, lambda, y, diag);
            EXPECT_LT(test::rel_err(F.transpose() * y, b), 1e-10);
        }
    }
}

// ½ Σ v_iᵀ I_i v_i
double kinetic_energy(const Model& model, const VecX<double>& q, const VecX<double>& qd) {
    const VecX<double> zero = VecX<double>::Zero(model.nv);
    const Kinematics<double> k = forward_kinematics<double>(model, q, qd);
    double T = 0;
    for (int i = 0; i < model.N(); ++i) T += 0.5 * k.v[i].dot(model.bodies[i].I * k.v[i]);
    for (const Body& b : model.bodies)  // the rotors' (an MJCF armature): ½ armature q̇² a velocity
        for (int e = 0; e < b.joint.nv(); ++e) T += 0.5 * b.joint.armature * qd[b.v_index + e] * qd[b.v_index + e];
    return T;
}

TEST_P(Physics, PowerBalance) {
    // Along q(t) = q ⊕ (q̇ t + ½ q̈ t²) and q̇(t) = q̇ + q̈ t, dT/dt = q̇ᵀ(τ − g) (a floating base's and a
    // ball joint's velocity in body coordinates, q ⊕ δ turning them by exp(δω)).
    const double h = 1e-5;
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        auto at = [&](double t) {  // q(t) = q ⊕ (q̇ t + ½ q̈ t²): q's rate at t = 0 is q̇
            return kinetic_energy(model, test::plus(model, x.q, x.qd * t + 0.5 * x.qdd * t * t), x.qd + x.qdd * t);
        };
        const double dT = (at(h) - at(-h)) / (2 * h);
        const VecX<double> tau = rnea<double>(model, x.q, x.qd, x.qdd, x.gravity);
        const VecX<double> g = gravity_vector<double>(model, x.q, x.gravity);
        const double power = x.qd.dot(tau - g);
        worst = std::max(worst, std::abs(dT - power) / std::max(1.0, std::abs(x.qd.dot(tau)) + std::abs(x.qd.dot(g))));
    }
    EXPECT_LT(worst, 1e-6);
    std::cout << GetParam().label() << ": power balance worst relative residual " << worst << "\n";
}

TEST_P(Physics, JacobiansMapJointVelocitiesToBodyVelocities) {
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const Kinematics<double> k = forward_kinematics<double>(model, x.q, x.qd);
        const MatX<double> J = spatial_jacobian<double>(model, x.q);
        for (int i = 0; i < model.N(); ++i)
            ASSERT_LT(test::rel_err(k.X_0[i].matrix() * body_support<double>(model, J, i) * x.qd, k.v[i]), 1e-12) << "body " << i;
    }
}

TEST_P(Physics, ExternalForcesAndGravityObeyVirtualWork) {
    for (int s = 0; s < kStates / 4; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::uniform_real_distribution<double> u(-10, 10);
        std::vector<Vec6<double>> f(model.N());
        for (auto& fi : f) fi = Vec6<double>::NullaryExpr([&] { return u(rng); });
        const MatX<double> J0 = spatial_jacobian<double>(model, x.q);
        const Kinematics<double> k = forward_kinematics<double>(model, x.q, x.qd);
        // τ(f^x) = τ(0) − Σ J_iᵀ f_i^x
        VecX<double> expected = rnea<double>(model, x.q, x.qd, x.qdd, x.gravity);
        // g = −Σ J_iᵀ I_i a_g,i : gravity's generalized force, a_g in body coordinates
        VecX<double> g = VecX<double>::Zero(model.nv);
        for (int i = 0; i < model.N(); ++i) {
            const MatX<double> J_i = k.X_0[i].matrix() * body_support<double>(model, J0, i);  // body coordinates
            expected -= J_i.transpose() * f[i];
            g -= J_i.transpose() * (model.bodies[i].I * k.X_0[i].apply(spatial<double>(Vec3<double>::Zero(), x.gravity)));
        }
        EXPECT_LT(test::rel_err(rnea<double>(model, x.q, x.qd, x.qdd, x.gravity, &f), expected), 1e-11);
        EXPECT_LT(test::rel_err(gravity_vector<double>(model, x.q, x.gravity), g), 1e-11);
        // and forward dynamics with the same forces inverts it
        const VecX<double> tau = rnea<double>(model, x.q, x.qd, x.qdd, x.gravity, &f);
        EXPECT_LT(test::rel_err(aba<double>(model, x.q, x.qd, tau, x.gravity, &f), x.qdd), 1e-10);
        EXPECT_LT(test::rel_err(fd_crba_ltdl<double>(model, x.q, x.qd, tau, x.gravity, &f), x.qdd), 1e-10);
    }
}

INSTANTIATE_TEST_SUITE_P(AllModels, Physics, ::testing::ValuesIn(test::all_models()), test::case_name);

// A URDF planar joint (three coordinates in the plane normal to its axis n: x along u, y along n × u,
// θ about n; docs/kernels.md) carrying one body, against Newton's and Euler's laws written out in the
// joint's frame: with r_c = x u + y w + R(θ) c, F = m (r̈_c − g), τ_x = u·F, τ_y = w·F and
// τ_θ = θ̈ nᵀ I_c n + n·((R c) × F) (ω = θ̇ n is parallel to n, so n·(ω × I_c ω) = 0). The joint's
// origin is rotated, so gravity has components in and out of the plane.
TEST(PlanarJoint, OneBodyObeysNewtonAndEulerInItsPlane) {
    for (const Vec3<double> n_urdf : {Vec3<double>(0, 0, 1), Vec3<double>(0.3, -0.5, 0.8)}) {
        const Model model = load_urdf_string(fmt::format(R"(<robot name="slider">
  <link name="world"/>
  <joint name="plane" type="planar"><parent link="world"/><child link="puck"/>
    <origin xyz="0.2 -0.1 0.4" rpy="0.5 -0.3 0.2"/><axis xyz="{} {} {}"/></joint>
  <link name="puck"><inertial><origin xyz="0.05 -0.03 0.02"/><mass value="1.7"/>
    <inertia ixx="0.03" ixy="0.004" ixz="-0.002" iyy="0.05" iyz="0.003" izz="0.04"/></inertial></link>
</robot>)", n_urdf.x(), n_urdf.y(), n_urdf.z()), "slider.urdf");
        ASSERT_EQ(model.nv, 3);
        const Vec3<double> n = n_urdf.normalized();
        Eigen::Index k;
        n.cwiseAbs().minCoeff(&k);
        const Vec3<double> u = (Vec3<double>::Unit(k) - n[k] * n).normalized(), w = n.cross(u);
        const double m = 1.7;
        const Vec3<double> c(0.05, -0.03, 0.02);
        Mat3<double> I_c;
        I_c << 0.03, 0.004, -0.002, 0.004, 0.05, 0.003, -0.002, 0.003, 0.04;
        const Mat3<double> R_origin = (Eigen::AngleAxisd(0.2, Vec3<double>::UnitZ()) * Eigen::AngleAxisd(-0.3, Vec3<double>::UnitY()) *
                                       Eigen::AngleAxisd(0.5, Vec3<double>::UnitX())).toRotationMatrix();
        std::mt19937_64 rng(77);
        double worst = 0;
        for (int s = 0; s < 100; ++s) {
            const test::RandomState x = test::random_state(model, rng);
            const Mat3<double> R = Eigen::AngleAxisd(x.q[2], n).toRotationMatrix();
            const Vec3<double> Rc = R * c;
            const Vec3<double> rdd = x.qdd[0] * u + x.qdd[1] * w + x.qdd[2] * n.cross(Rc) + x.qd[2] * x.qd[2] * n.cross(n.cross(Rc));
            const Vec3<double> F = m * (rdd - R_origin.transpose() * x.gravity);
            const Vec3<double> expected(u.dot(F), w.dot(F), x.qdd[2] * n.dot(R * I_c * R.transpose() * n) + n.dot(Rc.cross(F)));
            worst = std::max(worst, test::rel_err(rnea<double>(model, x.q, x.qd, x.qdd, x.gravity), expected));
        }
        EXPECT_LT(worst, 1e-12) << "normal " << n_urdf.transpose();
    }
}

// The axial screw's closed forms (spatial/screw.hpp) against plain 6×6 Plücker algebra: E = rot_k(θ)
// built from the angle, r = d e_k, X = [E 0; −E r× E]; motions X m, forces X⁻ᵀ m, back X⁻¹ m and Xᵀ f,
// 3×3 blocks Eᵀ M E, rigid-body and articulated inertias Xᵀ I X.
TEST(Screws, ClosedFormsAgreeWithPluckerMatrices) {
    std::mt19937_64 rng(21);
    std::uniform_real_distribution<double> u(-2, 2);
    auto random6 = [&] {
        Mat6<double> M;
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c) M(r, c) = u(rng);
        return M;
    };
    double worst = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int k = trial % 3, i = (k + 1) % 3, j = (k + 2) % 3;
        const double theta = u(rng), d = u(rng);
        Screw<double> z;
        z.k = k, z.c = std::cos(theta), z.s = std::sin(theta), z.d = d;
        Mat3<double> E = Mat3<double>::Identity();
        E(i, i) = E(j, j) = std::cos(theta);
        E(i, j) = std::sin(theta), E(j, i) = -std::sin(theta);
        const Vec3<double> r = d * Vec3<double>::Unit(k);
        Mat6<double> X = Mat6<double>::Zero();
        X.topLeftCorner<3, 3>() = X.bottomRightCorner<3, 3>() = E;
        X.bottomLeftCorner<3, 3>() = -E * skew<double>(r);
        const Vec6<double> m = random6().col(0);
        const Mat3<double> M = random6().topLeftCorner<3, 3>(), Msym = M + M.transpose();
        const Mat6<double> A = random6(), I_A = A * A.transpose();
        RigidBodyInertia<double> I;
        I.m = 1 + std::abs(u(rng));
        I.h = random6().col(1).head<3>();
        I.Ibar = Msym;
        auto err = [&](const auto& a, const auto& b) { worst = std::max(worst, (a - b).cwiseAbs().maxCoeff()); };
        err(z.apply(m), X * m);
        err(z.apply_force(m), X.inverse().transpose() * m);
        err(z.inverse_apply(m), X.inverse() * m);
        err(z.transpose_apply(m), X.transpose() * m);
        err(z.rotate_matrix(M, false), E.transpose() * M * E);
        err(z.rotate_matrix(Msym, true), E.transpose() * Msym * E);
        err(z.inertia_in_parent(I).matrix(), X.transpose() * I.matrix() * X);
        err(z.articulated_in_parent(I_A), X.transpose() * I_A * X);
    }
    EXPECT_LT(worst, 1e-12);
}

}  // namespace
}  // namespace rbdgen
