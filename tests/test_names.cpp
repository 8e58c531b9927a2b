// A URDF's names are untrusted input to a code generator. The same robot with hostile names (quotes,
// backslashes, newlines, */, //, #include, non-ASCII, C++ keywords) and with plain names: both
// generated libraries compiled (with -Wall -Wextra -Werror, see CMakeLists.txt), the hostile one's
// sources hold no statement outside comments and string literals that the plain one does not, and
// both give the same numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "nasty.hpp"
#include "plain.hpp"

namespace {

namespace fs = std::filesystem;

// The source with comments and string/char literals removed: what the compiler sees as code.
std::string code_only(const std::string& src) {
    std::string out;
    for (size_t i = 0; i < src.size(); ++i) {
        if (src.compare(i, 2, "//") == 0) {
            while (i < src.size() && src[i] != '\n') ++i;
            out += '\n';
        } else if (src.compare(i, 2, "/*") == 0) {
            i = src.find("*/", i + 2);
            if (i == std::string::npos) return out + "<unterminated comment>";
            ++i;
        } else if (src[i] == '"' || src[i] == '\'') {
            const char quote = src[i];
            for (++i; i < src.size() && src[i] != quote; ++i)
                if (src[i] == '\\') ++i;
                else if (src[i] == '\n') return out + "<newline in literal>";
            out += "\"\"";
        } else {
            out += src[i];
        }
    }
    return out;
}

TEST(Names, HostileNamesInjectNothing) {
    for (const auto& e : fs::directory_iterator(NASTY_DIR)) {
        if (e.path().extension() != ".cpp" && e.path().extension() != ".hpp") continue;
        std::ifstream in(e.path());
        std::stringstream s;
        s << in.rdbuf();
        const std::string code = code_only(s.str());
        SCOPED_TRACE(e.path().string());
        EXPECT_EQ(code.find("abort"), std::string::npos);
        EXPECT_EQ(code.find("<newline in literal>"), std::string::npos);
        EXPECT_EQ(code.find("<unterminated comment>"), std::string::npos);
        std::istringstream lines(code);
        for (std::string line; std::getline(lines, line);)
            if (line.find("#include") != std::string::npos)
                EXPECT_TRUE(line.find("<cstdlib>") == std::string::npos) << line;
    }
}

TEST(Names, JointNamesSurviveExactly) {
    ASSERT_EQ(nasty::NB, 3);
    EXPECT_STREQ(nasty::joints[0].name, "j1\"); abort(); //");
    EXPECT_STREQ(nasty::joints[1].name, "class");
    EXPECT_STREQ(nasty::joints[2].name, "j3 \\\n abort(); \xc3\xbf \xe6\x97\xa5\xe6\x9c\xac */");
}

TEST(Names, SameNumbersAsPlainNames) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-2, 2);
    double a[3], b[3], c[3], g[3] = {0, 0, -9.81}, x[3], y[3], H1[9], H2[9];
    for (int s = 0; s < 100; ++s) {
        for (int i = 0; i < 3; ++i) a[i] = u(rng), b[i] = u(rng), c[i] = u(rng);
        nasty::rnea(a, b, c, g, x);
        plain::rnea(a, b, c, g, y);
        for (int i = 0; i < 3; ++i) EXPECT_EQ(x[i], y[i]);
        nasty::crba(a, H1);
        plain::crba(a, H2);
        for (int i = 0; i < 9; ++i) EXPECT_EQ(H1[i], H2[i]);
        nasty::aba(a, b, c, g, x);
        plain::aba(a, b, c, g, y);
        for (int i = 0; i < 3; ++i) EXPECT_EQ(x[i], y[i]);
    }
}

}  // namespace
