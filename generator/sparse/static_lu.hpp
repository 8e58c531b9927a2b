// Sparse LU with a static pivot order (Nori §IV-D, §V-D): P D Q = L U with P and Q chosen offline on
// the worst-case pattern (sparse/ordering.hpp). The pattern of L + U, fill-in included, is found once
// by symbolic elimination; at run time the same elimination runs on values and never pivots. Written
// once on the scalar: with the symbolic scalar it is the emitted factor and solve, with exact ±1 and
// 0 folded away.
//
// An order may stop short: after its `pivots` static pivots, the rows left (a redundant sensor set
// has more rows than unknowns) and the columns left form a small dense block S, the Schur complement,
// solved in the least-squares sense by the normal equations SᵀS x = Sᵀ r with a static LDLᵀ: SᵀS is
// positive definite wherever the problem is regular, so no pivot there depends on the order.
#pragma once

#include <vector>

#include "spatial/spatial.hpp"
#include "sym/step.hpp"

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

// The pattern of the factors of P D Q. Rows i < pivots: L's columns (< i) and U's (> i, ascending);
// the diagonal is U's, L's diagonal is 1. A full LU has pivots = n and uses the first n rows of P.
// Otherwise rows i ≥ pivots (all of P's) have L's columns (< pivots), and the tail block is dense.
struct LuPattern {
    int n = 0;       // unknowns: D's columns
    int m = 0;       // rows used: n for a full LU, all of D's otherwise
    int pivots = 0;  // static pivots; the tail has m − pivots rows and n − pivots columns
    Permutations order;
    std::vector<std::vector<int>> L, U;
    long nnz = 0;   // of L + U (diagonal included, L's unit diagonal not), and the tail block
    long fill = 0;  // nnz minus the entries of P D Q it covers
    int tail_rows() const { return m - pivots; }
    int tail_cols() const { return n - pivots; }
};

// Symbolic elimination; `pivots` < 0: a full LU. Throws std::invalid_argument when the order meets a
// structurally zero pivot.
LuPattern symbolic_lu(const SparsePattern& D, const Permutations& order, int pivots = -1);

template <class S> struct LuFactors {
    std::vector<std::vector<S>> L, U;  // values aligned with LuPattern's
    std::vector<S> pivot, inv_pivot;   // U's diagonal and its reciprocal (one division a row)
    MatX<S> tail;                      // S: tail_rows x tail_cols
    MatX<S> tail_ldl;                  // SᵀS = L D Lᵀ: L below the diagonal, D on it
    std::vector<S> tail_inv_d;         // 1 / D
};

// Row by row (i, then k ascending over L's row i): w = row i of P D Q; w_k ← w_k / u_kk and
// w_j ← w_j − w_k u_kj for each k in L's row; the row's fill is already in the pattern.
// D: anything with D(r, c), read only at the pattern's entries (and 0 at fill-in). Into f, whose
// arrays are reused from call to call (the generator's pivot check factors at 10,000 states).
template <class S, class Matrix> void lu_factor(const LuPattern& lu, const Matrix& D, LuFactors<S>& f) {
    f.L.resize(lu.m), f.U.resize(lu.pivots), f.pivot.resize(lu.pivots), f.inv_pivot.resize(lu.pivots);
    const int t = lu.tail_cols();
    f.tail.setConstant(lu.tail_rows(), t, S(0.0));
    std::vector<S> w(lu.n, S(0.0));
    for (int i = 0; i < lu.m; ++i) {
        const Step<S> step;  // a row of L and U: rows of like bodies share their operations
        const int r = lu.order.rows[i];
        const bool tail_row = i >= lu.pivots;
        for (int k : lu.L[i]) w[k] = D(r, lu.order.columns[k]);
        if (tail_row)
            for (int j = lu.pivots; j < lu.n; ++j) w[j] = D(r, lu.order.columns[j]);
        else {
            w[i] = D(r, lu.order.columns[i]);
            for (int j : lu.U[i]) w[j] = D(r, lu.order.columns[j]);
        }
        for (int k : lu.L[i]) {
            w[k] = w[k] * f.inv_pivot[k];
            for (size_t e = 0; e < lu.U[k].size(); ++e) w[lu.U[k][e]] = w[lu.U[k][e]] - w[k] * f.U[k][e];
        }
        f.L[i].resize(lu.L[i].size());
        for (size_t e = 0; e < lu.L[i].size(); ++e) f.L[i][e] = w[lu.L[i][e]];
        if (tail_row) {
            for (int j = 0; j < t; ++j) f.tail(i - lu.pivots, j) = w[lu.pivots + j];
            continue;
        }
        f.pivot[i] = w[i];
        f.inv_pivot[i] = S(1.0) / w[i];
        f.U[i].resize(lu.U[i].size());
        for (size_t e = 0; e < lu.U[i].size(); ++e) f.U[i][e] = w[lu.U[i][e]];
    }
    // The tail's normal equations SᵀS = L D Lᵀ (lower triangle, column by column).
    f.tail_ldl.setConstant(t, t, S(0.0));
    f.tail_inv_d.resize(t);
    for (int j = 0; j < t; ++j) {
        for (int i = j; i < t; ++i) {
            S x(0.0);
            for (int r = 0; r < lu.tail_rows(); ++r) x = x + f.tail(r, i) * f.tail(r, j);
            for (int k = 0; k < j; ++k) x = x - f.tail_ldl(i, k) * f.tail_ldl(j, k) * f.tail_ldl(k, k);
            f.tail_ldl(i, j) = i == j ? x : x * f.tail_inv_d[j];
            if (i == j) f.tail_inv_d[j] = S(1.0) / x;
        }
    }
}
template <class S, class Matrix> LuFactors<S> lu_factor(const LuPattern& lu, const Matrix& D) {
    LuFactors<S> f;
    lu_factor(lu, D, f);
    return f;
}

// Solves D x + b = 0 with the factors: L z = −P b (forward); the tail's unknowns y_t from
// SᵀS y_t = Sᵀ z_t; then U y = z (backward); x = Q y.
template <class S> VecX<S> lu_solve(const LuPattern& lu, const LuFactors<S>& f, const VecX<S>& b) {
    std::vector<S> z(lu.m);
    for (int i = 0; i < lu.m; ++i) {
        const Step<S> step;
        S zi = -b[lu.order.rows[i]];
        for (size_t e = 0; e < lu.L[i].size(); ++e) zi = zi - f.L[i][e] * z[lu.L[i][e]];
        z[i] = zi;
    }
    std::vector<S> y(lu.n, S(0.0));
    const int t = lu.tail_cols();
    for (int j = 0; j < t; ++j) {  // Sᵀ z_t, then L, D and Lᵀ
        S x(0.0);
        for (int r = 0; r < lu.tail_rows(); ++r) x = x + f.tail(r, j) * z[lu.pivots + r];
        for (int k = 0; k < j; ++k) x = x - f.tail_ldl(j, k) * y[lu.pivots + k];
        y[lu.pivots + j] = x;
    }
    for (int j = 0; j < t; ++j) y[lu.pivots + j] = y[lu.pivots + j] * f.tail_inv_d[j];
    for (int j = t - 1; j >= 0; --j)
        for (int k = j + 1; k < t; ++k) y[lu.pivots + j] = y[lu.pivots + j] - f.tail_ldl(k, j) * y[lu.pivots + k];
    for (int i = lu.pivots - 1; i >= 0; --i) {
        const Step<S> step;
        S yi = z[i];
        for (size_t e = 0; e < lu.U[i].size(); ++e) yi = yi - f.U[i][e] * y[lu.U[i][e]];
        y[i] = yi * f.inv_pivot[i];
    }
    VecX<S> x(lu.n);
    for (int i = 0; i < lu.n; ++i) x[lu.order.columns[i]] = y[i];
    return x;
}

// The factors as one array, the emitted factor kernel's output and solve kernel's input: row by row
// of P D Q, a pivot row's L entries, 1 / u_ii and U entries, a tail row's L entries and its row of S;
// then the tail's LDLᵀ column by column: 1 / d_j and L's entries below it.
inline long lu_values_size(const LuPattern& lu) { return lu.nnz + static_cast<long>(lu.tail_cols()) * (lu.tail_cols() + 1) / 2; }
template <class S> VecX<S> lu_values(const LuPattern& lu, const LuFactors<S>& f) {
    VecX<S> out(lu_values_size(lu));
    long n = 0;
    for (int i = 0; i < lu.m; ++i) {
        for (const S& l : f.L[i]) out[n++] = l;
        if (i < lu.pivots) {
            out[n++] = f.inv_pivot[i];
            for (const S& u : f.U[i]) out[n++] = u;
        } else {
            for (int j = 0; j < lu.tail_cols(); ++j) out[n++] = f.tail(i - lu.pivots, j);
        }
    }
    for (int j = 0; j < lu.tail_cols(); ++j) {
        out[n++] = f.tail_inv_d[j];
        for (int i = j + 1; i < lu.tail_cols(); ++i) out[n++] = f.tail_ldl(i, j);
    }
    return out;
}
template <class S> LuFactors<S> lu_from_values(const LuPattern& lu, const VecX<S>& x) {
    LuFactors<S> f;
    const int t = lu.tail_cols();
    f.L.resize(lu.m), f.U.resize(lu.pivots), f.inv_pivot.resize(lu.pivots), f.tail_inv_d.resize(t);
    f.tail = MatX<S>::Constant(lu.tail_rows(), t, S(0.0));
    f.tail_ldl = MatX<S>::Constant(t, t, S(0.0));
    long n = 0;
    for (int i = 0; i < lu.m; ++i) {
        for (size_t e = 0; e < lu.L[i].size(); ++e) f.L[i].push_back(x[n++]);
        if (i < lu.pivots) {
            f.inv_pivot[i] = x[n++];
            for (size_t e = 0; e < lu.U[i].size(); ++e) f.U[i].push_back(x[n++]);
        } else {
            for (int j = 0; j < t; ++j) f.tail(i - lu.pivots, j) = x[n++];
        }
    }
    for (int j = 0; j < t; ++j) {
        f.tail_inv_d[j] = x[n++];
        for (int i = j + 1; i < t; ++i) f.tail_ldl(i, j) = x[n++];
    }
    return f;
}

}  // namespace rbdgen
