// sym/merge_values.cpp: value numbering by value. On small graphs whose answer is known by hand: one
// function written two ways is one node, its negation a Neg of it, and functions that differ (even
// by a term 1e-9 of the value) stay apart. On Nori's LU for the floating humanoid: the merged
// factor kernel computes what the unmerged one computes, to rounding, in far fewer operations (the
// test fails with the pass off: KernelSpec::merge_values).
#include <gtest/gtest.h>

#include <random>

#include "emit/kernel.hpp"
#include "emit/prepare.hpp"
#include "model/urdf_loader.hpp"
#include "sparse/analysis.hpp"
#include "sym/merge_values.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

using sym::Expr;

TEST(MergeValues, OneFunctionWrittenTwoWaysIsOneNodeAndItsNegationANeg) {
    sym::Graph g;
    std::vector<int> outputs;
    {
        sym::Tracing tracing(g);
        const Expr a = Expr::input(0, 0), b = Expr::input(0, 1), c = Expr::input(0, 2);
        const Expr product = (a + b) * (a - b);
        const Expr squares = a * a - b * b;                  // the same function
        const Expr negated = (b - a) * (a + b);              // its negation
        const Expr near = a * a - b * b + 1e-9 * c;          // close, not equal
        const Expr other = (a + b) * (a + b);                // another function
        for (const Expr& e : {product, squares, negated, near, other}) outputs.push_back(e.id());
    }
    sym::Graph out;
    sym::MergeReport report;
    const std::vector<int> ids = sym::merge_equal_values(g, outputs, out, sym::kMergeTolerance, &report);
    EXPECT_NE(outputs[0], outputs[1]);  // two nodes before
    EXPECT_EQ(ids[0], ids[1]);          // one after
    ASSERT_EQ(out.node(ids[2]).op, sym::Op::Neg);
    EXPECT_EQ(out.node(ids[2]).a, ids[0]);
    EXPECT_NE(ids[3], ids[0]);
    EXPECT_NE(ids[4], ids[0]);
    EXPECT_EQ(report.same, 1);
    EXPECT_EQ(report.opposite, 2);  // the negation, and its factor b − a (a − b's)
}

TEST(MergeValues, NorisFactorKernelKeepsItsValuesInFewerOperations) {
    const Model model = prepare_model(load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true})).model;
    const auto a = std::make_shared<const ProblemAnalysis>(analyze_problem(model, forward_dynamics_problem(model), {.states = 50}));
    std::vector<KernelSpec> specs = problem_kernel_specs(a);
    for (const char* name : {"fd_lu", "fd_factor"}) {
        const auto merged = std::find_if(specs.begin(), specs.end(), [&](const KernelSpec& s) { return s.name == name; });
        ASSERT_NE(merged, specs.end());
        ASSERT_TRUE(merged->merge_values) << name;
        KernelSpec plain = *merged;
        plain.merge_values = false;
        const Kernel with = trace_kernel(model, *merged), without = trace_kernel(model, plain);
        // measured: fd_lu 22,977 -> 17,533 on the synthetic humanoid (bench/RESULTS.md), fd_factor a third less
        EXPECT_LT(with.ops().total(), 0.85 * without.ops().total()) << name;
        // the same numbers at states of the problem: q, qd, tau, gravity (fd_lu); D's values (fd_factor)
        std::mt19937_64 rng(5);
        for (int s = 0; s < 20; ++s) {
            const test::RandomState x = test::random_state(model, rng);
            std::vector<std::vector<double>> inputs;
            if (std::string(name) == "fd_lu") {
                for (const VecX<double>* v : {&x.q, &x.qd, &x.tau}) inputs.emplace_back(v->data(), v->data() + v->size());
                inputs.push_back({x.gravity[0], x.gravity[1], x.gravity[2]});
            } else {
                const auto assemble = std::find_if(specs.begin(), specs.end(), [](const KernelSpec& k) { return k.name == "fd_assemble"; });
                const VecX<double> D = assemble->reference(model, {x.q, x.qd, x.tau, x.gravity})[0];
                inputs.emplace_back(D.data(), D.data() + D.size());
            }
            const std::vector<double> vw = with.graph->evaluate(inputs), vo = without.graph->evaluate(inputs);
            double scale = 1, worst = 0;
            for (int id : without.all_output_nodes()) scale = std::max(scale, std::abs(vo[id]));
            const std::vector<int> ow = with.all_output_nodes(), oo = without.all_output_nodes();
            for (size_t k = 0; k < ow.size(); ++k) worst = std::max(worst, std::abs(vw[ow[k]] - vo[oo[k]]) / scale);
            EXPECT_LT(worst, 1e-12) << name << ", state " << s;
        }
    }
}

}  // namespace
}  // namespace rbdgen
