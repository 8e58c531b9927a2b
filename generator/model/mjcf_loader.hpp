// MJCF (MuJoCo's XML) → Model, with MuJoCo's semantics (its XML reference, "Computation" and
// "Kinematic tree"): <compiler> angle, eulerseq, inertiafromgeom, inertiagrouprange and settotalmass;
// <default> classes and childclass; <include>; body frames by pos with quat, axisangle, euler, xyaxes
// or zaxis, and <frame>; <inertial> (diaginertia with its orientation, fullinertia) or the inertia of
// primitive geoms (sphere, capsule, ellipsoid, cylinder, box, fromto, mass or density); joints hinge,
// slide and free, several in one body (all but the last a massless body named after its joint), with
// pos, ref and armature; sites as named frames. What does not change the rigid-body model (options,
// actuators, sensors, tendons, contacts, visuals, assets) is listed in Model::ignored.
#pragma once

#include <string>

#include "model/model.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

// The file's bytes (model/load_model.hpp reads files); throws rbdgen::Error naming the file, line,
// element and what to change.
Model load_mjcf_string(const std::string& bytes, const std::string& file, const LoadOptions& options = {});

}  // namespace rbdgen
