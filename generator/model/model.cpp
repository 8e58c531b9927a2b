#include "model/model.hpp"

namespace rbdgen {

std::vector<std::string> Model::joint_names() const {
    std::vector<std::string> names;
    for (const Body& b : bodies) names.push_back(b.joint_name);
    return names;
}

std::vector<std::string> Model::dof_names() const {
    static const char* const base_dofs[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
    std::vector<std::string> names;
    for (const Body& b : bodies) {
        if (b.joint.type == JointType::Floating)
            for (const char* d : base_dofs) names.push_back(b.joint_name + "." + d);
        else
            names.push_back(b.joint_name);
    }
    return names;
}

int Model::first_massless_subtree() const {
    // Accumulate the subtree inertias leaf to root; the frame does not matter for "is it zero".
    std::vector<double> weight(bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i) weight[i] = bodies[i].I.m + bodies[i].I.Ibar.norm();
    for (int i = N() - 1; i >= 0; --i)
        if (bodies[i].lambda >= 0) weight[bodies[i].lambda] += weight[i];
    for (int i = 0; i < N(); ++i)
        if (weight[i] == 0.0) return i;
    return -1;
}

std::string forward_dynamics_refusal(const Model& model) {
    const int massless = model.first_massless_subtree();
    if (massless < 0) return "";
    return model.source + ": joint '" + model.bodies[massless].joint_name +
           "' moves only massless links, so H is singular and forward dynamics is undefined; "
           "give a link below it a mass and inertia";
}

void assign_indices(Model& model) {
    model.nq = model.nv = 0;
    for (Body& b : model.bodies) {
        b.q_index = model.nq;
        b.v_index = model.nv;
        model.nq += b.joint.nq();
        model.nv += b.joint.nv();
    }
}

}  // namespace rbdgen
