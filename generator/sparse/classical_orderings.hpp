// The hand-made orders of the classical problems, for the layout of sparse/newton_euler_system.hpp
// with the measurement rows of sparse/problem.hpp's joint problems (f^x, then the joint's row block,
// body by body, after the constraints (3)). Candidates for Problem 2 beside SuiteSparse's.
//
// Inverse dynamics, Nori eq. (10)–(11): lower triangular (Property 1), so zero fill:
//   q    = [f^x_1, q̈_1, …, f^x_N, q̈_N, a_1, …, a_N, f_N, τ_N, …, f_1, τ_1]            (10)
//   p_id = [c(7f^x_1), c(7q̈_1), …, c(3a_1), …, c(3a_N), c(3f_N), c(3τ_N), …, c(3f_1), c(3τ_1)]   (11)
// Each is the list of original indices in their new order (column j of D_{p,q} is column q[j] of D).
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "sparse/newton_euler_system.hpp"
#include "sparse/problem.hpp"
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

// Constrained dynamics (contacts: sparse/problem_file.cpp), the ABA with the contacts last, as the
// articulated-body method with contacts does it (Featherstone RBDA ch. 8): the rows that pin one
// column (a zero f^x, a known or zero τ) first; then body by body from the leaves, (3f_i) on f_i,
// (3a_i) on a_i, (3τ_i) on q̈_i, the ABA's pivots, with the contacts' wrenches f^x left as unknowns
// (their columns fill along the path to the root); last the contacts' rows on their wrenches' columns:
// what is left there is the contacts' operational-space inverse inertia, J H⁻¹ Jᵀ up to sign, regular
// while the contacts are independent. A point contact's rows that zero its torque about its origin
// (n_k − (r × f)_k = 0, in the body's axes) pivot on their torque column (coefficient 1), its motion
// rows on the rest. `contact_bodies`: the bodies whose f^x is unknown.
inline Permutations contact_ordering(const Model& model, const std::vector<MeasurementRow>& rows, const std::vector<int>& contact_bodies) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    Permutations p;
    const auto append = [](std::vector<int>& order, int first, int count) {
        for (int k = 0; k < count; ++k) order.push_back(first + k);
    };
    const auto body_of_column = [&](int column) {
        for (int i = 0; i < model.N(); ++i)
            if (column >= l.bodies[i].a && column < l.bodies[i].qdd + l.bodies[i].n) return i;
        return -1;
    };
    std::vector<std::vector<int>> contact_rows(model.N());
    for (size_t r = 0; r < rows.size(); ++r) {
        const int row = l.constraints + static_cast<int>(r);
        const auto& terms = rows[r].terms;
        const int body = terms.empty() ? -1 : body_of_column(terms[0].first);
        if (terms.size() == 1 && terms[0].second == 1.0 && std::find(contact_bodies.begin(), contact_bodies.end(), body) == contact_bodies.end())
            p.rows.push_back(row), p.columns.push_back(terms[0].first);  // pins its column
        else if (terms.size() == 1 && terms[0].first >= l.bodies[body].tau && terms[0].first < l.bodies[body].f_x)
            p.rows.push_back(row), p.columns.push_back(terms[0].first);  // a contact body's τ
        else contact_rows[body].push_back(row);
    }
    for (int i = model.N() - 1; i >= 0; --i) {
        const auto& k = l.bodies[i];
        append(p.columns, k.f, 6), append(p.columns, k.a, 6), append(p.columns, k.qdd, k.n);
        append(p.rows, k.row_f, 6), append(p.rows, k.row_a, 6), append(p.rows, k.row_tau, k.n);
    }
    for (int i : contact_bodies) {
        const int f_x = l.bodies[i].f_x;
        std::vector<bool> used(6, false);
        std::vector<int> motion;
        for (int row : contact_rows[i]) {
            const auto& terms = rows[row - l.constraints].terms;
            if (terms.empty() || terms[0].first < f_x || terms[0].first >= f_x + 6) {
                motion.push_back(row);
                continue;
            }
            int best = -1;  // a torque-zero row: its largest coefficient on a free torque column
            for (const auto& [column, c] : terms)
                if (column < f_x + 3 && !used[column - f_x] &&
                    (best < 0 || std::abs(c) > std::abs(std::find_if(terms.begin(), terms.end(), [&](const auto& t) { return t.first == best; })->second)))
                    best = column;
            used[best - f_x] = true;
            p.rows.push_back(row), p.columns.push_back(best);
        }
        for (int c = 0, m = 0; c < 6; ++c)
            if (!used[c]) p.rows.push_back(motion.at(m++)), p.columns.push_back(f_x + c);
    }
    return p;
}

}  // namespace rbdgen
