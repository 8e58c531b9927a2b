// sym/expr.cpp: each folding rule and the hash-consing, one assertion a rule, on small expressions
// whose folded form is known by hand; live() and count() on a graph whose answer is counted by hand.
#include <gtest/gtest.h>

#include "sym/expr.hpp"
#include "sym/step.hpp"

namespace rbdgen::sym {
namespace {

class ExprTest : public ::testing::Test {
protected:
    Graph g;
    Tracing tracing{g};
    Expr x = Expr::input(0, 0), y = Expr::input(0, 1), z = Expr::input(1, 0);
    const Node& node(const Expr& e) const { return g.node(e.id()); }
    bool is_const(const Expr& e, double v) const { return g.is_const(e.id(), v); }
};

TEST_F(ExprTest, InputsAreInternedByArrayAndIndex) {
    EXPECT_EQ(Expr::input(0, 0).id(), x.id());
    EXPECT_NE(x.id(), y.id());
    EXPECT_NE(x.id(), z.id());
    EXPECT_EQ(node(z).op, Op::Input);
    EXPECT_EQ(node(z).array, 1);
    EXPECT_EQ(node(y).index, 1);
}

TEST_F(ExprTest, ConstantArithmeticFolds) {
    EXPECT_TRUE(is_const(Expr(2.0) * Expr(3.0) + Expr(1.0), 7.0));
    EXPECT_TRUE(is_const(Expr(1.0) / Expr(4.0), 0.25));
    EXPECT_TRUE(is_const(sqrt(Expr(9.0)), 3.0));
    EXPECT_TRUE(is_const(-Expr(2.0), -2.0));
    EXPECT_EQ(Expr(0.0).id(), Expr(-0.0).id());  // +0 and −0 are one constant
}

TEST_F(ExprTest, IdentitiesVanish) {
    EXPECT_EQ((x + 0.0).id(), x.id());
    EXPECT_EQ((0.0 + x).id(), x.id());
    EXPECT_EQ((x - 0.0).id(), x.id());
    EXPECT_EQ((x * 1.0).id(), x.id());
    EXPECT_EQ((1.0 * x).id(), x.id());
    EXPECT_EQ((x / 1.0).id(), x.id());
    EXPECT_TRUE(is_const(x * 0.0, 0.0));
    EXPECT_TRUE(is_const(0.0 * x, 0.0));
    EXPECT_TRUE(is_const(0.0 / x, 0.0));
    EXPECT_TRUE(is_const(x - x, 0.0));
    EXPECT_EQ((-(-x)).id(), x.id());
}

TEST_F(ExprTest, SignsArePulledOutward) {
    EXPECT_EQ((0.0 - x).id(), (-x).id());
    EXPECT_EQ((x * -1.0).id(), (-x).id());
    EXPECT_EQ((x / -1.0).id(), (-x).id());
    EXPECT_EQ((x + (-y)).id(), (x - y).id());
    EXPECT_EQ(((-x) + y).id(), (y - x).id());
    EXPECT_EQ((x - (-y)).id(), (x + y).id());
    EXPECT_EQ(((-x) - y).id(), (-(x + y)).id());
    EXPECT_EQ(((-x) * y).id(), (-(x * y)).id());
    EXPECT_EQ((x * (-y)).id(), (-(x * y)).id());
    EXPECT_EQ(((-x) / y).id(), (-(x / y)).id());
    EXPECT_EQ((-(x - y)).id(), (y - x).id());
    EXPECT_EQ((x + (-2.0)).id(), (x - 2.0).id());
    EXPECT_EQ(((-3.0) * x).id(), (-(3.0 * x)).id());
}

TEST_F(ExprTest, EqualSubexpressionsAreOneNodeAndCommutativeOperandsAreOrdered) {
    const int before = g.size();
    const Expr a = x * y + z, b = y * x + z;
    EXPECT_EQ(a.id(), b.id());
    EXPECT_EQ(g.size(), before + 2);  // one product, one sum
    EXPECT_EQ((x + y).id(), (y + x).id());
    EXPECT_NE((x - y).id(), (y - x).id());
    EXPECT_NE((x / y).id(), (y / x).id());
}

TEST_F(ExprTest, LiveAndCountSeeOnlyWhatOutputsNeed) {
    const Expr unused = x * z;
    const Expr s = sin(x), c = cos(x);
    const Expr out = (s * y + c) / sqrt(z) - x;
    (void)unused;
    const OpCounts n = g.count({out.id()});
    EXPECT_EQ(n.mul, 1);
    EXPECT_EQ(n.add, 2);  // + and −
    EXPECT_EQ(n.div, 1);
    EXPECT_EQ(n.sqrt, 1);
    EXPECT_EQ(n.sin, 1);
    EXPECT_EQ(n.cos, 1);
    const std::vector<int> live = g.live({out.id()});
    EXPECT_EQ(std::count(live.begin(), live.end(), unused.id()), 0);
    EXPECT_TRUE(std::is_sorted(live.begin(), live.end()));  // operands before their users
}

// Divisions that share a divisor become one reciprocal and products; a lone division stays one; the
// values agree to rounding, names carry over, and what the outputs do not need is left behind.
TEST_F(ExprTest, SharedDivisorsBecomeOneReciprocal) {
    const Expr d = y + z;
    const Expr p = x / d, q = (x * z) / d, lone = z / x;
    g.name(p.id(), "p");
    const Expr unused = y / d;
    (void)unused;
    const std::vector<int> outputs = {p.id(), q.id(), lone.id()};
    Graph shared;
    const std::vector<int> mapped = share_reciprocals(g, outputs, shared);
    const OpCounts before = g.count(outputs), after = shared.count(mapped);
    EXPECT_EQ(before.div, 3);
    EXPECT_EQ(after.div, 2);   // 1 / d, and z / x
    EXPECT_EQ(after.mul, before.mul + 2);
    ASSERT_NE(shared.label(mapped[0]), nullptr);
    EXPECT_EQ(*shared.label(mapped[0]), "p");
    const std::vector<std::vector<double>> in = {{0.7, -1.3}, {2.9}};
    const std::vector<double> a = g.evaluate(in), b = shared.evaluate(in);
    for (size_t k = 0; k < outputs.size(); ++k) EXPECT_NEAR(b[mapped[k]], a[outputs[k]], 1e-15 * std::abs(a[outputs[k]]));
}

TEST_F(ExprTest, LimitRefusesLargeTraces) {
    Graph small;
    small.max_nodes = 8;
    Tracing t(small);
    Expr a = Expr::input(0, 0);
    EXPECT_THROW(
        for (int i = 1; i < 20; ++i) a = a * Expr::input(0, i), std::length_error);
}

// The uniform emission's trace (Graph::opaque_model): the model's constants, converted inside
// ModelConstants, neither fold nor merge, 0 and 1 included; the algorithm's own constants still do.
TEST_F(ExprTest, ModelConstantsStayOpaqueOnlyWhereAsked) {
    g.opaque_model = true;
    Expr zero, one, a, b;
    {
        const ModelConstants<Expr> model;
        zero = Expr(0.0), one = Expr(1.0), a = Expr(2.5), b = Expr(2.5);
    }
    EXPECT_NE(a.id(), b.id());  // equal values, two nodes: steps do not depend on which values coincide
    EXPECT_FALSE(is_const(zero, 0.0));
    EXPECT_EQ(node(zero).op, Op::Const);
    EXPECT_EQ(node(zero).value, 0.0);
    EXPECT_EQ(node(x * zero).op, Op::Mul);
    EXPECT_EQ(node(x * one).op, Op::Mul);
    EXPECT_EQ(node(x + zero).op, Op::Add);
    // arithmetic on constants folds, and stays opaque if an operand was
    const Expr ab = a * b;
    EXPECT_EQ(node(ab).op, Op::Const);
    EXPECT_EQ(node(ab).value, 6.25);
    EXPECT_EQ(node(x * ab).op, Op::Mul);
    EXPECT_TRUE(is_const(zero * Expr(0.0), 0.0));  // the algorithm's 0 still annihilates
    // outside the scope, and without opaque_model, constants fold as before
    EXPECT_EQ((x * Expr(1.0)).id(), x.id());
    g.opaque_model = false;
    {
        const ModelConstants<Expr> model;
        EXPECT_EQ((x * Expr(1.0)).id(), x.id());
    }
    const std::vector<double> values = g.evaluate<double>({{3.0, 0.0}, {0.0}});
    EXPECT_EQ(values[(x * ab).id()], 18.75);
    EXPECT_EQ(values[(x * zero).id()], 0.0);
}

}  // namespace
}  // namespace rbdgen::sym
