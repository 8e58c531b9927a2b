// The configuration manifold (algorithms/configuration.hpp): the coefficient functions against long
// double; integrate against Eigen's quaternions and an RK4 integration of the constant twist (the
// exact motion it must equal); integrate and difference inverse to each other; every Jacobian
// against central differences on the tangent space (q ⊕ δ by test::plus, which shares no code with
// configuration.hpp) and against ADOL-C's forward mode on integrate and difference; the chain rule
// through both; and a floating base turned by hand, whose numbers change if the convention does.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "algorithms/configuration.hpp"
#include "emit/kernel.hpp"
#include "test_support.hpp"

// The coefficient functions' series, Σ c_k x^k to `terms` terms, c_k of sin θ / θ, (1 − cos θ) / θ²
// and (θ − sin θ) / θ³ (x = θ²): the long-double reference below and the adouble functions after it.
namespace {
template <class T, class Term> T series(const T& x, const Term& term, int terms) {
    T sum = 0, p = 1;
    for (int k = 0; k < terms; ++k, p = p * x) sum = sum + static_cast<T>(term(k)) * p;
    return sum;
}
long double factorial(int n) { return n <= 1 ? 1.0L : n * factorial(n - 1); }
long double sinc_term(int k) { return (k % 2 ? -1.0L : 1.0L) / factorial(2 * k + 1); }
long double cosc_term(int k) { return (k % 2 ? -1.0L : 1.0L) / factorial(2 * k + 2); }
long double sinc3_term(int k) { return (k % 2 ? -1.0L : 1.0L) / factorial(2 * k + 3); }
bool small(const adouble& x, double below) { return x.getValue() < below; }
}  // namespace

// The coefficient functions on ADOL-C's adouble, for integrate and difference taped: their closed forms
// by sin, cos and atan2, which ADOL-C differentiates, and below x = 1e-2 (y = 1e-6) their series to 8
// terms, whose first derivatives are exact at 0. Written here from the definitions, not the runtime's.
adouble sinc(const adouble& x) {  // sin θ / θ
    if (small(x, 1e-2)) return series(x, sinc_term, 8);
    const adouble t = sqrt(x);
    return sin(t) / t;
}
adouble cosc(const adouble& x) {  // (1 − cos θ) / θ²
    if (small(x, 1e-2)) return series(x, cosc_term, 8);
    return (1 - cos(sqrt(x))) / x;
}
adouble sinc3(const adouble& x) {  // (θ − sin θ) / θ³
    if (small(x, 1e-2)) return series(x, sinc3_term, 8);
    const adouble t = sqrt(x);
    return (t - sin(t)) / (t * x);
}
adouble dexp_inv(const adouble& x) {  // (1 − (θ/2) cot(θ/2)) / θ², below 1e-2 by cot's series: 1/12 + x/720 + x²/30240 + x³/1209600
    if (small(x, 1e-2)) return series(x, [](int k) { return 1 / std::array<double, 4>{12, 720, 30240, 1209600}[k]; }, 4);
    const adouble h = 0.5 * sqrt(x);
    return (1 - h * cos(h) / sin(h)) / x;
}
adouble log_ratio(const adouble& y, const adouble& w) {  // the angle 2 atan2(√y, |w|) sign(w) over √y
    const double sign = w.getValue() < 0 ? -1 : 1;
    if (small(y, 1e-6)) return sign * 2 / fabs(w) * series(adouble(y / (w * w)), [](int k) { return (k % 2 ? -1.0 : 1.0) / (2 * k + 1); }, 8);
    const adouble s = sqrt(y);
    return sign * 2 * atan2(s, fabs(w)) / s;
}

namespace rbdgen {
namespace {

constexpr int kStates = test::states(20);
using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;

// ---- the coefficient functions (templates/rbdgen_runtime.hpp.in) ----

// The reference below x = 0.5: the series in long double to 40 terms (series, above).

TEST(CoefficientFunctions, AgreeWithLongDoubleAndAreExactAtZero) {
    struct Case {
        const char* name;
        double (*f)(double);
        long double (*closed)(long double);
        long double (*term)(int);
    };
    const Case cases[] = {
        {"sinc", sinc, [](long double t) { return sinl(t) / t; }, sinc_term},
        {"cosc", cosc, [](long double t) { return (1 - cosl(t)) / (t * t); }, cosc_term},
        {"sinc3", sinc3, [](long double t) { return (t - sinl(t)) / (t * t * t); }, sinc3_term},
        {"cosc_dx", cosc_dx, [](long double t) { return (t * sinl(t) / 2 - (1 - cosl(t))) / (t * t * t * t); },
         [](int k) { return (k % 2 ? 1.0L : -1.0L) * (k + 1) / factorial(2 * k + 4); }},
        {"sinc3_dx", sinc3_dx, [](long double t) { return (t * (1 - cosl(t)) - 3 * (t - sinl(t))) / (2 * t * t * t * t * t); },
         [](int k) { return (k % 2 ? 1.0L : -1.0L) * (k + 1) / factorial(2 * k + 5); }},
        // (θ/2) cot(θ/2) = Σ (−1)^n B_2n θ^2n / (2n)!: the reference by differences of cot's series is
        // long; below x = 0.5 the closed form in long double loses at most 1e-15 there instead
        {"dexp_inv", dexp_inv, [](long double t) { return (1 - (t / 2) * cosl(t / 2) / sinl(t / 2)) / (t * t); }, nullptr},
    };
    const double at_zero[] = {1.0, 0.5, 1.0 / 6, -1.0 / 24, -1.0 / 120, 1.0 / 12};
    int i = 0;
    for (const Case& c : cases) {
        EXPECT_EQ(c.f(0.0), at_zero[i++]) << c.name;
        double worst = 0;
        for (double x = 1e-12; x < 30; x *= 1.07) {
            const long double t = sqrtl(x);
            const long double exact = x < 0.5 && c.term ? series<long double>(x, c.term, 40) : c.closed(t);
            if (!c.term && x < 1e-4) continue;  // dexp_inv's closed form cancels there, even in long double
            worst = std::max(worst, static_cast<double>(std::abs((c.f(x) - exact) / exact)));
        }
        EXPECT_LT(worst, 1e-14) << c.name;
        std::cout << c.name << ": worst relative error against long double " << worst << "\n";
    }
    // log_ratio: 2 atan2(√y, |w|) sign(w) / √y, at unit quaternions of every angle, both signs of w
    double worst = 0;
    for (double theta = 1e-9; theta < M_PI; theta *= 1.05)
        for (double sign : {1.0, -1.0}) {
            const long double s = sinl(theta / 2), w = sign * cosl(theta / 2);
            worst = std::max(worst, static_cast<double>(std::abs(log_ratio(static_cast<double>(s * s), static_cast<double>(w)) - sign * theta / s) /
                                                        (theta / s)));
        }
    EXPECT_LT(worst, 1e-14);
    EXPECT_EQ(log_ratio(0.0, 1.0), 2.0);
    EXPECT_EQ(log_ratio(0.0, -1.0), -2.0);
}

// ---- q ⊕ v and q₁ ⊖ q₀ ----

// The pose of a floating or ball joint: (R, p) of its quaternion and position (zero for a ball).
struct Pose {
    Eigen::Matrix3d R;
    Vec3<double> p = Vec3<double>::Zero();
};
Pose pose(const Body& b, const VecX<double>& q) {
    Pose P;
    P.R = test::quaternion(q, b).normalized().toRotationMatrix();
    if (b.joint.type == JointType::Floating) P.p = q.segment<3>(b.q_index);
    return P;
}
// The motion under the constant twist [ω; ν] in body coordinates for unit time (Ṙ = R ω×, ṗ = R ν),
// by RK4 in 2000 steps: what integrate must equal.
Pose constant_twist(Pose P, const Vec3<double>& w, const Vec3<double>& nu) {
    const int n = 2000;
    const double h = 1.0 / n;
    const auto f = [&](const Pose& s) { return Pose{s.R * skew<double>(w), s.R * nu}; };
    const auto step = [](const Pose& s, const Pose& d, double t) { return Pose{s.R + t * d.R, s.p + t * d.p}; };
    for (int i = 0; i < n; ++i) {
        const Pose k1 = f(P), k2 = f(step(P, k1, h / 2)), k3 = f(step(P, k2, h / 2)), k4 = f(step(P, k3, h));
        P.R += h / 6 * (k1.R + 2 * k2.R + 2 * k3.R + k4.R);
        P.p += h / 6 * (k1.p + 2 * k2.p + 2 * k3.p + k4.p);
    }
    return P;
}
// q' ⊖ q to first order by test::plus's own chart (SO(3) × R³: R exp(δω), p + R δv): the local
// coordinates in which central differences read a Jacobian's columns. Shares nothing with difference.
VecX<double> chart(const Model& m, const VecX<double>& q, const VecX<double>& q1) {
    VecX<double> d(m.nv);
    for (const Body& b : m.bodies) {
        if (b.joint.one_dof()) {
            d[b.v_index] = q1[b.q_index] - q[b.q_index];
            continue;
        }
        const Pose P = pose(b, q), P1 = pose(b, q1);
        const Eigen::AngleAxisd turn(Eigen::Matrix3d(P.R.transpose() * P1.R));
        d.segment<3>(b.v_index) = turn.angle() * turn.axis();
        if (b.joint.type == JointType::Floating) d.segment<3>(b.v_index + 3) = P.R.transpose() * (P1.p - P.p);
    }
    return d;
}
// v with every rotation's angle below `max_angle`
VecX<double> step(const Model& m, std::mt19937_64& rng, double max_angle) {
    std::uniform_real_distribution<double> u(-1, 1);
    VecX<double> v = VecX<double>::NullaryExpr(m.nv, [&] { return 2 * u(rng); });
    for (const Body& b : m.bodies)
        if (!b.joint.one_dof() && v.segment<3>(b.v_index).norm() > max_angle) v.segment<3>(b.v_index) *= max_angle / v.segment<3>(b.v_index).norm();
    return v;
}
bool has_rotations(const Model& m) {
    return std::any_of(m.bodies.begin(), m.bodies.end(), [](const Body& b) { return !b.joint.one_dof(); });
}

class Configuration : public test::ModelTest {
protected:
    std::mt19937_64 rng{2031};
};

// integrate against the constant twist's motion, and against Eigen's exponential for the rotation;
// 1-DoF joints add.
TEST_P(Configuration, IntegrateIsTheConstantTwistsMotion) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> v = step(model, rng, 3.0);
        const VecX<double> q1 = integrate<double>(model, x.q, v);
        for (const Body& b : model.bodies) {
            if (b.joint.one_dof()) {
                worst = std::max(worst, std::abs(q1[b.q_index] - (x.q[b.q_index] + v[b.v_index])));
                continue;
            }
            const Vec3<double> w = v.segment<3>(b.v_index);
            const Vec3<double> nu = b.joint.type == JointType::Floating ? Vec3<double>(v.segment<3>(b.v_index + 3)) : Vec3<double>::Zero();
            const Pose exact = constant_twist(pose(b, x.q), w, nu), got = pose(b, q1);
            const Eigen::Matrix3d eigen = pose(b, x.q).R * Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix();
            worst = std::max({worst, (got.R - exact.R).norm(), (got.p - exact.p).norm(), (got.R - eigen).norm(),
                              std::abs(test::quaternion(q1, b).norm() - 1)});
        }
    }
    EXPECT_LT(worst, 1e-12);
    std::cout << GetParam().label() << ": integrate against the constant twist's motion (RK4) and Eigen, worst " << worst << "\n";
}

// difference(q, integrate(q, v)) = v (rotations below π), integrate(q, difference(q, q1)) = q1 (the
// quaternion up to its sign), and a non-unit quaternion read as the unit one.
TEST_P(Configuration, IntegrateAndDifferenceAreInverse) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng), y = test::random_state(model, rng);
        const VecX<double> v = step(model, rng, 3.1);
        worst = std::max(worst, (difference<double>(model, x.q, integrate<double>(model, x.q, v)) - v).norm());
        const VecX<double> back = integrate<double>(model, x.q, difference<double>(model, x.q, y.q));
        worst = std::max(worst, chart(model, y.q, back).norm());
        VecX<double> scaled = x.q;
        for (const Body& b : model.bodies)
            if (!b.joint.one_dof()) scaled.segment<4>(b.q_index + b.joint.quaternion_at()) *= 1.7;
        worst = std::max({worst, (integrate<double>(model, scaled, v) - integrate<double>(model, x.q, v)).norm(),
                          (difference<double>(model, scaled, y.q) - difference<double>(model, x.q, y.q)).norm()});
    }
    EXPECT_LT(worst, 1e-12);
    std::cout << GetParam().label() << ": integrate and difference inverse to each other, worst " << worst << "\n";
}

// Every Jacobian against central differences on the tangent space: the input moved by test::plus,
// the output read in test::plus's chart (difference's outputs are tangent vectors already).
TEST_P(Configuration, JacobiansAreCentralDifferences) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        VecX<double> v = step(model, rng, 2.5);
        if (s == 0) v *= 1e-7;  // rotations by 1e-7 rad: the coefficient functions' series
        const VecX<double> q1 = integrate<double>(model, x.q, v);
        const ConfigurationJacobians<double> I = integrate_jacobians<double>(model, v);
        const ConfigurationJacobians<double> D = difference_jacobians<double>(model, x.q, q1);
        const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return chart(model, q1, integrate<double>(model, q, v)); });
        const MatX<double> dv = test::central(v, [&](const VecX<double>& w) { return chart(model, q1, integrate<double>(model, x.q, w)); });
        const MatX<double> d0 = test::central_dq(model, x.q, [&](const VecX<double>& q) { return difference<double>(model, q, q1); });
        const MatX<double> d1 = test::central_dq(model, q1, [&](const VecX<double>& q) { return difference<double>(model, x.q, q); });
        worst = std::max({worst, test::rel_err(I.d0, dq), test::rel_err(I.d1, dv), test::rel_err(D.d0, d0), test::rel_err(D.d1, d1)});
    }
    EXPECT_LT(worst, 1e-7);
    std::cout << GetParam().label() << ": integrate and difference Jacobians against central differences, worst " << worst << "\n";
}

// q ⊖ q1 to first order at q = q1, in test::plus's chart (R1 exp(δω), p1 + R1 δv) for ADOL-C: 2 vec(Q1* ⊗ Q)
// and R1ᵀ (p − p1) for a floating base or ball joint, q − q1 for the others.
AVec first_order_chart(const Model& m, const VecX<double>& q1, const AVec& q) {
    AVec d(m.nv);
    for (const Body& b : m.bodies) {
        if (b.joint.one_dof()) {
            d[b.v_index] = q[b.q_index] - q1[b.q_index];
            continue;
        }
        const Eigen::Quaterniond Q1 = test::quaternion(q1, b).normalized();
        const int at = b.q_index + b.joint.quaternion_at();
        const double a = Q1.w(), u[3] = {-Q1.x(), -Q1.y(), -Q1.z()};  // Q1* = (a, u), Q = (w, v)
        const adouble w = q[at + 3], v[3] = {q[at], q[at + 1], q[at + 2]};
        for (int k = 0; k < 3; ++k) {  // the vector part a v + w u + u × v
            const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            d[b.v_index + k] = 2 * (a * v[k] + w * u[k] + (u[k1] * v[k2] - u[k2] * v[k1]));
        }
        if (b.joint.type != JointType::Floating) continue;
        const Eigen::Matrix3d R1 = Q1.toRotationMatrix();
        for (int k = 0; k < 3; ++k) {
            adouble dp = 0;
            for (int i = 0; i < 3; ++i) dp = dp + R1(i, k) * (q[b.q_index + i] - q1[b.q_index + i]);
            d[b.v_index + 3 + k] = dp;
        }
    }
    return d;
}

// Every Jacobian against ADOL-C's forward mode on integrate and difference taped on adouble (the
// coefficient functions above): q and q₀ along test::tangent_basis, q₁ along its coordinates mapped by
// the same basis, integrate's output read by first_order_chart. Three states, the first's rotations by
// 1e-7 rad (the series).
TEST_P(Configuration, JacobiansAreAdolc) {
    const int nq = model.nq, nv = model.nv;
    double worst = 0;
    for (int s = 0; s < 3; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        VecX<double> v = step(model, rng, 2.5);
        if (s == 0) v *= 1e-7;
        const VecX<double> q1 = integrate<double>(model, x.q, v);
        const ConfigurationJacobians<double> I = integrate_jacobians<double>(model, v);
        const ConfigurationJacobians<double> D = difference_jacobians<double>(model, x.q, q1);
        VecX<double> x0(nq + nv), z0(2 * nq);
        x0 << x.q, v;
        z0 << x.q, q1;
        const test::TaylorTape plus(8, x0, [&](const AVec& in) {
            return first_order_chart(model, q1, integrate<adouble>(model, AVec(in.head(nq)), AVec(in.tail(nv))));
        });
        const test::TaylorTape minus(9, z0, [&](const AVec& in) { return difference<adouble>(model, AVec(in.head(nq)), AVec(in.tail(nq))); });
        const MatX<double> di = plus.tangent_jacobian(x0, test::tangent_basis(model, x.q), 2 * nv);
        const MatX<double> dd = minus.tangent_jacobian(z0, test::tangent_basis(model, x.q), nv + nq);
        worst = std::max({worst, test::rel_err(I.d0, di.leftCols(nv)), test::rel_err(I.d1, di.rightCols(nv)),
                          test::rel_err(D.d0, dd.leftCols(nv)), test::rel_err(D.d1, MatX<double>(dd.rightCols(nq) * test::tangent_basis(model, q1)))});
    }
    EXPECT_LT(worst, 1e-10);
    std::cout << GetParam().label() << ": integrate and difference Jacobians against ADOL-C, worst " << worst << "\n";
}

// The chain rule through both: difference(q, q ⊕ v) = v for every q and v, so
// ∂v/∂q₁ ∂(q ⊕ v)/∂v = 1 and ∂v/∂q₀ + ∂v/∂q₁ ∂(q ⊕ v)/∂q = 0.
TEST_P(Configuration, ChainRuleThroughIntegrateAndDifference) {
    double worst = 0;
    const MatX<double> one = MatX<double>::Identity(model.nv, model.nv);
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> v = step(model, rng, 3.0);
        const ConfigurationJacobians<double> I = integrate_jacobians<double>(model, v);
        const ConfigurationJacobians<double> D = difference_jacobians<double>(model, x.q, integrate<double>(model, x.q, v));
        worst = std::max({worst, (D.d1 * I.d1 - one).norm(), (D.d0 + D.d1 * I.d0).norm()});
    }
    EXPECT_LT(worst, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(AllModels, Configuration, ::testing::ValuesIn(test::all_models()), test::case_name);

// A floating base at the identity moved by v = [0, 0, π/2; 1, 0, 0] (turning at π/2 rad/s about z
// while going forward at 1 m/s, in body coordinates): a quarter circle of radius 2/π, so it ends at
// (2/π, 2/π, 0) turned by π/2. By hand, with a = 2/π:
//   ∂(q ⊕ v)/∂q = [Rᵀ 0; −Rᵀ t× Rᵀ],  Rᵀ = [0 1 0; −1 0 0; 0 0 1],  −Rᵀ t× = [0 0 a; 0 0 a; a −a 0],
//   ∂(q ⊕ v)/∂v's rotation block Jr(ω) = [a a 0; −a a 0; 0 0 1],
//   ∂(q₁ ⊖ q₀)/∂q₁'s rotation block Jr(ω)⁻¹ = (π/4) [1 −1 0; 1 1 0; 0 0 4/π].
// A change of convention (left Jacobians, [ν; ω] order, world-frame tangents) moves these.
TEST(ConfigurationConvention, FloatingBaseTurnedByHand) {
    const Model model = load_urdf(test::project_model("arm7.urdf"), {true});
    VecX<double> q = VecX<double>::Zero(model.nq), v = VecX<double>::Zero(model.nv);
    q[6] = 1;  // the identity quaternion (x, y, z, w)
    v[2] = M_PI / 2, v[3] = 1;
    const double a = 2 / M_PI, r = std::sqrt(0.5);
    const VecX<double> q1 = integrate<double>(model, q, v);
    Eigen::Matrix<double, 7, 1> expected;
    expected << a, a, 0, 0, 0, r, r;
    EXPECT_LT((q1.head<7>() - expected).norm(), 1e-15) << q1.head<7>().transpose();
    const ConfigurationJacobians<double> I = integrate_jacobians<double>(model, v);
    Mat6<double> dq_dq;
    dq_dq << 0, 1, 0, 0, 0, 0,  //
        -1, 0, 0, 0, 0, 0,      //
        0, 0, 1, 0, 0, 0,       //
        0, 0, a, 0, 1, 0,       //
        0, 0, a, -1, 0, 0,      //
        a, -a, 0, 0, 0, 1;
    EXPECT_LT((I.d0.topLeftCorner<6, 6>() - dq_dq).norm(), 1e-15) << I.d0.topLeftCorner<6, 6>();
    Mat3<double> Jr;
    Jr << a, a, 0, -a, a, 0, 0, 0, 1;
    EXPECT_LT((I.d1.topLeftCorner<3, 3>() - Jr).norm(), 1e-15) << I.d1.topLeftCorner<3, 3>();
    EXPECT_LT((I.d1.block<3, 3>(3, 3) - Jr).norm(), 1e-15);
    EXPECT_LT((I.d1.topRightCorner<3, 3>().norm()), 1e-15);
    const ConfigurationJacobians<double> D = difference_jacobians<double>(model, q, q1);
    Mat3<double> Jr_inv;
    Jr_inv << M_PI / 4, -M_PI / 4, 0, M_PI / 4, M_PI / 4, 0, 0, 0, 1;
    EXPECT_LT((D.d1.topLeftCorner<3, 3>() - Jr_inv).norm(), 1e-14) << D.d1.topLeftCorner<3, 3>();
    EXPECT_LT((difference<double>(model, q, q1) - v).norm(), 1e-15);
    // the arm's joints: addition, unit Jacobians
    EXPECT_EQ(I.d0(6, 6), 1.0);
    EXPECT_EQ(D.d0(6, 6), -1.0);
}

// The kernels as emitted: integrate's and difference's trace has the coefficient functions as calls
// (Op::Sinc ...), each counted, and its value at a state is the reference's.
TEST(ConfigurationKernels, TraceCallsTheCoefficientFunctions) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    for (const char* name : {"integrate", "difference", "integrate_jacobians", "difference_jacobians"}) {
        const Kernel k = trace_kernel(model, kernel_spec(name));
        std::vector<int> outputs;
        for (const auto& o : k.output_nodes) outputs.insert(outputs.end(), o.begin(), o.end());
        EXPECT_GT(k.graph->count(outputs).special, 0) << name;
        EXPECT_LT(k.graph->count(outputs).total(), 2000) << name;
    }
}

}  // namespace
}  // namespace rbdgen
