// The generator's choice of body frames (issue 3, "internal frames are free"). Joint-space results
// (τ, H, q̈) do not depend on where body frames sit, so each body gets a frame with its joint axis
// along z, and the transform from its parent as sparse as Denavit–Hartenberg parameters make it:
// ʲX_λ = rz(q + θ) xlt(d ẑ) rx(α) xlt(a x̂) for the one child of each body that continues its chain
// (the DH child, chosen with the largest subtree), general transforms for the others (Featherstone
// §5's DH and non-DH nodes). The floating base keeps its URDF frame, since its velocity is an input.
// Each body keeps X_urdf to express frame-dependent outputs (poses, Jacobians) in URDF frames.
#pragma once

#include "model/model.hpp"

namespace rbdgen {

struct FrameChoice {
    Model model;            // same bodies, joints and order; new X_tree, I, axes, offsets, X_urdf
    int dh_transforms = 0;  // bodies whose X_tree is an exact DH transform
};

FrameChoice choose_internal_frames(const Model& model);

}  // namespace rbdgen
