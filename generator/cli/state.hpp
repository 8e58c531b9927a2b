// STATE.json, the input of `rbdgen eval` and of every generated robot's eval driver:
//   {"q": {"<joint>": v, ...}, "v": {...}, "a": {...}, "tau": {...}, "gravity": [0, 0, -9.81],
//    "base": {"position": [3], "quaternion": [x, y, z, w], "velocity": [6], "acceleration": [6],
//             "wrench": [6]}}
// Absent entries are zero (the quaternion defaults to the identity, gravity to (0, 0, −9.81)).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/model.hpp"

namespace rbdgen {

struct State {
    VecX<double> q, v, a, tau;
    Vec3<double> gravity{0, 0, -9.81};
};

// Throws rbdgen::Error naming `file` and the offending key.
State parse_state(const Model& model, const nlohmann::json& json, const std::string& file);
State read_state(const Model& model, const std::string& file);

// Joint-space vector (size nv) as a JSON object keyed by joint name, floating joints under "base".
nlohmann::ordered_json joint_vector_json(const Model& model, const VecX<double>& x);

}  // namespace rbdgen
