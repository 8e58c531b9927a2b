// Sparse LU with a static pivot order (Nori §IV-D, §V-D): P D Q = L U with P and Q chosen offline on
// the worst-case pattern (sparse/ordering.hpp). The pattern of L + U, fill-in included, is found once
// by symbolic elimination; at run time the same elimination runs on values and never pivots. Written
// once on the scalar: with the symbolic scalar it is the emitted factor and solve, with exact ±1 and
// 0 folded away.
//
// A rectangular D (more measurement rows than unknowns, a redundant sensor set) is factored on the
// first n rows of P: the others hold for consistent measurements and are not read.
#pragma once

#include <vector>

#include "spatial/spatial.hpp"

namespace rbdgen {

// A structural pattern in compressed columns: column c's rows, ascending.
struct SparsePattern {
    int rows = 0, cols = 0;
    std::vector<std::vector<int>> columns;
    long nnz() const;
    bool has(int r, int c) const;
};

struct Permutations {
    std::vector<int> rows, columns;  // row k of P D Q is row rows[k] of D; column k is columns[k]
};

// The pattern of L and U for P D Q: row i's strictly lower columns (L, ascending) and strictly upper
// columns (U, ascending); the diagonal is U's, and L's diagonal is 1.
struct LuPattern {
    int n = 0;
    Permutations order;
    std::vector<std::vector<int>> L, U;
    long nnz = 0;   // of L + U, diagonal included (L's unit diagonal not counted)
    long fill = 0;  // nnz minus the entries of P D Q's square part
};

// Symbolic elimination; throws std::invalid_argument when the order meets a structurally zero pivot.
LuPattern symbolic_lu(const SparsePattern& D, const Permutations& order);

template <class S> struct LuFactors {
    std::vector<std::vector<S>> L, U;  // values aligned with LuPattern's
    std::vector<S> pivot, inv_pivot;   // U's diagonal and its reciprocal (one division a row)
};

// Row by row (i, then k ascending over L's row i): w = row i of P D Q; w_k ← w_k / u_kk and
// w_j ← w_j − w_k u_kj for each k in L's row; the row's fill is already in the pattern.
// D: anything with D(r, c), read only at the pattern's entries (and 0 at fill-in).
template <class S, class Matrix> LuFactors<S> lu_factor(const LuPattern& lu, const Matrix& D) {
    LuFactors<S> f;
    f.L.resize(lu.n), f.U.resize(lu.n), f.pivot.resize(lu.n), f.inv_pivot.resize(lu.n);
    std::vector<S> w(lu.n, S(0.0));
    for (int i = 0; i < lu.n; ++i) {
        const int r = lu.order.rows[i];
        for (int k : lu.L[i]) w[k] = D(r, lu.order.columns[k]);
        w[i] = D(r, lu.order.columns[i]);
        for (int j : lu.U[i]) w[j] = D(r, lu.order.columns[j]);
        for (int k : lu.L[i]) {
            w[k] = w[k] * f.inv_pivot[k];
            for (size_t e = 0; e < lu.U[k].size(); ++e) w[lu.U[k][e]] = w[lu.U[k][e]] - w[k] * f.U[k][e];
        }
        for (int k : lu.L[i]) f.L[i].push_back(w[k]);
        f.pivot[i] = w[i];
        f.inv_pivot[i] = S(1.0) / w[i];
        for (int j : lu.U[i]) f.U[i].push_back(w[j]);
    }
    return f;
}

// Solves D x + b = 0 with the factors: L z = −P b (forward), U y = z (backward), x = Q y.
template <class S> VecX<S> lu_solve(const LuPattern& lu, const LuFactors<S>& f, const VecX<S>& b) {
    std::vector<S> z(lu.n);
    for (int i = 0; i < lu.n; ++i) {
        S zi = -b[lu.order.rows[i]];
        for (size_t e = 0; e < lu.L[i].size(); ++e) zi = zi - f.L[i][e] * z[lu.L[i][e]];
        z[i] = zi;
    }
    VecX<S> x(lu.n);
    for (int i = lu.n - 1; i >= 0; --i) {
        S yi = z[i];
        for (size_t e = 0; e < lu.U[i].size(); ++e) yi = yi - f.U[i][e] * z[lu.U[i][e]];
        z[i] = yi * f.inv_pivot[i];
        x[lu.order.columns[i]] = z[i];
    }
    return x;
}

}  // namespace rbdgen
