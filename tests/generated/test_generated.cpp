// A generated robot library against the reference implementation, kernel by kernel, at random
// states. Both come from the same templated algorithms, so this checks the tracer and the emitter
// (folding, sharing, emission), not the physics: that is test_algorithms' job.
// Compiled once per robot, with ROBOT_NS, ROBOT_HEADER, ROBOT_URDF, ROBOT_FLOATING, ROBOT_TOLERANCE.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <new>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <type_traits>
#include <utility>

#include "generated/reference.hpp"
#include "model/frames.hpp"
#include "emit/prepare.hpp"
#include "model/urdf_loader.hpp"
#include "sparse/problem.hpp"
#include ROBOT_HEADER

namespace rbdgen {
namespace {

namespace robot = ROBOT_NS;
using Scalar = robot::Scalar;
constexpr int kStates = 1000;

std::vector<Scalar> to_scalar(const Eigen::MatrixXd& x) {
    std::vector<Scalar> v;
    for (int r = 0; r < x.rows(); ++r)
        for (int c = 0; c < x.cols(); ++c) v.push_back(static_cast<Scalar>(x(r, c)));
    return v;
}

// max |generated − reference| / max(1, max |reference|), the reference flattened row by row
double rel_err(const std::vector<Scalar>& generated, const std::vector<double>& reference) {
    EXPECT_EQ(generated.size(), reference.size());
    double diff = 0, scale = 1;
    for (size_t i = 0; i < reference.size(); ++i) {
        diff = std::max(diff, std::abs(static_cast<double>(generated[i]) - reference[i]));
        scale = std::max(scale, std::abs(reference[i]));
    }
    return diff / scale;
}
std::vector<double> flat(const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) v.push_back(m(r, c));
    return v;
}

class Generated : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::filesystem::exists(ROBOT_URDF)) GTEST_SKIP() << ROBOT_URDF << " is absent: robot not tested";
        // The reference runs on the model the generator traces (emit/prepare.hpp: snapped, in
        // internal frames), so that this compares the tracer and emitter alone (test_frames checks
        // those two steps).
        model = prepare_model(load_urdf(ROBOT_URDF, {.floating_base = ROBOT_FLOATING})).model;
        ASSERT_EQ(model.nq, robot::NQ);
        ASSERT_EQ(model.nv, robot::NV);
        ASSERT_EQ(model.N(), robot::NB);
    }
    // A random state, rounded to the generated scalar so that both sides see the same numbers.
    void draw() {
        std::uniform_real_distribution<double> u(-1, 1);
        auto rounded = [](double x) { return static_cast<double>(static_cast<Scalar>(x)); };
        q = VecX<double>::NullaryExpr(model.nq, [&] { return rounded(3 * u(rng)); });
        for (const Body& b : model.bodies)
            if (b.joint.type == JointType::Floating) {
                q.segment<4>(b.q_index + 3).normalize();
                for (int k = 3; k < 7; ++k) q[b.q_index + k] = rounded(q[b.q_index + k]);
            }
        qd = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(2 * u(rng)); });
        qdd = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(5 * u(rng)); });
        tau = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(20 * u(rng)); });
        g = Vec3<double>(rounded(u(rng)), rounded(u(rng)), rounded(-9.81 + u(rng)));
    }
    Model model;
    std::mt19937_64 rng{2024};
    VecX<double> q, qd, qdd, tau;
    Vec3<double> g;
    double worst = 0;
    void TearDown() override {
        RecordProperty("worst_rel_err", std::to_string(worst));
        std::cout << ROBOT_STR << " " << ::testing::UnitTest::GetInstance()->current_test_info()->name()
                  << ": worst relative error " << worst << "\n";
    }
    // Against another formulation (Nori's LU against RNEA and ABA): ROBOT_LU_TOLERANCE.
    void check_lu(const std::vector<Scalar>& generated, const std::vector<double>& reference) {
        const double e = rel_err(generated, reference);
        worst = std::max(worst, e);
        ASSERT_LT(e, ROBOT_LU_TOLERANCE);
    }
    void check(const std::vector<Scalar>& generated, const std::vector<double>& reference) {
        const double e = rel_err(generated, reference);
        worst = std::max(worst, e);
        ASSERT_LT(e, ROBOT_TOLERANCE);
    }
};

#define FOR_STATES for (int s = 0; s < kStates && !HasFatalFailure(); ++s)

TEST_F(Generated, Rnea) {
    std::vector<Scalar> out(robot::NV);
    FOR_STATES {
        draw();
        robot::rnea(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(qdd).data(), to_scalar(g).data(), out.data());
        check(out, flat(reference::rnea(model, q, qd, qdd, g)));
    }
}

#ifdef ROBOT_DERIVATIVES
// The derivatives of the dynamics (double builds): rnea_derivatives and aba_derivatives, each output
// after the other against the reference's.
TEST_F(Generated, Derivatives) {
    const int n = robot::NV * robot::NV;
    std::vector<Scalar> out(3 * n);
    FOR_STATES {
        draw();
        robot::rnea_derivatives(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(qdd).data(), to_scalar(g).data(), out.data(),
                                out.data() + n);
        check(std::vector<Scalar>(out.begin(), out.begin() + 2 * n), reference::rnea_derivatives(model, q, qd, qdd, g));
        if (robot::fd_refusal[0]) continue;
        robot::aba_derivatives(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(tau).data(), to_scalar(g).data(), out.data(),
                               out.data() + n, out.data() + 2 * n);
        check(out, reference::aba_derivatives(model, q, qd, tau, g));
    }
}
#endif

// The float error budget of report.json (the generator's own float evaluation of the trace, on its
// states) predicts what this compiled float build loses on these states: the measured worst
// ‖Δ‖∞ / ‖y‖∞ of rnea and crba lies within a factor 10 of the budget (above its 99th percentile / 10,
// below its worst × 10). A double build has no float budget to check.
TEST_F(Generated, FloatBudgetPredictsTheCompiledFloatKernels) {
    if (sizeof(Scalar) != sizeof(float)) GTEST_SKIP() << "a double build: the float budget is checked on the float build";
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(ROBOT_REPORT));
    const auto measured = [](const std::vector<Scalar>& f, const std::vector<double>& d) {
        double diff = 0, scale = 0;
        for (size_t i = 0; i < d.size(); ++i) diff = std::max(diff, std::abs(f[i] - d[i])), scale = std::max(scale, std::abs(d[i]));
        return diff / scale;
    };
    double rnea_worst = 0, crba_worst = 0;
    std::vector<Scalar> tau_out(robot::NV), H_out(robot::NV * robot::NV);
    FOR_STATES {
        draw();
        robot::rnea(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(qdd).data(), to_scalar(g).data(), tau_out.data());
        rnea_worst = std::max(rnea_worst, measured(tau_out, flat(reference::rnea(model, q, qd, qdd, g))));
        robot::crba(to_scalar(q).data(), H_out.data());
        Eigen::MatrixXd H = reference::crba(model, q);
        std::vector<Scalar> lower;
        std::vector<double> lower_ref;
        for (int r = 0; r < robot::NV; ++r)
            for (int c = 0; c <= r; ++c) lower.push_back(H_out[r * robot::NV + c]), lower_ref.push_back(H(r, c));
        crba_worst = std::max(crba_worst, measured(lower, lower_ref));
    }
    for (const auto& [kernel, worst] : {std::pair<const char*, double>{"rnea", rnea_worst}, {"crba", crba_worst}}) {
        const nlohmann::json& budget = report["kernels"][kernel]["float_error"];
        EXPECT_GT(worst, budget["p99"].get<double>() / 10) << kernel;
        EXPECT_LT(worst, budget["worst"].get<double>() * 10) << kernel;
        std::cout << kernel << ": measured worst " << worst << ", budget p99 " << budget["p99"] << ", worst " << budget["worst"] << "\n";
    }
}

// The robot's kernels are emitted the way tests/generated/CMakeLists.txt asked (EMISSION compact or
// uniform in double, straight in float), so that the tests of this file check that emission: compact
// and uniform, every kernel whose algorithm marks its steps; straight, every kernel.
TEST_F(Generated, KernelsHaveTheEmissionAskedFor) {
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(ROBOT_REPORT));
    const std::string command = report["command"];
    std::string asked = "straight";
    for (const char* e : {"compact", "uniform"})
        if (command.find(std::string("--emission ") + e) != std::string::npos) asked = e;
    ASSERT_TRUE(asked != "straight" || command.find("--emission straight") != std::string::npos) << command;
    const bool compact = asked != "straight";
    for (const char* k : {"fk", "rnea", "gravity", "nle", "crba", "ltdl", "fd_crba_ltdl", "aba", "jacobians"}) {
        if (report["kernels"][k].contains("refused")) continue;
        EXPECT_EQ(report["kernels"][k]["emission"], asked) << k;
        // compact: LTDL as loops (emit/ltdl_loops.hpp), after fd_crba_ltdl's compact head
        const std::string name = k;
        if (compact) EXPECT_EQ(report["kernels"][k].value("ltdl_loops", false), name == "ltdl" || name == "fd_crba_ltdl") << k;
        if (compact && name != "ltdl") EXPECT_GT(report["kernels"][k]["compact"]["steps"].get<int>(), 0) << k;
    }
    if (!compact)
        for (const auto& [k, entry] : report["kernels"].items()) EXPECT_EQ(entry["emission"], "straight") << k;
}

TEST_F(Generated, Gravity) {
    std::vector<Scalar> out(robot::NV);
    FOR_STATES {
        draw();
        robot::gravity(to_scalar(q).data(), to_scalar(g).data(), out.data());
        check(out, flat(reference::gravity(model, q, g)));
    }
}

// nle was added by its kernel spec alone (emit/kernel_specs.cpp): C(q, qd) qd + g = RNEA(q, qd, 0),
// and, by a second formulation, RNEA(q, qd, qdd) - H(q) qdd with H from CRBA.
TEST_F(Generated, NonlinearEffects) {
    std::vector<Scalar> out(robot::NV);
    FOR_STATES {
        draw();
        robot::nle(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(g).data(), out.data());
        check(out, flat(reference::rnea(model, q, qd, VecX<double>::Zero(model.nv), g)));
        check(out, flat(reference::rnea(model, q, qd, qdd, g) - reference::crba(model, q) * qdd));
    }
}

TEST_F(Generated, Crba) {
    std::vector<Scalar> out(robot::NV * robot::NV);
    FOR_STATES {
        draw();
        robot::crba(to_scalar(q).data(), out.data());
        check(out, flat(reference::crba(model, q)));
    }
}

TEST_F(Generated, LtdlAndSolve) {
    if (robot::fd_refusal[0]) GTEST_SKIP() << robot::fd_refusal;
    std::vector<Scalar> LD(robot::NV * robot::NV), x(robot::NV);
    FOR_STATES {
        draw();
        MatX<double> H = reference::crba(model, q);
        const std::vector<Scalar> Hs = to_scalar(H);
        H = Eigen::Map<const Eigen::Matrix<Scalar, -1, -1, Eigen::RowMajor>>(Hs.data(), model.nv, model.nv).cast<double>();
        robot::ltdl(Hs.data(), LD.data());
        const MatX<double> ref = reference::ltdl(model, H);
        check(LD, flat(ref));
        robot::ltdl_solve(LD.data(), to_scalar(tau).data(), x.data());
        check(x, flat(reference::ltdl_solve(model, ref, tau)));
    }
}

TEST_F(Generated, ForwardDynamics) {
    if (robot::fd_refusal[0]) GTEST_SKIP() << robot::fd_refusal;
    std::vector<Scalar> out(robot::NV);
    FOR_STATES {
        draw();
        robot::aba(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(tau).data(), to_scalar(g).data(), out.data());
        check(out, flat(reference::aba(model, q, qd, tau, g)));
        robot::fd_crba_ltdl(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(tau).data(), to_scalar(g).data(), out.data());
        check(out, flat(reference::fd_crba_ltdl(model, q, qd, tau, g)));
    }
}

// Nori's problems, emitted (PROBLEMS id fd): a second formulation of the dynamics, so these check
// the physics too. The fused kernel, and its three steps (assemble, factor, solve) whose d holds τ or
// q̈ where newton_euler_layout puts them.
TEST_F(Generated, LuInverseDynamicsIsRnea) {
    std::vector<Scalar> tau_lu(robot::NV), D(robot::id_assemble_D_size), b(robot::id_assemble_b_size),
        LU(robot::id_factor_LU_size), d(robot::id_solve_d_size);
    FOR_STATES {
        draw();
        const std::vector<double> reference = flat(reference::rnea(model, q, qd, qdd, g));
        robot::id_lu(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(qdd).data(), to_scalar(g).data(), tau_lu.data());
        check_lu(tau_lu, reference);
        robot::id_assemble(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(qdd).data(), to_scalar(g).data(), D.data(), b.data());
        robot::id_factor(D.data(), LU.data());
        robot::id_solve(D.data(), LU.data(), b.data(), d.data());
        check_lu(to_scalar(joint_space<double>(model, Eigen::Map<const VecX<Scalar>>(d.data(), d.size()).cast<double>(), true)), reference);
    }
}

TEST_F(Generated, LuForwardDynamicsIsAba) {
    std::vector<Scalar> qdd_lu(robot::NV), D(robot::fd_assemble_D_size), b(robot::fd_assemble_b_size),
        LU(robot::fd_factor_LU_size), d(robot::fd_solve_d_size);
    FOR_STATES {
        draw();
        const std::vector<double> reference = flat(reference::aba(model, q, qd, tau, g));
        robot::fd_lu(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(tau).data(), to_scalar(g).data(), qdd_lu.data());
        check_lu(qdd_lu, reference);
        robot::fd_assemble(to_scalar(q).data(), to_scalar(qd).data(), to_scalar(tau).data(), to_scalar(g).data(), D.data(), b.data());
        robot::fd_factor(D.data(), LU.data());
        robot::fd_solve(D.data(), LU.data(), b.data(), d.data());
        check_lu(to_scalar(joint_space<double>(model, Eigen::Map<const VecX<Scalar>>(d.data(), d.size()).cast<double>(), false)), reference);
    }
}

TEST_F(Generated, KinematicsAndJacobians) {
    std::vector<Scalar> pose(12 * robot::NB), J(6 * robot::NV);
    FOR_STATES {
        draw();
        robot::fk(to_scalar(q).data(), pose.data());
        check(pose, reference::poses(model, q));
        robot::jacobians(to_scalar(q).data(), J.data());
        check(J, flat(reference::spatial_jacobian(model, q)));
    }
}


#ifdef ROBOT_BATCH
// The batched kernels (BATCH W): lane s of batch::k computes what k computes for state s. Inputs are
// random numbers (the kernels' arithmetic, not the physics: that is the single-state kernels' test
// above); each output element of each lane equals the single-state kernel's within 1e-13 relative
// to the array's largest finite magnitude (at least 1), or is non-finite where it is.
using Batch = robot::Batch;
constexpr int W = robot::BATCH;

// Arrays of Batch aligned to 64 bytes: this file may be built without the kernels' vector flags (it
// shares Eigen objects with libraries built without them), where alignof(Batch) is only 16.
template <class T> struct Aligned {
    using value_type = T;
    Aligned() = default;
    template <class U> Aligned(const Aligned<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <class U> bool operator==(const Aligned<U>&) const { return true; }
    template <class U> bool operator!=(const Aligned<U>&) const { return false; }
};
using Batches = std::vector<Batch, Aligned<Batch>>;

template <class V, class... P, size_t... I> void call_with(void (*f)(P...) noexcept, std::vector<V>& a, std::index_sequence<I...>) {
    f(static_cast<P>(a[I].data())...);
}

template <class... A, class... B>
void check_batch(const char* name, void (*single)(A...) noexcept, void (*batched)(B...) noexcept, const int* sizes, std::mt19937_64& rng) {
    constexpr size_t n = sizeof...(A);
    static_assert(n == sizeof...(B));
    constexpr bool input[] = {std::is_const_v<std::remove_pointer_t<A>>...};
    std::uniform_real_distribution<double> u(-3, 3);
    std::vector<std::vector<std::vector<Scalar>>> lanes(W, std::vector<std::vector<Scalar>>(n));
    std::vector<Batches> b(n);
    for (size_t i = 0; i < n; ++i) {
        b[i].assign(sizes[i], Batch{});
        for (int s = 0; s < W; ++s) {
            lanes[s][i].assign(sizes[i], Scalar(0));
            if (!input[i]) continue;
            for (int e = 0; e < sizes[i]; ++e) b[i][e][s] = lanes[s][i][e] = static_cast<Scalar>(u(rng));
        }
    }
    for (int s = 0; s < W; ++s) call_with(single, lanes[s], std::index_sequence_for<A...>{});
    call_with(batched, b, std::index_sequence_for<B...>{});
    for (size_t i = 0; i < n; ++i) {
        if (input[i]) continue;
        for (int s = 0; s < W; ++s) {
            double scale = 1;
            for (Scalar x : lanes[s][i])
                if (std::isfinite(x)) scale = std::max(scale, std::abs(static_cast<double>(x)));
            for (int e = 0; e < sizes[i]; ++e) {
                const double x = lanes[s][i][e], y = b[i][e][s];
                if (!std::isfinite(x) || !std::isfinite(y)) {
                    ASSERT_TRUE(std::isnan(x) ? std::isnan(y) : x == y) << name << " argument " << i << " element " << e << " lane " << s;
                    continue;
                }
                ASSERT_LE(std::abs(x - y), 1e-13 * scale) << name << " argument " << i << " element " << e << " lane " << s;
            }
        }
    }
}
#define CHECK_BATCH(k) check_batch(#k, &robot::k, &robot::batch::k, robot::batch::k##_sizes, rng)

TEST_F(Generated, BatchedKernelsEqualTheSingleStateKernels) {
    for (int round = 0; round < 50 && !HasFatalFailure(); ++round) {
        CHECK_BATCH(fk);
        CHECK_BATCH(rnea);
        CHECK_BATCH(gravity);
        CHECK_BATCH(nle);
        CHECK_BATCH(crba);
        CHECK_BATCH(ltdl);
        CHECK_BATCH(ltdl_solve);
        CHECK_BATCH(fd_crba_ltdl);
        CHECK_BATCH(aba);
        CHECK_BATCH(jacobians);
        CHECK_BATCH(id_lu);
        CHECK_BATCH(id_assemble);
        CHECK_BATCH(id_factor);
        CHECK_BATCH(id_solve);
        CHECK_BATCH(fd_lu);
        CHECK_BATCH(fd_assemble);
        CHECK_BATCH(fd_factor);
        CHECK_BATCH(fd_solve);
#ifdef ROBOT_DERIVATIVES
        CHECK_BATCH(rnea_derivatives);
        CHECK_BATCH(aba_derivatives);
#endif
    }
}

// Cold calls: k_cold (warm, then k) returns what k returns, bit for bit, at random inputs; and the
// kernel's code range from extent() (the linker's bounds of its section) holds both functions, and
// warm() of it, then of every kernel, changes nothing either.
template <class... A>
void check_cold(const char* name, void (*plain)(A...) noexcept, void (*cold)(A...) noexcept, robot::Kernel kernel, const int* sizes,
                std::mt19937_64& rng) {
    constexpr size_t n = sizeof...(A);
    constexpr bool input[] = {std::is_const_v<std::remove_pointer_t<A>>...};
    std::uniform_real_distribution<double> u(-3, 3);
    std::vector<std::vector<Scalar>> a(n), b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
        a[i].assign(sizes[i], Scalar(0));
        if (input[i])
            for (Scalar& x : a[i]) x = static_cast<Scalar>(u(rng));
    }
    b = a, c = a;
    call_with(plain, a, std::index_sequence_for<A...>{});
    call_with(cold, b, std::index_sequence_for<A...>{});
    robot::warm(kernel);
    robot::warm_all();
    call_with(plain, c, std::index_sequence_for<A...>{});
    for (size_t i = 0; i < n; ++i)
        for (int e = 0; e < sizes[i]; ++e) {
            ASSERT_EQ(std::memcmp(&a[i][e], &b[i][e], sizeof(Scalar)), 0) << name << "_cold argument " << i << " element " << e;
            ASSERT_EQ(std::memcmp(&a[i][e], &c[i][e], sizeof(Scalar)), 0) << name << " after warm, argument " << i << " element " << e;
        }
    const rbdgen_extent x = robot::extent(kernel);
    const auto inside = [&](const void* f) { return x.range[0][0] <= static_cast<const char*>(f) && static_cast<const char*>(f) < x.range[0][1]; };
    EXPECT_TRUE(inside(reinterpret_cast<const void*>(plain))) << name << " is outside its code range";
    EXPECT_TRUE(inside(reinterpret_cast<const void*>(cold))) << name << "_cold is outside its code range";
}
#define CHECK_COLD(k) check_cold(#k, &robot::k, &robot::k##_cold, robot::Kernel::k, robot::batch::k##_sizes, rng)

TEST_F(Generated, ColdEntriesAndWarmChangeNoResult) {
    for (int round = 0; round < 5 && !HasFatalFailure(); ++round) {
        CHECK_COLD(fk);
        CHECK_COLD(rnea);
        CHECK_COLD(gravity);
        CHECK_COLD(nle);
        CHECK_COLD(crba);
        CHECK_COLD(ltdl);
        CHECK_COLD(ltdl_solve);
        CHECK_COLD(fd_crba_ltdl);
        CHECK_COLD(aba);
        CHECK_COLD(jacobians);
        CHECK_COLD(id_lu);
        CHECK_COLD(fd_solve);
#ifdef ROBOT_DERIVATIVES
        CHECK_COLD(rnea_derivatives);
        CHECK_COLD(aba_derivatives);
#endif
    }
}

// And against the reference at physical states: W of them a call, RNEA and ABA.
TEST_F(Generated, BatchedDynamicsAgreeWithTheReference) {
    Batches bq(robot::NQ), bqd(robot::NV), bqdd(robot::NV), btau(robot::NV), bg(3), out(robot::NV);
    for (int call = 0; call < kStates / W && !HasFatalFailure(); ++call) {
        std::vector<std::vector<double>> rnea_ref, aba_ref;
        for (int s = 0; s < W; ++s) {
            draw();
            for (int i = 0; i < robot::NQ; ++i) bq[i][s] = static_cast<Scalar>(q[i]);
            for (int i = 0; i < robot::NV; ++i)
                bqd[i][s] = static_cast<Scalar>(qd[i]), bqdd[i][s] = static_cast<Scalar>(qdd[i]), btau[i][s] = static_cast<Scalar>(tau[i]);
            for (int i = 0; i < 3; ++i) bg[i][s] = static_cast<Scalar>(g[i]);
            rnea_ref.push_back(flat(reference::rnea(model, q, qd, qdd, g)));
            aba_ref.push_back(robot::fd_refusal[0] ? std::vector<double>() : flat(reference::aba(model, q, qd, tau, g)));
        }
        const auto lane = [&](int s) {
            std::vector<Scalar> x(robot::NV);
            for (int i = 0; i < robot::NV; ++i) x[i] = out[i][s];
            return x;
        };
        robot::batch::rnea(bq.data(), bqd.data(), bqdd.data(), bg.data(), out.data());
        for (int s = 0; s < W; ++s) check(lane(s), rnea_ref[s]);
        if (robot::fd_refusal[0]) continue;
        robot::batch::aba(bq.data(), bqd.data(), btau.data(), bg.data(), out.data());
        for (int s = 0; s < W; ++s) check(lane(s), aba_ref[s]);
    }
}
#endif

}  // namespace
}  // namespace rbdgen
