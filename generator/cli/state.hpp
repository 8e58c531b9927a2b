// STATE.json, the input of `rbdgen eval` and of every generated robot's eval driver:
//   {"q": {"<joint>": v, ...}, "v": {...}, "a": {...}, "tau": {...}, "gravity": [0, 0, -9.81],
//    "base": {"position": [3], "quaternion": [x, y, z, w], "velocity": [6], "acceleration": [6],
//             "wrench": [6]},
//    "measurements": {"<sensor of a problem file>": [values], ...},
//    "external_wrenches": {"<link>": [nx, ny, nz, fx, fy, fz], ...},   (in the link's URDF frame, about its origin)
//    "parameters": {"<link>": [m, mcx, mcy, mcz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz], ...},   (a payload, same frame)
//    "motion": {"<joint>": [q, q', q'', ...], ...}}   (the N-CMTM kernels: N + 2 values a joint; a floating
//    base as "base": {"motion": [[position 3, quaternion 4], [velocity 6], [acceleration 6], ...]})
// A ball joint's entries are arrays: "q" its unit quaternion [x, y, z, w], "v", "a" and "tau" [3] (about
// the body's axes), "motion" [[x, y, z, w], [3], [3], ...].
// Absent entries are zero (a quaternion defaults to the identity, gravity to (0, 0, −9.81)).
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include <map>
#include <optional>
#include <vector>

#include "emit/eval_form.hpp"
#include "spatial/spatial.hpp"

namespace rbdgen {

// The joint coordinates a state file names: what both a Model and a generated robot header know.
struct JointLayout {
    std::string name;
    bool floating = false;  // a floating joint is addressed as "base"
    bool ball = false;      // a ball joint: a quaternion in q, three velocities
    int q_index = 0, v_index = 0;
};
struct Layout {
    std::string source;  // the URDF, for messages
    std::vector<JointLayout> joints;
    int nq = 0, nv = 0;
    std::vector<std::string> dof_names;
    Vec3<double> gravity{0, 0, -9.81};  // a state without "gravity" gets this: the robot file's (MJCF <option gravity>)
};

struct State {
    VecX<double> q, v, a, tau;
    Vec3<double> gravity{0, 0, -9.81};
    std::map<std::string, std::vector<double>> measurements;  // "measurements": {"<sensor>": [values]}
    std::vector<std::pair<std::string, Vec6<double>>> external_wrenches;  // "external_wrenches", in the file's order
    std::vector<std::pair<std::string, std::vector<double>>> parameters;   // "parameters", 10 a link
    // "motion": a joint's position and its derivatives (a floating base: 7 numbers, then 6 an order)
    struct MotionEntry {
        std::string name;  // the joint, or "base"
        JointLayout joint;
        std::vector<std::vector<double>> values;
    };
    std::vector<MotionEntry> motion;
    bool has_motion = false;
    std::vector<int> quaternion_w;  // where each unit quaternion's w sits in q (a floating base's, each ball joint's)
    std::string file;                                          // where it was read, for messages
};

// The measurements a problem reads, element by element ("<sensor>.<component>", grouped by sensor
// in order): each sensor's values from the state. Throws rbdgen::Error naming a missing sensor or a
// wrong count.
std::vector<double> measurement_array(const State& state, const std::vector<std::string>& element_names);

// The external wrenches on `links`, 6 a link (zero for a link the state leaves out). Throws
// rbdgen::Error when the state gives a wrench on a link not among them (the kernels would ignore it).
std::vector<double> external_wrench_array(const State& state, const std::vector<std::string>& links);

// The inertial parameters of `links`, 10 a link: the state's, or `urdf`'s (10 a link) for a link it
// leaves out. Throws rbdgen::Error for a link not among them, or a physically invalid payload: a mass
// that is not positive, or a rotational inertia about the centre of mass that is not positive definite.
std::vector<double> parameter_array(const State& state, const std::vector<std::string>& links, const std::vector<double>& urdf);

// The state's "motion" for the N-CMTM kernels of order N: the positions q (NQ; joints it leaves out at
// 0, a floating base at the identity), and ψ, ψ̇, …, ψ^(N) as (N + 1) x NV row-major. Throws
// rbdgen::Error when there is no "motion" or a joint has the wrong number of derivatives.
std::vector<double> motion_positions(const State& state);
std::vector<double> motion_derivatives(const State& state, int order);

// Throws rbdgen::Error naming `file` (for a stream: what to call it, as "<stdin>") and the offending key.
State read_state(const Layout& layout, const std::string& file);
State read_state(const Layout& layout, std::istream& in, const std::string& file);

// The results `rbdgen eval` prints; a generated robot's eval driver fills the same from its kernels.
// Each is a kernel's output (kernel specs, emit/kernel.hpp), in the kernels' order: a joint-space
// vector becomes an object keyed by joint name (a floating base under "base"), the NV x NV matrix
// {"order": [row names], "matrix": [[...], ...]}.
struct EvalResult {
    using Form = EvalForm;  // emit/eval_form.hpp
    std::string name;  // the kernel's (or "kernel.output" for a kernel of several printed outputs)
    Form form = Form::JointVector;
    std::vector<double> values;  // NV, or NV x NV row-major, or one a name, or K x NV (derivatives), or
                                 // one row of 6-vectors a name
    std::vector<std::string> names;  // Named: {"<name>": value, ...} (a problem's unknowns); LinkMotions:
                                     // {"<link>": [[6], [6], ...]}; Matrix: the columns' names
    std::vector<std::string> row_names;  // Matrix: {"rows": [...], "columns": [...], "matrix": [[...], ...]}
};
struct EvalResults {
    std::vector<EvalResult> results;
    std::string fd_error;  // why forward dynamics is refused, if it is
};
// Writes them as `rbdgen eval` prints them (JSON, indented by 2, a newline at the end). Throws
// rbdgen::Error naming the result and the joint where a value is not finite (overflow).
void write_eval_json(std::ostream& out, const Layout& layout, const EvalResults& results);

}  // namespace rbdgen
