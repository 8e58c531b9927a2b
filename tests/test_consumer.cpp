// rbdgen as users build with it: a project of theirs that finds the installed rbdgen and calls
// rbdgen_add_robot, configured and built by CMake the way they would, then run.
//   - a firmware project cross-compiled with an arm-none-eabi toolchain file builds whole;
//   - a host project built with -march=native, and one with portable flags, get eval drivers that
//     print what `rbdgen eval` prints;
//   - editing one robot's URDF regenerates and recompiles that robot only, with the expected change;
//   - the installed Python package, with nothing but the prefix on PYTHONPATH, builds a robot's module
//     from a shell with the installed generator, and the module computes what `rbdgen eval` prints.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Shell = test::CommandResult;
using test::shell;

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}


// A folder with rbdgen installed into prefix/ (cmake --install of this build), removed at the end.
class Consumer : public ::testing::Test {
protected:
    fs::path root = fs::temp_directory_path() / ("rbdgen_consumer_" + std::to_string(::getpid()) + "_" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::path prefix = root / "prefix";
    void SetUp() override {
        fs::remove_all(root);
        const Shell install = shell("cmake --install " + std::string(RBDGEN_BINARY_DIR) + " --prefix " + prefix.string());
        ASSERT_EQ(install.status, 0) << install.out;
    }
    void TearDown() override {
        if (!HasFailure()) fs::remove_all(root);
    }
    // Configures and builds the project in `dir` into dir/build with extra cmake arguments.
    Shell build(const fs::path& dir, const std::string& configure_args = "") {
        const Shell configure = shell("cmake -S " + dir.string() + " -B " + (dir / "build").string() +
                                      " -DCMAKE_PREFIX_PATH=" + prefix.string() + " " + configure_args);
        if (configure.status != 0) return configure;
        return shell("cmake --build " + (dir / "build").string() + " -j2");
    }
};

json eval_with(const std::string& command, const std::string& state_file) {
    const Shell r = shell(command + " < " + state_file);
    EXPECT_EQ(r.status, 0) << command << "\n" << r.out;
    return json::parse(r.out.substr(r.out.find('{')));
}

void expect_same_numbers(const json& a, const json& b, const std::string& path) {
    ASSERT_EQ(a.type(), b.type()) << path;
    if (a.is_number()) {
        EXPECT_NEAR(a.get<double>(), b.get<double>(), 1e-12 * std::max(1.0, std::abs(b.get<double>()))) << path;
    } else if (a.is_structured()) {
        ASSERT_EQ(a.size(), b.size()) << path;
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (b.is_object()) expect_same_numbers(a.at(it.key()), it.value(), path + "." + it.key());
        }
        if (a.is_array())
            for (size_t i = 0; i < a.size(); ++i) expect_same_numbers(a[i], b[i], path + "[" + std::to_string(i) + "]");
    } else {
        EXPECT_EQ(a, b) << path;
    }
}

TEST_F(Consumer, CrossCompiledFirmwareProjectBuildsWhole) {
    if (shell("command -v arm-none-eabi-g++").status != 0)
        GTEST_SKIP() << "arm-none-eabi-g++ is not installed (Debian gcc-arm-none-eabi; scripts/install-deps.sh installs it)";
    // A toolchain file as firmware projects write them (Cortex-M4F, hard float, bare metal).
    write(root / "cortex_m4f.cmake", R"(
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb -fno-exceptions -fno-rtti")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nosys.specs")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
)");
    const fs::path project = root / "firmware";
    write(project / "CMakeLists.txt", R"(
cmake_minimum_required(VERSION 3.20)
project(firmware CXX)
find_package(rbdgen REQUIRED NO_CMAKE_FIND_ROOT_PATH)  # a host install: not under the target's root
rbdgen_add_robot(arm URDF )" + test::project_model("arm7.urdf") + R"( SCALAR float KERNELS rnea aba)
add_executable(firmware.elf main.cpp)
target_link_libraries(firmware.elf PRIVATE arm)
)");
    write(project / "main.cpp", R"(
#include "arm.hpp"
// Bare metal: the kernels run on static buffers; the result leaves through a volatile.
volatile float sink;
int main() {
    static arm::Scalar q[arm::NQ], qd[arm::NV], qdd[arm::NV], tau[arm::NV], back[arm::NV];
    static const arm::Scalar gravity[3] = {0, 0, -9.81f};
    q[1] = 0.5f;
    arm::rnea(q, qd, qdd, gravity, tau);
    arm::aba(q, qd, tau, gravity, back);
    sink = tau[1] + back[1];
    return 0;
}
)");
    const Shell built = build(project, "-DCMAKE_TOOLCHAIN_FILE=" + (root / "cortex_m4f.cmake").string() +
                                           " -DCMAKE_BUILD_TYPE=MinSizeRel");
    ASSERT_EQ(built.status, 0) << built.out;
    const fs::path elf = project / "build" / "firmware.elf";
    ASSERT_TRUE(fs::exists(elf));
    EXPECT_FALSE(fs::exists(project / "build" / "arm_eval")) << "a host driver was built for the target";
    // An ARM executable holding both kernels.
    const Shell header = shell("arm-none-eabi-readelf -h " + elf.string());
    EXPECT_NE(header.out.find("ARM"), std::string::npos) << header.out;
    EXPECT_NE(header.out.find("EXEC"), std::string::npos) << header.out;
    const Shell symbols = shell("arm-none-eabi-nm -C " + elf.string());
    EXPECT_NE(symbols.out.find("arm::rnea("), std::string::npos) << symbols.out;
    EXPECT_NE(symbols.out.find("arm::aba("), std::string::npos) << symbols.out;
}

TEST_F(Consumer, EvalDriverWorksWhateverTheProjectsFlags) {
    const fs::path project = root / "host";
    write(project / "CMakeLists.txt", R"(
cmake_minimum_required(VERSION 3.20)
project(host CXX)
find_package(rbdgen REQUIRED)
rbdgen_add_robot(arm URDF )" + test::project_model("arm7.urdf") + R"( KERNELS rnea gravity crba COMPILE_OPTIONS -O1)
)");
    const std::string state = test::project_model("arm7_state.json");
    const json reference =
        eval_with(prefix.string() + "/bin/rbdgen eval " + test::project_model("arm7.urdf") + " --state " + state, "/dev/null");
    for (const std::string flags : {"-march=native", "-O2"}) {
        SCOPED_TRACE(flags);
        fs::remove_all(project / "build");
        const Shell built = build(project, "-DCMAKE_BUILD_TYPE=Release \"-DCMAKE_CXX_FLAGS=" + flags + "\"");
        ASSERT_EQ(built.status, 0) << built.out;
        const json generated = eval_with((project / "build" / "arm_eval").string(), state);
        for (const char* result : {"rnea", "gravity", "crba"}) expect_same_numbers(generated[result], reference[result], result);
    }
}

// A two-link planar arm (both joints about y): at q = 0, link2's centre of mass sits 0.7 m from
// joint1 and 0.2 m from joint2 along x, so adding Δm to link2 adds -Δm·g·(0.7, 0.2) to the gravity
// torques (the torque that holds a point mass against gravity along -z).
std::string planar_arm(double link2_mass) {
    return R"(<robot name="planar">
  <link name="base"/>
  <link name="link1"><inertial><origin xyz="0.3 0 0"/><mass value="1.5"/><inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="link2"><inertial><origin xyz="0.2 0 0"/><mass value=")" +
           std::to_string(link2_mass) + R"("/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="joint1" type="revolute"><parent link="base"/><child link="link1"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <joint name="joint2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0.5 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
</robot>
)";
}

TEST_F(Consumer, EditingOneUrdfRegeneratesAndRecompilesThatRobotOnly) {
    const fs::path project = root / "two_robots";
    write(project / "planar.urdf", planar_arm(2.0));
    write(project / "CMakeLists.txt", R"(
cmake_minimum_required(VERSION 3.20)
project(two_robots CXX)
find_package(rbdgen REQUIRED)
rbdgen_add_robot(planar URDF planar.urdf KERNELS rnea gravity COMPILE_OPTIONS -O0)
rbdgen_add_robot(arm URDF )" + test::project_model("arm7.urdf") + R"( KERNELS rnea gravity COMPILE_OPTIONS -O0)
)");
    ASSERT_EQ(build(project, "-DCMAKE_BUILD_TYPE=Debug").status, 0);
    const fs::path build_dir = project / "build";
    write(root / "state.json", R"({"q": {}})");
    const json before = eval_with((build_dir / "planar_eval").string(), (root / "state.json").string());
    const fs::path arm_kernel = build_dir / "rbdgen" / "arm" / "arm_rnea.cpp", arm_library = build_dir / "libarm.a";
    const auto arm_kernel_time = fs::last_write_time(arm_kernel), arm_library_time = fs::last_write_time(arm_library);

    ::sleep(1);  // timestamps of the edit and of the first build must differ
    const double delta = 0.75;
    write(project / "planar.urdf", planar_arm(2.0 + delta));
    const Shell rebuilt = shell("cmake --build " + build_dir.string() + " -j2");
    ASSERT_EQ(rebuilt.status, 0) << rebuilt.out;
    EXPECT_NE(rebuilt.out.find("rbdgen: generating planar"), std::string::npos) << rebuilt.out;
    EXPECT_EQ(rebuilt.out.find("rbdgen: generating arm"), std::string::npos) << rebuilt.out;
    EXPECT_EQ(rebuilt.out.find("arm_rnea.cpp.o"), std::string::npos) << rebuilt.out;
    EXPECT_EQ(fs::last_write_time(arm_kernel), arm_kernel_time);
    EXPECT_EQ(fs::last_write_time(arm_library), arm_library_time);

    const json after = eval_with((build_dir / "planar_eval").string(), (root / "state.json").string());
    const double g = 9.81;
    EXPECT_NEAR(after["gravity"]["joint1"].get<double>() - before["gravity"]["joint1"].get<double>(), -delta * g * 0.7, 1e-12);
    EXPECT_NEAR(after["gravity"]["joint2"].get<double>() - before["gravity"]["joint2"].get<double>(), -delta * g * 0.2, 1e-12);
    EXPECT_NEAR(after["rnea"]["joint2"].get<double>() - before["rnea"]["joint2"].get<double>(), -delta * g * 0.2, 1e-12);
}

TEST_F(Consumer, InstalledPythonPackageBuildsAModuleFromAShell) {
    // Neither RBDGEN nor PATH leads to a generator: the package runs the one installed beside it.
    const std::string env = "cd " + root.string() + " && env -u RBDGEN PATH=/usr/bin:/bin PYTHONPATH=" +
                            (prefix / RBDGEN_INSTALL_PYTHONDIR).string() + " /usr/bin/python3 ";
    const std::string arm = test::project_model("arm7.urdf");
    const Shell built = shell(env + "-m rbdgen build " + arm + " --kernels gravity --emission compact -o out");
    ASSERT_EQ(built.status, 0) << built.out;
    // the progress line (stderr), then the module's path (stdout)
    const size_t progress = built.out.find("rbdgen: compiling arm7"), last = built.out.rfind('\n', built.out.size() - 2);
    ASSERT_NE(progress, std::string::npos) << built.out;
    ASSERT_NE(last, std::string::npos) << built.out;
    const std::string module = built.out.substr(last + 1, built.out.size() - last - 2);
    EXPECT_EQ(module, (root / "out" / fs::path(module).filename()).string()) << built.out;
    EXPECT_EQ(fs::path(module).extension(), ".so") << built.out;
    EXPECT_TRUE(fs::is_regular_file(module)) << built.out;
    // its gravity torques at a state against the installed generator's eval, through the module's state()
    write(root / "check.py", R"(import json, subprocess, sys
sys.path.insert(0, "out")
import arm7, numpy as np
q = arm7.neutral() + np.linspace(-1, 1, arm7.NQ)
json.dump(arm7.state(q=q), open("state.json", "w"))
ev = json.loads(subprocess.run([sys.argv[1], "eval", sys.argv[2], "--state", "state.json"], capture_output=True, text=True, check=True).stdout)
want = np.array([ev["gravity"][j] for j in arm7.joint_names])
print("difference", np.abs(arm7.gravity(q) - want).max() / max(1.0, np.abs(want).max()))
)");
    const Shell checked = shell(env + "check.py " + (prefix / "bin" / "rbdgen").string() + " " + arm);
    ASSERT_EQ(checked.status, 0) << checked.out;
    const size_t at = checked.out.find("difference ");
    ASSERT_NE(at, std::string::npos) << checked.out;
    EXPECT_LT(std::stod(checked.out.substr(at + 11)), 1e-12) << checked.out;
    // a user's mistake: exit status 1, the message naming it
    const Shell bad = shell(env + "-m rbdgen build " + arm + " --kernels no_such_kernel -o bad");
    EXPECT_EQ(bad.status, 1) << bad.out;
    EXPECT_NE(bad.out.find("no_such_kernel"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace rbdgen
