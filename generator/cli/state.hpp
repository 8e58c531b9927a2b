// STATE.json, the input of `rbdgen eval` and of every generated robot's eval driver:
//   {"q": {"<joint>": v, ...}, "v": {...}, "a": {...}, "tau": {...}, "gravity": [0, 0, -9.81],
//    "base": {"position": [3], "quaternion": [x, y, z, w], "velocity": [6], "acceleration": [6],
//             "wrench": [6]},
//    "measurements": {"<sensor of a problem file>": [values], ...}}
// Absent entries are zero (the quaternion defaults to the identity, gravity to (0, 0, −9.81)).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include <map>
#include <optional>
#include <vector>

#include "spatial/spatial.hpp"

namespace rbdgen {

// The joint coordinates a state file names: what both a Model and a generated robot header know.
struct JointLayout {
    std::string name;
    bool floating = false;  // a floating joint is addressed as "base"
    int q_index = 0, v_index = 0;
};
struct Layout {
    std::string source;  // the URDF, for messages
    std::vector<JointLayout> joints;
    int nq = 0, nv = 0;
    std::vector<std::string> dof_names;
};

struct State {
    VecX<double> q, v, a, tau;
    Vec3<double> gravity{0, 0, -9.81};
    std::map<std::string, std::vector<double>> measurements;  // "measurements": {"<sensor>": [values]}
    std::string file;                                          // where it was read, for messages
};

// The measurements a problem reads, element by element ("<sensor>.<component>", grouped by sensor
// in order): each sensor's values from the state. Throws rbdgen::Error naming a missing sensor or a
// wrong count.
std::vector<double> measurement_array(const State& state, const std::vector<std::string>& element_names);

// Throws rbdgen::Error naming `file` and the offending key.
State parse_state(const Layout& layout, const nlohmann::json& json, const std::string& file);
State read_state(const Layout& layout, const std::string& file);

// The results `rbdgen eval` prints; a generated robot's eval driver fills the same from its kernels.
// Each is a kernel's output (kernel specs, emit/kernel.hpp), in the kernels' order: a joint-space
// vector becomes an object keyed by joint name (a floating base under "base"), the NV x NV matrix
// {"order": [row names], "matrix": [[...], ...]}.
struct EvalResult {
    enum class Form { JointVector, JointMatrix, Named };
    std::string name;  // the kernel's (or "kernel.output" for a kernel of several printed outputs)
    Form form = Form::JointVector;
    std::vector<double> values;  // NV, or NV x NV row-major, or one a name
    std::vector<std::string> names;  // Named: {"<name>": value, ...} (a problem's unknowns)
};
struct EvalResults {
    std::vector<EvalResult> results;
    std::string fd_error;  // why forward dynamics is refused, if it is
};
// Throws rbdgen::Error naming the result and the joint where a value is not finite (overflow).
nlohmann::ordered_json eval_json(const Layout& layout, const EvalResults& results);

}  // namespace rbdgen
