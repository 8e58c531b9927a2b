// The compact backend (issue 15, "emission that fits a cache"): the straight-line schedule of a kernel
// cut at the algorithm's steps (sym/step.hpp, one body of one pass). Steps that trace to the same
// operations, up to the values of their constants, are one function; the kernel calls it once a step
// with that step's constants and the slots of a value array that carry values between steps, both from
// tables. The machine code is then that of the distinct kinds of step (the joint type and which screw
// parameters are nonzero), not of every body.
#pragma once

#include <optional>
#include <string>

#include "emit/emit_cpp.hpp"

namespace rbdgen {

// --emission auto: kernels of more operations than this are emitted compact, unless their steps are
// so small that the calls cost more than the code they save (the rows of a sparse triangular solve:
// about 8 operations a step, where a call with its table pointers costs about as much).
inline constexpr long kCompactAbove = 2000;
inline constexpr long kCompactMinOpsPerCall = 12;

struct CompactKernel {
    std::string definitions;  // namespace scope: the step functions and their tables
    std::string body;         // the kernel's statements
    int functions = 0, calls = 0, slots = 0;
};

// The compact form of kernel k, its names starting with `prefix` (unique in the kernel's file); none
// when the trace has no steps (nothing to share).
std::optional<CompactKernel> compact_kernel(const Kernel& k, const EmitOptions& options, const std::string& prefix);

}  // namespace rbdgen
