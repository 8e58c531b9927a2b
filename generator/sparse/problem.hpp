// A problem on Nori's system (eq. 16): the constraints (3) of sparse/newton_euler_system.hpp and a
// measurement equation D_Y d + b_Y = 0, one row a measured or known scalar: Σ_k c_k d[col_k] = y.
// Inverse dynamics (eq. 7–8: q̈ and f^x known) and forward dynamics (eq. 14: τ and f^x known) are the
// two classical problems; a problem file (sparse/problem_file.hpp) declares any other sensor set.
// d's unknowns are the variables no measurement row determines alone; the problem says which of
// them its fused kernel returns.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/contact_aba.hpp"
#include "sparse/newton_euler_system.hpp"
#include "sparse/static_lu.hpp"

namespace rbdgen {

// One row of D_Y d + b_Y = 0: Σ terms + motion terms = y, y element `element` of the problem's input
// `input`, or 0 when input < 0 (a quantity known to vanish, as f^x of a link nothing touches).
struct MeasurementRow {
    std::vector<std::pair<int, double>> terms;  // (column of d, coefficient)
    int input = -1, element = 0;
    // Terms of b from the motion of a frame F fixed on body `body` (ᶠX_body = X): Σ_c mix_c m_c, m a
    // 6-vector of F's motion in F coordinates, [angular; linear]. d's accelerations are spatial and
    // carry gravity reversed (a_0 = −a_g), so the classical acceleration of F's origin is the linear
    // part of ᶠX a plus ω × v plus gravity in F, and m holds what the row needs of:
    //   velocity_product  (ω × v) in m's linear part (an accelerometer: proper acceleration; a contact)
    //   gravity           + ᶠX_0 a_g, gravity in F, in m's linear part (a contact: classical acceleration)
    //   damping           + damping ᶠX v (Baumgarte's velocity term of a contact)
    //   stiffness         + stiffness e, e the frame's position error (Baumgarte's position term of a
    //                     contact): error_size elements of input error_input from error_element, the last
    //                     components of m (3: a point contact's, linear; 6: [angular; linear])
    // A contact's rows are in its body's axes (mix: rows of ᶠX_body⁻¹), so that what the LU meets at
    // its wrench is the symmetric positive-definite J H⁻¹ Jᵀ (sparse/classical_orderings.hpp).
    int body = -1;
    Transform<double> X;
    std::array<double, 6> mix{};
    bool velocity_product = false, gravity = false;
    double damping = 0, stiffness = 0;
    int error_input = -1, error_element = 0, error_size = 0;
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
    // An impact (Pinocchio's impulseDynamics): the same D with velocities in the accelerations' place.
    // The variables a_i and q̈_i are the body and joint velocities after the impact, f^x and τ impulses,
    // and b has no velocity product and no gravity but the momentum before the impact, −I_i v_i, in
    // (3f_i) (and a rotor's, −armature q̇_i, in (3τ_i)): Σ over the tree gives H (q̇⁺ − q̇) = τ_impulse + Jᵀ Λ.
    bool impulse = false;
    std::vector<std::string> contacts;  // the links in contact (sparse/problem_file.cpp), for messages
    // Constrained dynamics or an impact with every q̈ unknown and returned, every τ known or zero, one
    // contact a body, nothing else measured: its contacts by body, for the articulated-body solve beside
    // the LU (algorithms/contact_aba.hpp, kernel <name>_aba, returning what <name>_lu returns); empty
    // otherwise. tau_known: a DoF's τ read from input tau_input (else zero); errors: Baumgarte's input.
    std::vector<HeldFrame> held;
    std::vector<bool> tau_known;
    int tau_input = -1, error_input = -1;
    std::string source;               // where it was declared (a problem file), for messages
    // Orders made by hand for this problem's layout, candidates beside SuiteSparse's (eq. 10–11 for
    // inverse dynamics).
    std::vector<std::pair<std::string, Permutations>> hand_made_orders;
};

// The names of d's variables, for messages and reports: "a[link].wx", "f[link].nx", "tau[dof]",
// "fx[link].fz", "qdd[dof]" (components [angular; linear], in the body's frame).
std::vector<std::string> variable_names(const Model& model);

// A problem by name: "id", "fd", "contact:LINK[:point],..." or "impulse:LINK[:point],..." (each link in
// 6D contact, or in point contact with :point), or a problem file (sparse/problem_file.cpp). Throws
// rbdgen::Error.
Problem load_problem(const Model& model, const std::string& name_or_file);
Problem read_problem_file(const Model& model, const std::string& path);
// The built-in contact problems: `spec` is what follows "contact:" or "impulse:".
Problem contact_problem(const Model& model, const std::string& spec, bool impulse);

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
    // Kinematics once more, only for the rows' motion terms or an impact (the reference's cost alone:
    // the tracer shares it with the system's).
    const bool motion = problem.impulse || std::any_of(problem.rows.begin(), problem.rows.end(), [](const MeasurementRow& r) { return r.body >= 0; });
    const Kinematics<S> kin = motion ? forward_kinematics<S>(model, q, qd) : Kinematics<S>();
    if (problem.impulse) {
        const NewtonEulerLayout l = newton_euler_layout(model);
        for (int i = 0; i < model.N(); ++i) {
            sys.b.segment(l.bodies[i].row_a, 6).setZero();
            sys.b.segment(l.bodies[i].row_f, 6) = -(model.bodies[i].I.template cast<S>() * kin.v[i]);
            const Joint& joint = model.bodies[i].joint;  // the rotor's momentum before: −armature q̇_i in (3τ_i)
            if (joint.armature != 0)
                sys.b.segment(l.bodies[i].row_tau, joint.nv()) = -(qd.segment(model.bodies[i].v_index, joint.nv()) * S(joint.armature));
        }
    }
    for (int k = 0; k < rows; ++k) {
        const MeasurementRow& row = problem.rows[k];
        for (const auto& [column, coefficient] : row.terms) sys.D(r0 + k, column) = S(coefficient);
        sys.b[r0 + k] = row.input < 0 ? S(0.0) : -inputs[row.input][row.element];  // Σ c d − y = 0
        if (row.body < 0) continue;
        const Transform<S> X = row.X.template cast<S>();
        const Vec6<S> vF = X.apply(kin.v[row.body]);
        Vec6<S> m = Vec6<S>::Zero();
        if (row.velocity_product) m.template tail<3>() += Vec3<S>(vF.template head<3>()).cross(Vec3<S>(vF.template tail<3>()));
        if (row.gravity) {
            Vec6<S> a_g = Vec6<S>::Zero();
            a_g.template tail<3>() = gravity;
            m += X.apply(kin.X_0[row.body].apply(a_g));
        }
        if (row.damping != 0) m += S(row.damping) * vF;
        for (int j = 0; j < row.error_size; ++j)
            m[6 - row.error_size + j] += S(row.stiffness) * inputs[row.error_input][row.error_element + j];
        for (int c = 0; c < 6; ++c)
            if (row.mix[c] != 0) sys.b[r0 + k] += S(row.mix[c]) * m[c];
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

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_PROBLEM_SYSTEM(S) NewtonEulerSystem<S> problem_system(const Model&, const Problem&, const VecX<S>&, \
    const VecX<S>&, const Vec3<S>&, const std::vector<VecX<S>>&)
RBDGEN_COMPILED_ONCE(RBDGEN_PROBLEM_SYSTEM)

}  // namespace rbdgen
