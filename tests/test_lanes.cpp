// Lane calls (--lanes; emit/compact.cpp, step 3; docs/emission.md): steps of one function that do not
// read one another's values run as one call, a step a lane of a vector. The humanoid's four limbs are
// such steps in RNEA, CRBA and ABA; the same kernels compiled three ways (tests/CMakeLists.txt) give
// the numbers of the kernels without lane calls to the last bit (those are checked against the
// reference in tests/generated): the lanes change where a number is computed, not how. (Built with
// FMA, GCC fuses vector and scalar code differently: then they differ by rounding; docs/emission.md.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>
#include <vector>

#include "emit/generate.hpp"
#include "lanes_avx2.hpp"
#include "lanes_none.hpp"
#include "lanes_scalar.hpp"
#include "lanes_vector.hpp"
#include "model/synthetic.hpp"
#include "model/urdf_loader.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

int lane_functions(const std::string& source) {
    int n = 0;
    for (size_t at = source.find("rbdgen_lanes<Scalar, "); at != std::string::npos; at = source.find("rbdgen_lanes<Scalar, ", at + 1)) ++n;
    return n;
}

// With --lanes, the emitted source of the humanoid's kernels has lane calls, and report.json counts
// them; without, none; the uniform emission (least code) has none, nor a chain, whose every body reads
// the one before.
TEST(LaneCalls, TheLimbsOfTheHumanoid) {
    const Model humanoid = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    GenerateOptions options;
    options.name = "humanoid";
    options.kernels = {"rnea", "crba", "aba"};
    std::map<std::string, std::string> files = generate_sources(humanoid, options);
    for (const char* k : {"rnea", "crba", "aba"}) EXPECT_EQ(lane_functions(files.at(std::string("humanoid_") + k + ".cpp")), 0) << k;
    options.lanes = true;
    files = generate_sources(humanoid, options);
    nlohmann::json report = nlohmann::json::parse(files.at("report.json"))["kernels"];
    for (const char* k : {"rnea", "crba", "aba"}) {
        ASSERT_EQ(report[k]["emission"], "compact") << k;
        EXPECT_GT(lane_functions(files.at(std::string("humanoid_") + k + ".cpp")), 0) << k;
        EXPECT_NE(files.at(std::string("humanoid_") + k + ".cpp").find("typedef rbdgen_lanes<Scalar, 4>::type L;"), std::string::npos) << k;
        EXPECT_GT(report[k]["compact"]["lane_calls"].get<int>(), 0) << k;
        // four limbs a lane call: the calls are fewer than the steps
        EXPECT_LT(report[k]["compact"]["calls"].get<int>(), report[k]["compact"]["steps"].get<int>()) << k;
    }
    EXPECT_EQ(files.at("report.md").find("none, each step its own call"), std::string::npos) << files.at("report.md");
    options.emission = "uniform";
    files = generate_sources(humanoid, options);
    report = nlohmann::json::parse(files.at("report.json"))["kernels"];
    for (const char* k : {"rnea", "crba", "aba"}) {
        EXPECT_EQ(lane_functions(files.at(std::string("humanoid_") + k + ".cpp")), 0) << k;
        EXPECT_EQ(report[k]["compact"]["lane_calls"].get<int>(), 0) << k;
    }
    const Model chain = load_urdf_string(synthetic_urdf(synthetic_tree("chain", 24), 3), "chain");
    options.name = "chain";
    options.emission = "compact";
    files = generate_sources(chain, options);
    for (const char* k : {"rnea", "crba", "aba"}) EXPECT_EQ(lane_functions(files.at(std::string("chain_") + k + ".cpp")), 0) << k;
    // report.md says so, kernel by kernel
    EXPECT_NE(files.at("report.md").find("- Lane calls (--lanes; "), std::string::npos);
    EXPECT_NE(files.at("report.md").find(" rnea none, each step its own call"), std::string::npos) << files.at("report.md");
}

// Every output of one form's rnea, crba and aba, bit for bit, against the kernels without lane calls
// (lanes_none), at 20 random states of the floating humanoid.
template <class Rnea, class Crba, class Aba> void expect_the_bits_of_no_lane_calls(Rnea rnea, Crba crba, Aba aba) {
    std::mt19937_64 rng(45);
    std::uniform_real_distribution<double> u(-1, 1);
    constexpr int nq = lanes_none::NQ, nv = lanes_none::NV;
    for (int state = 0; state < 20; ++state) {
        std::vector<double> q(nq), qd(nv), a(nv);
        for (double& x : q) x = 2 * u(rng);
        double n = 0;
        for (int k = 3; k < 7; ++k) n += q[k] * q[k];
        for (int k = 3; k < 7; ++k) q[k] /= std::sqrt(n);
        for (double& x : qd) x = u(rng);
        for (double& x : a) x = u(rng);
        const double g[3] = {0, 0, -9.81};
        std::vector<double> tau(nv), H(nv * nv), qdd(nv), tau_none(nv), H_none(nv * nv), qdd_none(nv);
        rnea(q.data(), qd.data(), a.data(), g, tau.data());
        crba(q.data(), H.data());
        aba(q.data(), qd.data(), a.data(), g, qdd.data());
        lanes_none::rnea(q.data(), qd.data(), a.data(), g, tau_none.data());
        lanes_none::crba(q.data(), H_none.data());
        lanes_none::aba(q.data(), qd.data(), a.data(), g, qdd_none.data());
        const std::pair<const std::vector<double>*, const std::vector<double>*> outputs[] = {{&tau, &tau_none}, {&H, &H_none}, {&qdd, &qdd_none}};
        for (const auto& [x, none] : outputs) {
            EXPECT_EQ(std::memcmp(none->data(), x->data(), x->size() * sizeof(double)), 0) << state;
            double largest = 0;
            for (double y : *x) largest = std::max(largest, std::abs(y));
            EXPECT_GT(largest, 0);  // not all zero (an output never written)
        }
    }
}

// Four lanes as two SSE2 halves (portable x86-64), and as single numbers (RBDGEN_SCALAR_LANES).
TEST(LaneCalls, PortableAndScalarFormsGiveTheSameBits) {
    expect_the_bits_of_no_lane_calls(lanes_vector::rnea, lanes_vector::crba, lanes_vector::aba);
    expect_the_bits_of_no_lane_calls(lanes_scalar::rnea, lanes_scalar::crba, lanes_scalar::aba);
}

// Four lanes as one AVX2 register (lanes_avx2, built with -mavx2): skipped where this CPU has no AVX2.
TEST(LaneCalls, AvxFormGivesTheSameBits) {
#if defined(__x86_64__)
    if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2: lanes_avx2 (built with -mavx2) cannot run here";
#endif
    expect_the_bits_of_no_lane_calls(lanes_avx2::rnea, lanes_avx2::crba, lanes_avx2::aba);
}

}  // namespace
}  // namespace rbdgen
