// Nori's system D d + b = 0 (sparse/newton_euler_system.hpp), a second formulation of the dynamics:
// with the measurements of inverse dynamics (q̈ and f^x known, eq. 7–8) its solution's τ is RNEA's,
// with those of forward dynamics (τ and f^x known, eq. 14) its q̈ is ABA's, on every model, fixed and
// floating, external forces included. Solved densely here (Eigen's partial-pivoting LU).
#include "algorithms/aba.hpp"
#include "algorithms/rnea.hpp"
#include "sparse/problem.hpp"
#include "sparse/classical_orderings.hpp"
#include "sym/expr.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

class NewtonEulerSystemTest : public test::ModelTest {
protected:
    std::mt19937_64 rng{2024};
    std::vector<Vec6<double>> random_wrenches() {
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<Vec6<double>> f(model.N());
        for (auto& w : f) w = Vec6<double>::NullaryExpr([&] { return 5 * u(rng); });
        return f;
    }
    // The problem with external forces as an input: τ or q̈ known, and f^x.
    VecX<double> solve(const Problem& p, const test::RandomState& x, const VecX<double>& known, const std::vector<Vec6<double>>& f_ext) {
        VecX<double> f(6 * model.N());
        for (int i = 0; i < model.N(); ++i) f.segment<6>(6 * i) = f_ext[i];
        return solve(problem_system<double>(model, p, x.q, x.qd, x.gravity, {known, f}));
    }
    // Densely, by the partial-pivoting LU (blocked; with the full-pivoting one this test took 28 s,
    // with it 7), the solution checked by its residual: a singular D fails there.
    static VecX<double> solve(const NewtonEulerSystem<double>& sys) {
        EXPECT_EQ(sys.D.rows(), sys.D.cols());
        const VecX<double> d = Eigen::PartialPivLU<MatX<double>>(sys.D).solve(VecX<double>(-sys.b));
        EXPECT_LT((sys.D * d + sys.b).norm(), 1e-10 * (sys.D.norm() * d.norm() + sys.b.norm())) << "D is singular";
        return d;
    }
};

TEST_P(NewtonEulerSystemTest, InverseDynamicsIsRnea) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    int n = 0;
    for (const Body& b : model.bodies) n += 18 + 2 * b.joint.nv();
    EXPECT_EQ(l.variables, n);  // |d| = Σ 18 + 2 n_i
    for (int s = 0; s < test::states(20); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const std::vector<Vec6<double>> f_ext = random_wrenches();
        const VecX<double> d = solve(inverse_dynamics_problem(model, true), x, x.qdd, f_ext);
        EXPECT_LT(test::rel_err(joint_space<double>(model, d, true), rnea<double>(model, x.q, x.qd, x.qdd, x.gravity, &f_ext)), 1e-10);
    }
}

TEST_P(NewtonEulerSystemTest, ForwardDynamicsIsAba) {
    if (!forward_dynamics_refusal(model).empty()) GTEST_SKIP() << "H is singular: " << forward_dynamics_refusal(model);
    for (int s = 0; s < test::states(20); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const std::vector<Vec6<double>> f_ext = random_wrenches();
        const VecX<double> d = solve(forward_dynamics_problem(model, true), x, x.tau, f_ext);
        EXPECT_LT(test::rel_err(joint_space<double>(model, d, false), aba<double>(model, x.q, x.qd, x.tau, x.gravity, &f_ext)), 1e-9);
    }
}

// The same code traced on the symbolic scalar (the generator's use): an entry of D is structurally
// nonzero where its folded expression is not the constant 0 (Nori §IV-D's worst-case pattern, at the
// level of scalars). Every nonzero of the numeric D at a random state is in that pattern, and the
// pattern is hardly larger (talos has 4 entries that cancel to an exact 0 in floating point at a
// state but are not zero as expressions).
TEST_P(NewtonEulerSystemTest, TracedPatternIsTheNumericNonzeros) {
    sym::Graph g;
    sym::Tracing tracing(g);
    VecX<sym::Expr> q(model.nq), qd(model.nv);
    for (int k = 0; k < model.nq; ++k) q[k] = sym::Expr::input(0, k);
    for (int k = 0; k < model.nv; ++k) qd[k] = sym::Expr::input(1, k);
    const NewtonEulerSystem<sym::Expr> traced =
        newton_euler_system<sym::Expr>(model, q, qd, Vec3<sym::Expr>(sym::Expr(0.0), sym::Expr(0.0), sym::Expr(-9.81)));
    const test::RandomState x = test::random_state(model, rng);
    const NewtonEulerSystem<double> numeric = newton_euler_system<double>(model, x.q, x.qd, Vec3<double>(0, 0, -9.81));
    long structural = 0, nonzero = 0;
    for (int r = 0; r < numeric.D.rows(); ++r)
        for (int c = 0; c < numeric.D.cols(); ++c) {
            const bool s = !g.is_const(traced.D(r, c).id(), 0.0), n = numeric.D(r, c) != 0.0;
            structural += s, nonzero += n;
            EXPECT_TRUE(s || !n) << "D(" << r << ", " << c << ") is nonzero outside the pattern";
        }
    EXPECT_LE(structural - nonzero, structural / 100);
    EXPECT_LT(structural, numeric.D.size() / 10);  // sparse: under a tenth of the entries
}

// Nori's Property 1: with the permutations of eq. (10)–(11) the inverse-dynamics system is lower
// triangular with a nonzero diagonal (zero fill: a forward substitution solves it), on the traced
// worst-case pattern.
TEST_P(NewtonEulerSystemTest, RneaOrderingMakesInverseDynamicsLowerTriangular) {
    sym::Graph g;
    sym::Tracing tracing(g);
    VecX<sym::Expr> q(model.nq), qd(model.nv), qdd(model.nv);
    for (int k = 0; k < model.nq; ++k) q[k] = sym::Expr::input(0, k);
    for (int k = 0; k < model.nv; ++k) qd[k] = sym::Expr::input(1, k), qdd[k] = sym::Expr::input(2, k);
    const NewtonEulerSystem<sym::Expr> sys = problem_system<sym::Expr>(
        model, inverse_dynamics_problem(model), q, qd, Vec3<sym::Expr>(sym::Expr(0.0), sym::Expr(0.0), sym::Expr(-9.81)), {qdd});
    ASSERT_EQ(sys.D.rows(), sys.D.cols());
    const Permutations p = rnea_ordering(model);
    ASSERT_EQ(static_cast<long>(p.rows.size()), sys.D.rows());
    ASSERT_EQ(static_cast<long>(p.columns.size()), sys.D.cols());
    std::vector<int> rows = p.rows, columns = p.columns;
    std::sort(rows.begin(), rows.end()), std::sort(columns.begin(), columns.end());
    for (int k = 0; k < static_cast<int>(rows.size()); ++k) ASSERT_TRUE(rows[k] == k && columns[k] == k) << "not a permutation";
    long above = 0;
    for (int r = 0; r < sys.D.rows(); ++r) {
        EXPECT_FALSE(g.is_const(sys.D(p.rows[r], p.columns[r]).id(), 0.0)) << "zero pivot at " << r;
        for (int c = r + 1; c < sys.D.cols(); ++c) above += !g.is_const(sys.D(p.rows[r], p.columns[c]).id(), 0.0);
    }
    EXPECT_EQ(above, 0);
}

INSTANTIATE_TEST_SUITE_P(Models, NewtonEulerSystemTest, ::testing::ValuesIn(test::all_models()), test::case_name);

}  // namespace
}  // namespace rbdgen
