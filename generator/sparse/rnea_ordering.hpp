// The hand-made permutations of Nori eq. (10)–(11) that make the inverse-dynamics system lower
// triangular (Property 1), for the layout of sparse/newton_euler_system.hpp with the measurement rows
// of measured_system (f^x then the joint's row block, body by body, after the constraints (3)):
//   q    = [f^x_1, q̈_1, …, f^x_N, q̈_N, a_1, …, a_N, f_N, τ_N, …, f_1, τ_1]            (10)
//   p_id = [c(7f^x_1), c(7q̈_1), …, c(3a_1), …, c(3a_N), c(3f_N), c(3τ_N), …, c(3f_1), c(3τ_1)]   (11)
// Each is the list of original indices in their new order (column j of D_{p,q} is column q[j] of D).
// One of the candidate orderings for Problem 2; zero fill for inverse dynamics.
#pragma once

#include <numeric>
#include <vector>

#include "sparse/newton_euler_system.hpp"

namespace rbdgen {

struct Permutations {
    std::vector<int> rows, columns;
};

inline Permutations rnea_ordering(const Model& model) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    const int N = model.N();
    auto append = [](std::vector<int>& order, int first, int count) {
        for (int k = 0; k < count; ++k) order.push_back(first + k);
    };
    Permutations p;
    int measured_row = l.constraints;  // measured_system's rows: f^x_i (6), then q̈_i (n_i), body by body
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

}  // namespace rbdgen
