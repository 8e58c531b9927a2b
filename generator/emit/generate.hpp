// The generator's pipeline for one robot: trace the requested kernels, emit their sources, the robot
// header, the drivers and the report. Pure: returns file names and contents; writing is separate.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "emit/prepare.hpp"
#include "sym/expr.hpp"

namespace rbdgen {

struct GenerateOptions {
    std::string name;                  // C++ identifier: namespace, file and target names
    std::string scalar = "double";     // double | float
    std::vector<std::string> kernels;  // empty = all
    std::string command_line;          // for the banner
    std::string urdf_text;             // for the banner's hash
    int max_operations = sym::Graph::default_max_nodes;  // expression-graph nodes per kernel
    bool trig_entry_points = false;    // also emit <kernel>_sc(sin_q, cos_q, ...) and sincos(q, sin_q, cos_q)
    bool keep_divisions = false;       // every division as written, not one reciprocal a shared divisor
    bool lanes = false;                // compact kernels' independent like steps as one call of vector lanes (--lanes)
    // straight | compact | auto (compact for a kernel of more than kCompactAbove operations in steps of at
    // least kCompactMinOpsPerCall on average; emit/compact.hpp)
    std::string emission = "auto";
    int batch = 0;                     // 2, 4 or 8: also emit batch::<kernel>, that many states a call (0: none)
    double snap_tolerance = kSnapTolerance;  // model/snap.hpp; 0 keeps every constant as the file gives it
    double snap_max_effect = kSnapMaxEffect; // emit/prepare.hpp: the largest effect of a snapped group
    std::vector<std::string> problems;       // Nori problems: id, fd, or a problem file (sparse/problem_file.hpp)
    int ncmtm_order = 0;                     // > 0: also the N-CMTM kernels of this order (ncmtm_fk, cornea, ncmtm_fd)
    std::vector<std::string> external_forces;  // links whose wrench rnea, aba and fd_crba_ltdl take ("all": every body's)
    std::vector<std::string> frames;           // operational frames: fk's frame_pose, frame_jacobians, frame_motion
    std::vector<std::string> parameters;       // links whose inertial parameters the dynamics kernels take (a payload)
    bool python = false;                       // also <name>_python.cpp, the robot's Python module (pybind11)
    // --method KERNEL=METHOD: the method of a kernel that has several (minv, aba_derivatives), by the
    // name report.json's "method" starts with; else the generator's choice for the robot
    std::map<std::string, std::string> methods;
};

using Files = std::map<std::string, std::string>;

// Throws rbdgen::Error for unknown kernels, a bad name or scalar, or a kernel too large to emit.
// Warnings (a kernel that loses accuracy in float) go to `warnings` when given.
Files generate_sources(const Model& model, const GenerateOptions& options, std::vector<std::string>* warnings = nullptr);

// Write every file into dir, or nothing: files are written beside their targets first and renamed
// over them only when all were written. Throws rbdgen::Error naming dir on failure.
void write_atomically(const std::string& dir, const Files& files);

// 64-bit FNV-1a of the bytes, as 16 hex digits.
std::string fnv1a_hex(const std::string& bytes);

}  // namespace rbdgen
