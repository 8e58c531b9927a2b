// Payload parameters (--parameters): the kernels of arm7 (link007) and ur5 (tool0, a link merged into
// wrist_3_link by a fixed joint, and wrist_3_link) built with PARAMETERS (tests/CMakeLists.txt). With
// the header's parameters_urdf they equal the folded reference; with a payload, the reference on the
// URDF edited to that payload (the edit made in the URDF text, loaded as any URDF). The eval driver
// reads STATE.json "parameters" as `rbdgen eval` does and refuses an unphysical payload.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "algorithms/aba.hpp"
#include "algorithms/centroidal.hpp"
#include "algorithms/com.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/energy.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "payload_arm.hpp"
#ifdef RBDGEN_HAVE_UR5
#include "payload_ur5.hpp"
#endif
#include "test_support.hpp"

namespace {

using namespace rbdgen;

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
// The URDF with link `link`'s <inertial> (or its absence) replaced by `inertial`.
std::string with_inertial(std::string urdf, const std::string& link, const std::string& inertial) {
    const size_t open = urdf.find("<link name=\"" + link + "\">");
    const size_t close = urdf.find("</link>", open);
    EXPECT_NE(open, std::string::npos) << link;
    const size_t body = urdf.find('>', open) + 1;
    return urdf.substr(0, body) + inertial + urdf.substr(close);
}
const std::string kPayload =
    "<inertial><origin xyz=\"0.03 -0.02 0.11\" rpy=\"0.4 -0.2 1.1\"/><mass value=\"2.7\"/>"
    "<inertia ixx=\"0.021\" ixy=\"0.002\" ixz=\"-0.001\" iyy=\"0.017\" iyz=\"0.003\" izz=\"0.012\"/></inertial>";

// The kernels of a robot NS with input pi, against the reference on `model` (1e-10).
#define CHECK_AGAINST(NS, model, pi, tolerance)                                                                      \
    do {                                                                                                             \
        std::mt19937_64 rng(3);                                                                                      \
        for (int s = 0; s < 50; ++s) {                                                                               \
            const test::RandomState x = test::random_state(model, rng);                                              \
            VecX<double> tau(NS::NV), qdd(NS::NV), fd(NS::NV), g(NS::NV), h(NS::NV);                                 \
            std::vector<double> H(NS::NV * NS::NV);                                                                  \
            NS::rnea(x.q.data(), x.qd.data(), x.qdd.data(), x.gravity.data(), pi.data(), tau.data());                 \
            NS::gravity(x.q.data(), x.gravity.data(), pi.data(), g.data());                                          \
            NS::nle(x.q.data(), x.qd.data(), x.gravity.data(), pi.data(), h.data());                                 \
            NS::crba(x.q.data(), pi.data(), H.data());                                                               \
            NS::aba(x.q.data(), x.qd.data(), x.tau.data(), x.gravity.data(), pi.data(), qdd.data());                  \
            NS::fd_crba_ltdl(x.q.data(), x.qd.data(), x.tau.data(), x.gravity.data(), pi.data(), fd.data());         \
            const VecX<double> zero = VecX<double>::Zero(model.nv);                                                  \
            EXPECT_LT(test::rel_err(tau, rnea<double>(model, x.q, x.qd, x.qdd, x.gravity)), tolerance);              \
            EXPECT_LT(test::rel_err(g, rnea<double>(model, x.q, zero, zero, x.gravity)), tolerance);                 \
            EXPECT_LT(test::rel_err(h, rnea<double>(model, x.q, x.qd, zero, x.gravity)), tolerance);                 \
            EXPECT_LT(test::rel_err(Eigen::Map<const MatX<double>>(H.data(), NS::NV, NS::NV), crba<double>(model, x.q)), tolerance); \
            EXPECT_LT(test::rel_err(qdd, aba<double>(model, x.q, x.qd, x.tau, x.gravity)), tolerance);               \
            EXPECT_LT(test::rel_err(fd, aba<double>(model, x.q, x.qd, x.tau, x.gravity)), tolerance);                \
        }                                                                                                            \
    } while (0)

TEST(Payload, ArmWithTheUrdfsParametersIsTheFoldedReference) {
    const Model model = load_urdf(test::project_model("arm7.urdf"), {false});
    const std::vector<double> pi(payload_arm::parameters_urdf, payload_arm::parameters_urdf + 10);
    // the header's values are link007's own inertia, in its URDF frame
    const auto expected = parameters_of_inertia(link_frame(model, "link007")->I);
    for (int k = 0; k < 10; ++k) EXPECT_NEAR(pi[k], expected[k], 1e-15 * std::max(1.0, std::abs(expected[k]))) << k;
    CHECK_AGAINST(payload_arm, model, pi, 1e-12);
}

TEST(Payload, ArmWithAPayloadIsTheReferenceOnTheEditedUrdf) {
    const test::TempFile edited("arm7_payload.urdf", with_inertial(read(test::project_model("arm7.urdf")), "link007", kPayload));
    const Model model = load_urdf(edited.str(), {false});
    const auto p = parameters_of_inertia(link_frame(model, "link007")->I);
    const std::vector<double> pi(p.data(), p.data() + 10);
    EXPECT_NEAR(pi[0], 2.7, 1e-15);
    CHECK_AGAINST(payload_arm, model, pi, 1e-10);
}

// The centre of mass, the centroidal momentum and the energy carry the payload too (the total mass
// included, which the header's total_mass, the URDF's, does not).
TEST(Payload, CentreOfMassCentroidalAndEnergyWithAPayloadAreTheReferenceOnTheEditedUrdf) {
    const test::TempFile edited("arm7_payload.urdf", with_inertial(read(test::project_model("arm7.urdf")), "link007", kPayload));
    const Model model = load_urdf(edited.str(), {false});
    const auto p = parameters_of_inertia(link_frame(model, "link007")->I);
    const std::vector<double> pi(p.data(), p.data() + 10);
    EXPECT_GT(std::abs(total_mass(model) - payload_arm::total_mass), 1.0);
    std::mt19937_64 rng(5);
    for (int s = 0; s < 50; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        Vec3<double> c;
        MatX<double> A(6, model.nv);
        Vec6<double> h, Adot_qd;
        double T, V;
        payload_arm::com(x.q.data(), pi.data(), c.data());
        std::vector<double> A_rows(6 * model.nv);
        payload_arm::centroidal(x.q.data(), x.qd.data(), pi.data(), A_rows.data(), h.data(), Adot_qd.data());
        payload_arm::energy(x.q.data(), x.qd.data(), x.gravity.data(), pi.data(), &T, &V);
        for (int r = 0; r < 6; ++r)
            for (int k = 0; k < model.nv; ++k) A(r, k) = A_rows[r * model.nv + k];
        const Centroidal<double> reference = centroidal<double>(model, x.q, x.qd);
        const Energy<double> e = energy<double>(model, x.q, x.qd, x.gravity);
        EXPECT_LT(test::rel_err(c, center_of_mass<double>(model, x.q).c), 1e-10);
        EXPECT_LT(test::rel_err(A, reference.A), 1e-10);
        EXPECT_LT(test::rel_err(h, reference.h), 1e-10);
        EXPECT_LT(test::rel_err(Adot_qd, reference.Adot_qd), 1e-10);
        EXPECT_NEAR(T, e.T, 1e-10 * std::max(1.0, std::abs(e.T)));
        EXPECT_NEAR(V, e.V, 1e-10 * std::max(1.0, std::abs(e.V)));
    }
}

TEST(Payload, Ur5ToolFlangePayloadIsTheReferenceOnTheEditedUrdf) {
#ifdef RBDGEN_HAVE_UR5
    const test::TempFile edited("ur5_payload.urdf", with_inertial(read(test::shared_model("ur5.urdf")), "tool0", kPayload));
    const Model model = load_urdf(edited.str(), {false});
    // tool0's row the payload, wrist_3_link's the URDF's
    std::vector<double> pi(payload_ur5::parameters_urdf, payload_ur5::parameters_urdf + 20);
    const auto p = parameters_of_inertia(link_frame(model, "tool0")->I);
    std::copy(p.data(), p.data() + 10, pi.begin());
    CHECK_AGAINST(payload_ur5, model, pi, 1e-10);
#else
    GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): ur5 not built";
#endif
}

TEST(Payload, EvalDriverReadsTheStatesParametersAndRefusesAnUnphysicalOne) {
    using nlohmann::json;
    json state = json::parse(R"({"q": {"joint002": 0.7, "joint005": -1.1}, "v": {"joint003": 0.4},
                                  "parameters": {"link007": [2.0, 0.1, -0.05, 0.2, 0.05, 0.001, 0.04, 0.0, 0.002, 0.03]}})");
    const auto run_both = [&](const json& s) {
        const test::TempFile file("state.json", s.dump());
        return std::pair{test::shell(std::string(PAYLOAD_ARM_EVAL) + " < " + file.str() + " 2>&1"),
                         test::run("eval " + test::project_model("arm7.urdf") + " --state " + file.str())};
    };
    const auto [driver, reference] = run_both(state);
    ASSERT_EQ(driver.status, 0) << driver.out;
    ASSERT_EQ(reference.status, 0) << reference.out;
    const json g = json::parse(driver.out), r = json::parse(reference.out);
    for (const char* kernel : {"rnea", "gravity", "aba"})
        for (const auto& [joint, value] : r[kernel].items())
            EXPECT_NEAR(g[kernel][joint].get<double>(), value.get<double>(), 1e-12 * std::max(1.0, std::abs(value.get<double>())))
                << kernel << " " << joint;
    state["parameters"]["link007"][0] = -1.0;
    for (const test::CommandResult& refused : {run_both(state).first, run_both(state).second}) {
        EXPECT_EQ(refused.status, 1) << refused.out;
        EXPECT_NE(refused.out.find("parameters.link007"), std::string::npos) << refused.out;
        EXPECT_NE(refused.out.find("mass is not positive"), std::string::npos) << refused.out;
    }
    state["parameters"]["link007"] = {2.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0};  // Ixx < 0
    EXPECT_NE(run_both(state).first.out.find("not positive definite"), std::string::npos);
}

// report.json gives a kernel's cost with its run-time inputs and with everything folded.
TEST(Payload, ReportGivesTheCostOfTheRunTimeInputs) {
    using nlohmann::json;
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("rbdgen_payload_" + std::to_string(::getpid()));
    const std::string arm = test::project_model("arm7.urdf");
    ASSERT_EQ(test::run("generate " + arm + " -o " + (dir / "with").string() + " --kernels rnea,crba --parameters link007 "
                        "--external-forces link003").status, 0);
    ASSERT_EQ(test::run("generate " + arm + " -o " + (dir / "without").string() + " --kernels rnea,crba").status, 0);
    const json with = json::parse(read((dir / "with" / "report.json").string()));
    const json without = json::parse(read((dir / "without" / "report.json").string()));
    fs::remove_all(dir);
    for (const char* k : {"rnea", "crba"}) {
        EXPECT_EQ(with["kernels"][k]["ops_folded"], without["kernels"][k]["ops"]) << k;
        EXPECT_GT(with["kernels"][k]["ops"]["mul"].get<int>(), without["kernels"][k]["ops"]["mul"].get<int>()) << k;
    }
    EXPECT_EQ(with["parameters"], json::array({"link007"}));
    EXPECT_EQ(with["external_forces"], json::array({"link003"}));
}

}  // namespace
