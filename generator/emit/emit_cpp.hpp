// Straight-line C++ from a traced kernel: one statement a node, in the algorithm's own order.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

#include "emit/kernel.hpp"
#include "emit/schedule.hpp"

namespace rbdgen {

struct EmitOptions {
    std::string scalar = "double";  // double | float
    // The `_sc` entry point: sin and cos of every joint position come in as arrays sin_q, cos_q
    // (a controller that calls several kernels at one state computes them once).
    bool precomputed_trig = false;
    // The batched entry point (--batch W): every array and value a Batch, W states a call, one a lane.
    bool batch = false;
    // The compact form's runs of calls as loops over a table of step functions and their offsets
    // (emit/compact.hpp kCallTableRun): the uniform emission, least code before speed.
    bool call_tables = false;
    // The compact form's steps of one function that read none of one another's values as one call,
    // a step a lane of a vector (emit/compact.cpp, step 3; --lanes).
    bool lanes = false;
};

// The function's parameter list, e.g. "const Scalar* q, const Scalar* qd, Scalar* tau" (with
// precomputed_trig: "const Scalar* sin_q, const Scalar* cos_q, " first).
// With batch, every array is of Batch (W states a call) instead of Scalar. An array the kernel never
// reads or writes is left unnamed, unless name_all (a function that passes every array on).
std::string kernel_parameters(const Kernel& k, bool precomputed_trig = false, bool batch = false, bool name_all = false);
// The kernel's arrays by name, as the arguments of a call that passes its parameters on: "q, qd, tau".
std::string kernel_arguments(const Kernel& k);
// Per array, inputs then outputs: whether the kernel names it. An array it never reads or writes keeps
// its place unnamed (no unused-parameter warning): a problem's factor array when every factor is an
// entry of D or a constant (inverse dynamics).
std::vector<bool> arrays_named(const Kernel& k);
// Whether the kernel computes any sine or cosine (only those get an `_sc` entry point).
bool uses_trig(const Kernel& k);
// The function body (without braces), every live node a `const Scalar tN = ...;` line.
std::string kernel_body(const Kernel& k, const EmitOptions& options);
// The text of one statement of a schedule (shared by the straight-line and compact backends).
// `elsewhere`, when set, gives how a temporary the printer does not define is read (the compact
// backend's value slots), or "" for the printer's own name.
class StatementPrinter {
public:
    StatementPrinter(const Kernel& k, const Schedule& sch, const EmitOptions& options);
    std::string print(const Statement& s) const;
    std::string read(int id) const;
    std::string var(int id) const;
    std::string operation(sym::Op op, const std::string& a, const std::string& b) const;
    std::function<std::string(int)> elsewhere;

private:
    const Kernel& k_;
    const Schedule& sch_;
    const EmitOptions& o_;
    std::string type_;
};
// A table's entries as the emitted code lists them, 12 a line, each followed by a comma.
template <class T, class F> std::string table_entries(const std::vector<T>& entries, F text) {
    std::string s;
    for (size_t j = 0; j < entries.size(); ++j) s += (j % 12 ? " " : "\n    ") + text(entries[j]) + ",";
    return s + "\n";
}
// A table of integers at namespace scope: `RBDGEN_TABLE constexpr TYPE NAME[] = {...};` (the compact
// form's slots, copies and trig angles, LTDL's loops' rows).
inline std::string int_table(const std::string& type, const std::string& name, const std::vector<int>& values) {
    return fmt::format("RBDGEN_TABLE constexpr {} {}[] = {{{}}};\n", type, name, table_entries(values, [](int v) { return std::to_string(v); }));
}
// Per output, whether it is mostly zeros (at least 16, and half its elements: a Jacobian's or H's
// branch-induced zeros, q ⊕ v's Jacobians): such an output is filled whole by zero_fill's loop, which
// compilers turn into vector stores, before its other elements are stored, and its zero stores are left out.
std::vector<bool> zero_filled(const Kernel& k, const Schedule& sch);
// Whether a statement stores the constant zero into an output.
bool zero_store(const Statement& s, const Schedule& sch);
std::string zero_fill(const Kernel& k, const std::vector<bool>& filled, bool batch);
// A literal of the scalar type that reads back as exactly `v` (rounded to float for float).
std::string scalar_literal(double v, const std::string& scalar);

}  // namespace rbdgen
