// The emitted N-CMTM Jacobians (Samy et al. §VI-B) of arm7 at order 3 (ncmtm_arm, built in
// tests/CMakeLists.txt), checked against what they map, as the paper's Table III does: the torque
// Jacobian times the motion gives the emitted CoRNEA's joint forces with the world at rest (every
// derivative), and the world-frame Jacobian times the motion gives the link's velocity and
// acceleration in world coordinates, from the emitted fk's pose and ncmtm_fk's body-frame motion.
// The higher blocks of J are also compared with the reference (the tracer's check: the reference is
// checked against ADOL-C in test_ncmtm).
#include <gtest/gtest.h>

#include <random>

#include "algorithms/ncmtm_jacobians.hpp"
#include "ncmtm_arm.hpp"
#include "test_support.hpp"

namespace {

using namespace rbdgen;
namespace arm = ncmtm_arm;
constexpr int N = 3, NV = arm::NV;

double factorial(int k) { return k <= 1 ? 1.0 : k * factorial(k - 1); }

struct ArmMotion {
    std::vector<double> q = std::vector<double>(arm::NQ), Psi = std::vector<double>((N + 1) * NV);
    explicit ArmMotion(std::mt19937_64& rng) {
        std::uniform_real_distribution<double> u(-2, 2);
        for (double& x : q) x = u(rng);
        for (double& x : Psi) x = u(rng);
    }
    double psi_hat(int p, int j) const { return Psi[p * NV + j] / factorial(p); }
};

TEST(NcmtmKernels, TorqueJacobianTimesTheMotionIsCornea) {
    std::mt19937_64 rng(41);
    for (int trial = 0; trial < 50; ++trial) {
        const ArmMotion m(rng);
        std::vector<double> R(arm::ncmtm_torque_jacobian_R_size), tau(arm::cornea_tau_size);
        const double no_gravity[3] = {0, 0, 0};
        arm::ncmtm_torque_jacobian(m.q.data(), m.Psi.data(), R.data());
        arm::cornea(m.q.data(), m.Psi.data(), no_gravity, tau.data());
        for (int k = 0; k < N; ++k) {
            Eigen::VectorXd mapped = Eigen::VectorXd::Zero(NV), expected(NV);
            for (int i = 0; i < NV; ++i) {
                for (int p = 0; p <= N; ++p)
                    for (int j = 0; j < NV; ++j) mapped[i] += R[(k * NV + i) * (N + 1) * NV + p * NV + j] * m.psi_hat(p, j);
                expected[i] = tau[k * NV + i] / factorial(k);
            }
            EXPECT_LT(test::rel_err(mapped, expected), 1e-10) << "order " << k << ", trial " << trial;
        }
    }
}

// ⁰X_b of a pose (R body to world, p): [R 0; p× R  R].
Eigen::Matrix<double, 6, 6> world_from(const double* pose) {
    Eigen::Matrix3d R;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) R(r, c) = pose[3 * r + c];
    const Eigen::Vector3d p(pose[9], pose[10], pose[11]);
    Eigen::Matrix3d px;
    px << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
    Eigen::Matrix<double, 6, 6> X = Eigen::Matrix<double, 6, 6>::Zero();
    X.topLeftCorner<3, 3>() = R, X.bottomRightCorner<3, 3>() = R, X.bottomLeftCorner<3, 3>() = px * R;
    return X;
}

TEST(NcmtmKernels, WorldJacobianTimesTheMotionIsTheLinksWorldMotion) {
    const Model model = load_urdf(test::project_model("arm7.urdf"), {false});
    ASSERT_EQ(model.nv, NV);
    const int b = arm::NB - 1;  // arm7 is a chain: every joint supports its last link
    std::mt19937_64 rng(42);
    for (int trial = 0; trial < 50; ++trial) {
        const ArmMotion m(rng);
        std::vector<double> J(arm::ncmtm_jacobian_J_size), pose(arm::fk_pose_size), zeta(arm::ncmtm_fk_zeta_size);
        arm::ncmtm_jacobian(m.q.data(), m.Psi.data(), J.data());
        arm::fk(m.q.data(), pose.data());
        arm::ncmtm_fk(m.q.data(), m.Psi.data(), zeta.data());
        const auto block = [&J](int p) {
            Eigen::MatrixXd Jp(6, NV);
            for (int r = 0; r < 6; ++r)
                for (int c = 0; c < NV; ++c) Jp(r, c) = J[(6 * p + r) * NV + c];
            return Jp;
        };
        // ζ̂_k = Σ_{p ≤ k} J_{k−p} ψ̂_p; for k = 0, 1 it is ⁰X_b ζ_{b,k} (d/dt ⁰X_b ν_b = ⁰X_b ν̇_b, as ν_b × ν_b = 0)
        const Eigen::Matrix<double, 6, 6> X = world_from(pose.data() + 12 * b);
        for (int k = 0; k <= 1; ++k) {
            Eigen::VectorXd mapped = Eigen::VectorXd::Zero(6);
            for (int p = 0; p <= k; ++p) {
                Eigen::VectorXd psi(NV);
                for (int j = 0; j < NV; ++j) psi[j] = m.psi_hat(p, j);
                mapped += block(k - p) * psi;
            }
            Eigen::Matrix<double, 6, 1> body;
            for (int r = 0; r < 6; ++r) body[r] = zeta[b * 6 * (N + 1) + 6 * k + r];
            EXPECT_LT(test::rel_err(mapped, X * body), 1e-10) << "order " << k << ", trial " << trial;
        }
        // every block against the reference
        Motion<double> motion{Eigen::Map<const VecX<double>>(m.q.data(), NV), {}};
        for (int p = 0; p <= N; ++p) motion.psi.push_back(Eigen::Map<const VecX<double>>(m.Psi.data() + p * NV, NV));
        const ComprehensiveJacobian<double> reference = ncmtm_jacobian<double>(model, motion, b, JacobianFrame::World);
        for (int p = 0; p <= N; ++p) EXPECT_LT(test::rel_err(block(p), reference.J[p]), 1e-10) << "block " << p << ", trial " << trial;
    }
}

}  // namespace
