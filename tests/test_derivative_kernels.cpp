// The derivatives of the dynamics as emitted: each robot's eval driver against `rbdgen eval` (the
// reference algorithms) at random states, 1e-12, with external wrenches and a payload; the batched and
// `_sc` entry points against the single-state kernel; and the LTDL loops' solves of aba_derivatives.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "derivatives_arm.hpp"
#include "derivatives_articulated.hpp"
#include "derivatives_humanoid.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

using nlohmann::json;

void expect_near(const json& a, const json& b, const std::string& path) {
    ASSERT_EQ(a.type(), b.type()) << path;
    if (a.is_number()) {
        EXPECT_NEAR(a.get<double>(), b.get<double>(), 1e-12 * std::max(1.0, std::abs(b.get<double>()))) << path;
    } else if (a.is_object()) {
        ASSERT_EQ(a.size(), b.size()) << path;
        for (const auto& [k, v] : b.items()) {
            ASSERT_TRUE(a.contains(k)) << path << "." << k;
            expect_near(a[k], v, path + "." + k);
        }
    } else if (a.is_array()) {
        ASSERT_EQ(a.size(), b.size()) << path;
        for (size_t i = 0; i < a.size(); ++i) expect_near(a[i], b[i], path + "[" + std::to_string(i) + "]");
    } else {
        EXPECT_EQ(a, b) << path;
    }
}

// A random STATE.json for the model's joints (and base), with `extra` merged in.
json random_state(const std::string& urdf, bool floating, std::mt19937_64& rng, const json& extra) {
    const Model model = load_urdf(urdf, {floating});
    const test::RandomState s = test::random_state(model, rng);
    json state = extra;
    state["gravity"] = {s.gravity.x(), s.gravity.y(), s.gravity.z()};
    for (const Body& b : model.bodies) {
        if (b.joint.type == JointType::Floating) {
            state["base"] = {{"position", {s.q[0], s.q[1], s.q[2]}}, {"quaternion", {s.q[3], s.q[4], s.q[5], s.q[6]}},
                             {"velocity", std::vector<double>(s.qd.data(), s.qd.data() + 6)},
                             {"acceleration", std::vector<double>(s.qdd.data(), s.qdd.data() + 6)},
                             {"wrench", std::vector<double>(s.tau.data(), s.tau.data() + 6)}};
            continue;
        }
        if (b.joint.type == JointType::Ball) {
            const auto part = [&](const VecX<double>& x, int at, int n) { return std::vector<double>(x.data() + at, x.data() + at + n); };
            state["q"][b.joint_name] = part(s.q, b.q_index, 4);
            state["v"][b.joint_name] = part(s.qd, b.v_index, 3);
            state["a"][b.joint_name] = part(s.qdd, b.v_index, 3);
            state["tau"][b.joint_name] = part(s.tau, b.v_index, 3);
            continue;
        }
        state["q"][b.joint_name] = s.q[b.q_index];
        state["v"][b.joint_name] = s.qd[b.v_index];
        state["a"][b.joint_name] = s.qdd[b.v_index];
        state["tau"][b.joint_name] = s.tau[b.v_index];
    }
    return state;
}

void driver_matches_eval(const std::string& driver, const std::string& urdf, bool floating, const json& extra) {
    std::mt19937_64 rng(29);
    for (int k = 0; k < 5; ++k) {
        const test::TempFile file("state.json", random_state(urdf, floating, rng, extra).dump());
        const test::CommandResult g = test::shell(driver + " < " + file.str());
        const test::CommandResult r = test::run("eval " + urdf + (floating ? " --floating-base" : "") +
                                                " --kernels rnea_derivatives,aba_derivatives --state " + file.str());
        ASSERT_EQ(g.status, 0) << g.out;
        ASSERT_EQ(r.status, 0) << r.out;
        const json generated = json::parse(g.out), reference = json::parse(r.out);
        for (const char* key : {"joints", "rnea_derivatives", "aba_derivatives"}) {  // the kernels the robot has
            ASSERT_TRUE(generated.contains(key) && reference.contains(key)) << key << "\n" << g.out;
            expect_near(generated[key], reference[key], key);
        }
        EXPECT_EQ(generated.size(), 3u) << g.out;
    }
}

TEST(DerivativeKernels, HumanoidWithWrenchesAndPayloadMatchesRbdgenEval) {
    driver_matches_eval(HUMANOID_EVAL, test::project_model("humanoid30.urdf"), true,
                        {{"external_wrenches", {{"link007", {0.1, -0.2, 0.3, 4, -5, 6}}, {"link013", {1, 0, 0, 0, 0, -2}},
                                                {"base_link", {0, 3, 0, 10, 0, 0}}}},
                         {"parameters", {{"link020", {2.0, 0.1, -0.05, 0.2, 0.05, 0.001, 0.04, 0.0, 0.002, 0.03}}}}});
}

// aba_derivatives by its other method (--method aba_derivatives=articulated-body): H⁻¹ by the
// articulated-body recursion and −H⁻¹ ∂τ as products, against eval's (the LTDL route's) numbers.
TEST(DerivativeKernels, ArticulatedMethodMatchesRbdgenEval) {
    driver_matches_eval(ARTICULATED_EVAL, test::project_model("humanoid30.urdf"), true,
                        {{"external_wrenches", {{"link007", {0.1, -0.2, 0.3, 4, -5, 6}}, {"link013", {1, 0, 0, 0, 0, -2}},
                                                {"base_link", {0, 3, 0, 10, 0, 0}}}},
                         {"parameters", {{"link020", {2.0, 0.1, -0.05, 0.2, 0.05, 0.001, 0.04, 0.0, 0.002, 0.03}}}}});
}

TEST(DerivativeKernels, ArmStraightLineMatchesRbdgenEval) {
    driver_matches_eval(ARM_EVAL, test::project_model("arm7.urdf"), false, json::object());
}

// A robot of the humanoid's kernels, batched by 2: its namespace's names as members.
#define DERIVATIVE_ROBOT(name, ns)                                                        \
    struct name {                                                                         \
        using Batch = ns::Batch;                                                          \
        static constexpr int NQ = ns::NQ, NV = ns::NV;                                    \
        static constexpr const double* parameters_urdf = ns::parameters_urdf;             \
        static constexpr auto rnea_derivatives = ns::rnea_derivatives;                    \
        static constexpr auto aba_derivatives = ns::aba_derivatives;                      \
        static constexpr auto batch_rnea_derivatives = ns::batch::rnea_derivatives;       \
        static constexpr auto batch_aba_derivatives = ns::batch::aba_derivatives;         \
    };
DERIVATIVE_ROBOT(Humanoid, derivatives_humanoid)
DERIVATIVE_ROBOT(Articulated, derivatives_articulated)

// batch::<kernel> = the single-state kernel, lane by lane, exactly.
template <class h> void batched_equals_single_state() {
    constexpr int W = 2;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    const auto random = [&](int n) {
        std::vector<double> x(n);
        for (double& v : x) v = u(rng);
        return x;
    };
    std::vector<std::vector<double>> in[W];
    for (int s = 0; s < W; ++s) {
        std::vector<double> q = random(h::NQ);
        const double norm = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
        for (int k = 3; k < 7; ++k) q[k] /= norm;
        std::vector<double> pi(h::parameters_urdf, h::parameters_urdf + 10);
        in[s] = {q, random(h::NV), random(h::NV), {0.1, -0.2, -9.81}, random(18), pi};
    }
    const auto lanes = [&](int a) {
        std::vector<typename h::Batch> x(in[0][a].size());
        for (size_t i = 0; i < x.size(); ++i)
            for (int s = 0; s < W; ++s) x[i][s] = in[s][a][i];
        return x;
    };
    std::vector<typename h::Batch> bin[6];
    for (int a = 0; a < 6; ++a) bin[a] = lanes(a);
    const int n = h::NV * h::NV;
    using V = std::vector<typename h::Batch>;
    V b_out[3] = {V(n), V(n), V(n)};
    h::batch_rnea_derivatives(bin[0].data(), bin[1].data(), bin[2].data(), bin[3].data(), bin[4].data(), bin[5].data(),
                               b_out[0].data(), b_out[1].data());
    for (int s = 0; s < W; ++s) {
        std::vector<double> dq(n), dv(n);
        h::rnea_derivatives(in[s][0].data(), in[s][1].data(), in[s][2].data(), in[s][3].data(), in[s][4].data(), in[s][5].data(),
                            dq.data(), dv.data());
        for (int e = 0; e < n; ++e) ASSERT_EQ(b_out[0][e][s], dq[e]) << "lane " << s << " entry " << e;
        for (int e = 0; e < n; ++e) ASSERT_EQ(b_out[1][e][s], dv[e]) << "lane " << s << " entry " << e;
    }
    h::batch_aba_derivatives(bin[0].data(), bin[1].data(), bin[2].data(), bin[3].data(), bin[4].data(), bin[5].data(),
                              b_out[0].data(), b_out[1].data(), b_out[2].data());
    for (int s = 0; s < W; ++s) {
        std::vector<double> out[3] = {std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
        h::aba_derivatives(in[s][0].data(), in[s][1].data(), in[s][2].data(), in[s][3].data(), in[s][4].data(), in[s][5].data(),
                           out[0].data(), out[1].data(), out[2].data());
        for (int o = 0; o < 3; ++o)
            for (int e = 0; e < n; ++e) ASSERT_EQ(b_out[o][e][s], out[o][e]) << "output " << o << " lane " << s << " entry " << e;
    }
}

TEST(DerivativeKernels, BatchedEqualsSingleState) { batched_equals_single_state<Humanoid>(); }
TEST(DerivativeKernels, BatchedEqualsSingleStateArticulated) { batched_equals_single_state<Articulated>(); }

// <kernel>_sc(sin q, cos q, ...) = <kernel>(q, ...), up to the rounding of sin and cos.
TEST(DerivativeKernels, TrigEntryPointsEqualThePlainOnes) {
    namespace a = derivatives_arm;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-2, 2);
    std::vector<double> q(a::NQ), qd(a::NV), x(a::NV), g = {0, 0, -9.81}, s(a::NQ), c(a::NQ);
    for (double* v : {q.data(), qd.data(), x.data()})
        for (int i = 0; i < a::NV; ++i) v[i] = u(rng);
    a::sincos(q.data(), s.data(), c.data());
    const int n = a::NV * a::NV;
    std::vector<double> p[3], t[3];
    for (int o = 0; o < 3; ++o) p[o].resize(n), t[o].resize(n);
    a::rnea_derivatives(q.data(), qd.data(), x.data(), g.data(), p[0].data(), p[1].data());
    a::rnea_derivatives_sc(s.data(), c.data(), q.data(), qd.data(), x.data(), g.data(), t[0].data(), t[1].data());
    const auto expect_same = [&](int o) {  // the runtime's sine and cosine against the C library's: 1 ulp apart
        for (int e = 0; e < n; ++e) EXPECT_NEAR(p[o][e], t[o][e], 1e-13 * std::max(1.0, std::abs(p[o][e]))) << "output " << o << " entry " << e;
    };
    expect_same(0), expect_same(1);
    a::aba_derivatives(q.data(), qd.data(), x.data(), g.data(), p[0].data(), p[1].data(), p[2].data());
    a::aba_derivatives_sc(s.data(), c.data(), q.data(), qd.data(), x.data(), g.data(), t[0].data(), t[1].data(), t[2].data());
    for (int o = 0; o < 3; ++o) expect_same(o);
}

}  // namespace
}  // namespace rbdgen
