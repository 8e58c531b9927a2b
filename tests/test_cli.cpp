// The command as users run it: info's numbers, eval's JSON, and eval's forward dynamics undoing its
// inverse dynamics through the JSON format itself (base included).
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rbdgen {
namespace {

using nlohmann::json;

json run_json(const std::string& args) {
    const test::CommandResult r = test::run(args + " 2>/dev/null");
    EXPECT_EQ(r.status, 0) << r.out;
    return json::parse(r.out);
}

TEST(Cli, InfoJsonOfTheHumanoid) {
    const json j = run_json("info --json --floating-base " + test::project_model("humanoid30.urdf"));
    EXPECT_EQ(j["dof"], 30);
    EXPECT_EQ(j["nq"], 31);
    EXPECT_EQ(j["bodies"], 25);
    EXPECT_EQ(j["D0"], 24);
    EXPECT_EQ(j["D1"], 84);
    EXPECT_EQ(j["expanded"]["D1"], 219);
    EXPECT_EQ(j["expanded"]["D2"], 1039);
    EXPECT_EQ(j["jsim_nonzeros"], 468);
    ASSERT_EQ(j["jsim_pattern"].size(), 30u);
    long x = 0;
    for (const auto& row : j["jsim_pattern"]) {
        const std::string r = row.get<std::string>();
        x += std::count(r.begin(), r.end(), 'x');
    }
    EXPECT_EQ(x, 468);
    EXPECT_EQ(j["branching_bodies"], 1);
}

TEST(Cli, InfoTextShowsPattern) {
    const test::CommandResult r = test::run("info " + test::project_model("dualarm.urdf"));
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("JSIM pattern"), std::string::npos);
    EXPECT_NE(r.out.find("x x x x x x x x . . . . . . ."), std::string::npos) << r.out;  // an arm's row
}

// ABA and CRBA+LTDL, given the τ that RNEA printed, give back the q̈ RNEA was given.
void round_trip(const std::string& urdf, const std::string& flags, json state) {
    const test::TempFile id_state("id.json", state.dump());
    const json id = run_json("eval " + flags + " " + urdf + " --state " + id_state.str());
    json tau = id["rnea"];
    if (tau.contains("base")) {
        state["base"]["wrench"] = tau["base"];
        tau.erase("base");
    }
    state["tau"] = tau;
    const test::TempFile fd_state("fd.json", state.dump());
    const json fd = run_json("eval " + flags + " " + urdf + " --state " + fd_state.str());
    for (const std::string key : {"aba", "fd_crba_ltdl"}) {
        for (const auto& [joint, value] : fd[key].items()) {
            if (joint == "base") {
                for (int k = 0; k < 6; ++k)
                    EXPECT_NEAR(value[k].get<double>(), state["base"]["acceleration"][k].get<double>(), 1e-9) << key << " base " << k;
            } else {
                const double expected = state["a"].contains(joint) ? state["a"][joint].get<double>() : 0.0;
                EXPECT_NEAR(value.get<double>(), expected, 1e-9) << key << " " << joint;
            }
        }
    }
    // H is symmetric and ordered by the DoF names; gravity is RNEA at rest.
    const json& H = fd["crba"]["matrix"];
    ASSERT_EQ(H.size(), fd["crba"]["order"].size());
    for (size_t r = 0; r < H.size(); ++r)
        for (size_t c = 0; c < H.size(); ++c) EXPECT_EQ(H[r][c], H[c][r]);
    json rest = state;
    rest.erase("v");
    rest.erase("a");
    if (rest.contains("base")) rest["base"].erase("velocity"), rest["base"].erase("acceleration");
    const test::TempFile rest_state("rest.json", rest.dump());
    const json at_rest = run_json("eval " + flags + " " + urdf + " --state " + rest_state.str());
    EXPECT_EQ(at_rest["gravity"], at_rest["rnea"]);
}

TEST(Cli, EvalRoundTripFixedBase) {
    json state = json::parse(std::ifstream(test::project_model("arm7_state.json")));
    round_trip(test::project_model("arm7.urdf"), "", state);
}

TEST(Cli, EvalRoundTripFloatingBase) {
    const json state = {
        {"q", {{"joint001", 0.4}, {"joint013", -1.0}}},
        {"v", {{"joint002", 0.3}, {"joint024", 2.0}}},
        {"a", {{"joint003", 1.5}, {"joint020", -0.5}}},
        {"gravity", {0.1, 0.2, -9.7}},
        {"base", {{"position", {1, 2, 3}}, {"quaternion", {0.1, 0.2, 0.3, 0.927361849549570}},
                  {"velocity", {0.1, -0.2, 0.3, 1.0, 0.5, -0.5}}, {"acceleration", {1, 2, 3, 4, 5, 6}}}}};
    round_trip(test::project_model("humanoid30.urdf"), "--floating-base", state);
}

TEST(Cli, SynthWritesALoadableUrdf) {
    const test::TempFile urdf("grid.urdf", "");
    const std::string out = urdf.str();
    ASSERT_EQ(test::run("synth grid 4 --seed 3 -o " + out).status, 0);
    const json j = run_json("info --json " + out);
    EXPECT_EQ(j["dof"], 16);
    EXPECT_EQ(j["D1"], 4 * 4 * 4 - 4 * 4);  // Table 2, span grid: m³ − m²
    const test::CommandResult again = test::run("synth grid 4 --seed 3");
    std::ifstream in(out);
    EXPECT_EQ(again.out, std::string(std::istreambuf_iterator<char>(in), {}));  // deterministic
}

}  // namespace
}  // namespace rbdgen
