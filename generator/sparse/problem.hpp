// A problem on Nori's system (eq. 16): the constraints (3) of sparse/newton_euler_system.hpp and a
// measurement equation D_Y d + b_Y = 0, one row a measured or known scalar: Σ_k c_k d[col_k] = y.
// Inverse dynamics (eq. 7–8: q̈ and f^x known) and forward dynamics (eq. 14: τ and f^x known) are the
// two classical problems; a problem file (sparse/problem_file.hpp) declares any other sensor set.
// d's unknowns are the variables no measurement row determines alone; the problem says which of
// them its fused kernel returns.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sparse/newton_euler_system.hpp"
#include "sparse/static_lu.hpp"

namespace rbdgen {

// One row of D_Y d + b_Y = 0: Σ terms = y, y element `element` of the problem's input `input`, or
// 0 when input < 0 (a quantity known to vanish, as f^x of a link nothing touches).
struct MeasurementRow {
    std::vector<std::pair<int, double>> terms;  // (column of d, coefficient)
    int input = -1, element = 0;
    // An accelerometer's row also has a velocity term: component `component` of ω × v, the frame F's
    // angular and linear velocity (ᶠX_body v_body, X), so that Σ c d + (ω × v)_k = y.
    int velocity_body = -1, component = 0;
    Transform<double> X;
};

// A known quantity's array, in the kernels after q, qd and gravity.
struct ProblemInput {
    std::string name, doc;
    std::vector<std::string> element_names;  // one per element (joint, or "sensor.component")
    int size() const { return static_cast<int>(element_names.size()); }
};

struct Problem {
    std::string name;  // a C++ identifier: the kernels' prefix
    std::string doc;
    std::vector<ProblemInput> inputs;
    std::vector<MeasurementRow> rows;
    // The unknowns the fused kernel returns, each a linear form Σ c d[column] (a variable of d, or a
    // link's wrench component in its own frame), their names, the output's name.
    std::vector<std::vector<std::pair<int, double>>> wanted;
    std::vector<std::string> wanted_names;
    std::string output_name, output_doc;
    bool joint_space_output = false;  // wanted is τ or q̈ in the model's velocity order
    std::string source;               // where it was declared (a problem file), for messages
    // Orders made by hand for this problem's layout, candidates beside SuiteSparse's (eq. 10–11 for
    // inverse dynamics).
    std::vector<std::pair<std::string, Permutations>> hand_made_orders;
};

// The names of d's variables, for messages and reports: "a[link].wx", "f[link].nx", "tau[dof]",
// "fx[link].fz", "qdd[dof]" (components [angular; linear], in the body's frame).
std::vector<std::string> variable_names(const Model& model);

// A problem by name: "id", "fd", or a problem file (sparse/problem_file.cpp). Throws rbdgen::Error.
Problem load_problem(const Model& model, const std::string& name_or_file);
Problem read_problem_file(const Model& model, const std::string& path);

// Inverse dynamics: q̈ known (input "qdd"), f^x known (input "f_ext", 6 per body in body coordinates,
// when external_forces; zero otherwise); returns τ. Rows body by body: f^x_i, then q̈_i.
Problem inverse_dynamics_problem(const Model& model, bool external_forces = false);
// Forward dynamics: τ known (input "tau"), f^x as above; returns q̈. Rows as inverse dynamics'.
Problem forward_dynamics_problem(const Model& model, bool external_forces = false);

// The unknowns the problem returns, from d.
template <class S> VecX<S> wanted_of(const Problem& p, const VecX<S>& d) {
    VecX<S> out(p.wanted.size());
    for (size_t w = 0; w < p.wanted.size(); ++w) {
        S x(0.0);
        for (const auto& [column, c] : p.wanted[w]) x = x + S(c) * d[column];
        out[w] = x;
    }
    return out;
}

// D and b of the problem at (q, q̇) with its known quantities' values.
template <class S>
NewtonEulerSystem<S> problem_system(const Model& model, const Problem& problem, const VecX<S>& q, const VecX<S>& qd,
                                    const Vec3<S>& gravity, const std::vector<VecX<S>>& inputs) {
    NewtonEulerSystem<S> sys = newton_euler_system<S>(model, q, qd, gravity);
    const int r0 = static_cast<int>(sys.D.rows()), rows = static_cast<int>(problem.rows.size());
    sys.D.conservativeResize(r0 + rows, Eigen::NoChange);
    sys.D.bottomRows(rows).setZero();
    sys.b.conservativeResize(r0 + rows);
    // Body velocities only for an accelerometer's ω × v (the reference then runs kinematics once more).
    const bool velocities = std::any_of(problem.rows.begin(), problem.rows.end(), [](const MeasurementRow& r) { return r.velocity_body >= 0; });
    const std::vector<Vec6<S>> v = velocities ? forward_kinematics<S>(model, q, qd).v : std::vector<Vec6<S>>();
    for (int k = 0; k < rows; ++k) {
        const MeasurementRow& row = problem.rows[k];
        for (const auto& [column, coefficient] : row.terms) sys.D(r0 + k, column) = S(coefficient);
        sys.b[r0 + k] = row.input < 0 ? S(0.0) : S(-inputs[row.input][row.element]);  // Σ c d − y = 0
        if (row.velocity_body >= 0) {
            const Vec6<S> vF = row.X.template cast<S>().apply(v[row.velocity_body]);
            sys.b[r0 + k] += Vec3<S>(vF.template head<3>().cross(Vec3<S>(vF.template tail<3>())))[row.component];
        }
    }
    return sys;
}

// Joint-space entries of d: τ (tau) or q̈ (!tau), in the model's velocity order.
template <class S> VecX<S> joint_space(const Model& model, const VecX<S>& d, bool tau) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    VecX<S> x(model.nv);
    for (int i = 0; i < model.N(); ++i)
        x.segment(model.bodies[i].v_index, l.bodies[i].n) = d.segment(tau ? l.bodies[i].tau : l.bodies[i].qdd, l.bodies[i].n);
    return x;
}

}  // namespace rbdgen
