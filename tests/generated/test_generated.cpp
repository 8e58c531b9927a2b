// The generated robot libraries against the reference implementation, kernel by kernel, at random
// states. Both come from the same templated algorithms, so this checks the tracer and the emitter
// (folding, sharing, emission), not the physics: that is test_algorithms' job.
// Compiled once: every test runs on every robot linked into the program (robot_entry.hpp, one entry
// a robot), as the suite <robot>.Generated, for example gen_arm7_double.Generated.Rnea.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>

#include "emit/kernel.hpp"
#include "model/load_model.hpp"
#include "emit/prepare.hpp"
#include "generated/reference.hpp"
#include "generated/robot_entry.hpp"
#include "model/frames.hpp"
#include "model/urdf_loader.hpp"
#include "sparse/analysis.hpp"
#include "sparse/problem.hpp"

namespace rbdgen {
namespace generated {

std::vector<const Robot*>& robots() {
    static std::vector<const Robot*> all;
    return all;
}

const Kernel& Robot::operator[](std::string_view kernel) const {
    for (const Kernel& k : kernels)
        if (kernel == k.name) return k;
    std::cerr << name << " has no kernel " << kernel << " in its entry (tests/generated/robot_entry.cpp)\n";
    std::abort();
}

}  // namespace generated

namespace {

using generated::Kernel;
using generated::Robot;
constexpr int kStates = 1000;

// max |generated − reference| / max(1, max |reference|), the reference flattened row by row; infinite
// where the generated element is not finite and the reference's is (an element left unwritten: unwritten)
double rel_err(const std::vector<double>& generated, const std::vector<double>& reference) {
    EXPECT_EQ(generated.size(), reference.size());
    double diff = 0, scale = 1;
    for (size_t i = 0; i < reference.size(); ++i) {
        if (!std::isfinite(generated[i]) && std::isfinite(reference[i])) return std::numeric_limits<double>::infinity();
        diff = std::max(diff, std::abs(generated[i] - reference[i]));
        scale = std::max(scale, std::abs(reference[i]));
    }
    return diff / scale;
}
// An output's room before the call: NaN, so that an element the kernel does not write (a mostly-zero
// output is filled whole first, then its nonzeros stored: emit/emit_cpp.hpp zero_filled) fails rel_err.
std::vector<double> unwritten(size_t n) { return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()); }
std::vector<double> flat(const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) v.push_back(m(r, c));
    return v;
}

// The arrays of a kernel's arguments, as the pointers its entry takes.
std::vector<double*> pointers(std::vector<std::vector<double>>& arguments) {
    std::vector<double*> p;
    for (std::vector<double>& a : arguments) p.push_back(a.data());
    return p;
}

// The fixture of every test below, on one robot (main registers each test on each robot).
class Generated : public ::testing::Test {
public:
    explicit Generated(const Robot& r) : robot(r) {}

protected:
    const Robot& robot;
    void SetUp() override {
        if (!std::filesystem::exists(robot.urdf)) GTEST_SKIP() << robot.urdf << " is absent: robot not tested";
        // The reference runs on the model the generator traces (emit/prepare.hpp: snapped, in
        // internal frames), so that this compares the tracer and emitter alone (test_frames checks
        // those two steps).
        model = prepare_model(load_model(robot.urdf, {.floating_base = robot.floating})).model;
        ASSERT_EQ(model.nq, robot.NQ);
        ASSERT_EQ(model.nv, robot.NV);
        ASSERT_EQ(model.N(), robot.NB);
    }
    // A random state, rounded to the generated scalar so that both sides see the same numbers.
    void draw() {
        std::uniform_real_distribution<double> u(-1, 1);
        const auto rounded = robot.round;
        q = VecX<double>::NullaryExpr(model.nq, [&] { return rounded(3 * u(rng)); });
        normalize_quaternions(model, q.data());
        for (const Body& b : model.bodies)
            for (int k = 0; k < 4 && !b.joint.one_dof(); ++k) q[b.q_index + b.joint.quaternion_at() + k] = rounded(q[b.q_index + b.joint.quaternion_at() + k]);
        qd = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(2 * u(rng)); });
        qdd = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(5 * u(rng)); });
        tau = VecX<double>::NullaryExpr(model.nv, [&] { return rounded(20 * u(rng)); });
        g = Vec3<double>(rounded(u(rng)), rounded(u(rng)), rounded(-9.81 + u(rng)));
    }
    Model model;
    std::mt19937_64 rng{2024};
    VecX<double> q, qd, qdd, tau;
    Vec3<double> g;
    double worst = 0;
    void TearDown() override {
        RecordProperty("worst_rel_err", std::to_string(worst));
        std::cout << robot.name << " " << ::testing::UnitTest::GetInstance()->current_test_info()->name()
                  << ": worst relative error " << worst << "\n";
    }
    // Against another formulation (Nori's LU against RNEA and ABA): the robot's lu_tolerance.
    void check_lu(const std::vector<double>& generated, const std::vector<double>& reference) {
        const double e = rel_err(generated, reference);
        worst = std::max(worst, e);
        ASSERT_LT(e, robot.lu_tolerance);
    }
    void check(const std::vector<double>& generated, const std::vector<double>& reference) {
        const double e = rel_err(generated, reference);
        worst = std::max(worst, e);
        ASSERT_LT(e, robot.tolerance);
    }
};

// The tests, each registered by main on every robot it applies to.
struct TestEntry {
    const char* name;
    bool (*applies)(const Robot&);
    Generated* (*make)(const Robot&);
};
std::vector<TestEntry>& tests() {
    static std::vector<TestEntry> all;
    return all;
}
bool every_robot(const Robot&) { return true; }
#define GENERATED_TEST(Name, applies)                                                                     \
    struct Name : Generated {                                                                             \
        using Generated::Generated;                                                                       \
        void TestBody() override;                                                                         \
    };                                                                                                    \
    const bool Name##_added = (tests().push_back({#Name, applies, [](const Robot& r) -> Generated* { return new Name(r); }}), true); \
    void Name::TestBody()

#define FOR_STATES for (int s = 0; s < kStates && !HasFatalFailure(); ++s)

GENERATED_TEST(Rnea, every_robot) {
    std::vector<double> out(robot.NV);
    FOR_STATES {
        draw();
        robot["rnea"](q.data(), qd.data(), qdd.data(), g.data(), out.data());
        check(out, flat(reference::rnea(model, q, qd, qdd, g)));
    }
}

// The derivatives of the dynamics (the double builds have them): rnea_derivatives and
// aba_derivatives, each output after the other against the reference's.
bool has_derivatives(const Robot& r) { return r.has("rnea_derivatives"); }
GENERATED_TEST(Derivatives, has_derivatives) {
    const int n = robot.NV * robot.NV;
    std::vector<double> out = unwritten(3 * n);
    FOR_STATES {
        draw();
        robot["rnea_derivatives"](q.data(), qd.data(), qdd.data(), g.data(), out.data(), out.data() + n);
        check(std::vector<double>(out.begin(), out.begin() + 2 * n), reference::rnea_derivatives(model, q, qd, qdd, g));
        if (robot.fd_refusal[0]) continue;
        robot["aba_derivatives"](q.data(), qd.data(), tau.data(), g.data(), out.data(), out.data() + n, out.data() + 2 * n);
        check(out, reference::aba_derivatives(model, q, qd, tau, g));
    }
}

// Contact dynamics and impacts (the double builds of the floating robots held at their feet):
// <problem>_aba and <problem>_derivatives against their specifications' references.
bool has_contacts(const Robot& r) { return r.contacts[0] != 0; }
GENERATED_TEST(ContactDerivatives, has_contacts) {
    std::vector<std::string> problems{"contact:" + std::string(robot.contacts), "impulse:" + std::string(robot.contacts)};
    if (robot.baumgarte[0]) problems.push_back(robot.baumgarte);  // its inputs tau and Baumgarte's errors
    for (const std::string& name : problems) {
        const Problem problem = load_problem(model, name);
        const auto analysis = std::make_shared<const ProblemAnalysis>(analyze_problem(model, problem, {.states = 10}));
        int checked = 0;  // both kernels, or the test proves nothing for this problem
        for (const KernelSpec& spec : problem_kernel_specs(analysis)) {
            if (spec.name != problem.name + "_aba" && spec.name != problem.name + "_derivatives") continue;
            SCOPED_TRACE(spec.name);
            ASSERT_TRUE(robot.has(spec.name)) << "the robot was built without " << spec.name;
            ++checked;
            std::uniform_real_distribution<double> error(-0.02, 0.02);
            for (int s = 0; s < 200 && !HasFatalFailure(); ++s) {
                draw();
                Arrays<double> in{q, qd};
                for (const ProblemInput& i : problem.inputs)
                    in.push_back(i.name == "tau" ? tau : VecX<double>(VecX<double>::NullaryExpr(i.size(), [&] { return error(rng); })));
                in.push_back(g);
                const Arrays<double> reference = spec.reference(model, in);
                std::vector<std::vector<double>> args;
                for (const VecX<double>& x : in) args.emplace_back(x.data(), x.data() + x.size());
                std::vector<double> expected, generated;
                for (const VecX<double>& r : reference) {
                    args.push_back(unwritten(r.size()));
                    expected.insert(expected.end(), r.data(), r.data() + r.size());
                }
                robot[spec.name].call(pointers(args).data());
                for (size_t o = in.size(); o < args.size(); ++o) generated.insert(generated.end(), args[o].begin(), args[o].end());
                check(generated, expected);
            }
        }
        EXPECT_EQ(checked, 2) << name << ": its specifications give no " << problem.name << "_aba or " << problem.name << "_derivatives";
    }
}

// The float error budget of report.json (the generator's own float evaluation of the trace, on its
// states) predicts what this compiled float build loses on these states: the measured worst
// ‖Δ‖∞ / ‖y‖∞ of rnea and crba lies within a factor 10 of the budget (above its 99th percentile / 10,
// below its worst × 10). A double build has no float budget to check.
GENERATED_TEST(FloatBudgetPredictsTheCompiledFloatKernels, every_robot) {
    if (std::string(robot.scalar) != "float") GTEST_SKIP() << "a double build: the float budget is checked on the float build";
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(robot.report));
    const auto measured = [](const std::vector<double>& f, const std::vector<double>& d) {
        double diff = 0, scale = 0;
        for (size_t i = 0; i < d.size(); ++i) diff = std::max(diff, std::abs(f[i] - d[i])), scale = std::max(scale, std::abs(d[i]));
        return diff / scale;
    };
    double rnea_worst = 0, crba_worst = 0;
    std::vector<double> tau_out(robot.NV), H_out(robot.NV * robot.NV);
    FOR_STATES {
        draw();
        robot["rnea"](q.data(), qd.data(), qdd.data(), g.data(), tau_out.data());
        rnea_worst = std::max(rnea_worst, measured(tau_out, flat(reference::rnea(model, q, qd, qdd, g))));
        robot["crba"](q.data(), H_out.data());
        Eigen::MatrixXd H = reference::crba(model, q);
        std::vector<double> lower, lower_ref;
        for (int r = 0; r < robot.NV; ++r)
            for (int c = 0; c <= r; ++c) lower.push_back(H_out[r * robot.NV + c]), lower_ref.push_back(H(r, c));
        crba_worst = std::max(crba_worst, measured(lower, lower_ref));
    }
    for (const auto& [kernel, worst] : {std::pair<const char*, double>{"rnea", rnea_worst}, {"crba", crba_worst}}) {
        const nlohmann::json& budget = report["kernels"][kernel]["float_error"];
        EXPECT_GT(worst, budget["p99"].get<double>() / 10) << kernel;
        EXPECT_LT(worst, budget["worst"].get<double>() * 10) << kernel;
        std::cout << kernel << ": measured worst " << worst << ", budget p99 " << budget["p99"] << ", worst " << budget["worst"] << "\n";
    }
}

// The robot's kernels are emitted the way tests/generated/CMakeLists.txt asked (EMISSION compact or
// uniform in double, straight in float), so that the tests of this file check that emission: compact
// and uniform, every kernel whose algorithm marks its steps; straight, every kernel.
GENERATED_TEST(KernelsHaveTheEmissionAskedFor, every_robot) {
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(robot.report));
    const std::string command = report["command"];
    std::string asked = "straight";
    for (const char* e : {"compact", "uniform"})
        if (command.find(std::string("--emission ") + e) != std::string::npos) asked = e;
    ASSERT_TRUE(asked != "straight" || command.find("--emission straight") != std::string::npos) << command;
    const bool compact = asked != "straight";
    for (const char* k : {"fk", "rnea", "gravity", "nle", "crba", "ltdl", "fd_crba_ltdl", "aba", "jacobians"}) {
        if (report["kernels"][k].contains("refused")) continue;
        EXPECT_EQ(report["kernels"][k]["emission"], asked) << k;
        // compact: LTDL as loops (emit/ltdl_loops.hpp), after fd_crba_ltdl's compact head
        const std::string name = k;
        if (compact) EXPECT_EQ(report["kernels"][k].value("ltdl_loops", false), name == "ltdl" || name == "fd_crba_ltdl") << k;
        if (compact && name != "ltdl") EXPECT_GT(report["kernels"][k]["compact"]["steps"].get<int>(), 0) << k;
    }
    if (!compact)
        for (const auto& [k, entry] : report["kernels"].items()) EXPECT_EQ(entry["emission"], "straight") << k;
}

GENERATED_TEST(Gravity, every_robot) {
    std::vector<double> out(robot.NV);
    FOR_STATES {
        draw();
        robot["gravity"](q.data(), g.data(), out.data());
        check(out, flat(reference::gravity(model, q, g)));
    }
}

// nle was added by its kernel spec alone (emit/kernel_specs.cpp): C(q, qd) qd + g = RNEA(q, qd, 0),
// and, by a second formulation, RNEA(q, qd, qdd) - H(q) qdd with H from CRBA.
GENERATED_TEST(NonlinearEffects, every_robot) {
    std::vector<double> out(robot.NV);
    FOR_STATES {
        draw();
        robot["nle"](q.data(), qd.data(), g.data(), out.data());
        check(out, flat(reference::rnea(model, q, qd, VecX<double>::Zero(model.nv), g)));
        check(out, flat(reference::rnea(model, q, qd, qdd, g) - reference::crba(model, q) * qdd));
    }
}

GENERATED_TEST(Crba, every_robot) {
    std::vector<double> out = unwritten(robot.NV * robot.NV);
    FOR_STATES {
        draw();
        robot["crba"](q.data(), out.data());
        check(out, flat(reference::crba(model, q)));
    }
}

GENERATED_TEST(LtdlAndSolve, every_robot) {
    if (robot.fd_refusal[0]) GTEST_SKIP() << robot.fd_refusal;
    std::vector<double> LD(robot.NV * robot.NV), x(robot.NV);
    FOR_STATES {
        draw();
        MatX<double> H = reference::crba(model, q).unaryExpr(robot.round);  // what the kernel sees
        std::vector<double> Hs = flat(H);
        robot["ltdl"](Hs.data(), LD.data());
        const MatX<double> ref = reference::ltdl(model, H);
        check(LD, flat(ref));
        robot["ltdl_solve"](LD.data(), tau.data(), x.data());
        check(x, flat(reference::ltdl_solve(model, ref, tau)));
    }
}

GENERATED_TEST(ForwardDynamics, every_robot) {
    if (robot.fd_refusal[0]) GTEST_SKIP() << robot.fd_refusal;
    std::vector<double> out(robot.NV);
    FOR_STATES {
        draw();
        robot["aba"](q.data(), qd.data(), tau.data(), g.data(), out.data());
        check(out, flat(reference::aba(model, q, qd, tau, g)));
        robot["fd_crba_ltdl"](q.data(), qd.data(), tau.data(), g.data(), out.data());
        check(out, flat(reference::fd_crba_ltdl(model, q, qd, tau, g)));
    }
}

// Nori's problems, emitted (PROBLEMS id fd): a second formulation of the dynamics, so these check
// the physics too. The fused kernel, and its three steps (assemble, factor, solve) whose d holds τ or
// q̈ where newton_euler_layout puts them.
void check_problem_steps(const Robot& robot, const std::string& problem, std::vector<double>& D, std::vector<double>& b,
                         std::vector<double>& LU, std::vector<double>& d, const VecX<double>& q, const VecX<double>& qd,
                         const VecX<double>& input, const Vec3<double>& g) {
    const Kernel &assemble = robot[problem + "_assemble"], &factor = robot[problem + "_factor"], &solve = robot[problem + "_solve"];
    D.resize(assemble.sizes[4]), b.resize(assemble.sizes[5]), LU.resize(factor.sizes[1]), d.resize(solve.sizes[3]);
    assemble(q.data(), qd.data(), input.data(), g.data(), D.data(), b.data());
    factor(D.data(), LU.data());
    solve(D.data(), LU.data(), b.data(), d.data());
}

GENERATED_TEST(LuInverseDynamicsIsRnea, every_robot) {
    std::vector<double> tau_lu(robot.NV), D, b, LU, d;
    FOR_STATES {
        draw();
        const std::vector<double> reference = flat(reference::rnea(model, q, qd, qdd, g));
        robot["id_lu"](q.data(), qd.data(), qdd.data(), g.data(), tau_lu.data());
        check_lu(tau_lu, reference);
        check_problem_steps(robot, "id", D, b, LU, d, q, qd, qdd, g);
        check_lu(flat(joint_space<double>(model, Eigen::Map<const VecX<double>>(d.data(), d.size()), true).unaryExpr(robot.round)),
                 reference);
    }
}

GENERATED_TEST(LuForwardDynamicsIsAba, every_robot) {
    std::vector<double> qdd_lu(robot.NV), D, b, LU, d;
    FOR_STATES {
        draw();
        const std::vector<double> reference = flat(reference::aba(model, q, qd, tau, g));
        robot["fd_lu"](q.data(), qd.data(), tau.data(), g.data(), qdd_lu.data());
        check_lu(qdd_lu, reference);
        check_problem_steps(robot, "fd", D, b, LU, d, q, qd, tau, g);
        check_lu(flat(joint_space<double>(model, Eigen::Map<const VecX<double>>(d.data(), d.size()), false).unaryExpr(robot.round)),
                 reference);
    }
}

GENERATED_TEST(KinematicsAndJacobians, every_robot) {
    std::vector<double> pose(12 * robot.NB), J(6 * robot.NV);
    FOR_STATES {
        draw();
        robot["fk"](q.data(), pose.data());
        check(pose, reference::poses(model, q));
        robot["jacobians"](q.data(), J.data());
        check(J, flat(reference::spatial_jacobian(model, q)));
    }
}


// The batched kernels (BATCH W, every robot here): lane s of batch::k computes what k computes for
// state s. Inputs are random numbers (the kernels' arithmetic, not the physics: that is the
// single-state kernels' test above); each output element of each lane equals the single-state
// kernel's within 1e-13 relative to the array's largest finite magnitude (at least 1), or is
// non-finite where it is.
void check_batch(const Kernel& k, int W, std::mt19937_64& rng) {
    const int n = k.args;
    std::uniform_real_distribution<double> u(-3, 3);
    std::vector<std::vector<std::vector<double>>> lanes(W, std::vector<std::vector<double>>(n));
    std::vector<std::vector<double>> b(n);
    for (int i = 0; i < n; ++i) {
        b[i].assign(k.sizes[i] * W, 0.0);
        for (int s = 0; s < W; ++s) {
            lanes[s][i].assign(k.sizes[i], 0.0);
            if (!k.input[i]) continue;
            for (int e = 0; e < k.sizes[i]; ++e) b[i][e * W + s] = lanes[s][i][e] = u(rng);
        }
    }
    for (int s = 0; s < W; ++s) k.call(pointers(lanes[s]).data());
    k.batch(pointers(b).data());
    for (int i = 0; i < n; ++i) {
        if (k.input[i]) continue;
        for (int s = 0; s < W; ++s) {
            double scale = 1;
            for (double x : lanes[s][i])
                if (std::isfinite(x)) scale = std::max(scale, std::abs(x));
            for (int e = 0; e < k.sizes[i]; ++e) {
                const double x = lanes[s][i][e], y = b[i][e * W + s];
                if (!std::isfinite(x) || !std::isfinite(y)) {
                    ASSERT_TRUE(std::isnan(x) ? std::isnan(y) : x == y) << k.name << " argument " << i << " element " << e << " lane " << s;
                    continue;
                }
                ASSERT_LE(std::abs(x - y), 1e-13 * scale) << k.name << " argument " << i << " element " << e << " lane " << s;
            }
        }
    }
}

GENERATED_TEST(BatchedKernelsEqualTheSingleStateKernels, every_robot) {
    for (int round = 0; round < 50 && !HasFatalFailure(); ++round)
        for (const Kernel& k : robot.kernels) {
            check_batch(k, robot.W, rng);
            if (HasFatalFailure()) return;
        }
}

// Cold calls: k_cold (warm, then k) returns what k returns, bit for bit, at random inputs; and the
// kernel's code range from extent() (the linker's bounds of its section) holds both functions, and
// warm() of it, then of every kernel, changes nothing either.
void check_cold(const Robot& robot, const Kernel& k, std::mt19937_64& rng) {
    const int n = k.args;
    std::uniform_real_distribution<double> u(-3, 3);
    std::vector<std::vector<double>> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i].assign(k.sizes[i], 0.0);
        if (k.input[i])
            for (double& x : a[i]) x = robot.round(u(rng));
    }
    b = a, c = a;
    k.call(pointers(a).data());
    k.cold(pointers(b).data());
    k.warm();
    robot.warm_all();
    k.call(pointers(c).data());
    for (int i = 0; i < n; ++i)
        for (int e = 0; e < k.sizes[i]; ++e) {
            ASSERT_EQ(std::memcmp(&a[i][e], &b[i][e], sizeof(double)), 0) << k.name << "_cold argument " << i << " element " << e;
            ASSERT_EQ(std::memcmp(&a[i][e], &c[i][e], sizeof(double)), 0) << k.name << " after warm, argument " << i << " element " << e;
        }
    EXPECT_TRUE(k.in_code_range(false)) << k.name << " is outside its code range";
    EXPECT_TRUE(k.in_code_range(true)) << k.name << "_cold is outside its code range";
}

// The centre of mass, centroidal momentum, energy, Jacobian rates, the configuration manifold's kernels
// and (the double builds) H⁻¹, C and the centroidal derivatives: each output against its kernel
// specification's reference (the algorithm in double), the inputs taken from the state by what they
// are (emit/kernel.hpp StateField; difference's q1 the reference's q ⊕ qd).
GENERATED_TEST(WholeBodyKernels, every_robot) {
    std::vector<std::string> names = {"com", "com_motion", "com_jacobian", "centroidal", "centroidal_momentum_rate", "energy", "jacobians_dot",
                                      "integrate", "difference", "integrate_jacobians", "difference_jacobians"};
    if (robot.has("minv")) names.insert(names.end(), {"minv", "coriolis", "centroidal_derivatives"});
    for (int s = 0; s < 100 && !HasFatalFailure(); ++s) {
        draw();
        for (const std::string& name : names) {
            const KernelSpec& spec = kernel_spec(name);
            if (name == "minv" && robot.fd_refusal[0]) continue;
            Arrays<double> in;
            for (const ArraySpec& a : spec.inputs) {
                const VecX<double> x = a.state == StateField::Q ? q : a.state == StateField::V ? qd : a.state == StateField::A ? qdd
                                     : a.state == StateField::Gravity ? VecX<double>(g)
                                     : a.state == StateField::QNext ? kernel_spec("integrate").reference(model, {q, qd})[0] : VecX<double>();
                ASSERT_EQ(x.size(), a.size(model)) << name << " input " << a.name;
                in.push_back(x);
            }
            const Arrays<double> reference = spec.reference(model, in);
            std::vector<std::vector<double>> args;
            for (const VecX<double>& x : in) args.emplace_back(x.data(), x.data() + x.size());
            std::vector<double> expected;
            for (size_t o = 0; o < spec.outputs.size(); ++o) {
                args.push_back(unwritten(spec.outputs[o].size(model)));
                expected.insert(expected.end(), reference[o].data(), reference[o].data() + reference[o].size());
            }
            robot[name].call(pointers(args).data());
            std::vector<double> generated;
            for (size_t o = in.size(); o < args.size(); ++o) generated.insert(generated.end(), args[o].begin(), args[o].end());
            SCOPED_TRACE(name);
            check(generated, expected);
        }
    }
}

GENERATED_TEST(ColdEntriesAndWarmChangeNoResult, every_robot) {
    const std::vector<std::string> kernels = {"fk", "rnea", "gravity", "nle", "crba", "ltdl", "ltdl_solve", "fd_crba_ltdl", "aba",
                                              "jacobians", "id_lu", "fd_solve", "rnea_derivatives", "aba_derivatives", "com",
                                              "com_motion", "com_jacobian", "centroidal", "centroidal_momentum_rate", "energy",
                                              "jacobians_dot", "minv", "coriolis", "centroidal_derivatives", "integrate",
                                              "difference", "integrate_jacobians", "difference_jacobians"};
    for (int round = 0; round < 5 && !HasFatalFailure(); ++round)
        for (const std::string& k : kernels)
            if (robot.has(k)) {
                check_cold(robot, robot[k], rng);
                if (HasFatalFailure()) return;
            }
}

// And against the reference at physical states: W of them a call, RNEA and ABA.
GENERATED_TEST(BatchedDynamicsAgreeWithTheReference, every_robot) {
    const int W = robot.W;
    std::vector<double> bq(robot.NQ * W), bqd(robot.NV * W), bqdd(robot.NV * W), btau(robot.NV * W), bg(3 * W), out(robot.NV * W);
    for (int call = 0; call < kStates / W && !HasFatalFailure(); ++call) {
        std::vector<std::vector<double>> rnea_ref, aba_ref;
        for (int s = 0; s < W; ++s) {
            draw();
            for (int i = 0; i < robot.NQ; ++i) bq[i * W + s] = q[i];
            for (int i = 0; i < robot.NV; ++i) bqd[i * W + s] = qd[i], bqdd[i * W + s] = qdd[i], btau[i * W + s] = tau[i];
            for (int i = 0; i < 3; ++i) bg[i * W + s] = g[i];
            rnea_ref.push_back(flat(reference::rnea(model, q, qd, qdd, g)));
            aba_ref.push_back(robot.fd_refusal[0] ? std::vector<double>() : flat(reference::aba(model, q, qd, tau, g)));
        }
        const auto lane = [&](int s) {
            std::vector<double> x(robot.NV);
            for (int i = 0; i < robot.NV; ++i) x[i] = out[i * W + s];
            return x;
        };
        double* rnea_args[] = {bq.data(), bqd.data(), bqdd.data(), bg.data(), out.data()};
        robot["rnea"].batch(rnea_args);
        for (int s = 0; s < W; ++s) check(lane(s), rnea_ref[s]);
        if (robot.fd_refusal[0]) continue;
        double* aba_args[] = {bq.data(), bqd.data(), btau.data(), bg.data(), out.data()};
        robot["aba"].batch(aba_args);
        for (int s = 0; s < W; ++s) check(lane(s), aba_ref[s]);
    }
}

}  // namespace
}  // namespace rbdgen

// Each test of this file on each robot it applies to, as <robot>.Generated.<test>.
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    for (const rbdgen::generated::Robot* r : rbdgen::generated::robots())
        for (const rbdgen::TestEntry& t : rbdgen::tests())
            if (t.applies(*r))
                ::testing::RegisterTest((std::string(r->name) + ".Generated").c_str(), t.name, nullptr, nullptr, __FILE__, __LINE__,
                                        [r, make = t.make]() -> rbdgen::Generated* { return make(*r); });
    return RUN_ALL_TESTS();
}
