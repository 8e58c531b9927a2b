#include "model/model.hpp"

#include <algorithm>
#include <cmath>

namespace rbdgen {

std::vector<std::string> Model::joint_names() const {
    std::vector<std::string> names;
    for (const Body& b : bodies) names.push_back(b.joint_name);
    return names;
}

std::vector<std::string> Model::body_names() const {
    std::vector<std::string> names;
    for (const Body& b : bodies) names.push_back(b.name);
    return names;
}

std::vector<std::string> Model::dof_names() const {
    static const char* const base_dofs[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
    std::vector<std::string> names;
    for (const Body& b : bodies) {
        if (b.joint.type == JointType::Floating)
            for (const char* d : base_dofs) names.push_back(b.joint_name + "." + d);
        else if (b.joint.type == JointType::Ball)
            for (int k = 0; k < 3; ++k) names.push_back(b.joint_name + "." + base_dofs[k]);
        else
            names.push_back(b.joint_name);
    }
    return names;
}

std::vector<std::string> Model::position_names() const {
    static const char* const base_positions[] = {"x", "y", "z", "qx", "qy", "qz", "qw"};
    std::vector<std::string> names;
    for (const Body& b : bodies) {
        if (b.joint.one_dof()) names.push_back(b.joint_name);
        else
            for (int k = b.joint.type == JointType::Floating ? 0 : 3; k < 7; ++k) names.push_back(b.joint_name + "." + base_positions[k]);
    }
    return names;
}

std::optional<LinkFrame> link_frame(const Model& model, const std::string& name) {
    for (const Frame& f : model.frames)
        if (f.name == name) return LinkFrame{name, f.body, f.body < 0 ? f.X_body : f.X_body * model.bodies[f.body].X_urdf, f.I};
    return std::nullopt;
}

namespace {
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}
}  // namespace

std::string closest_link_names(const Model& model, const std::string& name) {
    std::vector<std::pair<size_t, std::string>> ranked;
    for (const Frame& f : model.frames) ranked.push_back({edit_distance(name, f.name), f.name});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::string list;
    for (size_t k = 0; k < ranked.size() && k < 3; ++k) list += (k ? ", " : "") + ranked[k].second;
    return list;
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

void normalize_quaternions(const Model& model, double* q) {
    for (const Body& b : model.bodies) {
        const int at = b.joint.quaternion_at();
        if (at < 0) continue;
        double* x = q + b.q_index + at;
        const double norm = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
        for (int k = 0; k < 4; ++k) x[k] /= norm;
    }
}

}  // namespace rbdgen
