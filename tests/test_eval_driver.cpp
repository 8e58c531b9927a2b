// A generated robot's eval driver (NAME_eval, STATE.json on stdin) prints what `rbdgen eval` prints:
// the same keys, joints and order, and numbers equal to 1e-12 relative.
#include <filesystem>
#include <fstream>
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

void expect_same(const json& a, const json& b, const std::string& path) {
    ASSERT_EQ(a.type(), b.type()) << path;
    if (a.is_number()) {
        EXPECT_NEAR(a.get<double>(), b.get<double>(), 1e-12 * std::max(1.0, std::abs(b.get<double>()))) << path;
    } else if (a.is_object()) {
        std::vector<std::string> ka, kb;
        for (const auto& [k, v] : a.items()) ka.push_back(k);
        for (const auto& [k, v] : b.items()) kb.push_back(k);
        ASSERT_EQ(ka, kb) << path;  // same keys in the same order
        for (const auto& k : ka) expect_same(a[k], b[k], path + "." + k);
    } else if (a.is_array()) {
        ASSERT_EQ(a.size(), b.size()) << path;
        for (size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], path + "[" + std::to_string(i) + "]");
    } else {
        EXPECT_EQ(a, b) << path;
    }
}

void compare(const std::string& driver, const std::string& urdf, const std::string& flags, const json& state) {
    const test::TempFile state_file("state.json", state.dump());
    const std::string file = state_file.str();
    const json reference = json::parse(shell(std::string(RBDGEN_EXE) + " eval " + flags + " " + urdf + " --state " + file));
    const json generated = json::parse(shell(driver + " < " + file));
    expect_same(generated, reference, "");
}

TEST(EvalDriver, ArmMatchesRbdgenEval) {
    const json state = json::parse(std::ifstream(test::project_model("arm7_state.json")));
    compare(ARM_EVAL, test::project_model("arm7.urdf"), "", state);
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
    compare(HUMANOID_EVAL, test::project_model("humanoid30.urdf"), "--floating-base", state);
}

// Names written in ISO-8859-1 in the URDF: the user's STATE.json names the joints in UTF-8, and the
// driver reads and prints them as rbdgen eval does.
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
