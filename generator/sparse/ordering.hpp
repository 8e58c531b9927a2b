// Candidate solutions of Nori's Problem 2 (a row and a column permutation with little fill-in) for a
// problem's worst-case pattern, from SuiteSparse: UMFPACK on a numeric instance of the pattern (its
// own strategy, and with AMD on D + Dᵀ; P and Q read back with umfpack_di_get_numeric), and COLAMD's
// and AMD's column orders handed to UMFPACK fixed (it then chooses the pivot rows). The analysis
// (sparse/analysis.hpp) adds the hand-made orders, counts each one's fill and operations and checks
// its pivots.
#pragma once

#include <string>
#include <vector>

#include "sparse/static_lu.hpp"

namespace rbdgen {

struct OrderingCandidate {
    std::string name;
    Permutations order;
    int pivots = -1;  // static pivots before a least-squares tail; -1: a full LU (sparse/static_lu.hpp)
};

// `values`: D's entries at one generic state, in the pattern's column order. A candidate SuiteSparse
// could not produce (a numerically singular instance) is left out.
std::vector<OrderingCandidate> suitesparse_orderings(const SparsePattern& D, const std::vector<double>& values);

}  // namespace rbdgen
