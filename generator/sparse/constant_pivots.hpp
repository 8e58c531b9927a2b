// An order for any problem whose pivots are safe by construction: Gaussian elimination that pivots
// only on entries that are constants of the model at every state (the ±1 of D's identity blocks and
// measurement rows, S, constant inertias, and what exact constant arithmetic makes of them), chosen
// greedily by Markowitz cost (fewest other entries in the pivot's row and column, ±1 first). What no
// constant pivot eliminates is left to the least-squares tail of sparse/static_lu.hpp, whose normal
// equations are singular only where the problem itself is: rank D = pivots + rank S.
#pragma once

#include "sparse/static_lu.hpp"
#include "sym/expr.hpp"

namespace rbdgen {

struct PartialOrder {
    Permutations order;  // the pivots' rows and columns first, in elimination order
    int pivots = 0;
};

PartialOrder constant_pivot_order(const sym::Graph& g, const MatX<sym::Expr>& D, const SparsePattern& pattern);

}  // namespace rbdgen
