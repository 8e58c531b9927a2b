// A problem file is user input: every mistake in one gives a single message naming the file (and the
// line, link, joint or sensor), exit status 1, and writes nothing.
#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;

class ProblemInput : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("rbdgen_problem_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
    // `rbdgen generate` of the floating humanoid (or `urdf_args`) with the problem fails naming all
    // of `needles`, and its output folder is not created.
    void expect_refused(const std::string& problem, std::initializer_list<std::string> needles,
                        const std::string& urdf_args = test::project_model("humanoid30.urdf") + " --floating-base") {
        const fs::path out = dir / "out";
        const test::CommandResult r = test::run("generate " + urdf_args + " -o " + out.string() + " --kernels rnea --problem " + problem);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("rbdgen: error: "), std::string::npos) << r.out;
        for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in: " << r.out;
        EXPECT_FALSE(fs::exists(out)) << "a failed generation wrote " << out;
    }
};

TEST_F(ProblemInput, UnknownLink) {
    const std::string f = write("p.yaml", "sensors:\n  cells: {type: load_cells, link: foot}\n");
    expect_refused(f, {f + ":2", "no link 'foot'"});
}

TEST_F(ProblemInput, UnknownJoint) {
    const std::string f = write("p.yaml", "joints:\n  knee: {force: known}\n");
    expect_refused(f, {f + ":2", "no moving joint 'knee'", "joint001"});
}

TEST_F(ProblemInput, UnknownSensorType) {
    const std::string f = write("p.yaml", "sensors:\n  baro: {type: barometer, link: link006}\n");
    expect_refused(f, {f + ":2", "sensor 'baro'", "unknown type 'barometer'", "force_torque"});
}

// Names reach report.json and the sources: bytes that are no UTF-8 (here Latin-1's ¹) are refused
// where they are read (fuzz_problem found them crashing the report's JSON writer).
TEST_F(ProblemInput, NameNotUtf8) {
    const std::string f = write("p.yaml", "joint_forces: known\nsensors:\n  f\xb9t: {type: force_torque, link: link006}\n");
    expect_refused(f, {f + ":3", "a sensor name", "not valid UTF-8"});
}

TEST_F(ProblemInput, UnknownKey) {
    const std::string f = write("p.yaml", "joint_forces: unknown\nsensor:\n  a: {type: force_torque, link: link006}\n");
    expect_refused(f, {f + ":2", "unknown key 'sensor'"});
}

TEST_F(ProblemInput, SensorOnTheFixedBase) {
    const std::string f = write("p.yaml", "sensors:\n  ft: {type: force_torque, link: base_link}\n");
    expect_refused(f, {f + ":2", "link 'base_link'", "fixed base"}, test::project_model("arm7.urdf"));
}

TEST_F(ProblemInput, QuantityDeclaredKnownAndMeasured) {
    const std::string f =
        write("p.yaml", "joints:\n  joint003: {force: known}\nsensors:\n  t3: {type: joint_torque, joint: joint003}\n");
    expect_refused(f, {f + ":4", "sensor 't3'", "joint 'joint003'", "declared known", "measured here"});
}

TEST_F(ProblemInput, LinkDeclaredTwice) {
    const std::string f = write("p.yaml", "links:\n  link006: unknown\nsensors:\n  c: {type: load_cells, link: link006}\n");
    expect_refused(f, {f + ":4", "sensor 'c'", "link 'link006'", "already declared by links"});
}

TEST_F(ProblemInput, MalformedYaml) {
    const std::string f = write("p.yaml", "sensors:\n  a: {type: force_torque, link: [link006\n");
    expect_refused(f, {f, "not valid YAML"});
}

TEST_F(ProblemInput, NameNotAnIdentifier) {
    const std::string f = write("my-feet.yaml", "sensors:\n  a: {type: force_torque, link: link006}\n");
    expect_refused(f, {f, "'my-feet'", "C++ identifier", "rename the file"});
}

// Nori §VI, Remark 5: four load cells a foot cannot determine a standing humanoid's torques.
TEST_F(ProblemInput, IllPosedSensorSet) {
    const std::string f = test::project_model("problems/humanoid30_load_cells.yaml");
    expect_refused(f, {f, "ill-posed", "fx[link006].fx", "fx[link012].nz"});
}

TEST_F(ProblemInput, ProblemNamedLikeAKernel) {
    const std::string f = write("ltdl.yaml", "sensors:\n  a: {type: force_torque, link: link006}\n");
    expect_refused(f, {f, "ltdl_solve", "rename the file"});
}

TEST_F(ProblemInput, StateWithoutTheMeasurements) {
    const std::string state = write("s.json", "{\"measurements\": {\"left_cells\": [1, 2]}}");
    const test::CommandResult r = test::run("eval " + test::project_model("humanoid30.urdf") + " --floating-base --state " + state +
                                            " --problem " + test::project_model("problems/humanoid30_slippery_feet.yaml"));
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find(state + ": 'measurements.left_cells' has 2 values; the sensor gives 3: [fz, nx, ny]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace rbdgen
