#include "model/snap.hpp"

#include <fmt/format.h>

#include <cmath>

namespace rbdgen {
namespace {

bool exact(double v) { return v == 0.0 || v == 1.0 || v == -1.0; }

// The largest change that snapping every entry of m makes, or 0 when some entry is not near exact.
template <class M> double change_of_all(const M& m, double tol) {
    double change = 0;
    for (int k = 0; k < m.size(); ++k) {
        const double t = snapped_to_exact(m.data()[k], tol);
        if (!exact(t)) return 0;
        change = std::max(change, std::abs(m.data()[k] - t));
    }
    return change;
}

template <class M> void snap_all(M& m, double tol) {
    for (int k = 0; k < m.size(); ++k) m.data()[k] = snapped_to_exact(m.data()[k], tol);
}

bool near_zero(double v, double tol) { return v != 0 && std::abs(v) <= tol; }

}  // namespace

double snapped_to_exact(double v, double tol) {
    for (double target : {0.0, 1.0, -1.0})
        if (std::abs(v - target) <= tol) return target;
    return v;
}

std::vector<SnapGroup> near_exact_groups(const Model& model, double tol) {
    std::vector<SnapGroup> groups;
    if (!(tol > 0)) return groups;
    for (int i = 0; i < model.N(); ++i) {
        const Body& b = model.bodies[i];
        const auto add = [&](SnapGroup::Kind kind, double change) {
            if (change > 0) groups.push_back({.body = i, .kind = kind, .change = change});
        };
        add(SnapGroup::Kind::Rotation, change_of_all(b.X_tree.E, tol));
        double change = 0;
        for (int k = 0; k < 3; ++k)
            if (near_zero(b.X_tree.r[k], tol)) change = std::max(change, std::abs(b.X_tree.r[k]));
        add(SnapGroup::Kind::Translation, change);
        if (b.joint.one_dof()) add(SnapGroup::Kind::Axis, change_of_all(b.joint.axis, tol));
    }
    return groups;
}

void snap_group(Model& model, const SnapGroup& g, double tol) {
    Body& b = model.bodies[g.body];
    switch (g.kind) {
    case SnapGroup::Kind::Rotation: snap_all(b.X_tree.E, tol); break;
    case SnapGroup::Kind::Translation:
        for (int k = 0; k < 3; ++k)
            if (near_zero(b.X_tree.r[k], tol)) b.X_tree.r[k] = 0;
        break;
    case SnapGroup::Kind::Axis: snap_all(b.joint.axis, tol), b.joint.axis.normalize(); break;
    }
}

std::string SnapGroup::text(const Model& model) const {
    const char* what = kind == Kind::Rotation      ? "placement rotation to a signed permutation"
                       : kind == Kind::Translation ? "placement translation entries to 0"
                                                   : "axis to a coordinate axis";
    return fmt::format("joint '{}': {} (largest change {:.1e}, effect on the kernels' outputs {:.1e}{})",
                       model.bodies[body].joint_name, what, change, effect, alone ? " alone" : " with every group snapped");
}

std::vector<std::string> SnapReport::lines(const Model& model, bool which) const {
    std::vector<std::string> out;
    for (const SnapGroup& g : groups)
        if (g.snapped == which) out.push_back(g.text(model));
    return out;
}

double SnapReport::max_change() const {
    double c = 0;
    for (const SnapGroup& g : groups)
        if (g.snapped) c = std::max(c, g.change);
    return c;
}

}  // namespace rbdgen
