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

// Every output, bit for bit, of the kernels with four lanes as two SSE2 halves (portable x86-64), as one
// AVX2 register (where this CPU has AVX2), and as single numbers (RBDGEN_SCALAR_LANES), against the
// kernels without lane calls.
TEST(LaneCalls, EveryFormGivesTheSameBits) {
    std::mt19937_64 rng(45);
    std::uniform_real_distribution<double> u(-1, 1);
    constexpr int nq = lanes_vector::NQ, nv = lanes_vector::NV;
#if defined(__x86_64__)
    const bool avx2 = __builtin_cpu_supports("avx2");
#else
    const bool avx2 = true;  // built like the portable one
#endif
    if (!avx2) std::cout << "this CPU has no AVX2: the AVX2 build is not called\n";
    for (int state = 0; state < 20; ++state) {
        std::vector<double> q(nq), qd(nv), a(nv);
        for (double& x : q) x = 2 * u(rng);
        double n = 0;
        for (int k = 3; k < 7; ++k) n += q[k] * q[k];
        for (int k = 3; k < 7; ++k) q[k] /= std::sqrt(n);
        for (double& x : qd) x = u(rng);
        for (double& x : a) x = u(rng);
        const double g[3] = {0, 0, -9.81};
        std::vector<std::vector<double>> tau(4, std::vector<double>(nv)), H(4, std::vector<double>(nv * nv)), qdd(4, std::vector<double>(nv));
        lanes_vector::rnea(q.data(), qd.data(), a.data(), g, tau[0].data());
        lanes_scalar::rnea(q.data(), qd.data(), a.data(), g, tau[1].data());
        lanes_vector::crba(q.data(), H[0].data());
        lanes_scalar::crba(q.data(), H[1].data());
        lanes_vector::aba(q.data(), qd.data(), a.data(), g, qdd[0].data());
        lanes_scalar::aba(q.data(), qd.data(), a.data(), g, qdd[1].data());
        lanes_none::rnea(q.data(), qd.data(), a.data(), g, tau[3].data());
        lanes_none::crba(q.data(), H[3].data());
        lanes_none::aba(q.data(), qd.data(), a.data(), g, qdd[3].data());
        if (avx2) {
            lanes_avx2::rnea(q.data(), qd.data(), a.data(), g, tau[2].data());
            lanes_avx2::crba(q.data(), H[2].data());
            lanes_avx2::aba(q.data(), qd.data(), a.data(), g, qdd[2].data());
        } else {
            tau[2] = tau[0], H[2] = H[0], qdd[2] = qdd[0];
        }
        for (const auto* out : {&tau, &H, &qdd}) {
            const std::vector<std::vector<double>>& x = *out;
            for (int form : {0, 1, 2}) EXPECT_EQ(std::memcmp(x[3].data(), x[form].data(), x[3].size() * sizeof(double)), 0) << state << " " << form;
            double largest = 0;
            for (double y : x[0]) largest = std::max(largest, std::abs(y));
            EXPECT_GT(largest, 0);  // not all zero (an output never written)
        }
    }
}

}  // namespace
}  // namespace rbdgen
