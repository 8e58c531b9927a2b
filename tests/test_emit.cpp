// emit/emit_cpp.cpp on small kernels whose code is known by hand: one statement a live node, the
// outputs stored, constants as literals that read back exactly, sin and cos of one angle from one
// call and of two angles from one two-lane call, and the `_sc` entry point reading sin_q/cos_q (or
// turning them by a constant offset) instead of calling anything.
#include <gtest/gtest.h>

#include <cstdlib>

#include "emit/emit_cpp.hpp"
#include "emit/kernel.hpp"
#include "emit/schedule.hpp"

namespace rbdgen {
namespace {

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// A kernel of two inputs q[2] (angles) and x[1], one output y, computing `f`.
template <class F> Kernel tiny(F f, int outputs) {
    static std::vector<KernelSpec> specs;  // a Kernel points at its spec
    KernelSpec s;
    s.name = "tiny";
    s.inputs = {{"q", "angles", [](const Model&) { return 2; }}, {"x", "numbers", [](const Model&) { return 1; }}};
    s.inputs[0].angles = true;
    s.outputs = {{"y", "results", [outputs](const Model&) { return outputs; }}};
    s.trace = [f](const Model&, const Arrays<sym::Expr>& in) { return Arrays<sym::Expr>{f(in[0], in[1])}; };
    specs.push_back(s);
    return trace_kernel(Model{}, specs.back());
}

TEST(Emit, OneStatementPerLiveNodeAndTheOutputsStored) {
    const Kernel k = tiny([](const VecX<sym::Expr>& q, const VecX<sym::Expr>& x) {
        VecX<sym::Expr> y(2);
        y[0] = x[0] * 2.5 + q[1];
        y[1] = x[0] * 2.5;  // shared with y[0]
        (void)(q[0] * q[1]);  // dead
        return y;
    }, 2);
    const std::string body = kernel_body(k, {"double"});
    EXPECT_EQ(count(body, "const Scalar "), 2) << body;  // the product and the sum
    EXPECT_EQ(count(body, "x[0] * 2.5"), 1) << body;
    EXPECT_EQ(count(body, "q[0]"), 0) << body;  // dead code is not emitted
    EXPECT_NE(body.find("    y[0] = "), std::string::npos) << body;
    EXPECT_NE(body.find("    y[1] = "), std::string::npos) << body;
    EXPECT_EQ(kernel_parameters(k), "const Scalar* RBDGEN_RESTRICT q, const Scalar* RBDGEN_RESTRICT x, Scalar* RBDGEN_RESTRICT y");
}

TEST(Emit, LiteralsReadBackExactly) {
    for (double v : {0.1, -1.0 / 3.0, 6.02214076e23, 1e-300, 3.0}) {
        std::string d = scalar_literal(v, "double");
        if (d.front() == '(') d = d.substr(1, d.size() - 2);
        EXPECT_EQ(std::strtod(d.c_str(), nullptr), v) << d;
        std::string f = scalar_literal(v, "float");
        if (f.front() == '(') f = f.substr(1, f.size() - 2);
        EXPECT_EQ(f.back(), 'f');
        EXPECT_EQ(std::strtof(f.c_str(), nullptr), static_cast<float>(v)) << f;
    }
    EXPECT_THROW(scalar_literal(1e300, "float"), std::exception);  // no float holds it
}

TEST(Emit, SinAndCosOfOneAngleOneCallOfTwoAnglesOneTwoLaneCall) {
    const Kernel one = tiny([](const VecX<sym::Expr>& q, const VecX<sym::Expr>&) {
        return VecX<sym::Expr>((VecX<sym::Expr>(2) << sin(q[0]), cos(q[0])).finished());
    }, 2);
    const std::string b1 = kernel_body(one, {"double"});
    EXPECT_EQ(count(b1, "rbdgen_sincos("), 1) << b1;
    EXPECT_EQ(count(b1, "rbdgen_sincos2("), 0) << b1;
    const Kernel two = tiny([](const VecX<sym::Expr>& q, const VecX<sym::Expr>&) {
        return VecX<sym::Expr>((VecX<sym::Expr>(2) << sin(q[0]) * cos(q[1]), cos(q[0]) + sin(q[1])).finished());
    }, 2);
    const std::string b2 = kernel_body(two, {"double"});
    EXPECT_EQ(count(b2, "rbdgen_sincos2("), 1) << b2;
    EXPECT_EQ(count(b2, "rbdgen_sincos("), 0) << b2;
}

TEST(Emit, TrigEntryPointReadsSinQAndCosQAndCallsNothing) {
    const Kernel k = tiny([](const VecX<sym::Expr>& q, const VecX<sym::Expr>& x) {
        VecX<sym::Expr> y(3);
        y[0] = sin(q[0]) * x[0];
        y[1] = cos(q[1]);
        y[2] = sin(q[1] + 0.5);  // a joint offset: the angle-addition formula
        return y;
    }, 3);
    EXPECT_TRUE(uses_trig(k));
    const std::string sc = kernel_body(k, {"double", true});
    EXPECT_EQ(count(sc, "rbdgen_sincos"), 0) << sc;
    EXPECT_NE(sc.find("x[0] * sin_q[0]"), std::string::npos) << sc;
    EXPECT_EQ(count(sc, "q[1] + 0.5"), 0) << sc;  // the offset angle itself is not needed
    EXPECT_EQ(count(sc, "const Scalar "), 2) << sc;  // the product and the turned sine, nothing unused
    EXPECT_NE(sc.find("y[1] = cos_q[1]"), std::string::npos) << sc;
    EXPECT_NE(sc.find("sin_q[1] * 0.87758256189037276 + cos_q[1] * 0.47942553860420301"), std::string::npos) << sc;
    EXPECT_EQ(kernel_parameters(k, true).rfind("const Scalar* RBDGEN_RESTRICT sin_q, const Scalar* RBDGEN_RESTRICT cos_q, ", 0), 0u);
    // Without the entry point, the same kernel computes its trig itself.
    EXPECT_GE(count(kernel_body(k, {"double"}), "rbdgen_sincos"), 1);
}

// The schedule a backend prints: the paired call first, the arithmetic after, the stores last (or
// each right after its value), and each value read as what it is (a temporary, a literal, an input,
// a precomputed sine).
TEST(Schedule, CallsFirstStoresLastValuesByKind) {
    const Kernel k = tiny([](const VecX<sym::Expr>& q, const VecX<sym::Expr>& x) {
        return VecX<sym::Expr>((VecX<sym::Expr>(2) << x[0] * sin(q[0]) + 3.0, cos(q[1]) * x[0]).finished());
    }, 2);
    const Schedule s = schedule(k, false, Stores::AtEnd);
    ASSERT_EQ(s.statements.size(), 6u);  // sincos2, product, sum, product, two stores
    EXPECT_EQ(s.statements[0].kind, Statement::Kind::SinCos2);
    EXPECT_EQ(s.statements[1].kind, Statement::Kind::Assign);
    EXPECT_EQ(s.statements[4].kind, Statement::Kind::Store);
    EXPECT_EQ(s.statements[5].kind, Statement::Kind::Store);
    EXPECT_EQ(s.values[s.statements[0].a].kind, Value::Kind::Input);
    // Stored where defined: each store follows the statement that computes its value.
    const Schedule early = schedule(k, false, Stores::AtDefinition);
    ASSERT_EQ(early.statements.size(), 6u);
    EXPECT_NE(early.statements[4].kind, Statement::Kind::Store);  // y[1]'s product comes after y[0]'s store
    for (size_t j = 0; j < early.statements.size(); ++j)
        if (early.statements[j].kind == Statement::Kind::Store) {
            ASSERT_GT(j, 0u);
            EXPECT_EQ(early.statements[j - 1].target, early.statements[j].a) << j;
        }
    const Schedule sc = schedule(k, true, Stores::AtEnd);
    EXPECT_EQ(sc.statements.size(), 5u);  // no call
    for (const Statement& st : sc.statements) EXPECT_NE(st.kind, Statement::Kind::SinCos2);
    int sines = 0;
    for (const Value& v : sc.values) sines += v.kind == Value::Kind::SinQ || v.kind == Value::Kind::CosQ;
    EXPECT_EQ(sines, 2);
}

TEST(Emit, TrigOfANonAngleInputIsComputedEvenInTheEntryPoint) {
    const Kernel k = tiny([](const VecX<sym::Expr>&, const VecX<sym::Expr>& x) {
        return VecX<sym::Expr>((VecX<sym::Expr>(1) << sin(x[0])).finished());
    }, 1);
    EXPECT_EQ(count(kernel_body(k, {"double", true}), "rbdgen_sincos("), 1);
}

}  // namespace
}  // namespace rbdgen
