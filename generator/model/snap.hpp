// Near-exact constants (issue 3): URDF values such as rpy="1.57079632679" leave rotation entries of
// 5e-12 where the author meant 0. Snapping them to exact 0 and ±1 lets the tracer drop whole
// products. A joint's placement rotation is snapped only when every entry is within the tolerance
// of 0 or ±1 (so the result is an exact rotation, a signed permutation); its translation entries and
// axis entries likewise. What was snapped, and by how much, is reported.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbdgen {

// The default tolerance: above the 1e-8 that 7-digit angles (rpy="1.5707963") leave, far below any
// real offset or misalignment (1e-7 rad, 1e-7 m).
inline constexpr double kSnapTolerance = 1e-7;

struct SnapReport {
    std::vector<std::string> snapped;  // one line per changed constant group, naming the joint
    double max_change = 0;             // largest change of any entry
};

SnapReport snap_near_exact_constants(Model& model, double tolerance = kSnapTolerance);

// The nearest of 0, +1, -1 when v is within tol of it, else v.
double snapped_to_exact(double v, double tol);

}  // namespace rbdgen
