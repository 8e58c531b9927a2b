// The N-CMTM (Samy et al.): forward kinematics, CoRNEA and recursive forward dynamics of order N,
// against oracles that share none of its code: order 1 against the FK, RNEA and ABA; every order up
// to 5 against Taylor-mode AD of the reference FK and RNEA (ADOL-C); first order against central
// finite differences; Alg. 2 against Alg. 1; eq. (27) with deconstruction against eq. (37).
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "algorithms/aba.hpp"
#include "algorithms/cornea.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/ncmtm_fd.hpp"
#include "algorithms/ncmtm_jacobians.hpp"
#include "algorithms/rnea.hpp"
#include "test_support.hpp"

namespace rbdgen::test {
namespace {

using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;

double factorial(int k) { return k <= 1 ? 1.0 : k * factorial(k - 1); }

// A random smooth motion as Taylor coefficients in t at t = 0 (rows: q's coordinates, then ψ's; column
// k: coefficient of t^k). A 1-DoF joint moves as in the paper's §VII, ψ = a sin(ωt + b); a floating
// base's orientation is a normalized cubic in t, its position a cubic, and ψ its body velocity
// (ω = 2 vec(q* ⊗ q̇), v = Rᵀ ṗ). `at(t)` gives the same motion's q, ψ and ψ̇ at another time.
class SmoothMotion {
public:
    SmoothMotion(const Model& m, std::mt19937_64& rng) : model_(m) {
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        params_ = Eigen::VectorXd::NullaryExpr(16 * m.N(), [&] { return u(rng); });
        x0_ = Eigen::VectorXd::Zero(1);
        tape_ = std::make_unique<TaylorTape>(1, x0_, [this](const AVec& t) { return evaluate(t[0]); });
    }
    // Taylor coefficients of [q; ψ] to degree d at time t.
    Eigen::MatrixXd coefficients(int d, double t = 0) const {
        Eigen::MatrixXd X = Eigen::MatrixXd::Zero(1, d + 1);
        X(0, 0) = t;
        if (d >= 1) X(0, 1) = 1;
        return tape_->forward_taylor(X);
    }
    // The motion of order N at t: q and ψ^(0..N).
    Motion<double> motion(int N, double t = 0) const {
        const Eigen::MatrixXd Y = coefficients(N, t);
        Motion<double> m{Y.col(0).head(model_.nq), {}};
        for (int k = 0; k <= N; ++k) m.psi.push_back(Y.col(k).tail(model_.nv) * factorial(k));
        return m;
    }

private:
    AVec evaluate(const adouble& t) const {
        AVec out(model_.nq + model_.nv);
        for (int i = 0; i < model_.N(); ++i) {
            const Body& b = model_.bodies[i];
            const double* p = params_.data() + 16 * i;
            if (b.joint.one_dof()) {
                const double a = p[0], w = 1.0 + 0.5 * p[1], phase = 3 * p[2], q0 = 2 * p[3];
                out[b.q_index] = q0 + a / w * (std::cos(phase) - cos(w * t + phase));
                out[model_.nq + b.v_index] = a * sin(w * t + phase);
                continue;
            }
            // u(t) = u0 + u1 t + u2 t² (quaternion x, y, z, w before normalizing), position c0 + c1 t + c2 t²
            adouble u[4], ud[4], pos_d[3];
            for (int k = 0; k < 4; ++k) {
                u[k] = p[k] + (0.5 * p[4 + k] + 0.3 * p[8 + k] * t) * t;
                ud[k] = 0.5 * p[4 + k] + 0.6 * p[8 + k] * t;
            }
            u[3] = u[3] + 2.0;  // away from zero
            adouble norm2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3];
            adouble norm = sqrt(norm2), dot = u[0] * ud[0] + u[1] * ud[1] + u[2] * ud[2] + u[3] * ud[3];
            adouble qv[4], qd[4];
            for (int k = 0; k < 4; ++k) qv[k] = u[k] / norm, qd[k] = ud[k] / norm - u[k] * dot / (norm2 * norm);
            const bool floating = b.joint.type == JointType::Floating;  // else a ball joint: the quaternion alone
            for (int k = 0; k < 3 && floating; ++k) {
                out[b.q_index + k] = p[12 + k] + (0.4 * p[13 - k] + 0.2 * p[15] * t) * t;
                pos_d[k] = 0.4 * p[13 - k] + 0.4 * p[15] * t;
            }
            for (int k = 0; k < 4; ++k) out[b.q_index + b.joint.quaternion_at() + k] = qv[k];
            // ω = 2 (w v̇ − ẇ v − v × v̇), v = (x, y, z)
            const adouble &x = qv[0], &y = qv[1], &z = qv[2], &w = qv[3];
            const adouble &xd = qd[0], &yd = qd[1], &zd = qd[2], &wd = qd[3];
            const int v = model_.nq + b.v_index;
            out[v + 0] = 2.0 * (w * xd - wd * x - (y * zd - z * yd));
            out[v + 1] = 2.0 * (w * yd - wd * y - (z * xd - x * zd));
            out[v + 2] = 2.0 * (w * zd - wd * z - (x * yd - y * xd));
            if (!floating) continue;
            // R (body to parent) of the joint's quaternion; v = Rᵀ ṗ
            adouble R[3][3] = {{1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)},
                               {2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)},
                               {2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)}};
            for (int r = 0; r < 3; ++r) out[v + 3 + r] = R[0][r] * pos_d[0] + R[1][r] * pos_d[1] + R[2][r] * pos_d[2];
        }
        return out;
    }
    const Model& model_;
    Eigen::VectorXd params_, x0_;
    std::unique_ptr<TaylorTape> tape_;
};

// Taylor mode on the reference RNEA and FK along the motion: τ^(k), k = 0..N−1, and ν_i^(k), k = 0..N.
struct Oracle {
    std::vector<VecX<double>> tau;
    std::vector<Stack<double, 6>> nu;
};
// f_ext: each body's external force and its derivatives (Taylor inputs of the RNEA's f^x), or none.
Oracle taylor_oracle(const Model& m, const SmoothMotion& motion, int N, const Vec3<double>& g,
                     const std::vector<Stack<double, 6>>* f_ext = nullptr) {
    const Eigen::MatrixXd Y = motion.coefficients(N + 1);
    const int nq = m.nq, nv = m.nv, nf = f_ext ? 6 * m.N() : 0;
    // inputs (q, ψ, ψ̇, f^x): ψ̇'s coefficients are (k + 1) ψ_{k+1}, f^x's f^x(k) / k!
    Eigen::MatrixXd X(nq + 2 * nv + nf, N + 1);
    for (int k = 0; k <= N; ++k) {
        X.col(k).head(nq + 2 * nv) << Y.col(k).head(nq), Y.col(k).tail(nv), Y.col(k + 1).tail(nv) * (k + 1.0);
        for (int i = 0; i < nf / 6; ++i) X.col(k).segment(nq + 2 * nv + 6 * i, 6) = (*f_ext)[i][std::min(k, N - 1)] * (k < N ? 1.0 / factorial(k) : 0.0);
    }
    const TaylorTape tape(2, X.col(0), [&](const AVec& x) {
        const AVec q = x.head(nq), qd = x.segment(nq, nv), qdd = x.segment(nq + nv, nv);
        const Kinematics<adouble> kin = forward_kinematics<adouble>(m, q, qd);
        std::vector<Vec6<adouble>> fx;
        for (int i = 0; i < nf / 6; ++i) fx.push_back(x.segment(nq + 2 * nv + 6 * i, 6));
        const AVec tau = rnea<adouble>(m, q, qd, qdd, g.cast<adouble>(), nf ? &fx : nullptr);
        AVec out(nv + 6 * m.N());
        out.head(nv) = tau;
        for (int i = 0; i < m.N(); ++i) out.segment(nv + 6 * i, 6) = kin.v[i];
        return out;
    });
    const Eigen::MatrixXd T = tape.forward_taylor(X);
    Oracle o;
    for (int k = 0; k < N; ++k) o.tau.push_back(T.col(k).head(nv) * factorial(k));
    for (int i = 0; i < m.N(); ++i) {
        o.nu.emplace_back();
        for (int k = 0; k <= N; ++k) o.nu[i].push_back(T.col(k).segment(nv + 6 * i, 6) * factorial(k));
    }
    return o;
}

// ‖a − b‖∞ / max(1, ‖b‖∞) over one order of a set of stacks
double order_error(const std::vector<Stack<double, 6>>& a, const std::vector<Stack<double, 6>>& b, int k) {
    double e = 0, scale = 1;
    for (size_t i = 0; i < a.size(); ++i)
        e = std::max(e, (a[i][k] - b[i][k]).cwiseAbs().maxCoeff()), scale = std::max(scale, b[i][k].cwiseAbs().maxCoeff());
    return e / scale;
}

class Ncmtm : public ModelTest {};

TEST_P(Ncmtm, OrderOneIsTheFkRneaAndAba) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 20; ++trial) {
        const RandomState s = random_state(model, rng);
        const Motion<double> motion{s.q, {s.qd, s.qdd}};
        // FK: ν = v; CoRNEA's ν̇ with gravity = ABA's a (whose q̈ we feed back)
        const Kinematics<double> kin = forward_kinematics<double>(model, s.q, s.qd);
        const std::vector<Stack<double, 6>> zeta = ncmtm_fk<double>(model, motion);
        for (int i = 0; i < model.N(); ++i) EXPECT_LT(rel_err(zeta[i][0], kin.v[i]), 1e-12) << model.bodies[i].name;
        const std::vector<VecX<double>> tau = cornea<double>(model, motion, s.gravity);
        ASSERT_EQ(tau.size(), 1u);
        EXPECT_LT(rel_err(tau[0], rnea<double>(model, s.q, s.qd, s.qdd, s.gravity)), 1e-12);
        AbaBodies<double> bodies;
        const VecX<double> qdd = aba<double>(model, s.q, s.qd, s.tau, s.gravity, nullptr, &bodies);
        CorneaBodies<double> cb;
        cornea<double>(model, Motion<double>{s.q, {s.qd, qdd}}, s.gravity, nullptr, &cb);
        for (int i = 0; i < model.N(); ++i) EXPECT_LT(rel_err(cb.zeta[i][1], bodies.a[i]), 1e-12) << model.bodies[i].name;
        const std::vector<VecX<double>> fd = ncmtm_fd<double>(model, s.q, s.qd, {s.tau}, s.gravity);
        EXPECT_LT(rel_err(fd[0], qdd), 1e-12);
    }
}

TEST_P(Ncmtm, EveryOrderToFiveIsTaylorModeAdOfTheReference) {
    std::mt19937_64 rng(12);
    const Vec3<double> g(0.3, -0.2, -9.81);
    for (int trial = 0; trial < 3; ++trial) {
        const SmoothMotion smooth(model, rng);
        const int N = 5;
        const Oracle o = taylor_oracle(model, smooth, N, g);
        const Motion<double> motion = smooth.motion(N);
        const std::vector<Stack<double, 6>> zeta = ncmtm_fk<double>(model, motion);
        for (int k = 0; k <= N; ++k) EXPECT_LT(order_error(zeta, o.nu, k), 1e-10) << "nu^(" << k << ")";
        const std::vector<VecX<double>> tau = cornea<double>(model, motion, g);
        for (int k = 0; k < N; ++k) EXPECT_LT(rel_err(tau[k], o.tau[k]), 1e-10) << "tau^(" << k << ")";
        // external forces f^x(t) on every body, their derivatives to order N − 1
        std::vector<Stack<double, 6>> f_ext(model.N());
        std::uniform_real_distribution<double> u(-1, 1);
        for (Stack<double, 6>& f : f_ext)
            for (int k = 0; k < N; ++k) f.push_back(Vec6<double>::NullaryExpr([&] { return 10 * u(rng); }));
        const Oracle with_forces = taylor_oracle(model, smooth, N, g, &f_ext);
        const std::vector<VecX<double>> tau_f = cornea<double>(model, motion, g, &f_ext);
        for (int k = 0; k < N; ++k) EXPECT_LT(rel_err(tau_f[k], with_forces.tau[k]), 1e-10) << "tau^(" << k << ") with f^x";
        // and lower orders are the same numbers: order n uses ψ .. ψ^(n) only
        Motion<double> low = motion;
        low.psi.resize(3);
        const std::vector<VecX<double>> tau2 = cornea<double>(model, low, g);
        for (int k = 0; k < 2; ++k) EXPECT_LT(rel_err(tau2[k], o.tau[k]), 1e-10) << "order 2, tau^(" << k << ")";
    }
}

// Alg. 2 inverts Alg. 1. Each order's ψ^(k) solves H ψ^(k) = τ^(k−1) − bias with the lower orders'
// rounding in the bias, so the forward error grows with the order (measured: 1e-13 at order 1, up to
// 2e-8 at order 5 on the hand and the humanoids, whose H are the worst conditioned); the backward
// error, CoRNEA of the result against the torques it was given, stays at rounding level.
TEST_P(Ncmtm, ForwardDynamicsInvertsCornea) {
    std::mt19937_64 rng(13);
    const Vec3<double> g(0, 0, -9.81);
    const int N = 5;
    for (int trial = 0; trial < 5; ++trial) {
        const SmoothMotion smooth(model, rng);
        const Motion<double> motion = smooth.motion(N);
        const std::vector<VecX<double>> tau = cornea<double>(model, motion, g);
        const std::vector<VecX<double>> psi = ncmtm_fd<double>(model, motion.q, motion.psi[0], tau, g);
        ASSERT_EQ(static_cast<int>(psi.size()), N);
        Motion<double> solved{motion.q, {motion.psi[0]}};
        for (int k = 1; k <= N; ++k) {
            EXPECT_LT(rel_err(psi[k - 1], motion.psi[k]), k <= 2 ? 1e-10 : 1e-6) << "psi^(" << k << ")";
            solved.psi.push_back(psi[k - 1]);
        }
        const std::vector<VecX<double>> tau_again = cornea<double>(model, solved, g);
        for (int k = 0; k < N; ++k) EXPECT_LT(rel_err(tau_again[k], tau[k]), 1e-10) << "tau^(" << k << ")";
    }
}

// Central differences along the motion (t = ±1e-5) agree at first order to the paper's Table I/II
// precision: ν̇ and τ̇.
TEST_P(Ncmtm, FirstOrderMatchesCentralDifferences) {
    std::mt19937_64 rng(14);
    const Vec3<double> g(0, 0, -9.81);
    const SmoothMotion smooth(model, rng);
    const double h = 1e-5;
    const Motion<double> motion = smooth.motion(2);
    const std::vector<Stack<double, 6>> zeta = ncmtm_fk<double>(model, motion);
    const std::vector<VecX<double>> tau = cornea<double>(model, motion, g);
    const Motion<double> plus = smooth.motion(1, h), minus = smooth.motion(1, -h);
    const Kinematics<double> kp = forward_kinematics<double>(model, plus.q, plus.psi[0]);
    const Kinematics<double> km = forward_kinematics<double>(model, minus.q, minus.psi[0]);
    for (int i = 0; i < model.N(); ++i) EXPECT_LT(rel_err(zeta[i][1], (kp.v[i] - km.v[i]) / (2 * h)), 1e-6);
    const VecX<double> tp = rnea<double>(model, plus.q, plus.psi[0], plus.psi[1], g);
    const VecX<double> tm = rnea<double>(model, minus.q, minus.psi[0], minus.psi[1], g);
    EXPECT_LT(rel_err(tau[1], (tp - tm) / (2 * h)), 1e-6);
}

// The link N-CMTMs of eq. (27), deconstructed (eq. 17), give the motions of eq. (37), gravity included.
TEST_P(Ncmtm, LinkCmtmsDeconstructToTheMotions) {
    std::mt19937_64 rng(15);
    const Vec3<double> g(0.1, 0.2, -9.81);
    const SmoothMotion smooth(model, rng);
    const Motion<double> motion = smooth.motion(4);
    const std::vector<Stack<double, 6>> zeta_hat = ncmtm_motions<double>(model, motion, &g);
    const std::vector<Cmtm<double, 6>> C = ncmtm_link_cmtms<double>(model, motion, &g);
    const Kinematics<double> kin = forward_kinematics<double>(model, motion.q, motion.psi[0]);
    for (int i = 0; i < model.N(); ++i) {
        EXPECT_LT(rel_err(C[i].C[0], kin.X_0[i].inverse().matrix()), 1e-12);  // T = ⁰X_i
        const Stack<double, 6> z = deconstruct<double, 6>(C[i], Cross::Motion6);
        ASSERT_EQ(z.size(), zeta_hat[i].size());
        for (size_t k = 0; k < z.size(); ++k) EXPECT_LT(rel_err(z[k], zeta_hat[i][k]), 1e-10) << model.bodies[i].name << " " << k;
    }
}

// The comprehensive Jacobians (eq. 46, 49, 50) times the motion are the quantities they map (the
// paper's Table III check), and the world- and inertial-frame ones against ADOL-C's Taylor
// coefficients of the reference FK's velocity of the link in those frames (to order 4).
TEST_P(Ncmtm, JacobiansMapTheMotionToWhatTheyMap) {
    std::mt19937_64 rng(17);
    const int N = 4;
    const SmoothMotion smooth(model, rng);
    const Motion<double> motion = smooth.motion(N);
    const std::vector<Stack<double, 6>> zeta_hat = ncmtm_motions<double>(model, motion, nullptr);
    const Eigen::MatrixXd Y = smooth.coefficients(N);
    for (const int b : {model.N() - 1, model.N() / 2}) {
        const std::string name = model.bodies[b].name;
        // body frame: ζ̂_b; momentum: Ĩ ζ̂_b
        const ComprehensiveJacobian<double> J = ncmtm_jacobian<double>(model, motion, b, JacobianFrame::Body);
        const std::vector<VecX<double>> body = apply_jacobian(J, motion);
        const std::vector<VecX<double>> momentum = apply_jacobian(ncmtm_momentum_jacobian<double>(model, J, b), motion);
        const Mat6<double> I = model.bodies[b].I.matrix();
        for (int k = 0; k <= N; ++k) {
            EXPECT_LT(rel_err(body[k], zeta_hat[b][k]), 1e-10) << name << " body, order " << k;
            EXPECT_LT(rel_err(momentum[k], I * zeta_hat[b][k]), 1e-10) << name << " momentum, order " << k;
        }
        // world and inertial frames: ⁰X_b v_b and (⁰R_b ω_b, ⁰R_b v_b), Taylor mode on the reference FK
        const TaylorTape tape(4, Y.col(0), [&](const AVec& x) {
            const Kinematics<adouble> kin = forward_kinematics<adouble>(model, AVec(x.head(model.nq)), AVec(x.tail(model.nv)));
            const Transform<adouble> X_0b = kin.X_0[b].inverse();
            AVec out(12);
            out.head(6) = X_0b.apply(kin.v[b]);
            out.segment(6, 3) = X_0b.E * ang(kin.v[b]);
            out.tail(3) = X_0b.E * lin(kin.v[b]);
            return out;
        });
        const Eigen::MatrixXd T = tape.forward_taylor(Y);
        const std::vector<VecX<double>> world = apply_jacobian(ncmtm_jacobian<double>(model, motion, b, JacobianFrame::World), motion);
        const std::vector<VecX<double>> inertial = apply_jacobian(ncmtm_jacobian<double>(model, motion, b, JacobianFrame::Inertial), motion);
        for (int k = 0; k <= N; ++k) {
            EXPECT_LT(rel_err(world[k], T.col(k).head(6)), 1e-10) << name << " world, order " << k;
            EXPECT_LT(rel_err(inertial[k], T.col(k).tail(6)), 1e-10) << name << " inertial frame, order " << k;
        }
    }
}

// The force Jacobians (eq. 51–53, 57) map the motion to what CoRNEA computes with the world at rest
// and no external force: the link force of a leaf (its joint force), the joint momentum and force
// through a joint, its joint forces, every derivative.
TEST_P(Ncmtm, ForceJacobiansMapTheMotionToCorneasForces) {
    std::mt19937_64 rng(18);
    const int N = 3;
    const SmoothMotion smooth(model, rng);
    const Motion<double> motion = smooth.motion(N);
    CorneaBodies<double> bodies;
    const std::vector<VecX<double>> tau = cornea<double>(model, motion, Vec3<double>::Zero(), nullptr, &bodies);
    const int leaf = model.N() - 1;  // parents precede children: the last body is a leaf
    const std::vector<VecX<double>> f_leaf = apply_jacobian(ncmtm_link_force_jacobian<double>(model, motion, leaf), motion);
    ASSERT_EQ(static_cast<int>(f_leaf.size()), N);
    for (int k = 0; k < N; ++k) EXPECT_LT(rel_err(f_leaf[k] * factorial(k), bodies.f_joint[leaf][k]), 1e-10) << "leaf force, order " << k;
    const std::vector<ComprehensiveJacobian<double>> B = ncmtm_joint_momentum_jacobians<double>(model, motion);
    const std::vector<BlockJacobian<double>> Q = ncmtm_joint_force_jacobians<double>(model, motion);
    const std::vector<BlockJacobian<double>> R = ncmtm_torque_jacobians<double>(model, motion);
    for (int i = 0; i < model.N(); ++i) {
        const std::string name = model.bodies[i].name;
        const std::vector<VecX<double>> h = apply_jacobian(B[i], motion);
        const std::vector<VecX<double>> f = apply_jacobian(Q[i], motion);
        const std::vector<VecX<double>> t = apply_jacobian(R[i], motion);
        const Body& b = model.bodies[i];
        for (int k = 0; k <= N; ++k) EXPECT_LT(rel_err(h[k] * factorial(k), bodies.h_joint[i][k]), 1e-10) << name << " joint momentum, order " << k;
        for (int k = 0; k < N; ++k) {
            EXPECT_LT(rel_err(f[k] * factorial(k), bodies.f_joint[i][k]), 1e-10) << name << " joint force, order " << k;
            EXPECT_LT(rel_err(t[k] * factorial(k), tau[k].segment(b.v_index, b.joint.nv())), 1e-10) << name << " torque, order " << k;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllModels, Ncmtm, ::testing::ValuesIn(all_models()), case_name);

// The N-CMTM itself: its blocks are T's Taylor coefficients T^(p)/p! (eq. 14 read backwards: T(t) =
// Σ C_p t^p), its inverse is T⁻¹'s (eq. 68), deconstruction undoes construction (eq. 17), for k = 6, its
// dual and k = 4, against ADOL-C's Taylor coefficients of the reference transform along a motion.
TEST(NcmtmMatrix, BlocksAreTaylorCoefficientsOfTheTransform) {
    const Model model = load_urdf(project_model("arm7.urdf"), {true});
    std::mt19937_64 rng(16);
    const SmoothMotion smooth(model, rng);
    const int N = 5;
    const Motion<double> motion = smooth.motion(N);
    // T(t) = ⁰X_i(t) of the last body, as H (4×4), X (6×6) and X̄, from the reference FK taped in t
    const int last = model.N() - 1;
    const Eigen::MatrixXd Y = smooth.coefficients(N);
    const TaylorTape tape(3, Y.col(0), [&](const AVec& x) {
        const AVec q = x.head(model.nq), qd = x.tail(model.nv);
        const Transform<adouble> X_0i = forward_kinematics<adouble>(model, q, qd).X_0[last].inverse();
        AVec out(36 + 16);
        const Mat6<adouble> X = X_0i.matrix();
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c) out[6 * r + c] = X(r, c);
        // H = [E r; 0 1] of ⁰X_i = rot(E) xlt(r)'s inverse: H = [Eᵀ-form]: R = ⁰R_i, p = ⁰p_i
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) out[36 + 4 * r + c] = X_0i.E(r, c);
            out[36 + 4 * r + 3] = -(X_0i.E.row(r).dot(X_0i.r));
        }
        for (int c = 0; c < 4; ++c) out[48 + c] = c == 3 ? 1.0 : 0.0;
        return out;
    });
    const Eigen::MatrixXd T = tape.forward_taylor(Y);
    const std::vector<Stack<double, 6>> zeta_hat = ncmtm_motions<double>(model, motion, nullptr);
    const Cmtm<double, 6> X = construct<double, 6>(Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>>(T.col(0).data()),
                                                   zeta_hat[last], Cross::Motion6);
    const Cmtm<double, 4> H = construct<double, 4>(Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(T.col(0).data() + 36),
                                                   zeta_hat[last], Cross::Homogeneous4);
    for (int p = 0; p <= N; ++p) {
        const Eigen::VectorXd c = T.col(p);
        EXPECT_LT(rel_err(X.C[p], Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>>(c.data())), 1e-10) << p;
        EXPECT_LT(rel_err(H.C[p], Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(c.data() + 36)), 1e-10) << p;
    }
    // X̄ = X⁻ᵀ: its N-CMTM (eq. 15) is the blockwise transpose of X⁻¹'s.
    const Cmtm<double, 6> X_dual = construct<double, 6>(Block<double, 6>(X.C[0].inverse().transpose()), zeta_hat[last], Cross::Force6);
    const Cmtm<double, 6> X_inverse = inverse(X);
    for (int p = 0; p <= N; ++p) EXPECT_LT(rel_err(X_dual.C[p], X_inverse.C[p].transpose()), 1e-10) << p;
    const Cmtm<double, 6> one = X * X_inverse;
    for (int p = 0; p <= N; ++p)
        EXPECT_LT(rel_err(one.C[p], p == 0 ? Block<double, 6>(Block<double, 6>::Identity()) : Block<double, 6>(Block<double, 6>::Zero())), 1e-10) << p;
    // deconstruction returns ζ̂ to order N − 1, for X, X̄ and H
    const Stack<double, 6> from_X = deconstruct<double, 6>(X, Cross::Motion6);
    const Stack<double, 6> from_dual = deconstruct<double, 6>(X_dual, Cross::Force6);
    const Stack<double, 6> from_H = deconstruct<double, 4>(H, Cross::Homogeneous4);
    ASSERT_EQ(static_cast<int>(from_X.size()), N);
    for (int p = 0; p < N; ++p) {
        EXPECT_LT(rel_err(from_X[p], zeta_hat[last][p]), 1e-10) << p;
        EXPECT_LT(rel_err(from_dual[p], zeta_hat[last][p]), 1e-10) << p;
        EXPECT_LT(rel_err(from_H[p], zeta_hat[last][p]), 1e-10) << p;
    }
}

}  // namespace
}  // namespace rbdgen::test
