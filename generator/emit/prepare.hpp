// The model the generator traces, prepared once from the file's: the near-exact constants snapped
// whose measured effect on every kernel's outputs stays below a bound (model/snap.hpp), then every
// body frame re-chosen (model/frames.hpp).
// The generator and the tests of generated code prepare it the same way, here. It runs the
// reference algorithms (the snapping's effect, the overflow refusal), so it sits above them, beside
// the generation it serves; the model layer stays plain data.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "emit/kernel.hpp"
#include "model/frames.hpp"
#include "model/snap.hpp"

namespace rbdgen {

struct PreparedModel {
    Model model;  // snapped, in the generator's internal frames
    SnapReport snap;
    int dh_transforms = 0;  // bodies whose X_tree is an exact DH transform
};

// The largest effect a snapped group may have, by default: each output of every kernel of
// kernel_specs() (forward dynamics, derivatives and the on-request kernels included), each entry
// relative to max(1, |x|), at random states. Far below what a user comparing with another library
// can see; roundoff of a 12-digit angle (1e-12) passes, a 7-digit one (1e-8) does not.
inline constexpr double kSnapMaxEffect = 1e-10;

PreparedModel prepare_model(const Model& model, double snap_tolerance = kSnapTolerance, double snap_max_effect = kSnapMaxEffect);

// The outputs of every kernel of `specs` (forward dynamics and the mass kernels where the model has
// them), by kernel, from their reference algorithms at one random state drawn from `seed` (the same
// inputs for every model of the same tree): q, q̇, q̈, τ and gravity as a state gives them, the
// payload's parameters the file's, an input another kernel produces from that kernel (of `specs`, else
// of kernel_specs()), any other (external wrenches, measurements, motion) random, the same for every
// kernel that takes an input of its name.
std::map<std::string, Arrays<double>> reference_outputs(const Model& model, uint64_t seed, const std::vector<KernelSpec>& specs);
// Those of kernel_specs(), each output flattened, in the order of their kernels' names.
std::vector<VecX<double>> kernel_outputs(const Model& model, uint64_t seed);

// A model whose numbers overflow the kernels' arithmetic (scalar "double" or "float") would compile
// into kernels that return inf or NaN: throws rbdgen::Error naming the joint, from the reference
// inverse dynamics and inertia matrix at a few random states.
void refuse_overflow(const Model& model, const std::string& scalar);

}  // namespace rbdgen
