// model/xml_text.hpp: a URDF in any encoding reaches the generator as UTF-8 (or is refused with its
// line), and every number urdfdom would read is used as written or refused, never dropped.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/xml_text.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A one-joint robot whose link and joint names are given as bytes of the file's encoding.
std::string robot_text(const std::string& declaration, const std::string& link, const std::string& joint) {
    return declaration + "\n<robot name=\"r\">\n<link name=\"base\"/>\n<link name=\"" + link +
           "\"><inertial><origin xyz=\"0.1 0 0\"/><mass value=\"2\"/>"
           "<inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
           "<joint name=\"" + joint + "\" type=\"revolute\"><parent link=\"base\"/><child link=\"" + link +
           "\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n</robot>\n";
}

// UTF-16LE bytes of an ASCII-only text with one U+00E9 marker ('#') replaced.
std::string utf16le(const std::string& text) {
    std::string out = "\xFF\xFE";
    for (char c : text) {
        if (c == '#') out += std::string("\xE9\0", 2);
        else out += std::string(1, c) + std::string(1, '\0');
    }
    return out;
}

struct Encoded {
    std::string label, bytes, link, joint;  // the file, and the names expected in UTF-8
};
void PrintTo(const Encoded& e, std::ostream* os) { *os << e.label; }

class Encodings : public ::testing::TestWithParam<Encoded> {};

TEST_P(Encodings, NamesComeOutAsUtf8InInfoGenerateAndEval) {
    const Encoded& e = GetParam();
    const test::TempFile urdf(e.label + ".urdf", e.bytes);
    const test::CommandResult info = test::run("info --json " + urdf.str());
    ASSERT_EQ(info.status, 0) << info.out;
    const json j = json::parse(info.out);
    EXPECT_EQ(j["root_link"], "base");
    EXPECT_EQ(j["joint_order"], json::array({e.joint}));

    // The state names the joint in UTF-8, as a user's JSON does; rbdgen eval reads and prints it.
    const test::TempFile state(e.label + "_state.json", json{{"q", {{e.joint, 0.0}}}}.dump());
    const test::CommandResult eval = test::run("eval " + urdf.str() + " --state " + state.str() + " 2>/dev/null");
    ASSERT_EQ(eval.status, 0) << eval.out;
    // Holding 2 kg at 0.1 m along x against gravity along -z, about y: -(0.1 × 2 × 9.81).
    EXPECT_NEAR(json::parse(eval.out)["gravity"][e.joint].get<double>(), -0.1 * 2 * 9.81, 1e-12);

    const fs::path dir = fs::temp_directory_path() / ("rbdgen_enc_" + std::to_string(::getpid()) + e.label);
    const test::CommandResult gen = test::run("generate " + urdf.str() + " -o " + dir.string() + " --name r --kernels rnea");
    ASSERT_EQ(gen.status, 0) << gen.out;
    std::ifstream report(dir / "report.json");
    EXPECT_NO_THROW(static_cast<void>(json::parse(report)));  // valid JSON: the names in it are UTF-8
    fs::remove_all(dir);
}

const std::string kLatin1Decl = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>";
INSTANTIATE_TEST_SUITE_P(
    Xml, Encodings,
    ::testing::Values(
        Encoded{"latin1", robot_text(kLatin1Decl, "l\xE9g", "h\xE9p"), "l\u00e9g", "h\u00e9p"},
        Encoded{"ascii_references", robot_text("<?xml version=\"1.0\" encoding=\"us-ascii\"?>", "l&#233;g", "h&#xE9;p&#x4E2D;"),
                "l\u00e9g", "h\u00e9p\u4e2d"},
        Encoded{"no_declaration_references", robot_text("", "l&#233;g", "h&#233;p"), "l\u00e9g", "h\u00e9p"},
        Encoded{"windows1252", robot_text("<?xml version='1.0' encoding='windows-1252'?>", "l\x80g", "h\xE9p"), "l\u20acg",
                "h\u00e9p"},
        Encoded{"utf16_bom", utf16le(robot_text("<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "l#g", "h#p")), "l\u00e9g",
                "h\u00e9p"},
        Encoded{"utf8_bom", "\xEF\xBB\xBF" + robot_text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "l\u00e9g", "h\u00e9p"),
                "l\u00e9g", "h\u00e9p"}),
    [](const auto& info) { return info.param.label; });

// Refused, with the file, the line and what to change.
void expect_refused(const std::string& label, const std::string& bytes, std::initializer_list<std::string> needles) {
    const test::TempFile urdf(label + ".urdf", bytes);
    const test::CommandResult r = test::run("info --json " + urdf.str());
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("rbdgen: error: " + urdf.str()), std::string::npos) << r.out;
    for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in: " << r.out;
}

TEST(Encodings, BytesThatTheDeclaredEncodingDoesNotHaveAreRefusedWithTheirLine) {
    expect_refused("ascii_raw", robot_text("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>", "base2", "h\xE9p"),
                   {"line 5", "not valid US-ASCII"});
    expect_refused("utf8_raw", robot_text("<?xml version=\"1.0\"?>", "l\xE9g", "hip"), {"line 4", "not valid UTF-8"});
}

TEST(Encodings, AnUnknownEncodingIsRefusedByName) {
    expect_refused("klingon", robot_text("<?xml version=\"1.0\" encoding=\"x-klingon\"?>", "leg", "hip"),
                   {"'X-KLINGON'", "save the file as UTF-8"});
}

TEST(Encodings, AReferenceToNoCharacterIsRefusedNamingTheJoint) {
    expect_refused("surrogate", robot_text("", "leg", "h&#xD800;p"), {"joint 'h\\xED\\xA0\\x80p'", "rename it"});
}

TEST(Encodings, ConversionKeepsLineNumbers) {
    const std::string latin1 = robot_text(kLatin1Decl, "l\xE9g", "hip");
    const std::string utf8 = xml_to_utf8(latin1, "f.urdf");
    EXPECT_EQ(std::count(utf8.begin(), utf8.end(), '\n'), std::count(latin1.begin(), latin1.end(), '\n'));
    EXPECT_NE(utf8.find("l\u00e9g"), std::string::npos);
    EXPECT_TRUE(valid_utf8(utf8));
}

// On a real arm (ur5): each value urdfdom cannot read, or reads as non-finite, in one moving
// link's <inertial> or one joint's <origin>, <axis>, <limit> is refused naming the element and value.
struct Edit {
    std::string label, find, replace_with, owner, needle;  // '@' in replace_with and needle: the value
};
void PrintTo(const Edit& e, std::ostream* os) { *os << e.label; }
std::string with_value(std::string text, const std::string& value) { return text.replace(text.find('@'), 1, value); }

class UnreadableValues : public ::testing::TestWithParam<std::tuple<Edit, std::string>> {};

TEST_P(UnreadableValues, AreRefusedNamingLinkOrJointAndValue) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    const auto& [edit, value] = GetParam();
    std::ifstream in(test::shared_model("ur5.urdf"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find(edit.find);
    ASSERT_NE(at, std::string::npos) << edit.find;
    text.replace(at, edit.find.size(), with_value(edit.replace_with, value));
    const test::TempFile urdf("ur5_" + edit.label + ".urdf", text);
    for (const std::string command : {"info ", "generate -o /nonexistent/never "}) {
        const test::CommandResult r = test::run(command + urdf.str());
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("rbdgen: error: " + urdf.str()), std::string::npos) << r.out;
        EXPECT_NE(r.out.find(edit.owner), std::string::npos) << r.out;
        EXPECT_NE(r.out.find(with_value(edit.needle, value)), std::string::npos) << r.out;
    }
}

INSTANTIATE_TEST_SUITE_P(
    RealArm, UnreadableValues,
    ::testing::Combine(
        ::testing::Values(
            Edit{"mass", "<mass value=\"8.393\"/>", "<mass value=\"@\"/>", "link 'upper_arm_link'", "<mass value=\"@\">"},
            Edit{"inertia", "ixx=\"0.22689067591\"", "ixx=\"@\"", "link 'upper_arm_link'", "ixx=\"@\""},
            Edit{"origin", "xyz=\"0.0 -0.1197 0.425\"", "xyz=\"0.0 -0.1197 @\"", "joint 'elbow_joint'",
                 "<origin xyz=\"0.0 -0.1197 @\">"},
            Edit{"axis", "<axis xyz=\"0 1 0\"/>\n    <limit effort=\"150.0\" lower=\"-3.14159265359\"",
                 "<axis xyz=\"0 1 @\"/>\n    <limit effort=\"150.0\" lower=\"-3.14159265359\"", "joint 'elbow_joint'",
                 "<axis xyz=\"0 1 @\">"},
            Edit{"limit", "lower=\"-3.14159265359\"", "lower=\"@\"", "joint 'elbow_joint'", "<limit lower=\"@\">"}),
        ::testing::Values("abc", "nan", "inf", "-inf", "1e400", "")),
    [](const auto& info) {
        std::string v = std::get<1>(info.param);
        for (char& c : v)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        return std::get<0>(info.param).label + "_" + (v.empty() ? "empty" : v);
    });

// A mass that is finite but overflows the dynamics: an error naming the joint, never null or inf.
TEST(UnreadableValues, OverflowingResultsAreAnErrorNamingTheJoint) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    std::ifstream in(test::shared_model("ur5.urdf"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("<mass value=\"8.393\"/>"), 21, "<mass value=\"1e308\"/>");
    const test::TempFile urdf("ur5_huge.urdf", text);
    const test::TempFile state("ur5_huge_state.json", R"({"q": {"shoulder_lift_joint": 0.3}})");
    const test::CommandResult eval = test::run("eval " + urdf.str() + " --state " + state.str());
    EXPECT_EQ(eval.status, 1) << eval.out;
    EXPECT_NE(eval.out.find("joint 'shoulder_pan_joint'"), std::string::npos) << eval.out;
    EXPECT_NE(eval.out.find("overflow"), std::string::npos) << eval.out;
    EXPECT_EQ(eval.out.find("null"), std::string::npos) << eval.out;

    const fs::path dir = fs::temp_directory_path() / ("rbdgen_huge_" + std::to_string(::getpid()));
    const test::CommandResult gen = test::run("generate " + urdf.str() + " -o " + dir.string());
    EXPECT_EQ(gen.status, 1) << gen.out;
    EXPECT_NE(gen.out.find("overflow double arithmetic"), std::string::npos) << gen.out;
    EXPECT_FALSE(fs::exists(dir));
}

TEST(UnreadableValues, ValuesThatAreReadKeepTheirMeaning) {
    // '+2' and '2e0' are the numbers 2 for urdfdom and for us alike: accepted.
    for (const char* v : {"+2", "2e0", "2.0"}) {
        std::string text = robot_text("", "leg", "hip");
        text.replace(text.find("<mass value=\"2\"/>"), 17, std::string("<mass value=\"") + v + "\"/>");
        EXPECT_NO_THROW(check_urdf_text(xml_to_utf8(text, "f.urdf"), "f.urdf")) << v;
        EXPECT_NEAR(load_urdf_string(text, "f.urdf").bodies[0].I.m, 2.0, 0) << v;
    }
}

}  // namespace
}  // namespace rbdgen
