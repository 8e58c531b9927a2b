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
// --emission auto, `ltdl` and `ltdl_solve`: Featherstone's loops (emit/ltdl_loops.hpp) only when the
// unrolled kernel would not fit a 32 KB instruction cache, its machine code estimated from its
// operations (x86-64 at -Os, bench/emission.md: compact, 22 bytes an operation of its distinct
// functions, LTDL of the humanoid, talos_reduced and talos alike; straight-line, 14 to 16 an operation).
inline constexpr long kInstructionCache = 32 * 1024;
inline long estimated_code_bytes(long operations, bool compact) { return operations * (compact ? 22 : 15); }
// EmitOptions::call_tables (--emission uniform): a run of at least this many calls with nothing
// between them is one loop over a table of {function, offset in x, offset in c}: an indirect call
// from one place instead of a call site each (about 30 bytes with its eight arguments). Talos's ABA:
// 24.7 KB of machine code instead of 35.2; hot 1.89x the straight-line kernel, cold 0.72x
// (bench/RESULTS.md; 1.06x and 0.80x in 56 KB before the screw factors were steps).
inline constexpr int kCallTableRun = 4;

// Lane calls (compact.cpp, step 3): at most kMaxLanes steps of one function side by side, a vector of
// four doubles (AVX2's width; two SSE2 statements a statement on portable x86-64), and at least
// kMinLanes: pairs (talos's left and right limbs) measured 0.82x to 1.13x of the separate calls with
// AVX-512 (bench/RESULTS.md, "Lane calls"), the gathers costing what two lanes save.
inline constexpr int kMaxLanes = 4, kMinLanes = 3;

struct CompactKernel {
    std::string definitions;  // namespace scope: the step functions and their tables
    std::string body;         // the kernel's statements
    int functions = 0, calls = 0, slots = 0;
    int invocations = 0, lane_calls = 0;  // the calls made (a lane call runs several steps), and of them lane calls
    long operations = 0;  // in the distinct functions: what the machine code grows with
};

// The compact form of kernel k, its names starting with `prefix` (unique in the kernel's file); none
// when the trace has no steps (nothing to share).
std::optional<CompactKernel> compact_kernel(const Kernel& k, const EmitOptions& options, const std::string& prefix);

}  // namespace rbdgen
