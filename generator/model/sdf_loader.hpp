// SDFormat → Model, through libsdformat (Debian's sdformat 12), which resolves every pose itself:
// `relative_to`, nested models, SDF 1.4–1.9 frame semantics, an axis's `expressed_in`. The file is a
// model, or a world with one model. Links keep their scoped names ("arm::link" inside nested model
// "arm"); joints revolute, continuous, prismatic and ball are one body each, universal two (its
// coordinates J.axis and J.axis2, the first a massless body), fixed ones weld their child to its parent's body,
// and a joint to `world` hangs the tree from the fixed base. `<frame>`s are named frames. An axis's
// armature is Drake's `drake:rotor_inertia` × `drake:gear_ratio`². Refused, naming the joint:
// revolute2, screw and gearbox joints. As for a URDF, the root link is the fixed base unless
// --floating-base.
#pragma once

#include <string>

#include "model/model.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

// The file's bytes (model/load_model.hpp reads files); throws rbdgen::Error naming the file, line,
// element and what to change.
Model load_sdf_string(const std::string& bytes, const std::string& file, const LoadOptions& options = {});

}  // namespace rbdgen
