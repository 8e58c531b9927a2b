// The static-pivot LU of Nori's system (sparse/analysis.hpp, sparse/static_lu.hpp) against the
// classical algorithms, on every model: with the order the analysis keeps, LU inverse dynamics is
// RNEA and LU forward dynamics is ABA (external forces included) over 1,000 random states; inverse
// dynamics has zero fill (Property 1, Remark 2).
#include "algorithms/aba.hpp"
#include "algorithms/rnea.hpp"
#include "model/error.hpp"
#include "sparse/analysis.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

class StaticLuTest : public test::ModelTest {
protected:
    std::mt19937_64 rng{99};
    // f^x of every body as the problem's second input, and the same wrenches for RNEA and ABA.
    std::pair<VecX<double>, std::vector<Vec6<double>>> random_wrenches() {
        std::uniform_real_distribution<double> u(-5, 5);
        std::vector<Vec6<double>> f(model.N());
        VecX<double> flat(6 * model.N());
        for (int i = 0; i < model.N(); ++i) {
            f[i] = Vec6<double>::NullaryExpr([&] { return u(rng); });
            flat.segment<6>(6 * i) = f[i];
        }
        return {flat, f};
    }
};

TEST_P(StaticLuTest, InverseDynamicsIsRneaWithZeroFill) {
    const ProblemAnalysis a = analyze_problem(model, inverse_dynamics_problem(model, true));
    EXPECT_EQ(a.lu.fill, 0) << "ordering " << a.ordering;
    EXPECT_EQ(a.lu.nnz, a.pattern.nnz());
    EXPECT_GE(a.states_checked, 10000);
    EXPECT_GE(a.min_pivot, 1e-6);
    for (int s = 0; s < test::states(1000); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const auto [flat, f_ext] = random_wrenches();
        const VecX<double> d = solve_problem<double>(model, a, x.q, x.qd, x.gravity, {x.qdd, flat});
        ASSERT_LT(test::rel_err(joint_space<double>(model, d, true), rnea<double>(model, x.q, x.qd, x.qdd, x.gravity, &f_ext)), 1e-10)
            << "state " << s;
    }
}

TEST_P(StaticLuTest, ForwardDynamicsIsAba) {
    if (!forward_dynamics_refusal(model).empty()) GTEST_SKIP() << "H is singular: " << forward_dynamics_refusal(model);
    const ProblemAnalysis a = analyze_problem(model, forward_dynamics_problem(model, true));
    std::cout << model.name << " fd: " << a.ordering << ", nnz(D) " << a.pattern.nnz() << ", nnz(LU) " << a.lu.nnz << ", fill "
              << a.lu.fill << ", min pivot " << a.min_pivot << "\n";
    for (const OrderingReport& r : a.candidates)
        std::cout << "  " << r.name << ": fill " << r.fill << ", ops " << r.ops << " " << r.rejected << "\n";
    for (int s = 0; s < test::states(1000); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const auto [flat, f_ext] = random_wrenches();
        const VecX<double> d = solve_problem<double>(model, a, x.q, x.qd, x.gravity, {x.tau, flat});
        ASSERT_LT(test::rel_err(joint_space<double>(model, d, false), aba<double>(model, x.q, x.qd, x.tau, x.gravity, &f_ext)), 1e-10)
            << "state " << s;
    }
}

// No order is kept whose pivots fall below the threshold at a state where the problem is regular;
// with none left the problem is refused, naming it and every candidate's reason.
TEST(StaticPivots, NoSafeOrderIsAnErrorNamingEveryCandidate) {
    const Model model = load_urdf(test::project_model("arm7.urdf"));
    try {
        analyze_problem(model, forward_dynamics_problem(model), {.states = 100, .pivot_threshold = 2.0});  // |u_ii| ≤ its row's max
        FAIL() << "an order was kept";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("problem 'fd'"), std::string::npos) << m;
        EXPECT_NE(m.find("no ordering has safe static pivots"), std::string::npos) << m;
        for (const char* candidate : {"aba:", "umfpack:", "colamd:", "constant-pivots:"})
            EXPECT_NE(m.find(candidate), std::string::npos) << candidate << " in " << m;
    }
}

INSTANTIATE_TEST_SUITE_P(Models, StaticLuTest, ::testing::ValuesIn(test::all_models()), test::case_name);

}  // namespace
}  // namespace rbdgen
