// The hand-made orders of the classical problems, for the layout of sparse/newton_euler_system.hpp
// with the measurement rows of sparse/problem.hpp's joint problems (f^x, then the joint's row block,
// body by body, after the constraints (3)). Candidates for Problem 2 beside SuiteSparse's.
//
// Inverse dynamics, Nori eq. (10)–(11): lower triangular (Property 1), so zero fill:
//   q    = [f^x_1, q̈_1, …, f^x_N, q̈_N, a_1, …, a_N, f_N, τ_N, …, f_1, τ_1]            (10)
//   p_id = [c(7f^x_1), c(7q̈_1), …, c(3a_1), …, c(3a_N), c(3f_N), c(3τ_N), …, c(3f_1), c(3τ_1)]   (11)
// Each is the list of original indices in their new order (column j of D_{p,q} is column q[j] of D).
#pragma once

#include <numeric>
#include <vector>

#include "sparse/newton_euler_system.hpp"
#include "sparse/static_lu.hpp"

namespace rbdgen {

inline Permutations rnea_ordering(const Model& model) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    const int N = model.N();
    auto append = [](std::vector<int>& order, int first, int count) {
        for (int k = 0; k < count; ++k) order.push_back(first + k);
    };
    Permutations p;
    int measured_row = l.constraints;  // the problem's rows: f^x_i (6), then q̈_i (n_i), body by body
    for (int i = 0; i < N; ++i) {
        const auto& k = l.bodies[i];
        append(p.columns, k.f_x, 6), append(p.columns, k.qdd, k.n);
        append(p.rows, measured_row, 6 + k.n);
        measured_row += 6 + k.n;
    }
    for (int i = 0; i < N; ++i) append(p.columns, l.bodies[i].a, 6), append(p.rows, l.bodies[i].row_a, 6);
    for (int i = N - 1; i >= 0; --i) {
        const auto& k = l.bodies[i];
        append(p.columns, k.f, 6), append(p.columns, k.tau, k.n);
        append(p.rows, k.row_f, 6), append(p.rows, k.row_tau, k.n);
    }
    return p;
}

// Forward dynamics, the ABA as an elimination order (Nori App. A–B, eq. 33–34 without the W
// matrices: the LU computes them): the known f^x and τ first, then body by body from the leaves,
// (3f_i) on f_i (pivot −1), (3a_i) on a_i (pivot −1), (3τ_i) on q̈_i: there the pivot block is
// S_iᵀ I_i^A S_i, positive definite whenever H is, so static pivoting is safe at every q.
inline Permutations aba_ordering(const Model& model) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    auto append = [](std::vector<int>& order, int first, int count) {
        for (int k = 0; k < count; ++k) order.push_back(first + k);
    };
    Permutations p;
    int measured_row = l.constraints;
    for (const auto& k : l.bodies) {
        append(p.columns, k.f_x, 6), append(p.columns, k.tau, k.n);
        append(p.rows, measured_row, 6 + k.n);
        measured_row += 6 + k.n;
    }
    for (int i = model.N() - 1; i >= 0; --i) {
        const auto& k = l.bodies[i];
        append(p.columns, k.f, 6), append(p.columns, k.a, 6), append(p.columns, k.qdd, k.n);
        append(p.rows, k.row_f, 6), append(p.rows, k.row_a, 6), append(p.rows, k.row_tau, k.n);
    }
    return p;
}

}  // namespace rbdgen
