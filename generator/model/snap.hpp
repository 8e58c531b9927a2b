// Near-exact constants (issue 3): URDF values such as rpy="1.57079632679" leave rotation entries of
// 5e-12 where the author meant 0. Snapping them to exact 0 and ±1 lets the tracer drop whole
// products. The constants come in groups, a joint at a time: its placement rotation (snapped only
// when every entry is within the tolerance of 0 or ±1, so that the result is an exact rotation, a
// signed permutation), its placement translation's near-zero entries, and its axis. Whether a group
// is snapped is decided by its measured effect on the kernels' outputs (emit/prepare.hpp, issue 44):
// the model stays what the file says.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbdgen {

// The default tolerance: above the 1e-8 that 7-digit angles (rpy="1.5707963") leave, far below any
// real offset or misalignment (1e-7 rad, 1e-7 m).
inline constexpr double kSnapTolerance = 1e-7;

struct SnapGroup {
    enum class Kind { Rotation, Translation, Axis };
    int body = 0;
    Kind kind = Kind::Rotation;
    double change = 0;  // the largest change of an entry
    double effect = 0;  // measured: the largest change of a kernel's output, relative to max(1, |x|)
    bool alone = false;  // effect measured with this group alone (else with every group: they passed together)
    bool snapped = false;
    std::string text(const Model& model) const;  // "joint 'j': axis snapped to a coordinate axis (largest change 1.0e-08, effect 2e-9)"
};

struct SnapReport {
    std::vector<SnapGroup> groups;  // every group near exact, snapped or kept as the file gives it
    double max_effect = 0;          // of the snapped groups together
    std::vector<std::string> lines(const Model& model, bool snapped) const;
    double max_change() const;      // of the snapped groups
};

// The groups of constants within `tolerance` of exact (none when tolerance is 0).
std::vector<SnapGroup> near_exact_groups(const Model& model, double tolerance);

// Snaps the group's constants in model (the model the group was found in).
void snap_group(Model& model, const SnapGroup& group, double tolerance);

// The nearest of 0, +1, -1 when v is within tol of it, else v.
double snapped_to_exact(double v, double tol);

}  // namespace rbdgen
