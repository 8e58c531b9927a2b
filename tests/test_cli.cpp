// The command as users run it: info's numbers, eval's JSON, and eval's forward dynamics undoing its
// inverse dynamics through the JSON format itself (base included).
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "algorithms/regressor.hpp"
#include "emit/kernel.hpp"
#include "algorithms/rnea.hpp"
#include "model/load_model.hpp"
#include "model/urdf_loader.hpp"
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

// The joints by type, counted from the files by hand: forms_degree.xml's free joint, six hinges and one
// in a body of three, a slide, a ball (the neck) and one welded body (the hand; its sites are no
// joints); forms_radian.xml's body 'base' welded to the world, a body of a hinge and a ball.
TEST(Cli, InfoCountsTheJointsOfMjcfFiles) {
    const json d = run_json("info --json " + test::project_model("mjcf/forms_degree.xml"));
    EXPECT_EQ(d["joints"], json({{"revolute", 7}, {"prismatic", 1}, {"planar", 0}, {"ball", 1}, {"floating", 1}, {"fixed_merged", 1}}));
    EXPECT_EQ(d["dof"], 6 + 7 + 1 + 3);
    EXPECT_EQ(d["nq"], 7 + 7 + 1 + 4);
    const json r = run_json("info --json " + test::project_model("mjcf/forms_radian.xml"));
    EXPECT_EQ(r["joints"], json({{"revolute", 4}, {"prismatic", 1}, {"planar", 0}, {"ball", 1}, {"floating", 0}, {"fixed_merged", 1}}));
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
            } else if (value.is_array()) {  // a ball joint's three
                for (int k = 0; k < 3; ++k)
                    EXPECT_NEAR(value[k].get<double>(), state["a"].contains(joint) ? state["a"][joint][k].get<double>() : 0.0, 1e-9) << key << " " << joint;
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

// eval prints the regressor and the operational frames' kernels as matrices with named rows and
// columns: Y's columns are the parameters link by link, and Y π = τ for π the URDF's own parameters
// (each body's inertia in its link frame, the model as loaded); J's rows are the frames'
// components, and J q̇ is frame_motion's v, a row a frame.
TEST(Cli, EvalPrintsTheRegressorAndFrameKernelsWithNamedRowsAndColumns) {
    const std::string urdf = test::project_model("arm7.urdf");
    const json e = run_json("eval " + urdf + " --state " + test::project_model("arm7_state.json") +
                            " --kernels regressor --frames link007,link003");
    const Model model = load_urdf(urdf);
    const json& Y = e.at("regressor");
    ASSERT_EQ(Y.at("rows"), json(model.dof_names()));
    ASSERT_EQ(Y.at("columns").size(), size_t(kInertialParameters * model.N()));
    EXPECT_EQ(Y.at("columns")[10], "link002.m");
    EXPECT_EQ(Y.at("columns")[13], "link002.mcz");
    std::vector<double> pi;
    for (const Body& b : model.bodies) {
        const auto p = parameters_of_inertia(b.I);
        pi.insert(pi.end(), p.data(), p.data() + p.size());
    }
    for (size_t r = 0; r < model.dof_names().size(); ++r) {
        double tau = 0;
        for (size_t c = 0; c < pi.size(); ++c) tau += Y.at("matrix")[r][c].get<double>() * pi[c];
        const double want = e.at("rnea").at(model.dof_names()[r]).get<double>();
        EXPECT_NEAR(tau, want, 1e-9 * std::max(1.0, std::abs(want))) << model.dof_names()[r];
    }
    const json& J = e.at("frame_jacobians");
    ASSERT_EQ(J.at("columns"), json(model.dof_names()));
    ASSERT_EQ(J.at("rows").size(), 12u);
    EXPECT_EQ(J.at("rows")[0], "link007.wx");
    EXPECT_EQ(J.at("rows")[11], "link003.vz");
    const json& v = e.at("frame_motion").at("v");
    ASSERT_EQ(v.at("rows"), json({"link007", "link003"}));
    ASSERT_EQ(v.at("columns"), json({"wx", "wy", "wz", "vx", "vy", "vz"}));
    const json state = json::parse(std::ifstream(test::project_model("arm7_state.json")));
    for (size_t r = 0; r < 12; ++r) {
        double Jv = 0;
        for (size_t c = 0; c < model.dof_names().size(); ++c)
            Jv += J.at("matrix")[r][c].get<double>() * state.at("v").value(model.dof_names()[c], 0.0);
        EXPECT_NEAR(Jv, v.at("matrix")[r / 6][r % 6].get<double>(), 1e-12) << J.at("rows")[r];
    }
    const test::CommandResult bad = test::run("eval " + urdf + " --state " + test::project_model("arm7_state.json") + " --frames nosuch");
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.out.find("--frames: no link 'nosuch'"), std::string::npos) << bad.out;
}

// eval prints fk's poses by link, R row by row, then p. Checked without the reference: link001's
// origin is joint001's origin in the URDF (0.0668, -0.0676, 0.1785), whatever q; every R is a
// rotation; and the poses' change along the state's q̇, by central differences of eval's own output at
// q ± h q̇, is frame_motion's world-aligned velocity: ṗ = (vx, vy, vz) and Ṙ Rᵀ = [ω]×. The frame
// poses (--frames) are the same links' poses.
TEST(Cli, EvalPrintsFkPosesByLink) {
    const std::string urdf = test::project_model("arm7.urdf");
    const json state = json::parse(std::ifstream(test::project_model("arm7_state.json")));
    const auto eval = [&](double h) {
        json at = state;
        for (auto& [joint, q] : at["q"].items()) q = q.get<double>() + h * state.at("v").value(joint, 0.0);
        const test::TempFile file("state.json", at.dump());
        return run_json("eval " + urdf + " --state " + file.str() + " --frames link007,link003");
    };
    const json e = eval(0), plus = eval(1e-6), minus = eval(-1e-6);
    const json& pose = e.at("fk").at("pose");
    ASSERT_EQ(pose.size(), 7u);
    const std::vector<double> origin{0.066785892868610752, -0.067626888775683208, 0.17848724806824123};
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(pose.at("link001").at("p")[c].get<double>(), origin[c], 1e-15);
    const auto R_of = [](const json& p) {
        Mat3<double> R;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) R(r, c) = p.at("R")[r][c].get<double>();
        return R;
    };
    for (const auto& [link, p] : pose.items()) {
        const Mat3<double> R = R_of(p);
        EXPECT_LT((R * R.transpose() - Mat3<double>::Identity()).norm(), 1e-14) << link;
        EXPECT_NEAR(R.determinant(), 1.0, 1e-14) << link;
    }
    const json& v = e.at("frame_motion").at("v");
    for (size_t f = 0; f < 2; ++f) {
        const std::string link = v.at("rows")[f];
        EXPECT_EQ(e.at("fk").at("frame_pose").at(link), pose.at(link)) << link;
        const json& vf = v.at("matrix")[f];
        const Mat3<double> Rdot = (R_of(plus.at("fk").at("pose").at(link)) - R_of(minus.at("fk").at("pose").at(link))) / 2e-6;
        const Mat3<double> W = Rdot * R_of(pose.at(link)).transpose();  // [ω]×
        EXPECT_NEAR(W(2, 1), vf[0].get<double>(), 1e-8) << link;
        EXPECT_NEAR(W(0, 2), vf[1].get<double>(), 1e-8) << link;
        EXPECT_NEAR(W(1, 0), vf[2].get<double>(), 1e-8) << link;
        for (int c = 0; c < 3; ++c) {
            const double pdot = (plus.at("fk").at("pose").at(link).at("p")[c].get<double>() - minus.at("fk").at("pose").at(link).at("p")[c].get<double>()) / 2e-6;
            EXPECT_NEAR(pdot, vf[3 + c].get<double>(), 1e-8) << link << " p" << c;
        }
    }
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

// A ball joint's STATE.json entries are arrays (q its quaternion x, y, z, w; v, a, tau three about
// its body's axes), and so are eval's results for it: the round trip, and rnea against the reference
// at the same arrays.
TEST(Cli, EvalRoundTripBallJoint) {
    const std::string file = test::project_model("mjcf/forms_radian.xml");
    const Eigen::Quaterniond Q(Eigen::AngleAxisd(0.9, Vec3<double>(0.3, -1, 0.4).normalized()));
    const json state = {{"q", {{"j3", 0.4}, {"wrist_ball", {Q.x(), Q.y(), Q.z(), Q.w()}}}},
                        {"v", {{"joint0", 0.3}, {"wrist_ball", {0.5, -1.0, 2.0}}}},
                        {"a", {{"wrist_roll", 1.5}, {"wrist_ball", {-2.0, 0.7, 0.1}}}},
                        {"gravity", {0.1, 0.2, -9.7}}};
    round_trip(file, "", state);
    const test::TempFile f("ball.json", state.dump());
    const json e = run_json("eval " + file + " --state " + f.str());
    const Model m = load_model(file);
    VecX<double> q = VecX<double>::Zero(m.nq), qd = VecX<double>::Zero(m.nv), qdd = VecX<double>::Zero(m.nv);
    const Body& ball = m.bodies[5];
    ASSERT_EQ(ball.joint_name, "wrist_ball");
    q[3] = 0.4, q.segment<4>(ball.q_index) << Q.x(), Q.y(), Q.z(), Q.w();
    qd[0] = 0.3, qd.segment<3>(ball.v_index) << 0.5, -1.0, 2.0;
    qdd[m.bodies[4].v_index] = 1.5, qdd.segment<3>(ball.v_index) << -2.0, 0.7, 0.1;
    const VecX<double> tau = rnea<double>(m, q, qd, qdd, Vec3<double>(0.1, 0.2, -9.7));
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(e["rnea"]["wrist_ball"][k].get<double>(), tau[ball.v_index + k], 1e-12 * std::max(1.0, tau.norm()));
    EXPECT_NEAR(e["rnea"]["wrist_roll"].get<double>(), tau[m.bodies[4].v_index], 1e-12 * std::max(1.0, tau.norm()));
    for (const std::string bad : {R"({"q": {"wrist_ball": [0, 0, 0, 2]}})", R"({"v": {"wrist_ball": 1.0}})"}) {
        const test::TempFile b("bad_ball.json", bad);
        const test::CommandResult r = test::run("eval " + file + " --state " + b.str());
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("wrist_ball"), std::string::npos) << r.out;
    }
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

// --armature on a URDF (which has no field for it): H's diagonal entry of that joint grows by the value
// and nothing else of H moves; τ by armature q̈ on that joint; aba's q̈ is the one of the new H; info
// lists it with where it came from. An unknown joint and a negative value are refused.
TEST(Cli, ArmatureOptionAddsToTheJointsDiagonalAndTorque) {
    const std::string urdf = test::project_model("arm7.urdf"), state = test::project_model("arm7_state.json");
    const json plain = run_json("eval " + urdf + " --state " + state);
    const json rotor = run_json("eval " + urdf + " --armature joint003=0.25,joint006=1.5 --state " + state);
    const json given = json::parse(std::ifstream(state));
    const std::map<std::string, double> armature = {{"joint003", 0.25}, {"joint006", 1.5}};
    const std::vector<std::string> order = plain["crba"]["order"];
    for (size_t r = 0; r < order.size(); ++r) {
        const double qdd = given["a"].value(order[r], 0.0);
        const double a = armature.count(order[r]) ? armature.at(order[r]) : 0.0;
        EXPECT_NEAR(rotor["rnea"][order[r]].get<double>(), plain["rnea"][order[r]].get<double>() + a * qdd, 1e-12) << order[r];
        for (size_t c = 0; c < order.size(); ++c)
            EXPECT_NEAR(rotor["crba"]["matrix"][r][c].get<double>(), plain["crba"]["matrix"][r][c].get<double>() + (r == c ? a : 0.0), 1e-12);
    }
    const json info = run_json("info --json " + urdf + " --armature joint003=0.25");
    EXPECT_EQ(info["armature"]["joint003"]["value"], 0.25);
    EXPECT_EQ(info["armature"]["joint003"]["from"], "--armature");
    for (const std::string bad : {"joint099=0.1", "joint003=-1", "joint003"}) {
        const test::CommandResult r = test::run("info " + urdf + " --armature " + bad);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("--armature"), std::string::npos) << r.out;
    }
}

// Every command answers --help with its options and what each does, and exits 0.
TEST(Cli, EveryCommandHasHelp) {
    const std::map<std::string, std::vector<std::string>> options = {
        {"info", {"ROBOT.urdf", "--floating-base", "--strict-inertia", "--armature JOINT=VALUE,...", "--json"}},
        {"eval", {"ROBOT.urdf", "--floating-base", "--strict-inertia", "--state STATE.json"}},
        {"generate", {"ROBOT.urdf", "--floating-base", "--strict-inertia", "-o,--output DIR", "--name NAME",
                      "--scalar double|float", "--kernels LIST", "--max-operations N", "--snap-tolerance T", "--snap-max-effect E",
                      "--trig-entry-points", "fd_crba_ltdl"}},
        {"synth", {"TOPOLOGY", "SIZE", "--seed S", "-o,--output FILE"}}};
    for (const auto& [command, expected] : options) {
        const test::CommandResult r = test::run(command + " --help");
        EXPECT_EQ(r.status, 0) << r.out;
        for (const std::string& o : expected) EXPECT_NE(r.out.find(o), std::string::npos) << command << ": " << o << "\n" << r.out;
    }
    const test::CommandResult top = test::run("--help");
    EXPECT_EQ(top.status, 0);
    for (const char* command : {"info", "eval", "generate", "synth", "--version"})
        EXPECT_NE(top.out.find(command), std::string::npos) << top.out;
}

// The kernel list has one source, the kernel specs: rbdgen_add_robot's list (read from them by CMake)
// and `rbdgen generate --help` say the same.
TEST(Cli, KernelListsComeFromTheSpecs) {
    std::string names;
    for (const std::string& k : kernel_names()) names += (names.empty() ? "" : ",") + k;
    EXPECT_EQ(names, RBDGEN_KERNELS_CMAKE);
    EXPECT_NE(test::run("generate --help").out.find(names), std::string::npos);
}

// --version names the generator that made a firmware's kernels, as every generated file's banner does.
TEST(Cli, VersionIsPrintedAndInEveryGeneratedBanner) {
    const test::CommandResult r = test::run("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, std::string("rbdgen ") + RBDGEN_VERSION + "\n");
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("rbdgen_version_" + std::to_string(::getpid()));
    ASSERT_EQ(test::run("generate " + test::project_model("arm7.urdf") + " -o " + dir.string() + " --kernels rnea").status, 0);
    for (const auto& file : std::filesystem::directory_iterator(dir)) {
        if (file.path().filename() == "rbdgen_runtime.hpp" || file.path().extension() == ".json") continue;
        std::ifstream in(file.path());
        std::string first;
        std::getline(in, first);
        if (file.path().extension() == ".md") std::getline(in, first), std::getline(in, first);
        EXPECT_NE(first.find(std::string("rbdgen ") + RBDGEN_VERSION + " from"), std::string::npos) << file.path() << ": " << first;
    }
    std::ifstream report(dir / "report.json");
    EXPECT_EQ(json::parse(report)["generator_version"], RBDGEN_VERSION);
    std::filesystem::remove_all(dir);
}

// Bad command lines keep their messages: the option, the command, and what is allowed.
TEST(Cli, BadCommandLinesSayWhatIsWrong) {
    const test::CommandResult unknown = test::run("generate " + test::project_model("arm7.urdf") + " -o /tmp/x --fast");
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.out.find("rbdgen: error: rbdgen generate: unknown option '--fast'; options are"), std::string::npos) << unknown.out;
    EXPECT_NE(unknown.out.find("--trig-entry-points"), std::string::npos) << unknown.out;
    const test::CommandResult missing = test::run("eval " + test::project_model("arm7.urdf"));
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.out.find("--state is required"), std::string::npos) << missing.out;
    const test::CommandResult no_value = test::run("synth chain 3 --seed");
    EXPECT_EQ(no_value.status, 1);
    EXPECT_NE(no_value.out.find("--seed"), std::string::npos) << no_value.out;
    const test::CommandResult command = test::run("frobnicate");
    EXPECT_EQ(command.status, 2);
    EXPECT_NE(command.out.find("unknown command 'frobnicate'"), std::string::npos) << command.out;
}

}  // namespace
}  // namespace rbdgen
