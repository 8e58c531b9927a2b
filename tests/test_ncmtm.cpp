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
            if (b.joint.type != JointType::Floating) {
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
            for (int k = 0; k < 3; ++k) {
                out[b.q_index + k] = p[12 + k] + (0.4 * p[13 - k] + 0.2 * p[15] * t) * t;
                pos_d[k] = 0.4 * p[13 - k] + 0.4 * p[15] * t;
            }
            for (int k = 0; k < 4; ++k) out[b.q_index + 3 + k] = qv[k];
            // ω = 2 (w v̇ − ẇ v − v × v̇), v = (x, y, z)
            const adouble &x = qv[0], &y = qv[1], &z = qv[2], &w = qv[3];
            const adouble &xd = qd[0], &yd = qd[1], &zd = qd[2], &wd = qd[3];
            const int v = model_.nq + b.v_index;
            out[v + 0] = 2.0 * (w * xd - wd * x - (y * zd - z * yd));
            out[v + 1] = 2.0 * (w * yd - wd * y - (z * xd - x * zd));
            out[v + 2] = 2.0 * (w * zd - wd * z - (x * yd - y * xd));
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
Oracle taylor_oracle(const Model& m, const SmoothMotion& motion, int N, const Vec3<double>& g) {
    const Eigen::MatrixXd Y = motion.coefficients(N + 1);
    const int nq = m.nq, nv = m.nv;
    // inputs (q, ψ, ψ̇): ψ̇'s coefficients are (k + 1) ψ_{k+1}
    Eigen::MatrixXd X(nq + 2 * nv, N + 1);
    for (int k = 0; k <= N; ++k) {
        X.col(k) << Y.col(k).head(nq), Y.col(k).tail(nv), Y.col(k + 1).tail(nv) * (k + 1.0);
    }
    const TaylorTape tape(2, X.col(0), [&](const AVec& x) {
        const AVec q = x.head(nq), qd = x.segment(nq, nv), qdd = x.tail(nv);
        const Kinematics<adouble> kin = forward_kinematics<adouble>(m, q, qd);
        const AVec tau = rnea<adouble>(m, q, qd, qdd, g.cast<adouble>());
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
