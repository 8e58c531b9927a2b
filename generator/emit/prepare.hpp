// The model the generator traces, prepared once from the URDF's: near-exact constants snapped
// (model/snap.hpp) with their measured effect, then every body frame re-chosen (model/frames.hpp).
// The generator and the tests of generated code prepare it the same way, here. It runs the
// reference algorithms (the snapping's effect, the overflow refusal), so it sits above them, beside
// the generation it serves; the model layer stays plain data.
#pragma once

#include <string>
#include <vector>

#include "model/frames.hpp"
#include "model/snap.hpp"

namespace rbdgen {

struct PreparedModel {
    Model model;            // snapped, in the generator's internal frames
    SnapReport snap;
    double snap_effect = 0;  // largest relative change of τ and H over random states (0: nothing snapped)
    int dh_transforms = 0;  // bodies whose X_tree is an exact DH transform
};

PreparedModel prepare_model(const Model& urdf_model, double snap_tolerance = kSnapTolerance);

// A model whose numbers overflow the kernels' arithmetic (scalar "double" or "float") would compile
// into kernels that return inf or NaN: throws rbdgen::Error naming the joint, from the reference
// inverse dynamics and inertia matrix at a few random states.
void refuse_overflow(const Model& model, const std::string& scalar);

}  // namespace rbdgen
