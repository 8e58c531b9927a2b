// The offline half of Nori's method for one problem (Remark 4, "preliminary optimization"):
//   1. the worst-case pattern of D (§IV-D): entries whose traced expression does not fold to 0;
//   2. well-posedness: D's rank at random states; an ill-posed problem is refused naming the
//      unknowns its sensors cannot determine (those with a component in D's null space);
//   3. Problem 2's candidates (sparse/ordering.hpp, and the RNEA order of eq. 10–11 for inverse
//      dynamics), each with its fill-in and the operations of its emitted factor and solve;
//   4. static pivoting made safe: the cheapest candidate whose pivots stay above a relative threshold
//      on thousands of states (joint angles at multiples of π/2 among them) is kept; a state where
//      the problem itself is singular rejects none (sparse/constant_pivots.hpp tells them apart).
// solve_problem is the runtime half, once for both scalars: assemble, factor, solve.
#pragma once

#include <string>
#include <vector>

#include "algorithms/compiled_once.hpp"
#include "sparse/problem.hpp"
#include "sparse/static_lu.hpp"
#include "sym/expr.hpp"

namespace rbdgen {

struct AnalysisOptions {
    int states = 10000;             // states the chosen order's pivots are checked on
    double pivot_threshold = 1e-6;  // |u_ii| below this times the largest |entry| of its row of D rejects an order
};

struct OrderingReport {
    std::string name;
    long nnz_lu = 0, fill = 0, ops = 0;  // ops: assemble + factor + solve, as emitted (fused)
    std::pair<int, int> tail{0, 0};      // rows and columns of its least-squares tail
    double min_pivot = 0;                // smallest relative pivot over the states tried (0: not checked)
    int states = 0;
    std::string rejected;                // why not chosen ("" for the chosen one)
};

struct ProblemAnalysis {
    Problem problem;
    SparsePattern pattern;  // of D: the constraints (3), then the problem's rows
    // Per entry of the pattern (column by column): whether it is a constant of the model (±1, S, an
    // inertia, a sensor's frame) and its value. The emitted factor folds these; D's array holds the rest.
    std::vector<bool> entry_constant;
    std::vector<double> entry_value;
    // Per entry: the first entry of the pattern that is the same traced expression (itself if none):
    // ⁱX_λ in row (3a_i) and its transpose in the parent's row (3f_λ), the two copies of E in X. D's
    // array holds each once, and the factor then sees that they are one value.
    std::vector<int> entry_first;
    std::string ordering;   // the chosen candidate
    LuPattern lu;
    double min_pivot = 0;   // relative, over the states checked
    int states_checked = 0;
    // States where D itself is rank-deficient (the sensors cannot tell the unknowns apart there, as
    // two feet's vertical torques when the feet are parallel): every order fails there, so they do
    // not reject one; the kernels return non-finite numbers at such states.
    int singular_states = 0;
    std::vector<std::string> unused_rows;  // measurement rows left out of a rectangular D (redundant)
    std::vector<OrderingReport> candidates;
};

// Per entry of the pattern (column by column), its place in the kernels' array of D's values: the
// entries that vary with the state, each value once, in the order of their first entry; −1 for a
// constant of the model, which the kernels fold.
std::vector<long> D_slots(const ProblemAnalysis& a);

// Throws rbdgen::Error for an ill-posed problem or when no candidate order has safe pivots.
ProblemAnalysis analyze_problem(const Model& model, const Problem& problem, const AnalysisOptions& options = {});

// The problem's solution d (every variable) by its LU: the emitted fused kernel's algorithm.
template <class S>
VecX<S> solve_problem(const Model& model, const ProblemAnalysis& a, const VecX<S>& q, const VecX<S>& qd, const Vec3<S>& gravity,
                      const std::vector<VecX<S>>& inputs) {
    const NewtonEulerSystem<S> sys = problem_system<S>(model, a.problem, q, qd, gravity, inputs);
    return lu_solve(a.lu, lu_factor<S>(a.lu, sys.D), sys.b);
}

// The structural pattern of a traced matrix: entries that are not the constant 0.
SparsePattern traced_pattern(const sym::Graph& g, const MatX<sym::Expr>& D);

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_SOLVE_PROBLEM(S) VecX<S> solve_problem(const Model&, const ProblemAnalysis&, const VecX<S>&, const VecX<S>&, \
    const Vec3<S>&, const std::vector<VecX<S>>&)
RBDGEN_COMPILED_ONCE(RBDGEN_SOLVE_PROBLEM)

}  // namespace rbdgen
