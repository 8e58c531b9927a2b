// Every error a user can cause: one clear message naming the file, link or joint and what to change,
// and a non-zero exit status from the command. Untidy but valid URDFs load.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fuzz/fuzz_commands.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;

class BadInput : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("rbdgen_bad_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
    // The command fails with status 1 and a single error line containing every `needles`.
    void expect_error(const std::string& args, std::initializer_list<std::string> needles) {
        const test::CommandResult r = test::run(args);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("rbdgen: error: "), std::string::npos) << r.out;
        for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in: " << r.out;
    }
};

std::string link(const std::string& name, const std::string& inertial = "") {
    return "<link name=\"" + name + "\">" + inertial + "</link>";
}
std::string inertial(double m, double ixx, double iyy, double izz, double ixy = 0) {
    return "<inertial><mass value=\"" + std::to_string(m) + "\"/><inertia ixx=\"" + std::to_string(ixx) + "\" iyy=\"" +
           std::to_string(iyy) + "\" izz=\"" + std::to_string(izz) + "\" ixy=\"" + std::to_string(ixy) +
           "\" ixz=\"0\" iyz=\"0\"/></inertial>";
}
std::string joint(const std::string& name, const std::string& type, const std::string& parent, const std::string& child) {
    return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent + "\"/><child link=\"" + child +
           "\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>";
}
std::string robot(const std::string& body) { return "<robot name=\"r\">" + body + "</robot>"; }
const std::string kGood = inertial(1, 0.1, 0.1, 0.1);

TEST_F(BadInput, MissingFile) { expect_error("info " + (dir / "nope.urdf").string(), {"nope.urdf", "cannot open"}); }

TEST_F(BadInput, MalformedXmlNamesTheLine) {
    const std::string f = write("m.urdf", "<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n");
    expect_error("info " + f, {f + ":3:", "not well-formed XML", "fix the XML at that line"});
}

// MJCF: each refusal names the file, the line, the element and what to change.
std::string mujoco(const std::string& worldbody, const std::string& top = "") {
    return "<mujoco model=\"m\">\n" + top + "<worldbody>\n" + worldbody + "</worldbody>\n</mujoco>\n";
}
const std::string kBody = "<body name=\"b\" pos=\"0 0 1\">\n<joint name=\"j\" axis=\"0 1 0\"/>\n<geom type=\"sphere\" size=\"0.1\"/>\n</body>\n";

TEST_F(BadInput, MjcfMalformedXmlNamesLineAndColumn) {
    const std::string f = write("m.xml", "<mujoco>\n  <worldbody>\n    <body name=\"a\">\n  </worldbody>\n</mujoco>\n");
    expect_error("info " + f, {f + ":4:3:", "not well-formed XML", "fix the XML"});
}

TEST_F(BadInput, MjcfElementsThatCannotBeHonoured) {
    const std::string b = "<body name=\"b\">\n";
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {mujoco(b + "<joint name=\"j\" class=\"arm\"/><geom size=\"0.1\"/></body>\n"), {":4:", "<joint name='j'>", "class 'arm' is not defined"}},
        {mujoco("<body name=\"b\" quat=\"0 0 0 0\">\n<joint name=\"j\"/><geom size=\"0.1\"/></body>\n"), {":3:", "<body name='b'>", "is zero", "unit quaternion"}},
        {mujoco(b + "<joint name=\"shoulder\" type=\"ball\"/><joint name=\"elbow\"/><geom size=\"0.1\"/></body>\n"),
         {":4:", "<joint name='shoulder'>", "ball joint followed by a rotation", "put the ball joint last"}},
        {mujoco(b + "<joint name=\"j\" type=\"screw\"/><geom size=\"0.1\"/></body>\n"), {"<joint name='j'>", "type=\"screw\"", "hinge, slide, ball or free"}},
        {mujoco(b + "<joint name=\"j\"/><geom type=\"mesh\" mesh=\"shell\"/></body>\n"), {"body 'b'", "mesh geom", "<inertial>"}},
        {mujoco(b + "<joint name=\"j\" pos=\"0 nan 0\"/><geom size=\"0.1\"/></body>\n"), {"<joint name='j'>", "pos=\"0 nan 0\"", "'nan' is not"}},
        {mujoco(b + "<joint name=\"j\" axis=\"0 0\"/><geom size=\"0.1\"/></body>\n"), {"<joint name='j'>", "holds 2 numbers", "write 3"}},
        {mujoco(b + "<joint name=\"j\" axis=\"0 0 0\"/><geom size=\"0.1\"/></body>\n"), {"<joint name='j'>", "is zero"}},
        {mujoco("<joint name=\"loose\"/>\n" + kBody), {"<joint name='loose'>", "moves nothing", "put it in a <body>"}},
        {mujoco(b + "<freejoint name=\"f\"/><geom size=\"0.1\"/><body name=\"c\"><freejoint name=\"g\"/><geom size=\"0.1\"/></body></body>\n"),
         {"<freejoint name='g'>", "child of <worldbody>"}},
        {mujoco(b + "<composite type=\"grid\" count=\"2 2 1\"/></body>\n"), {"<composite>", "expand it into <body> elements"}},
        {mujoco(kBody + kBody), {"<body name='b'>", "already a body's or site's", "rename one"}},
        {mujoco(kBody, "<include file=\"absent.xml\"/>\n"), {"<include>", "cannot open", "absent.xml"}},
        {mujoco(b + "<inertial mass=\"1\"/><joint name=\"j\"/></body>\n"), {"<inertial>", "neither diaginertia nor fullinertia"}},
    };
    for (size_t k = 0; k < cases.size(); ++k) {
        SCOPED_TRACE(cases[k].first);
        const std::string f = write("bad" + std::to_string(k) + ".xml", cases[k].first);
        std::vector<std::string> needles = {f};
        for (const std::string& n : cases[k].second) needles.push_back(n);
        const test::CommandResult r = test::run("info " + f);
        EXPECT_EQ(r.status, 1) << r.out;
        for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in: " << r.out;
    }
    // an include of itself, and --floating-base on a file that says its own base
    const std::string self = write("self.xml", mujoco(kBody, "<include file=\"self.xml\"/>\n"));
    expect_error("info " + self, {"self.xml", "includes itself"});
    expect_error("info --floating-base " + write("fb.xml", mujoco(kBody)), {"fb.xml", "--floating-base", "<freejoint/>"});
}

// SDFormat: each refusal names the file, the line where libsdformat gives one, the joint or link,
// and what to change.
std::string sdformat(const std::string& extra) {
    return "<sdf version=\"1.8\">\n<model name=\"m\">\n<link name=\"a\"/>\n<link name=\"b\"><inertial><mass>1</mass></inertial></link>\n" +
           extra + "\n</model>\n</sdf>\n";
}
std::string sdf_joint(const std::string& type, const std::string& inside = "<axis><xyz>1 0 0</xyz></axis>") {
    return "<joint name=\"j\" type=\"" + type + "\"><parent>a</parent><child>b</child>" + inside + "</joint>";
}

TEST_F(BadInput, SdfElementsThatCannotBeHonoured) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {sdformat(sdf_joint("revolute2", "<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2>")), {":5:", "joint 'j'", "revolute2", "universal joint"}},
        {sdformat(sdf_joint("screw")), {":5:", "joint 'j'", "screw joint"}},
        {sdformat(sdf_joint("gearbox")), {"joint 'j'", "gearbox"}},
        {sdformat(sdf_joint("revolute", "<axis><xyz>nan 0 0</xyz></axis>")), {":5:", "<xyz>", "fix the SDF there"}},
        {sdformat(sdf_joint("revolute") + "<link name=\"c\"/>"), {"'a', 'c'", "not one tree", "connect them"}},
        {sdformat(sdf_joint("revolute") + "<joint name=\"k\" type=\"revolute\"><parent>b</parent><child>a</child><axis><xyz>1 0 0</xyz></axis></joint>"),
         {"loop", "remove one"}},
        {sdformat(sdf_joint("revolute") + "<include><uri>model://absent</uri></include>"), {":5:", "model://absent"}},
        {sdformat(sdf_joint("revolute") + "<link name=\"d\"><inertial><mass>-1</mass></inertial></link>"), {"link named d", "invalid inertia"}},
        {sdformat(sdf_joint("revolute", "<axis><xyz>1 0 0</xyz></axis><drake:rotor_inertia>-1</drake:rotor_inertia>")),
         {":5:", "joint 'j'", "drake:rotor_inertia", ">= 0"}},
        {"<sdf version=\"1.8\"><world name=\"w\"/></sdf>\n", {"no robot", "one <model>"}},
        {"<sdf version=\"1.8\">\n<model name=\"m\">\n<link name=\"a\">\n</model>\n</sdf>\n", {":4:", "not well-formed XML"}},
        // a version libsdformat throws std::invalid_argument on (found by fuzz_sdf), in the file and in one it includes
        {"\n<sdf version=\"1.x\">\n<model name=\"m\"><link name=\"a\"/></model>\n</sdf>\n", {":2:", "<sdf version=\"1.x\">", "such as \"1.9\""}},
        {sdformat(sdf_joint("revolute") + "<include><uri>bad_version.sdf</uri></include>"), {"libsdformat cannot read", "stoi"}},
    };
    write("bad_version.sdf", "<sdf version=\".1\"><model name=\"n\"><link name=\"c\"/></model></sdf>\n");
    for (size_t k = 0; k < cases.size(); ++k) {
        SCOPED_TRACE(cases[k].first);
        const std::string f = write("bad" + std::to_string(k) + ".sdf", cases[k].first);
        std::vector<std::string> needles = {f};
        for (const std::string& n : cases[k].second) needles.push_back(n);
        const test::CommandResult r = test::run("info " + f);
        EXPECT_EQ(r.status, 1) << r.out;
        for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in: " << r.out;
        EXPECT_EQ(r.out.find("urdf_parser"), std::string::npos) << "urdfdom's log leaked: " << r.out;
    }
}

// A xacro file given by habit is refused before anything else with what to do, whatever in it would
// fail first: a ${...} where a number goes, or a body that is one macro call.
TEST_F(BadInput, XacroFileIsToldToBeExpandedFirst) {
    const std::string ns = "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n";
    const std::string property = write("p.urdf.xacro", ns + "  <xacro:property name=\"w\" value=\"0.1\"/>\n" + link("a") +
                                                           link("b", inertial(1, 0.1, 0.1, 0.1)) + joint("j", "revolute", "a", "b") + "</robot>\n");
    expect_error("info " + property, {property + ":2: ", property + " is a xacro file: expand it first (`xacro " + property + " > robot.urdf`)"});
    const std::string expression =
        write("e.urdf", ns + link("a") + "\n" + "<link name=\"b\"><inertial><mass value=\"${w*2-.02}\"/></inertial></link>" +
                            joint("j", "revolute", "a", "b") + "</robot>\n");
    expect_error("info " + expression, {expression + ":3: ", "is a xacro file: expand it first"});
    const std::string macro = write("m.xacro", ns + "\n\n  <xacro:arm prefix=\"left_\"/>\n</robot>\n");
    expect_error("generate " + macro + " -o " + (dir / "out").string(), {macro + ":4: ", "is a xacro file"});
    EXPECT_FALSE(fs::exists(dir / "out"));
    // xacro keeps its namespace in the URDFs it writes, and $(find ...) in a mesh's file name means
    // nothing to rbdgen: such a URDF loads
    const std::string expanded = write("x.urdf", ns + link("a") + "<link name=\"b\">" + std::string(inertial(1, 0.1, 0.1, 0.1)) +
                                                     "<visual><geometry><mesh filename=\"$(find arm)/b.stl\"/></geometry></visual></link>" +
                                                     joint("j", "revolute", "a", "b") + "</robot>\n");
    const test::CommandResult r = test::run("info " + expanded);
    EXPECT_EQ(r.status, 0) << r.out;
}

TEST_F(BadInput, NegativeMass) {
    const std::string f = write("neg.urdf", robot(link("a") + link("arm", inertial(-1, 0.1, 0.1, 0.1)) + joint("j", "revolute", "a", "arm")));
    expect_error("info " + f, {"neg.urdf", "link 'arm'", "negative mass"});
}

TEST_F(BadInput, InertiaNotPositiveDefinite) {
    const std::string f = write("pd.urdf", robot(link("a") + link("arm", inertial(1, 0.1, 0.1, 0.1, 0.5)) + joint("j", "revolute", "a", "arm")));
    expect_error("info " + f, {"pd.urdf", "link 'arm'", "positive semi-definite"});
}

TEST_F(BadInput, TriangleInequality) {
    const std::string f = write("tri.urdf", robot(link("a") + link("arm", inertial(1, 0.1, 0.1, 0.5)) + joint("j", "revolute", "a", "arm")));
    expect_error("info --strict-inertia " + f, {"tri.urdf", "link 'arm'", "triangle inequality"});
    // Real URDFs have such inertias (allegro, talos): by default they load, with a warning.
    const test::CommandResult r = test::run("info " + f);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("warning: " + f + ": link 'arm'"), std::string::npos) << r.out;
}

TEST_F(BadInput, DisconnectedTree) {
    const std::string f = write("two.urdf", robot(link("a") + link("b", kGood) + link("c") + joint("j", "revolute", "a", "b")));
    expect_error("info " + f, {"two.urdf", "[a]", "[c]", "disconnected"});
}

TEST_F(BadInput, LoopingTree) {
    const std::string f = write("loop.urdf", robot(link("a", kGood) + link("b", kGood) + joint("j1", "revolute", "a", "b") +
                                                   joint("j2", "revolute", "b", "a")));
    expect_error("info " + f, {"loop.urdf", "loop"});
    // a loop beside a tree, after a joint that is not in it: the loop's joints are named, only they
    const std::string g = write("beside.urdf", robot(link("base", kGood) + link("c", kGood) + link("a", kGood) + link("b", kGood) +
                                                     joint("j0", "revolute", "base", "c") + joint("j1", "revolute", "c", "a") +
                                                     joint("j2", "revolute", "a", "b") + joint("j3", "revolute", "b", "a")));
    expect_error("info " + g, {"beside.urdf", "joints 'j2', 'j3' form a loop", "remove a joint"});
    const test::CommandResult r = test::run("info " + g);
    EXPECT_EQ(r.out.find("'j1'"), std::string::npos) << r.out;
    // a loop in a <robot> that other top-level elements precede (urdfdom reads the first <robot>)
    const std::string h = write("after.urdf", "<?xml version=\"1.0\"?>\n" + link("stray") +
                                                  robot(link("a", kGood) + link("b", kGood) + joint("j1", "revolute", "a", "b") +
                                                        joint("j2", "revolute", "b", "a")));
    expect_error("info " + h, {"after.urdf", "joints 'j1', 'j2' form a loop"});
}

// A planar joint loads as three coordinates named after it; a URDF joint or link already named like
// one of them is refused, naming both. (Its dynamics: tests/test_algorithms.cpp, PlanarJoint.)
TEST_F(BadInput, PlanarJointCoordinateNames) {
    const std::string f = write("planar.urdf", robot(link("a") + link("b", kGood) + joint("slide", "planar", "a", "b")));
    const test::CommandResult ok = test::run("info " + f);
    EXPECT_EQ(ok.status, 0) << ok.out;
    EXPECT_NE(ok.out.find("joint order       slide.x slide.y slide.theta"), std::string::npos) << ok.out;
    EXPECT_NE(ok.out.find("1 planar"), std::string::npos) << ok.out;
    const std::string g = write("clash.urdf", robot(link("a") + link("b", kGood) + link("c", kGood) + joint("slide", "planar", "a", "b") +
                                                    joint("slide.y", "revolute", "b", "c")));
    expect_error("info " + g, {"clash.urdf", "planar joint 'slide'", "joint named 'slide.y'", "rename one"});
    const std::string h = write("clash_link.urdf", robot(link("a") + link("slide.x", kGood) + joint("slide", "planar", "a", "slide.x")));
    expect_error("info " + h, {"clash_link.urdf", "planar joint 'slide'", "link named 'slide.x'", "rename one"});
}

TEST_F(BadInput, UnknownJointType) {
    const std::string f = write("sph.urdf", robot(link("a") + link("b", kGood) + joint("ball", "spherical", "a", "b")));
    expect_error("info " + f, {"sph.urdf", "[ball]", "spherical"});
}

TEST_F(BadInput, ZeroAxis) {
    std::string text = robot(link("a") + link("b", kGood) + joint("j", "revolute", "a", "b"));
    text.replace(text.find("0 0 1"), 5, "0 0 0");
    expect_error("info " + write("axis.urdf", text), {"axis.urdf", "joint 'j'", "axis"});
}

TEST_F(BadInput, StateNamesUnknownJoint) {
    const std::string f = test::project_model("arm7.urdf");
    expect_error("eval " + f + " --state " + write("s.json", R"({"q": {"elbow": 1}})"), {"s.json", "'elbow'", "arm7.urdf"});
}

TEST_F(BadInput, StateHoldsNonNumbers) {
    const std::string f = test::project_model("arm7.urdf");
    expect_error("eval " + f + " --state " + write("s.json", R"({"q": {"joint001": "one"}})"), {"s.json", "q.joint001", "not a number"});
    expect_error("eval " + f + " --state " + write("g.json", R"({"gravity": [0, null, 1]})"), {"g.json", "gravity[1]"});
    expect_error("eval " + f + " --state " + write("k.json", R"({"qq": {}})"), {"k.json", "'qq'"});
    expect_error("eval " + f + " --state " + write("j.json", R"({"q": )"), {"j.json", "not valid JSON"});
}

TEST_F(BadInput, UnknownOption) { expect_error("info --fast " + test::project_model("arm7.urdf"), {"--fast"}); }

// The N-CMTM kernels: an order out of range (generate writes nothing, eval reads no state), a motion
// entry with the wrong number of derivatives, a motion naming an unknown joint, a state without motion.
TEST_F(BadInput, NcmtmOrderOutOfRange) {
    const std::string f = test::project_model("arm7.urdf");
    const fs::path out = dir / "out";
    for (const char* order : {"0", "13", "-2"}) {
        expect_error("generate " + f + " -o " + out.string() + " --ncmtm-order " + order, {"--ncmtm-order " + std::string(order), "1", "12"});
        EXPECT_FALSE(fs::exists(out)) << order;
        expect_error("eval " + f + " --state " + write("none.json", "{}") + " --ncmtm-order " + order, {"--ncmtm-order", "out of range"});
    }
}

// --batch: a width the batched kernels do not take, or not a number: nothing written.
TEST_F(BadInput, BatchWidthNotTwoFourOrEight) {
    const std::string f = test::project_model("arm7.urdf");
    const fs::path out = dir / "out";
    for (const char* w : {"3", "16", "-4"}) {
        expect_error("generate " + f + " -o " + out.string() + " --batch " + w, {"--batch " + std::string(w), "2, 4 or 8"});
        EXPECT_FALSE(fs::exists(out)) << w;
    }
    expect_error("generate " + f + " -o " + out.string() + " --batch four", {"--batch"});
    EXPECT_FALSE(fs::exists(out));
}

// --emission: a form the generator does not have: the message names it and the four it has.
TEST_F(BadInput, EmissionNotOneOfTheFour) {
    const fs::path out = dir / "out";
    expect_error("generate " + test::project_model("arm7.urdf") + " -o " + out.string() + " --emission fast",
                 {"--emission 'fast'", "straight, compact, uniform and auto"});
    EXPECT_FALSE(fs::exists(out));
}

// --external-forces: a link that does not exist (its closest names given), one welded to the fixed
// base, one named twice: nothing written. A state's wrench on a link that is not there, or not six numbers.
TEST_F(BadInput, ExternalForcesOnLinksThatCannotTakeThem) {
    const std::string f = test::project_model("arm7.urdf");
    const fs::path out = dir / "out";
    expect_error("generate " + f + " -o " + out.string() + " --external-forces link007,link08",
                 {"--external-forces", "no link 'link08'", "arm7.urdf", "closest", "link001"});
    expect_error("generate " + f + " -o " + out.string() + " --external-forces base_link", {"'base_link'", "welded to the fixed base"});
    expect_error("generate " + f + " -o " + out.string() + " --external-forces link002,link002", {"'link002'", "named twice"});
    EXPECT_FALSE(fs::exists(out));
    expect_error("eval " + f + " --state " + write("w.json", R"({"external_wrenches": {"hand": [0, 0, 0, 0, 0, 1]}})"),
                 {"w.json", "external_wrenches", "no link 'hand'"});
    expect_error("eval " + f + " --state " + write("v.json", R"({"external_wrenches": {"link007": [0, 0, 1]}})"),
                 {"v.json", "external_wrenches.link007", "6 numbers"});
}

// --frames and --parameters name links the same way; a frame may be welded to the base, a payload not.
TEST_F(BadInput, FramesAndParametersOnLinksThatCannotTakeThem) {
    const std::string f = test::project_model("arm7.urdf");
    const fs::path out = dir / "out";
    expect_error("generate " + f + " -o " + out.string() + " --frames tool", {"--frames", "no link 'tool'", "closest"});
    expect_error("generate " + f + " -o " + out.string() + " --parameters link7", {"--parameters", "no link 'link7'", "link007"});
    expect_error("generate " + f + " -o " + out.string() + " --parameters base_link", {"--parameters", "welded to the fixed base"});
    expect_error("generate " + f + " -o " + out.string() + " --kernels frame_motion", {"frame_motion", "--frames"});
    EXPECT_FALSE(fs::exists(out));
    expect_error("eval " + f + " --state " + write("p.json", R"({"parameters": {"link007": [1, 0, 0]}})"),
                 {"p.json", "parameters.link007", "10 numbers"});
}

TEST_F(BadInput, NcmtmMotionWithWrongDerivatives) {
    const std::string f = test::project_model("arm7.urdf");
    // order 2 needs q and three derivatives
    expect_error("eval " + f + " --ncmtm-order 2 --state " + write("m.json", R"({"motion": {"joint002": [0.1, 0.2, 0.3]}})"),
                 {"m.json", "motion.joint002", "has 3 entries", "need 4"});
    // an empty entry (found by fuzz_motion: it crashed reading the joint's position)
    expect_error("eval " + f + " --ncmtm-order 2 --state " + write("e.json", R"({"motion": {"joint001": [0, 0, 0, 0], "joint002": []}})"),
                 {"e.json", "motion.joint002", "non-empty"});
    expect_error("eval " + f + " --ncmtm-order 2 --state " + write("u.json", R"({"motion": {"elbow": [0, 0, 0, 0]}})"),
                 {"u.json", "'motion'", "'elbow'"});
    expect_error("eval " + f + " --ncmtm-order 2 --state " + write("n.json", R"({"motion": {"joint002": [0, "x", 0, 0]}})"),
                 {"n.json", "motion.joint002[1]", "not a number"});
    expect_error("eval " + f + " --ncmtm-order 2 --state " + write("e.json", R"({"q": {"joint002": 1}})"),
                 {"e.json", "\"motion\""});
    const std::string h = test::project_model("humanoid30.urdf");
    expect_error("eval --floating-base " + h + " --ncmtm-order 1 --state " +
                     write("b.json", R"({"base": {"motion": [[0, 0, 0, 0, 0, 0, 1], [1, 2, 3, 4, 5, 6]]}})"),
                 {"b.json", "base.motion", "has 2 entries", "need 3"});
    expect_error("eval --floating-base " + h + " --ncmtm-order 1 --state " +
                     write("c.json", R"({"base": {"motion": [[0, 0, 0, 0, 0, 0, 1], [1, 2, 3], [0, 0, 0, 0, 0, 0]]}})"),
                 {"c.json", "base.motion[1]", "6 numbers"});
}

TEST_F(BadInput, MasslessSubtreeAllowsInverseButRefusesForwardDynamics) {
    // A massless intermediate link is fine; a joint that moves only massless links makes H singular.
    const std::string f = write("massless.urdf", robot(link("a") + link("mid") + link("b", kGood) + link("tip") +
                                                       joint("j1", "revolute", "a", "mid") + joint("j2", "revolute", "mid", "b") +
                                                       joint("j3", "revolute", "b", "tip")));
    const std::string state = write("s.json", R"({"q": {"j1": 0.1}, "a": {"j2": 1}})");
    const test::CommandResult r = test::run("eval " + f + " --state " + state);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"rnea\""), std::string::npos);
    EXPECT_EQ(r.out.find("\"aba\""), std::string::npos);
    EXPECT_NE(r.out.find("joint 'j3' moves only massless links"), std::string::npos) << r.out;
    // the derivatives likewise: those of inverse dynamics printed, those of forward dynamics refused
    const test::CommandResult d = test::run("eval " + f + " --kernels rnea_derivatives,aba_derivatives --state " + state);
    EXPECT_EQ(d.status, 0) << d.out;
    EXPECT_NE(d.out.find("\"rnea_derivatives\""), std::string::npos) << d.out;
    EXPECT_EQ(d.out.find("\"aba_derivatives\""), std::string::npos) << d.out;
    EXPECT_NE(d.out.find("joint 'j3' moves only massless links"), std::string::npos) << d.out;
    // and emitted returning NaN, which report.json says
    const fs::path out = dir / "massless_out";
    const test::CommandResult g = test::run("generate " + f + " --kernels rnea_derivatives,aba_derivatives -o " + out.string());
    EXPECT_EQ(g.status, 0) << g.out;
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(out / "report.json"));
    EXPECT_TRUE(report["kernels"]["aba_derivatives"].contains("refused")) << report["kernels"]["aba_derivatives"];
    EXPECT_FALSE(report["kernels"]["rnea_derivatives"].contains("refused"));
}

// H⁻¹ of a singular H is refused as forward dynamics is: not printed by eval, emitted returning NaN.
TEST_F(BadInput, MinvOfASingularHIsRefusedAsForwardDynamics) {
    const std::string f = std::string(RBDGEN_SOURCE_DIR) + "/tests/data/massless_tip.urdf";
    const std::string state = write("s.json", R"({"q": {"shoulder": 0.1}})");
    const test::CommandResult r = test::run("eval " + f + " --kernels minv,coriolis --state " + state);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.find("\"minv\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"coriolis\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("joint 'wrist' moves only massless links"), std::string::npos) << r.out;
    const fs::path out = dir / "minv_out";
    const test::CommandResult g = test::run("generate " + f + " --kernels minv,coriolis -o " + out.string());
    EXPECT_EQ(g.status, 0) << g.out;
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(out / "report.json"));
    EXPECT_TRUE(report["kernels"]["minv"].contains("refused")) << report["kernels"]["minv"];
    EXPECT_FALSE(report["kernels"]["coriolis"].contains("refused"));
}

// A robot whose moving bodies have no mass has no centre of mass: the kernels that divide by it are
// refused when named (nothing written), left out of the default set and of eval's output.
TEST_F(BadInput, CentreOfMassOfAMasslessRobotIsRefused) {
    const std::string f = write("massless.urdf", robot(link("a") + link("b") + joint("j1", "revolute", "a", "b")));
    const fs::path out = dir / "com_out";
    expect_error("generate " + f + " --kernels fk,com -o " + out.string(), {"--kernels", "com", "total mass", "zero", "massless.urdf"});
    EXPECT_FALSE(fs::exists(out));
    expect_error("generate " + f + " --kernels centroidal_derivatives -o " + out.string(),
                 {"--kernels", "centroidal_derivatives", "total mass", "zero", "massless.urdf"});
    EXPECT_FALSE(fs::exists(out));
    const test::CommandResult g = test::run("generate " + f + " -o " + out.string());
    EXPECT_EQ(g.status, 0) << g.out;
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(out / "report.json"));
    EXPECT_TRUE(report["kernels"].contains("jacobians"));
    for (const char* k : {"com", "com_motion", "com_jacobian", "centroidal", "centroidal_momentum_rate"})
        EXPECT_FALSE(report["kernels"].contains(k)) << k;
    const test::CommandResult e = test::run("eval " + f + " --state " + write("s.json", "{}"));
    EXPECT_EQ(e.status, 0) << e.out;
    EXPECT_EQ(e.out.find("\"com\""), std::string::npos) << e.out;
    EXPECT_NE(e.out.find("\"energy\""), std::string::npos) << e.out;
}

TEST_F(BadInput, FrameJacobianRatesWithoutFrames) {
    const fs::path out = dir / "frames_out";
    expect_error("generate " + test::project_model("arm7.urdf") + " --kernels frame_jacobians_dot -o " + out.string(),
                 {"--kernels", "frame_jacobians_dot", "--frames"});
    EXPECT_FALSE(fs::exists(out));
}

TEST_F(BadInput, DerivativeKernelsRefuseWhatTheStateCannotGive) {
    const std::string h = test::project_model("humanoid30.urdf");
    expect_error("eval --floating-base " + h + " --kernels rnea_derivatives,aba_derivative --state " + write("s.json", "{}"),
                 {"--kernels", "unknown kernel 'aba_derivative'", "aba_derivatives"});
    expect_error("eval --floating-base " + h + " --kernels rnea_derivatives --state " +
                     write("q.json", R"({"base": {"quaternion": [0, 0, 0, 2]}})"),
                 {"q.json", "'base.quaternion' has norm 2", "unit quaternion"});
}

TEST_F(BadInput, MimicJointsWarn) {
    std::string text = robot(link("a") + link("b", kGood) + link("c", kGood) + joint("j1", "prismatic", "a", "b") +
                             joint("j2", "prismatic", "a", "c"));
    text.insert(text.rfind("</joint>"), "<mimic joint=\"j1\"/>");
    const test::CommandResult r = test::run("info " + write("mimic.urdf", text));
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("warning: " + (dir / "mimic.urdf").string() + ": joint 'j2' mimics 'j1'"), std::string::npos) << r.out;
}


// Every input with which a fuzzer (tests/fuzz/) ever found a crash, a hang or a sanitizer report,
// kept in tests/fuzz/regressions/<target>/, run through the rbdgen executable as its fuzzer runs it:
// refused with a message or accepted, never a signal or an internal error (status 3).
TEST_F(BadInput, NoInputKeptFromFuzzingCrashesTheGenerator) {
    int kept = 0;
    for (const std::string& target : fuzz::kTargets) {
        const fs::path found = fs::path(RBDGEN_SOURCE_DIR) / "tests/fuzz/regressions" / target;
        if (!fs::exists(found)) continue;
        for (const fs::directory_entry& e : fs::directory_iterator(found)) {
            const fs::path input = dir / fuzz::input_name(target);
            fs::copy_file(e.path(), input, fs::copy_options::overwrite_existing);
            std::string command;
            for (const std::string& a : fuzz::arguments(target, input.string(), (dir / "out").string(), RBDGEN_SOURCE_DIR))
                command += " '" + a + "'";
            const test::CommandResult r = test::run(command);
            EXPECT_TRUE(r.status == 0 || r.status == 1) << target << "/" << e.path().filename() << ": status " << r.status << "\n" << r.out;
            // in the sanitized build: nor any sanitizer report (a leak keeps the status)
            EXPECT_EQ(r.out.find("Sanitizer"), std::string::npos) << target << "/" << e.path().filename() << ":\n" << r.out;
            ++kept;
        }
    }
    if (kept == 0) GTEST_SKIP() << "no input kept from fuzzing yet: tests/fuzz/regressions/ holds none";
}

}  // namespace
}  // namespace rbdgen
