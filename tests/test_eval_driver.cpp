// A generated robot's eval driver (NAME_eval, STATE.json on stdin) prints what `rbdgen eval` prints:
// the same keys, joints and order, and numbers equal to 1e-12 relative.
#include <filesystem>
#include <fstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rbdgen {
namespace {

using nlohmann::json;

// The command's stdout (it must succeed; its stderr is dropped).
std::string shell(const std::string& cmd) {
    const test::CommandResult r = test::shell("(" + cmd + " 2>/dev/null)");
    EXPECT_EQ(r.status, 0) << cmd;
    return r.out;
}

// Numbers to `tolerance` relative (a problem's LU may pivot in another order on the generator's
// internal frames than on the URDF's, so its rounding differs).
void expect_same(const json& a, const json& b, const std::string& path, double tolerance = 1e-12) {
    ASSERT_EQ(a.type(), b.type()) << path;
    if (a.is_number()) {
        EXPECT_NEAR(a.get<double>(), b.get<double>(), tolerance * std::max(1.0, std::abs(b.get<double>()))) << path;
    } else if (a.is_object()) {
        std::vector<std::string> ka, kb;
        for (const auto& [k, v] : a.items()) ka.push_back(k);
        for (const auto& [k, v] : b.items()) kb.push_back(k);
        ASSERT_EQ(ka, kb) << path;  // same keys in the same order
        for (const auto& k : ka) expect_same(a[k], b[k], path + "." + k, tolerance);
    } else if (a.is_array()) {
        ASSERT_EQ(a.size(), b.size()) << path;
        for (size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], path + "[" + std::to_string(i) + "]", tolerance);
    } else {
        EXPECT_EQ(a, b) << path;
    }
}

json compare(const std::string& driver, const std::string& urdf, const std::string& flags, const json& state,
             double tolerance = 1e-12) {
    const test::TempFile state_file("state.json", state.dump());
    const std::string file = state_file.str();
    const json reference = json::parse(shell(std::string(RBDGEN_EXE) + " eval " + flags + " " + urdf + " --state " + file));
    const json generated = json::parse(shell(driver + " < " + file));
    expect_same(generated, reference, "", tolerance);
    return generated;
}

TEST(EvalDriver, ArmMatchesRbdgenEval) {
    const json state = json::parse(std::ifstream(test::project_model("arm7_state.json")));
    const json printed = compare(ARM_EVAL, test::project_model("arm7.urdf"), "--kernels regressor,minv,coriolis --frames link007,link003", state);
    for (const char* kernel : {"regressor", "minv", "coriolis", "frame_jacobians", "frame_jacobians_dot", "frame_motion", "centroidal"}) EXPECT_TRUE(printed.contains(kernel)) << kernel;
}

TEST(EvalDriver, HumanoidMatchesRbdgenEval) {
    const json state = {
        {"q", {{"joint001", 0.4}, {"joint013", -1.0}}},
        {"v", {{"joint002", 0.3}, {"joint024", 2.0}}},
        {"a", {{"joint003", 1.5}}},
        {"tau", {{"joint007", 4.0}}},
        {"gravity", {0.1, 0.2, -9.7}},
        {"base", {{"position", {1, 2, 3}}, {"quaternion", {0.1, 0.2, 0.3, 0.927361849549570}},
                  {"velocity", {0.1, -0.2, 0.3, 1.0, 0.5, -0.5}}, {"acceleration", {1, 2, 3, 4, 5, 6}},
                  {"wrench", {1, 0, 0, 0, 0, 100}}}}};
    const std::string problems = " --problem id --problem fd --problem " + std::string(RBDGEN_SOURCE_DIR) + "/tests/data/humanoid30_hybrid.yaml" +
                                 " --problem contact:link006,link012 --problem impulse:link006:point,link012:point";
    json with_sensor = state;
    with_sensor["measurements"] = {{"joint003_sensor", {2.5}}};
    const json printed = compare(HUMANOID_EVAL, test::project_model("humanoid30.urdf"), "--floating-base" + problems, with_sensor, 1e-9);
    // Nori's LU against the classical algorithms, in the generated driver: id is rnea, fd is aba; and
    // hybrid dynamics with joint003's torque measured as 2.5 N m: the q̈ it returns, given to rnea
    // with the other accelerations, gives back 2.5 at joint003 and zero force on the floating base.
    expect_same(printed["id_lu"], printed["rnea"], "id_lu", 1e-9);
    expect_same(printed["fd_lu"], printed["aba"], "fd_lu", 1e-9);
    json check = state;
    const json hybrid = printed["humanoid30_hybrid_lu"];
    check["a"]["joint003"] = hybrid["qdd[joint003]"];
    check["base"]["acceleration"] = json::array();
    for (const char* c : {"wx", "wy", "wz", "vx", "vy", "vz"}) check["base"]["acceleration"].push_back(hybrid[std::string("qdd[floating_base.") + c + "]"]);
    const test::TempFile check_file("check.json", check.dump());
    const json rnea = json::parse(shell(std::string(RBDGEN_EXE) + " eval --floating-base " + test::project_model("humanoid30.urdf") +
                                        " --state " + check_file.str()))["rnea"];
    EXPECT_NEAR(rnea["joint003"].get<double>(), 2.5, 1e-9);
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(rnea["base"][k].get<double>(), 0.0, 1e-9);
    for (int j = 1; j <= 24; ++j) {
        const std::string joint = fmt::format("joint{:03d}", j);
        if (j != 3) EXPECT_NEAR(hybrid["tau[" + joint + "]"].get<double>(), rnea[joint].get<double>(), 1e-9) << joint;
    }
}

// Names written in ISO-8859-1 in the URDF: the user's STATE.json names the joints in UTF-8, and the
// driver reads and prints them as rbdgen eval does.
// The N-CMTM kernels of order 3 read "motion" (q and four derivatives a joint, the floating base's pose
// then four 6-vectors) and print ncmtm_fk by link and cornea by joint, like `rbdgen eval --ncmtm-order 3`.
// Without "motion" in the state the driver leaves them out (HumanoidMatchesRbdgenEval), and `rbdgen eval
// --ncmtm-order` says what is missing.
TEST(EvalDriver, HumanoidNcmtmMatchesRbdgenEval) {
    const json state = {
        {"gravity", {0.1, 0.2, -9.7}},
        {"motion", {{"joint001", {0.4, 0.3, -1.0, 2.0, 0.5}}, {"joint013", {-1.0, 1.5, 0.2, -0.3, 4.0}}, {"joint024", {0.2, 2.0, 0, 0, 0}}}},
        {"base", {{"motion", {{1, 2, 3, 0.1, 0.2, 0.3, 0.927361849549570}, {0.1, -0.2, 0.3, 1.0, 0.5, -0.5},
                              {1, 2, 3, 4, 5, 6}, {0.5, 0, -0.5, 1, 0, 2}, {0, 0.1, 0, -1, 0, 3}}}}},
        {"measurements", {{"joint003_sensor", {2.5}}}}};
    const std::string problems = " --problem id --problem fd --problem " + std::string(RBDGEN_SOURCE_DIR) + "/tests/data/humanoid30_hybrid.yaml" +
                                 " --problem contact:link006,link012 --problem impulse:link006:point,link012:point";
    const json printed = compare(HUMANOID_EVAL, test::project_model("humanoid30.urdf"), "--floating-base --ncmtm-order 3" + problems, state, 1e-9);
    ASSERT_TRUE(printed.contains("cornea") && printed.contains("ncmtm_fk"));
    EXPECT_EQ(printed["cornea"]["joint001"].size(), 3u);  // tau, tau', tau''
    EXPECT_EQ(printed["cornea"]["base"].size(), 3u);
    EXPECT_EQ(printed["cornea"]["base"][0].size(), 6u);
    EXPECT_EQ(printed["ncmtm_fk"].size(), 25u);           // every link
    EXPECT_EQ(printed["ncmtm_fk"].begin()->size(), 4u);   // v and three derivatives
    json no_motion = state;
    no_motion.erase("motion");
    no_motion["base"].erase("motion");
    const test::TempFile file("state.json", no_motion.dump());
    const test::CommandResult r = test::run("eval --floating-base --ncmtm-order 3 " + test::project_model("humanoid30.urdf") +
                                            " --state " + file.str());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("read the state's \"motion\""), std::string::npos) << r.out;
}

// An MJCF robot of a free joint and a ball joint (the neck): a ball joint's arrays in q, v, a, tau and
// motion read and printed as rbdgen eval reads and prints them.
TEST(EvalDriver, BallJointMatchesRbdgenEval) {
    const json state = {
        {"q", {{"knee", 0.4}, {"neck", {0.1, 0.2, 0.3, 0.927361849549570}}}},
        {"v", {{"hip_z", 0.3}, {"neck", {0.5, -1.0, 2.0}}}},
        {"a", {{"wrist", 1.5}, {"neck", {-2.0, 0.7, 0.1}}}},
        {"tau", {{"neck", {0.2, 0.0, -0.3}}}},
        {"base", {{"position", {1, 2, 3}}, {"quaternion", {0, 0, 0.6, 0.8}}, {"velocity", {0.1, -0.2, 0.3, 1.0, 0.5, -0.5}}}},
        {"motion", {{"knee", {0.4, 0.3, -1.0, 2.0}}, {"neck", {{0, 0.6, 0, 0.8}, {1, 0, -1}, {0.5, 0.5, 0}, {0, 0, 3}}}}},
        {"gravity", {0.1, 0.2, -9.7}}};
    const json printed = compare(FORMS_EVAL, test::project_model("mjcf/forms_degree.xml"), "--ncmtm-order 2", state);
    EXPECT_EQ(printed["rnea"]["neck"].size(), 3u);
    EXPECT_EQ(printed["cornea"]["neck"].size(), 2u);     // tau, tau'
    EXPECT_EQ(printed["cornea"]["neck"][0].size(), 3u);  // three a derivative
}

TEST(EvalDriver, Latin1NamedRobotMatchesRbdgenEval) {
    const json state = {{"q", {{"rotation \u00e9paule", 0.4}, {"flexion du coude (\u00b0)", -1.0}}},
                        {"v", {{"flexion du coude (\u00b0)", 0.3}}},
                        {"tau", {{"rotation \u00e9paule", 2.0}}}};
    compare(LATIN1_EVAL, std::string(RBDGEN_SOURCE_DIR) + "/tests/data/latin1_names.urdf", "", state);
    const test::TempFile state_file("latin1_state.json", state.dump());
    const json printed = json::parse(shell(std::string(LATIN1_EVAL) + " < " + state_file.str()));
    EXPECT_EQ(printed["joints"], json::array({"rotation \u00e9paule", "flexion du coude (\u00b0)"}));
}

TEST(EvalDriver, RejectsBadStateLikeRbdgenEval) {
    const test::TempFile state_file("bad.json", R"({"q": {"elbow": 1}})");
    const std::string file = state_file.str();
    const int status = std::system((std::string(ARM_EVAL) + " < " + file + " > /dev/null 2>&1").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 1);
}

}  // namespace
}  // namespace rbdgen
