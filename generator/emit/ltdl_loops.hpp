// The compact emission of the kernels that factorize or solve with H = Lᵀ D L (KernelSpec::ltdl_loops):
// Featherstone's Appendix A as loops, rbdgen_ltdl and rbdgen_ltdl_solve of the runtime header, over
// constant tables of the tree (algorithms/ltdl.hpp's ltdl_rows). Unrolled, LTDL is a statement an
// operation and its rows seldom share a step (a row's work grows with its depth): 18 KB of machine
// code for the floating humanoid's LTDL, against the few hundred bytes of the loops.
#pragma once

#include <string>

#include "emit/emit_cpp.hpp"
#include "emit/kernel.hpp"

namespace rbdgen {

// The operations the loops execute (no zero is folded: H's nonzeros are all run-time values): for
// fd_crba_ltdl, τ − C and the loops, to add to its head's; for aba_derivatives also the solves of its
// three NV x NV outputs, to add to its head's and tail's. With lanes > 1, what they cost, for choosing
// between a kernel's routes (KernelSpec::alternatives): an operation on a whole row of NV numbers
// (the runtime header's rbdgen_row) counted as its vector statements of that many lanes.
sym::OpCounts ltdl_loop_ops(const Model& model, KernelSpec::LtdlLoops loops, bool keep_divisions, int lanes = 1);
// The same for a kernel's spec (a contact problem's derivatives: their products' row updates, those
// with J over the columns where its traced `head` has no zero, all without it).
struct Kernel;
sym::OpCounts ltdl_loop_ops(const Model& model, const KernelSpec& spec, bool keep_divisions, int lanes = 1, const Kernel* head = nullptr);

// A kernel the loops call (fd_crba_ltdl's and aba_derivatives' head, aba_derivatives' tail): its trace
// and its function's definitions and body.
struct LoopPart {
    const Kernel* kernel = nullptr;
    std::string definitions, body;
};
// Kernel k's definitions (the tables, and its head's and tail's functions) and its body, named with
// `prefix`.
struct LoopFunction {
    std::string definitions, body;
};
LoopFunction ltdl_loop_function(const Model& model, const Kernel& k, const LoopPart& head, const LoopPart& tail,
                                const EmitOptions& options, const std::string& prefix, bool keep_divisions);

}  // namespace rbdgen
