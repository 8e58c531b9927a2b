// `rbdgen generate` as users run it: bad input leaves the output directory untouched, output is
// deterministic, and the LTDL kernels cost exactly Featherstone's Table 1 on Table 2's topologies.
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "emit/compact.hpp"
#include "emit/generate.hpp"
#include "emit/kernel.hpp"
#include "emit/ltdl_loops.hpp"
#include "model/synthetic.hpp"
#include "model/topology.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> read_dir(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        std::ifstream in(e.path(), std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        files[e.path().filename().string()] = s.str();
    }
    return files;
}

class Generate : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("rbdgen_generate_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir / "out"); std::ofstream(dir / "out" / "keep.txt") << "mine"; }
    void TearDown() override { fs::remove_all(dir); }
    void expect_refused(const std::string& args, std::initializer_list<std::string> needles) {
        const auto before = read_dir(dir / "out");
        const test::CommandResult r = test::run("generate " + args + " -o " + (dir / "out").string());
        EXPECT_EQ(r.status, 1) << r.out;
        for (const std::string& n : needles) EXPECT_NE(r.out.find(n), std::string::npos) << "missing '" << n << "' in " << r.out;
        EXPECT_EQ(read_dir(dir / "out"), before) << "the output directory changed";
    }
};

TEST_F(Generate, UnknownKernel) {
    expect_refused(test::project_model("arm7.urdf") + " --kernels rnea,jerk", {"'jerk'", "fk, rnea"});
}

TEST_F(Generate, KernelTooLarge) {
    expect_refused(test::project_model("humanoid30.urdf") + " --floating-base --max-operations 2000", {"kernel", "--max-operations", "2000"});
}

TEST_F(Generate, BadNameAndScalar) {
    expect_refused(test::project_model("arm7.urdf") + " --name 'my robot'", {"--name", "identifier"});
    expect_refused(test::project_model("arm7.urdf") + " --name class", {"--name"});
    expect_refused(test::project_model("arm7.urdf") + " --scalar half", {"--scalar", "double or float"});
}

// --depfile: NAME.d in Make's syntax, the header depending on the robot's file and every file it
// includes (rbdgen_add_robot's DEPFILE: an edit of an included file regenerates).
TEST_F(Generate, DepfileListsTheIncludedFiles) {
    const std::string model = test::project_model("mjcf/forms_radian.xml");
    const test::CommandResult r = test::run("generate " + model + " --kernels rnea --name fr --depfile -o " + (dir / "out").string());
    ASSERT_EQ(r.status, 0) << r.out;
    std::ifstream in(dir / "out" / "fr.d");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, (dir / "out" / "fr.hpp").string() + ": " + model + " " + test::project_model("mjcf/forms_radian_defaults.xml") + "\n");
}

TEST_F(Generate, BadSnapOptions) {
    expect_refused(test::project_model("arm7.urdf") + " --snap-tolerance 0.1", {"--snap-tolerance", "between 0 and 1e-3"});
    expect_refused(test::project_model("arm7.urdf") + " --snap-max-effect x", {"--snap-max-effect", "a number"});
    expect_refused(test::project_model("arm7.urdf") + " --snap-max-effect 2", {"--snap-max-effect", "between 0 and 1"});
}

TEST_F(Generate, BadUrdf) { expect_refused((dir / "none.urdf").string(), {"none.urdf", "cannot open"}); }

TEST_F(Generate, UnwritableOutputDirectory) {
    std::ofstream(dir / "file") << "x";
    const test::CommandResult r = test::run("generate " + test::project_model("arm7.urdf") + " -o " + (dir / "file" / "sub").string());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("cannot create the output directory"), std::string::npos) << r.out;
}

TEST_F(Generate, WritesEverythingAndIsDeterministic) {
    const std::string args = "generate " + test::project_model("arm7.urdf") + " --name arm -o ";
    ASSERT_EQ(test::run(args + (dir / "a").string()).status, 0);
    ASSERT_EQ(test::run(args + (dir / "b").string()).status, 0);
    const auto a = read_dir(dir / "a"), b = read_dir(dir / "b");
    EXPECT_EQ(a, b);
    for (const std::string& k : kernel_names()) EXPECT_TRUE(a.count("arm_" + k + ".cpp")) << k;
    for (const char* f : {"arm.hpp", "rbdgen_runtime.hpp", "arm_eval.cpp", "arm_bench.cpp", "report.md", "report.json"})
        EXPECT_TRUE(a.count(f)) << f;
    // Nothing but <cmath> and the runtime header is included by a kernel.
    for (const auto& [name, text] : a) {
        if (name.find("arm_") != 0 || name == "arm_eval.cpp" || name == "arm_bench.cpp") continue;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("#include", 0) == 0)
                EXPECT_TRUE(line == "#include <cmath>" || line == "#include \"arm.hpp\"") << name << ": " << line;
    }
}

// --ncmtm-order adds the three N-CMTM kernels, with their order in report.json; --kernels naming one
// of them emits only that one (beside the fixed kernels it names); without the order they are unknown.
TEST_F(Generate, NcmtmKernelsOfTheOrderAsked) {
    const std::string arm = test::project_model("arm7.urdf");
    ASSERT_EQ(test::run("generate " + arm + " --name arm --kernels rnea --ncmtm-order 2 -o " + (dir / "a").string()).status, 0);
    auto files = read_dir(dir / "a");
    for (const char* k : {"arm_rnea.cpp", "arm_ncmtm_fk.cpp", "arm_cornea.cpp", "arm_ncmtm_fd.cpp"}) EXPECT_TRUE(files.count(k)) << k;
    const nlohmann::json report = nlohmann::json::parse(files.at("report.json"));
    EXPECT_EQ(report["ncmtm_order"], 2);
    EXPECT_TRUE(report["kernels"].contains("cornea"));
    // arrays sized by the order: Psi (N + 1) x NV, tau N x NV
    EXPECT_NE(files.at("arm.hpp").find("constexpr int cornea_Psi_size = 21;"), std::string::npos);
    EXPECT_NE(files.at("arm.hpp").find("constexpr int cornea_tau_size = 14;"), std::string::npos);
    ASSERT_EQ(test::run("generate " + arm + " --name arm --kernels rnea,cornea --ncmtm-order 2 -o " + (dir / "b").string()).status, 0);
    files = read_dir(dir / "b");
    EXPECT_TRUE(files.count("arm_cornea.cpp") && files.count("arm_rnea.cpp"));
    EXPECT_FALSE(files.count("arm_ncmtm_fk.cpp") || files.count("arm_ncmtm_fd.cpp"));
    expect_refused(arm + " --kernels cornea", {"'cornea'"});
}

// The float error budget (emit/float_budget.hpp) is in report.json for every kernel, and --scalar
// float warns by name about a kernel that fails in float: an H whose LTDL pivot rounds to zero
// (tests/data/float_fragile.urdf); the double build of the same robot does not warn.
TEST_F(Generate, FloatBudgetWarnsAboutAKernelThatFailsInFloat) {
    const std::string urdf = std::string(RBDGEN_SOURCE_DIR) + "/tests/data/float_fragile.urdf";
    const test::CommandResult f = test::run("generate " + urdf + " --scalar float -o " + (dir / "f").string());
    EXPECT_EQ(f.status, 0) << f.out;
    EXPECT_NE(f.out.find("warning: kernel fd_crba_ltdl returns infinite or NaN values in float"), std::string::npos) << f.out;
    EXPECT_EQ(f.out.find("kernel aba"), std::string::npos) << f.out;  // the ABA keeps its accuracy on the same robot
    const nlohmann::json report = nlohmann::json::parse(read_dir(dir / "f").at("report.json"));
    for (const auto& [name, k] : report["kernels"].items()) {
        ASSERT_TRUE(k.contains("float_error")) << name;
        EXPECT_EQ(k["float_error"]["states"], 1000) << name;
    }
    EXPECT_EQ(report["kernels"]["fd_crba_ltdl"]["float_error"]["worst"], "inf");
    EXPECT_LT(report["kernels"]["aba"]["float_error"]["worst"].get<double>(), 1e-4);
    EXPECT_LE(report["kernels"]["rnea"]["float_error"]["p99"].get<double>(), report["kernels"]["rnea"]["float_error"]["worst"].get<double>());
    const test::CommandResult d = test::run("generate " + urdf + " -o " + (dir / "d").string());
    EXPECT_EQ(d.status, 0);
    EXPECT_EQ(d.out.find("warning: kernel"), std::string::npos) << d.out;
}

// --measure: each kernel's machine code, data and stack, on the host's compiler and on the
// Cortex-M cross compiler (64- and 32-bit ELF). The oracles are binutils' own `size -A` (the .text,
// and the .rodata and .data sections of an object compiled here with the same flags) and the
// stack-usage file GCC writes.
TEST_F(Generate, MeasureGivesEachKernelsMachineCodeAndStack) {
    const std::string arm = std::string(RBDGEN_SOURCE_DIR) + "/models/arm7.urdf";
    struct Tool { std::string compiler, size; };
    std::vector<Tool> tools{{"c++", "size"}};
    if (test::shell("command -v arm-none-eabi-g++").status == 0) tools.push_back({"arm-none-eabi-g++", "arm-none-eabi-size"});
    for (const Tool& t : tools) {
        const fs::path out = dir / t.compiler;
        const test::CommandResult r = test::run("generate " + arm + " --kernels rnea,aba --measure " + t.compiler + " -o " + out.string());
        ASSERT_EQ(r.status, 0) << r.out;
        const nlohmann::json report = nlohmann::json::parse(read_dir(out).at("report.json"));
        const nlohmann::json& host = report["host_build"];
        EXPECT_EQ(host["compiler"], t.compiler);
        ASSERT_EQ(host["kernels"].size(), 2u) << host.dump();
        for (const std::string kernel : {"rnea", "aba"}) {
            const std::string src = (out / ("arm_" + kernel + ".cpp")).string(), obj = (dir / (kernel + ".o")).string();
            ASSERT_EQ(test::shell("cd " + out.string() + " && " + t.compiler + " " + host["flags"].get<std::string>() + " -c " + src + " -o " + obj).status, 0);
            // code: .text and the kernel's own code section; data: .rodata, .data and its own table sections
            const std::string own = "rbdgen_arm_" + kernel + "_";
            const test::CommandResult size = test::shell(t.size + " -A " + obj + " | awk '$1 ~ /^(\\.text|" + own + "code$)/ {s += $2} END {print s}'");
            EXPECT_EQ(host["kernels"][kernel]["text_bytes"].get<long>(), std::stol(size.out)) << t.compiler << " " << kernel;
            const test::CommandResult data = test::shell(t.size + " -A " + obj + " | awk '$1 ~ /^(\\.(rodata|data)|" + own + "(tables|calls)$)/ {s += $2} END {print s + 0}'");
            EXPECT_EQ(host["kernels"][kernel]["data_bytes"].get<long>(), std::stol(data.out)) << t.compiler << " " << kernel;
            // what warm() reads: the own sections alone, a cache line of 64 bytes at a time
            const nlohmann::json& warm = host["kernels"][kernel]["warm"];
            const test::CommandResult owned = test::shell(t.size + " -A " + obj + " | awk '$1 ~ /^" + own + "code$/ {c += $2; n += int(($2 + 63) / 64)} $1 ~ /^" + own +
                                                          "(tables|calls)$/ {d += $2; n += int(($2 + 63) / 64)} END {print c + 0, d + 0, n + 0}'");
            EXPECT_EQ(owned.out, fmt::format("{} {} {}\n", warm["code_bytes"].get<long>(), warm["table_bytes"].get<long>(), warm["cache_lines"].get<long>()))
                << t.compiler << " " << kernel;
            EXPECT_GT(warm["code_bytes"].get<long>(), 0) << kernel;
            EXPECT_EQ(warm["table_bytes"].get<long>() > 0, kernel == "aba") << "arm7's aba is compact (tables), its rnea straight-line";
            // the worst frame, plus a compact kernel's worst step function's (arm7's aba is compact)
            const test::CommandResult su = test::shell("awk -F'\t' '$1 ~ /_step[0-9]+\\(/ {if ($2 > s) s = $2; next} $2 > m {m = $2} "
                                                       "END {print m + s}' " + (dir / (kernel + ".su")).string());
            EXPECT_EQ(host["kernels"][kernel]["stack_bytes"].get<long>(), std::stol(su.out)) << t.compiler << " " << kernel;
        }
        EXPECT_GT(host["kernels"]["aba"]["text_bytes"].get<long>(), host["kernels"]["rnea"]["text_bytes"].get<long>());
        EXPECT_NE(read_dir(out).at("report.md").find("| aba | "), std::string::npos);
    }
    expect_refused(arm + " --kernels rnea --measure " + (dir / "no_such_compiler").string(), {"--measure", "no_such_compiler", "'rnea'"});
}

// --emission auto keeps LTDL unrolled while its estimated machine code fits a 32 KB instruction cache
// (the floating humanoid's: compact, 13 functions), and writes Featherstone's loops beyond it
// (talos_reduced's, 19 functions of 1868 operations). The compiler checks the estimate: the
// humanoid's unrolled LTDL measures within 25% of it and under 32 KB.
TEST_F(Generate, AutoKeepsLtdlUnrolledWhileItFitsACache) {
    const fs::path out = dir / "humanoid";
    const test::CommandResult r = test::run("generate " + test::project_model("humanoid30.urdf") +
                                            " --floating-base --name humanoid --kernels ltdl --measure c++ -o " + out.string());
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json report = nlohmann::json::parse(read_dir(out).at("report.json"));
    const nlohmann::json& ltdl = report["kernels"]["ltdl"];
    EXPECT_EQ(ltdl["emission"], "compact");
    EXPECT_FALSE(ltdl.contains("ltdl_loops"));
    const long measured = report["host_build"]["kernels"]["ltdl"]["text_bytes"].get<long>();
    EXPECT_LE(measured, kInstructionCache);
    // the estimate from the distinct functions' operations, counted here from the emitted source
    const std::string source = read_dir(out).at("humanoid_ltdl.cpp");
    std::string::size_type from = source.find("RBDGEN_NOINLINE RBDGEN_CODE void"), n = 0;
    for (auto p = source.find("    const Scalar t", from); p != std::string::npos; p = source.find("    const Scalar t", p + 1)) ++n;
    const long estimate = estimated_code_bytes(static_cast<long>(n), true);
    std::cout << "humanoid ltdl: " << n << " operations in its functions, estimated " << estimate << " bytes, measured " << measured << "\n";
    EXPECT_LT(std::abs(estimate - measured), measured / 4);
    if (!test::shared_models_present()) GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): talos_reduced not tested";
    GenerateOptions options;
    options.name = "talos";
    options.kernels = {"ltdl"};
    const Model talos = load_urdf(test::shared_model("talos_reduced.urdf"), {.floating_base = true});
    const nlohmann::json t = nlohmann::json::parse(generate_sources(talos, options).at("report.json"))["kernels"]["ltdl"];
    EXPECT_EQ(t.value("ltdl_loops", false), true);
}

// Issue 15's size goal on the largest floating robot of ../shared/models: with --emission uniform the
// kernels that are largest straight-line (ABA and CRBA + LTDL, 157 and 236 KB at -Os) fit a 32 KB
// instruction cache, measured by compiling them; their step calls are loops over call tables, whose
// stack --measure still bounds.
TEST_F(Generate, UniformKernelsOfTalosFitAnInstructionCache) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    const fs::path out = dir / "talos";
    const test::CommandResult r = test::run("generate " + test::shared_model("talos_full_v2.urdf") +
                                            " --floating-base --name talos --kernels aba,fd_crba_ltdl --emission uniform --measure c++ -o " +
                                            out.string());
    ASSERT_EQ(r.status, 0) << r.out;
    const auto files = read_dir(out);
    const nlohmann::json report = nlohmann::json::parse(files.at("report.json"));
    for (const char* k : {"aba", "fd_crba_ltdl"}) {
        const long measured = report["host_build"]["kernels"][k]["text_bytes"].get<long>();
        std::cout << "talos " << k << " uniform: " << measured << " bytes of machine code\n";
        EXPECT_LE(measured, kInstructionCache) << k;
        // GCC marks the call loop's frame "dynamic,bounded": its bound, not "unbounded"
        EXPECT_TRUE(report["host_build"]["kernels"][k]["stack_bytes"].is_number()) << report["host_build"]["kernels"][k];
        EXPECT_NE(files.at(std::string("talos_") + k + ".cpp").find("_calls[j]"), std::string::npos) << k;
    }
}

// A problem's spy plots beside the report: D's nonzeros, and L + U with exactly the fill-in the
// report counts drawn red; report.md links all three; the problem's kernels include only <cmath>.
TEST_F(Generate, ProblemSpyPlotsShowThePatternAndTheFill) {
    ASSERT_EQ(test::run("generate " + test::project_model("arm7.urdf") + " --name arm --problem fd -o " + (dir / "p").string()).status, 0);
    const auto files = read_dir(dir / "p");
    const nlohmann::json fd = nlohmann::json::parse(files.at("report.json"))["problems"]["fd"];
    const auto count = [](const std::string& svg, const std::string& group) {
        const size_t start = svg.find("<g fill=\"" + group + "\">"), end = svg.find("</g>", start);
        long n = 0;
        for (size_t p = svg.find("<rect", start); p < end; p = svg.find("<rect", p + 1)) ++n;
        return n;
    };
    EXPECT_EQ(count(files.at("fd_D.svg"), "black"), fd["nnz_D"].get<long>());
    EXPECT_EQ(count(files.at("fd_D_permuted.svg"), "black"), fd["nnz_D"].get<long>());  // a square D: every row used
    EXPECT_EQ(count(files.at("fd_LU.svg"), "#d62728"), fd["fill"].get<long>());
    EXPECT_GT(fd["fill"].get<long>(), 0);
    EXPECT_EQ(count(files.at("fd_LU.svg"), "black") + fd["fill"].get<long>(), fd["nnz_LU"].get<long>());
    for (const char* svg : {"fd_D.svg", "fd_D_permuted.svg", "fd_LU.svg"})
        EXPECT_NE(files.at("report.md").find(std::string("(") + svg + ")"), std::string::npos) << svg;
    for (const char* k : {"lu", "assemble", "factor", "solve"}) {
        std::istringstream lines(files.at(std::string("arm_fd_") + k + ".cpp"));
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("#include", 0) == 0) EXPECT_TRUE(line == "#include <cmath>" || line == "#include \"arm.hpp\"") << line;
    }
}

// The `_sc` entry points of a real arm's kernels take sin and cos of q from the caller: each reads
// sin_q and cos_q and computes no sine or cosine itself (where the plain kernel calls rbdgen_sincos).
TEST_F(Generate, TrigEntryPointsReadSinQAndCallNoTrig) {
    ASSERT_EQ(test::run("generate " + test::project_model("arm7.urdf") + " --name arm --trig-entry-points -o " +
                        (dir / "sc").string()).status, 0);
    int checked = 0;
    for (const auto& [name, text] : read_dir(dir / "sc")) {
        const std::string kernel = name.substr(4, name.size() - 8);  // arm_<kernel>.cpp
        size_t sc = text.find("void " + kernel + "_sc(");
        if (sc == std::string::npos) continue;
        // a kernel with LTDL's loops (emit/ltdl_loops.hpp): its entry point's head comes first
        if (const size_t head = text.find("static void " + kernel + "_sc_head("); head < sc) sc = head;
        const std::string plain = text.substr(0, sc), entry = text.substr(sc);
        EXPECT_NE(plain.find("rbdgen_sincos"), std::string::npos) << name;
        EXPECT_EQ(entry.find("rbdgen_sincos"), std::string::npos) << name;
        EXPECT_EQ(entry.find("std::sin"), std::string::npos) << name;
        EXPECT_NE(entry.find("sin_q["), std::string::npos) << name;
        EXPECT_NE(entry.find("cos_q["), std::string::npos) << name;
        ++checked;
    }
    EXPECT_GE(checked, 7);  // every kernel of q but ltdl and ltdl_solve
}

// The operations as the algorithm writes them, before divisions that share a divisor became one
// reciprocal and multiplications (the paper's counts; report.json's ops_with_divisions).
sym::OpCounts as_written(const Kernel& k) { return k.ops_with_divisions.value_or(k.ops()); }

// Table 1: LTDL factorization D1 div + D2 (m + a); back-substitution n div + 2 D1 (m + a). Emitted,
// a pivot that divides two or more entries of its row is one reciprocal and a multiplication each.
TEST(LtdlCost, EqualsFeatherstoneTable1OnTable2Topologies) {
    for (const std::string topology : {"chain", "sidebranch", "bintree", "grid"}) {
        for (int m : {2, 3, 4, 5}) {
            SCOPED_TRACE(topology + " " + std::to_string(m));
            const Model model = load_urdf_string(synthetic_urdf(synthetic_tree(topology, m), 1), topology);
            const CostQuantities c = cost_quantities(expanded_parent(model));
            const Kernel ltdl = trace_kernel(model, kernel_spec("ltdl"));
            const sym::OpCounts f = as_written(ltdl);
            EXPECT_EQ(f.div, c.D1);
            EXPECT_EQ(f.mul, c.D2);
            EXPECT_EQ(f.add, c.D2);
            const std::vector<int> lambda = expanded_parent(model);
            long pivots = 0, shared = 0;  // pivots that divide, and the entries of those that divide two or more
            for (size_t k = 0; k < lambda.size(); ++k) {
                long d = 0;
                for (int i = lambda[k]; i >= 0; i = lambda[i]) ++d;
                pivots += d > 0;
                shared += d > 1 ? d : 0;
            }
            EXPECT_EQ(ltdl.ops().div, pivots);
            EXPECT_EQ(ltdl.ops().mul, c.D2 + shared);
            EXPECT_EQ(ltdl.ops().add, c.D2);
            const sym::OpCounts s = trace_kernel(model, kernel_spec("ltdl_solve")).ops();
            EXPECT_EQ(s.div, model.nv);
            EXPECT_EQ(s.mul, 2 * c.D1);
            EXPECT_EQ(s.add, 2 * c.D1);
        }
    }
}

// --keep-divisions emits the algorithm's own divisions: the counts report.json gives as written by
// default, and the same numbers (both traces evaluated on random inputs).
TEST(LtdlCost, KeepDivisionsEmitsTheCountsAsWritten) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    GenerateOptions options;
    options.name = "humanoid";
    options.kernels = {"ltdl", "aba"};
    const nlohmann::json shared = nlohmann::json::parse(generate_sources(model, options).at("report.json"));
    options.keep_divisions = true;
    const nlohmann::json kept = nlohmann::json::parse(generate_sources(model, options).at("report.json"));
    for (const char* k : {"ltdl", "aba"}) {
        ASSERT_TRUE(shared["kernels"][k].contains("ops_with_divisions")) << k;
        EXPECT_EQ(kept["kernels"][k]["ops"], shared["kernels"][k]["ops_with_divisions"]) << k;
        EXPECT_FALSE(kept["kernels"][k].contains("ops_with_divisions")) << k;
        EXPECT_LT(shared["kernels"][k]["ops"]["div"].get<int>(), kept["kernels"][k]["ops"]["div"].get<int>()) << k;
    }
    const Kernel a = trace_kernel(model, kernel_spec("ltdl")), b = trace_kernel(model, kernel_spec("ltdl"), sym::Graph::default_max_nodes, true);
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> H(model.nv * model.nv);
    for (int i = 0; i < model.nv; ++i)
        for (int j = 0; j < model.nv; ++j) H[i * model.nv + j] = i == j ? 10 + u(rng) : 0.1 * u(rng);
    const std::vector<double> va = a.graph->evaluate<double>({H}), vb = b.graph->evaluate<double>({H});
    const std::vector<int> oa = a.all_output_nodes(), ob = b.all_output_nodes();
    for (size_t k = 0; k < oa.size(); ++k) EXPECT_NEAR(va[oa[k]], vb[ob[k]], 1e-13 * std::max(1.0, std::abs(vb[ob[k]])));
}

// The compact emission (docs/emission.md): steps that trace to the same operations are one function.
// The bodies of a synthetic chain have general geometry alike, so their steps share functions: a
// chain twice as long has a step more a body and pass of RNEA and ABA and no more functions. Its trace, which keeps negative
// constants in place, costs no more than the straight-line one.
TEST(CompactEmission, EqualBodiesShareFunctions) {
    std::map<int, nlohmann::json> compact, straight;
    for (int n : {12, 24}) {
        const Model model = load_urdf_string(synthetic_urdf(synthetic_tree("chain", n), 3), "chain");
        GenerateOptions options;
        options.name = "chain";
        options.kernels = {"rnea", "crba", "aba", "fd_crba_ltdl"};
        options.emission = "compact";
        compact[n] = nlohmann::json::parse(generate_sources(model, options).at("report.json"))["kernels"];
        options.emission = "straight";
        straight[n] = nlohmann::json::parse(generate_sources(model, options).at("report.json"))["kernels"];
    }
    auto total = [](const nlohmann::json& ops) { return ops["add"].get<long>() + ops["mul"].get<long>() + ops["div"].get<long>(); };
    for (const char* k : {"rnea", "crba", "aba", "fd_crba_ltdl"}) {
        ASSERT_EQ(compact[12][k]["emission"], "compact") << k;
        EXPECT_EQ(straight[12][k]["emission"], "straight") << k;
        for (int n : {12, 24}) EXPECT_LE(total(compact[n][k]["ops"]), total(straight[n][k]["ops"])) << k << " " << n;
        // CRBA's step walks the body's ancestors and LTDL's its row: their operations grow with the depth
        const std::string name = k;
        if (name == "crba" || name == "fd_crba_ltdl") continue;
        const int passes = name == "rnea" ? 2 : 3;  // a step a body and pass
        EXPECT_EQ(compact[24][k]["compact"]["steps"].get<int>() - compact[12][k]["compact"]["steps"].get<int>(), passes * 12) << k;
        std::cout << k << ": " << compact[24][k]["compact"] << "\n";
        EXPECT_LE(compact[24][k]["compact"]["functions"].get<int>(), compact[12][k]["compact"]["functions"].get<int>()) << k;
        EXPECT_LT(compact[24][k]["compact"]["functions"].get<int>(), compact[24][k]["compact"]["steps"].get<int>() / 4) << k;
    }
}

// The uniform emission: talos_full's joint placements and inertias have many zero patterns, which
// the compact emission's steps keep apart; with them as table values, the bodies of one joint type
// share functions, for more operations (the zeros and ones multiplied). The same algorithm, and
// the same steps but CRBA's, whose walk to the ancestors is a step a hop in uniform (UniformStep,
// sym/step.hpp); the generated kernels are checked against the reference in tests/generated.
TEST(UniformEmission, BodiesShareFunctionsWhateverTheirZeros) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    const Model model = load_urdf(test::shared_model("talos_full_v2.urdf"), {.floating_base = true});
    std::map<std::string, nlohmann::json> report;
    for (const char* emission : {"compact", "uniform"}) {
        GenerateOptions options;
        options.name = "talos";
        options.kernels = {"rnea", "crba", "aba"};
        options.emission = emission;
        report[emission] = nlohmann::json::parse(generate_sources(model, options).at("report.json"))["kernels"];
    }
    auto total = [](const nlohmann::json& ops) { return ops["add"].get<long>() + ops["mul"].get<long>() + ops["div"].get<long>(); };
    for (const char* k : {"rnea", "crba", "aba"}) {
        const nlohmann::json &c = report["compact"][k], &u = report["uniform"][k];
        EXPECT_EQ(u["emission"], "uniform") << k;
        EXPECT_GE(u["compact"]["steps"].get<int>(), c["compact"]["steps"].get<int>()) << k;
        std::cout << k << ": compact " << c["compact"] << " " << total(c["ops"]) << " ops, uniform " << u["compact"] << " "
                  << total(u["ops"]) << " ops\n";
        // a function serves more than twice as many steps (uniform CRBA's hops are steps of their own)
        const auto per_function = [](const nlohmann::json& e) {
            return e["compact"]["steps"].get<double>() / e["compact"]["functions"].get<double>();
        };
        EXPECT_GT(per_function(u), 2 * per_function(c)) << k;
        if (std::string(k) != "crba") EXPECT_LT(2 * u["compact"]["functions"].get<int>(), c["compact"]["functions"].get<int>()) << k;
        EXPECT_GE(total(u["ops"]), total(c["ops"])) << k;
    }
}

// The compact emission's LTDL and solve are loops (emit/ltdl_loops.hpp); what they execute, counted
// from the tree, is Featherstone's figure too.
TEST(LtdlCost, LoopsOfTheHumanoidOfSection6) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    const sym::OpCounts f = ltdl_loop_ops(model, KernelSpec::LtdlLoops::Factor, true);
    EXPECT_EQ(f.mul + f.div, 1258);
    EXPECT_EQ(f.add, 1039);
    const sym::OpCounts s = ltdl_loop_ops(model, KernelSpec::LtdlLoops::Solve, true);
    EXPECT_EQ(s.mul + s.div, 468);
    EXPECT_EQ(s.add, 438);
}

// LTDL's loops and the unrolled kernel compute the same operations where H is all run-time values
// (ltdl, ltdl_solve: nothing folds); fd_crba_ltdl's loops follow its head, which is compact or
// straight-line like any kernel. The generated kernels are checked against the reference in
// tests/generated (compact in double, on every model).
TEST(CompactEmission, LtdlAsLoops) {
    for (const char* urdf : {"humanoid30.urdf", "arm7.urdf", "dualarm.urdf"}) {
        const Model model = load_urdf(test::project_model(urdf), {.floating_base = true});
        GenerateOptions options;
        options.name = "robot";
        options.kernels = {"ltdl", "ltdl_solve", "fd_crba_ltdl"};
        options.emission = "compact";
        const Files files = generate_sources(model, options);
        const nlohmann::json report = nlohmann::json::parse(files.at("report.json"))["kernels"];
        for (const char* k : {"ltdl", "ltdl_solve", "fd_crba_ltdl"}) {
            const nlohmann::json& e = report[k];
            EXPECT_EQ(e["emission"], "compact") << urdf << " " << k;
            EXPECT_EQ(e.value("ltdl_loops", false), true) << urdf << " " << k;
            const std::string source = files.at(std::string("robot_") + k + ".cpp");
            EXPECT_NE(source.find(std::string(k) == "ltdl_solve" ? "rbdgen_ltdl_solve<" : "rbdgen_ltdl<"), std::string::npos) << k;
            if (std::string(k) == "fd_crba_ltdl") {
                EXPECT_NE(source.find("rbdgen_ltdl_solve<"), std::string::npos);
                EXPECT_LE(e["ops"]["add"].get<long>(), e["ops_unrolled"]["add"].get<long>()) << urdf;
                continue;
            }
            for (const char* op : {"add", "mul", "div"}) EXPECT_EQ(e["ops"][op], e["ops_unrolled"][op]) << urdf << " " << k << " " << op;
        }
        // straight-line: no loops
        options.emission = "straight";
        const nlohmann::json straight = nlohmann::json::parse(generate_sources(model, options).at("report.json"))["kernels"];
        EXPECT_FALSE(straight["ltdl"].contains("ltdl_loops")) << urdf;
        EXPECT_EQ(straight["ltdl"]["emission"], "straight") << urdf;
    }
}

// A step function names each of v_, x_ and c_ where its body uses it, also where a lane step reads and
// writes v_ only whole (rbdgen_lanes_load<L>(v_ + x_[i]), rbdgen_lanes_store): the quadruped's contact
// derivatives with --lanes had such a step with v_ unnamed, and did not compile.
TEST(CompactEmission, StepFunctionsNameTheArraysTheyUse) {
    const Model model = load_urdf(test::project_model("quadruped.urdf"), {.floating_base = true});
    GenerateOptions options;
    options.name = "robot";
    options.kernels = {"rnea"};
    options.problems = {"contact:link003:point,link006:point,link009:point,link012:point"};
    options.lanes = true;
    const std::string source = generate_sources(model, options).at("robot_contact_derivatives.cpp");
    int steps = 0, whole = 0;
    for (size_t at = source.find("RBDGEN_NOINLINE RBDGEN_CODE void "); at != std::string::npos;
         at = source.find("RBDGEN_NOINLINE RBDGEN_CODE void ", at + 1)) {
        const size_t open = source.find('{', at), close = source.find("\n}\n", open);
        const std::string signature = source.substr(at, open - at), body = source.substr(open, close - open);
        for (const char* p : {"v_", "x_", "c_"}) {
            const bool used = body.find(std::string(p) + "[") != std::string::npos || body.find(std::string(p) + " + ") != std::string::npos;
            EXPECT_EQ(used, signature.find(std::string(" ") + p + ",") != std::string::npos) << p << " in " << signature.substr(0, 120);
        }
        whole += body.find("v_[") == std::string::npos && body.find("v_ + ") != std::string::npos;
        ++steps;
    }
    EXPECT_GT(steps, 0);
    EXPECT_GT(whole, 0) << "no step reads v_ only whole: the case this checks";
}

// aba_derivatives' three NV x NV solves go a whole row of NV numbers a step, NV folded into the call, so
// that the runtime header's rbdgen_row holds each row as vector statements (x86-64, AArch64) while the
// rows it depends on are subtracted from it, where the plain loop, of a run-time length, stayed scalar
// and loaded and stored the row at every step: 1.2-1.3x on the floating humanoid and talos at -O2 and
// -Os, 1.4-1.8x at -march=native (AMD EPYC, 2026-11-27), and the rows held, 1.8-2.3x more on the solves.
TEST(CompactEmission, AbaDerivativesSolvesWholeRowsOfAFoldedLength) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    GenerateOptions options;
    options.name = "robot";
    options.kernels = {"aba_derivatives"};
    const Files files = generate_sources(model, options);
    const std::string source = files.at("robot_aba_derivatives.cpp");
    const std::string call = "rbdgen_ltdl_solve_rows<Scalar, unsigned short, " + std::to_string(model.nv) + ">(";
    size_t calls = 0;
    for (size_t at = source.find(call); at != std::string::npos; at = source.find(call, at + 1)) ++calls;
    EXPECT_EQ(calls, 3u) << "−H⁻¹ ∂τ/∂q, −H⁻¹ ∂τ/∂q̇ and H⁻¹";
    const std::string runtime = files.at("rbdgen_runtime.hpp");
    EXPECT_NE(runtime.find("template <int M> struct rbdgen_row<double, M> : rbdgen_row_lanes<RBDGEN_ROW_LANES, M>"), std::string::npos);
    EXPECT_NE(runtime.find("vector_size(L * 8)"), std::string::npos);
}

// aba_derivatives has two methods: LTDL's solves, and Carpentier and Mansard's own (H⁻¹ by the
// articulated-body recursion, then dense products). The generator keeps the one of lower cost, the
// loops' rows counted as their SSE2 statements, and report.json's method gives both costs; --method
// forces the other. On the floating humanoid and the arm LTDL costs less (91,571 against 122,389, and
// 10,021 against 11,544) and ran faster (AMD EPYC, -O2: 14.1 against 17.7 µs and 1.99 against 2.07 µs;
// -march=native: 9.8 against 11.4 µs).
TEST(CompactEmission, AbaDerivativesTakesTheMethodOfLowerCost) {
    for (const auto& [urdf, floating] : {std::pair{"humanoid30.urdf", true}, std::pair{"arm7.urdf", false}}) {
        const Model model = load_urdf(test::project_model(urdf), {.floating_base = floating});
        GenerateOptions options;
        options.name = "robot";
        options.kernels = {"aba_derivatives"};
        const auto generated = [&](std::string& method) {
            const Files files = generate_sources(model, options);
            method = nlohmann::json::parse(files.at("report.json"))["kernels"]["aba_derivatives"]["method"];
            return files.at("robot_aba_derivatives.cpp");
        };
        std::string method;
        const std::string source = generated(method);
        std::smatch costs;
        ASSERT_TRUE(std::regex_search(method, costs, std::regex("ltdl ([0-9]+), articulated-body ([0-9]+)\\)"))) << method;
        const long ltdl = std::stol(costs[1]), articulated = std::stol(costs[2]);
        const bool ltdl_wins = ltdl < articulated;
        EXPECT_EQ(method.rfind(ltdl_wins ? "ltdl:" : "articulated-body:", 0), 0u) << urdf << ": " << method;
        const char* const loops[] = {"rbdgen_ltdl_solve_rows<", "rbdgen_negated_product<"};
        EXPECT_NE(source.find(loops[ltdl_wins ? 0 : 1]), std::string::npos) << urdf;
        EXPECT_EQ(source.find(loops[ltdl_wins ? 1 : 0]), std::string::npos) << urdf;
        // forced the other way: the other loops, and the report says who chose
        options.methods["aba_derivatives"] = ltdl_wins ? "articulated-body" : "ltdl";
        const std::string forced = generated(method);
        EXPECT_EQ(method.rfind(options.methods["aba_derivatives"] + ":", 0), 0u) << urdf << ": " << method;
        EXPECT_NE(method.find("chosen by --method"), std::string::npos) << method;
        EXPECT_NE(forced.find(loops[ltdl_wins ? 1 : 0]), std::string::npos) << urdf;
        EXPECT_TRUE(std::regex_search(method, std::regex("ltdl " + std::to_string(ltdl) + ", articulated-body " + std::to_string(articulated))))
            << "the same costs: " << method;
    }
}

TEST(LtdlCost, HumanoidOfSection6) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    const sym::OpCounts f = as_written(trace_kernel(model, kernel_spec("ltdl")));
    EXPECT_EQ(f.mul + f.div, 1258);  // "1258m + 1039a counting div as m"
    EXPECT_EQ(f.add, 1039);
    const sym::OpCounts s = trace_kernel(model, kernel_spec("ltdl_solve")).ops();
    EXPECT_EQ(s.mul + s.div, 468);  // "468m + 438a per vector"
    EXPECT_EQ(s.add, 438);
}

// Featherstone §6 costs the humanoid of Fig. 6 (general geometry) at CRBA 2475m + 2124a, RNEA
// 2275m + 1996a and ABA 5544m + 5054a, the best hand-optimized figures on record. The generator's
// pipeline (snapping, internal frames, tracing) reaches CRBA's figures and ABA's multiplications, and
// stays within 5% of the rest (our floating base also turns world-frame gravity by the base's
// quaternion, and its URDF frame cannot be re-chosen, so all four torso children carry a third
// screw; the paper's counts leave both out).
// The counts are also pinned at what the generator reached when this was last changed on purpose
// (the notes of issues 3 and 10 give each step): a rise fails, and so does a drop nobody explained;
// after an improvement, write the new figures here with the reason in the commit.
TEST(Section6Costs, HumanoidKernelsAgainstFeatherstone) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    GenerateOptions options;
    options.name = "humanoid";
    options.kernels = {"rnea", "crba", "aba"};
    options.emission = "straight";  // the compact emission's trace keeps negative constants in place (fewer here, tested below)
    const nlohmann::json report = nlohmann::json::parse(generate_sources(model, options).at("report.json"));
    auto mul = [&](const char* kernel) {  // as the algorithm writes them (the paper's counts)
        const nlohmann::json& k = report["kernels"][kernel];
        const nlohmann::json& ops = k.contains("ops_with_divisions") ? k["ops_with_divisions"] : k["ops"];
        return ops["mul"].get<long>() + ops["div"].get<long>();
    };
    auto add = [&](const char* kernel) { return report["kernels"][kernel]["ops"]["add"].get<long>(); };
    EXPECT_LE(mul("crba"), 2475);
    EXPECT_LE(add("crba"), 2124);
    EXPECT_LE(mul("aba"), 5544);
    EXPECT_LE(add("aba"), 1.05 * 5054);
    EXPECT_LE(mul("rnea"), 1.05 * 2275);
    EXPECT_LE(add("rnea"), 1.05 * 1996);
    // Pinned (div counted as m). Issue 44 lowered them (2354m 2053a, 2467m 2097a, 5471m 5121a before):
    // snapping no longer normalizes every joint axis a second time (a last-bit change of the loader's
    // unit axes; put back, the old counts return: a few constants of the re-chosen frames fold now).
    EXPECT_EQ(mul("rnea"), 2352);
    EXPECT_EQ(add("rnea"), 2051);
    EXPECT_EQ(mul("crba"), 2460);
    EXPECT_EQ(add("crba"), 2087);
    EXPECT_EQ(mul("aba"), 5455);
    EXPECT_EQ(add("aba"), 5101);
}

}  // namespace
}  // namespace rbdgen
