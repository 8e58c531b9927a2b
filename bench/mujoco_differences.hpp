// MuJoCo's finite differences of forward and inverse dynamics (mujoco_differences.cpp): a peer of the
// derivatives benchmark, in a translation unit of its own (MuJoCo's headers apart from ADOL-C's).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace rbdgen::bench {

struct MujocoDifferences {
    // At (q, q̇, x, g) in rbdgen's coordinates (x: τ when forward, else q̈): ∂q̈/∂q, ∂q̈/∂q̇ and ∂q̈/∂τ
    // (forward), or ∂τ/∂q and ∂τ/∂q̇, NV x NV row-major each into out[0..2], in MuJoCo's dofs.
    std::function<void(const double* q, const double* qd, const double* x, const double* g, bool forward, double* const* out)> run;
    std::vector<std::pair<int, int>> joint_dofs;  // (rbdgen's velocity index, MuJoCo's dof) of each 1-DoF joint
};
MujocoDifferences mujoco_differences(const std::string& urdf, const Model& model);

}  // namespace rbdgen::bench
