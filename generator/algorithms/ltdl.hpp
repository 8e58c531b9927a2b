// Featherstone's sparse LTDL and LTL factorizations, H = Lᵀ D L and H = Lᵀ L, and the four products
// and solves with L (Appendix A). λ is the expanded parent array, 0-based with −1 for the root: the
// inner loops visit only ancestors, so the branch-induced zeros of H are never filled in.
// The factors overwrite the lower triangle of H: for LTDL, D on the diagonal and L's unit diagonal
// implied; for LTL, L including its diagonal.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/compiled_once.hpp"
#include "spatial/spatial.hpp"
#include "sym/step.hpp"

namespace rbdgen {

// Appendix A, LTDL factorization.
template <class S> void ltdl(MatX<S>& A, const std::vector<int>& lambda) {
    const int n = static_cast<int>(lambda.size());
    for (int k = n - 1; k >= 0; --k) {
        const Step<S> step;
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            const S a = A(k, i) / A(k, k);
            for (int j = i; j >= 0; j = lambda[j]) A(i, j) = A(i, j) - A(k, j) * a;
            A(k, i) = a;
        }
    }
}

// §2, LTL factorization (Fig. 3).
template <class S> void ltl(MatX<S>& H, const std::vector<int>& lambda) {
    using std::sqrt;
    const int n = static_cast<int>(lambda.size());
    for (int k = n - 1; k >= 0; --k) {
        H(k, k) = sqrt(H(k, k));
        for (int j = lambda[k]; j >= 0; j = lambda[j]) H(k, j) = H(k, j) / H(k, k);
        for (int i = lambda[k]; i >= 0; i = lambda[i])
            for (int j = i; j >= 0; j = lambda[j]) H(i, j) = H(i, j) - H(k, i) * H(k, j);
    }
}

// Whether the factor's diagonal is L_ii (LTL) or the implied 1 of LTDL.
enum class Diagonal { Unit, Stored };

// y = L x
template <class S> VecX<S> L_times(const MatX<S>& L, const std::vector<int>& lambda, const VecX<S>& x, Diagonal diag) {
    const int n = static_cast<int>(lambda.size());
    VecX<S> y(n);
    for (int i = n - 1; i >= 0; --i) {
        y[i] = diag == Diagonal::Unit ? x[i] : L(i, i) * x[i];
        for (int j = lambda[i]; j >= 0; j = lambda[j]) y[i] = y[i] + L(i, j) * x[j];
    }
    return y;
}

// y = Lᵀ x
template <class S> VecX<S> Lt_times(const MatX<S>& L, const std::vector<int>& lambda, const VecX<S>& x, Diagonal diag) {
    const int n = static_cast<int>(lambda.size());
    VecX<S> y(n);
    for (int i = 0; i < n; ++i) {
        y[i] = diag == Diagonal::Unit ? x[i] : L(i, i) * x[i];
        for (int j = lambda[i]; j >= 0; j = lambda[j]) y[j] = y[j] + L(i, j) * x[i];
    }
    return y;
}

// x = L⁻¹ x, in situ
template <class S> void L_solve(const MatX<S>& L, const std::vector<int>& lambda, VecX<S>& x, Diagonal diag) {
    const int n = static_cast<int>(lambda.size());
    for (int i = 0; i < n; ++i) {
        for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] = x[i] - L(i, j) * x[j];
        if (diag == Diagonal::Stored) x[i] = x[i] / L(i, i);
    }
}

// x = L⁻ᵀ x, in situ
template <class S> void Lt_solve(const MatX<S>& L, const std::vector<int>& lambda, VecX<S>& x, Diagonal diag) {
    const int n = static_cast<int>(lambda.size());
    for (int i = n - 1; i >= 0; --i) {
        if (diag == Diagonal::Stored) x[i] = x[i] / L(i, i);
        for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] = x[j] - L(i, j) * x[i];
    }
}

// One back-substitution with an LTDL factor: x = H⁻¹ b = L⁻¹ D⁻¹ L⁻ᵀ b.
template <class S> VecX<S> ltdl_solve(const MatX<S>& LD, const std::vector<int>& lambda, VecX<S> x) {
    Lt_solve<S>(LD, lambda, x, Diagonal::Unit);
    for (int i = 0; i < x.size(); ++i) x[i] = x[i] / LD(i, i);
    L_solve<S>(LD, lambda, x, Diagonal::Unit);
    return x;
}

// H⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ from LTDL's factors. W = L⁻¹ keeps L's branch-induced sparsity (W_ij ≠ 0 only for
// j an ancestor of i: row i of L W = 1 gives W_ij = −Σ L_ik W_kj over the ancestors k of i down to j),
// and H⁻¹ = Σ_j w_j w_jᵀ / D_jj over W's columns, w_j nonzero on the subtree of j only: H⁻¹_ik sums
// over the common ancestors j of i and k. Cheaper than n solves with unit vectors (the floating
// humanoid: about half the multiplications).
template <class S> MatX<S> ltdl_inverse(const MatX<S>& LD, const std::vector<int>& lambda) {
    const int n = static_cast<int>(lambda.size());
    MatX<S> W = MatX<S>::Identity(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = lambda[i]; j >= 0; j = lambda[j])
            for (int k = lambda[i];; k = lambda[k]) {
                W(i, j) = k == lambda[i] ? S(-(LD(i, k) * W(k, j))) : S(W(i, j) - LD(i, k) * W(k, j));
                if (k == j) break;
            }
    MatX<S> V = MatX<S>::Zero(n, n);  // w_j / D_jj, once an entry (not once a product)
    for (int k = 0; k < n; ++k)
        for (int j = k; j >= 0; j = lambda[j]) V(k, j) = W(k, j) / LD(j, j);
    MatX<S> M = MatX<S>::Zero(n, n);
    std::vector<bool> ancestor(n);
    for (int i = 0; i < n; ++i) {
        std::fill(ancestor.begin(), ancestor.end(), false);
        for (int j = i; j >= 0; j = lambda[j]) ancestor[j] = true;
        for (int k = 0; k <= i; ++k) {
            for (int j = k; j >= 0; j = lambda[j])
                if (ancestor[j]) M(i, k) = M(i, k) + W(i, j) * V(k, j);
            M(k, i) = M(i, k);
        }
    }
    return M;
}

// The nonzeros of H's lower triangle (and of the factors), row by row: row k its diagonal and then
// its ancestors, nearest first, entries off[k] to off[k + 1] − 1, col[e] the column of entry e. The
// rest of row k from its m-th entry on is the row of that entry's column: the order in which the
// compact emission's loops keep them (emit/ltdl_loops.hpp).
struct LtdlRows {
    std::vector<int> off, col;
};
inline LtdlRows ltdl_rows(const std::vector<int>& lambda) {
    LtdlRows r{{0}, {}};
    for (int k = 0; k < static_cast<int>(lambda.size()); ++k) {
        for (int j = k; j >= 0; j = lambda[j]) r.col.push_back(j);
        r.off.push_back(static_cast<int>(r.col.size()));
    }
    return r;
}

// λ of a dense matrix, λ(i) = i − 1: the factorizations then treat it as dense (§2).
inline std::vector<int> dense_parent(int n) {
    std::vector<int> lambda(n);
    for (int i = 0; i < n; ++i) lambda[i] = i - 1;
    return lambda;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_LTDL(S) void ltdl(MatX<S>&, const std::vector<int>&)
RBDGEN_COMPILED_ONCE(RBDGEN_LTDL)

}  // namespace rbdgen
