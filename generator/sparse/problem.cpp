#include "sparse/problem.hpp"

#include "sparse/classical_orderings.hpp"

namespace rbdgen {
namespace {

const char* const kComponents[6] = {"nx", "ny", "nz", "fx", "fy", "fz"};
const char* const kMotion[6] = {"wx", "wy", "wz", "vx", "vy", "vz"};

// The classical problems: f^x_i (6 rows), then the joint's block (n_i rows) of `known`, body by
// body, the row order rnea_ordering and aba_ordering (sparse/classical_orderings.hpp) permute.
Problem joint_problem(const Model& model, bool external_forces, bool accelerations_known) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    const std::vector<std::string> dofs = model.dof_names();
    Problem p;
    ProblemInput known{accelerations_known ? "qdd" : "tau", accelerations_known ? "joint accelerations" : "joint forces", dofs};
    p.inputs.push_back(known);
    if (external_forces) {
        ProblemInput f{"f_ext", "external wrench on each body, [n; f] in the body's frame", {}};
        for (const Body& b : model.bodies)
            for (const char* c : kComponents) f.element_names.push_back(b.name + "." + c);
        p.inputs.push_back(f);
    }
    for (int i = 0; i < model.N(); ++i) {
        const auto& k = l.bodies[i];
        for (int e = 0; e < 6; ++e) p.rows.push_back({{{k.f_x + e, 1.0}}, external_forces ? 1 : -1, 6 * i + e});
        const int known_column = accelerations_known ? k.qdd : k.tau;
        for (int e = 0; e < k.n; ++e) p.rows.push_back({{{known_column + e, 1.0}}, 0, model.bodies[i].v_index + e});
    }
    for (int i = 0; i < model.N(); ++i)  // velocity coordinates are numbered body by body
        for (int e = 0; e < l.bodies[i].n; ++e) p.wanted.push_back({{(accelerations_known ? l.bodies[i].tau : l.bodies[i].qdd) + e, 1.0}});
    p.wanted_names = dofs;
    p.joint_space_output = true;
    p.name = p.source = accelerations_known ? "id" : "fd";
    p.doc = accelerations_known ? "Inverse dynamics on Nori's sparse system (eq. 7-9): tau from q, qd, qdd by the static-pivot LU."
                                : "Forward dynamics on Nori's sparse system (eq. 14-15): qdd from q, qd, tau by the static-pivot LU.";
    p.output_name = accelerations_known ? "tau" : "qdd";
    p.output_doc = accelerations_known ? "joint forces" : "joint accelerations";
    p.hand_made_orders.push_back(accelerations_known ? std::pair{std::string("rnea"), rnea_ordering(model)}
                                                     : std::pair{std::string("aba"), aba_ordering(model)});
    return p;
}

}  // namespace

std::vector<std::string> variable_names(const Model& model) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    const std::vector<std::string> dofs = model.dof_names();
    std::vector<std::string> names(l.variables);
    for (int i = 0; i < model.N(); ++i) {
        const auto& k = l.bodies[i];
        const std::string& link = model.bodies[i].name;
        for (int e = 0; e < 6; ++e) {
            names[k.a + e] = "a[" + link + "]." + kMotion[e];
            names[k.f + e] = "f[" + link + "]." + kComponents[e];
            names[k.f_x + e] = "fx[" + link + "]." + kComponents[e];
        }
        for (int e = 0; e < k.n; ++e) {
            const std::string& dof = dofs[model.bodies[i].v_index + e];
            names[k.tau + e] = "tau[" + dof + "]";
            names[k.qdd + e] = "qdd[" + dof + "]";
        }
    }
    return names;
}

Problem inverse_dynamics_problem(const Model& model, bool external_forces) {
    return joint_problem(model, external_forces, true);
}

Problem forward_dynamics_problem(const Model& model, bool external_forces) {
    return joint_problem(model, external_forces, false);
}

Problem load_problem(const Model& model, const std::string& name_or_file) {
    if (name_or_file == "id") return inverse_dynamics_problem(model);
    if (name_or_file == "fd") return forward_dynamics_problem(model);
    for (const char* kind : {"contact:", "impulse:"})
        if (name_or_file.rfind(kind, 0) == 0) return contact_problem(model, name_or_file.substr(std::string(kind).size()), kind[0] == 'i');
    return read_problem_file(model, name_or_file);
}

}  // namespace rbdgen
