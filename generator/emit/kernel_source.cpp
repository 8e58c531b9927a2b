#include <fmt/format.h>

#include <memory>

#include "emit/emit_cpp.hpp"
#include "emit/emitted.hpp"
#include "emit/ltdl_loops.hpp"
#include "emit/names.hpp"

namespace rbdgen {
namespace {

// The statement body of a refused forward-dynamics kernel: every output NaN.
std::string nan_body(const Kernel& k, bool batch) {
    std::string body;
    for (const KernelArray& a : k.outputs)
        body += fmt::format("    for (int i = 0; i < {}; ++i) {}[i] = {}static_cast<Scalar>(std::nan(\"\"));\n", a.size(), a.name,
                            batch ? "Batch{} + " : "");
    return body;
}

// A kernel's function: its definitions at namespace scope (the compact form's step functions and
// tables), and its body. The single-state entry point's compact form was made when it was chosen.
struct Function {
    std::string definitions, body;
};
Function function_of(const Context& c, const Emitted& e, const EmitOptions& options, const std::string& prefix) {
    if (e.refused) return {"", nan_body(e.kernel, options.batch)};
    if (e.loop_ops) {
        const auto part = [&](const std::shared_ptr<Emitted>& x, const std::string& name) {
            if (!x) return LoopPart{};
            const Function f = function_of(c, *x, options, prefix + name);
            return LoopPart{&x->kernel, f.definitions, f.body};
        };
        const LoopFunction f = ltdl_loop_function(c.model, e.kernel, part(e.head, "head_"), part(e.tail, "tail_"), options, prefix,
                                                  c.o.keep_divisions);
        return {f.definitions, f.body};
    }
    if (!e.compact) return {"", kernel_body(e.kernel, options)};
    if (!options.precomputed_trig && !options.batch) return {e.compact->definitions, e.compact->body};
    const CompactKernel ck = *compact_kernel(e.kernel, options, prefix);
    return {ck.definitions, ck.body};
}

}  // namespace

std::string kernel_source(const Context& c, const Emitted& e) {
    const Kernel& k = e.kernel;
    fmt::dynamic_format_arg_store<fmt::format_context> args;
    args.push_back(fmt::arg("banner", c.banner));
    args.push_back(fmt::arg("kernel", k.name));
    args.push_back(fmt::arg("doc", k.doc));
    args.push_back(fmt::arg("ops", e.refused ? "none (refused: H is singular)" : ops_text(e.ops())));
    args.push_back(fmt::arg("header", c.header));
    args.push_back(fmt::arg("ns", c.ns));
    args.push_back(fmt::arg("parameters", kernel_parameters(k)));
    args.push_back(fmt::arg("cold_parameters", kernel_parameters(k, false, false, true)));
    args.push_back(fmt::arg("arguments", kernel_arguments(k)));
    const bool uniform = c.o.emission == "uniform";  // its compact forms call through tables
    const Function plain = function_of(c, e, {c.o.scalar, false, false, uniform, c.o.lanes}, k.name + "_");
    args.push_back(fmt::arg("definitions", plain.definitions));
    args.push_back(fmt::arg("body", plain.body));
    const std::string compact = uniform ? "uniform" : "compact";
    const auto emission = [&compact](const Emitted& x) {
        return x.compact ? fmt::format("{} ({} steps, {} functions)", compact, x.compact->calls, x.compact->functions) : std::string("straight-line");
    };
    args.push_back(fmt::arg("emission", !e.loop_ops ? emission(e)
                                        : k.spec->ltdl_loops == KernelSpec::LtdlLoops::Kkt
                                                    ? "the KKT system's inverse " + emission(*e.head) + ", the sides " + emission(*e.tail) +
                                                              ", their products as loops"
                                        : e.tail    ? emission(*e.head) + ", then LTDL and its solve as loops, " + emission(*e.tail) +
                                                              ", the columns' solves as loops"
                                        : k.spec->ltdl_loops == KernelSpec::LtdlLoops::DerivativePairs
                                                    ? emission(*e.head) + ", then the pair terms as loops"
                                        : e.head    ? emission(*e.head) + ", then LTDL and its solve as loops"
                                                    : compact + " (LTDL's loops)"));
    std::string text = fill("kernel.cpp.in", args);
    if (e.with_sc) {
        const Function sc = function_of(c, e, {c.o.scalar, true, false, uniform, c.o.lanes}, k.name + "_sc_");
        text += fmt::format("\nnamespace {} {{\n\n{}RBDGEN_CODE void {}_sc({}) noexcept {{\n{}}}\n\n}}  // namespace {}\n", c.ns, sc.definitions, k.name,
                            kernel_parameters(k, true), sc.body, c.ns);
    }
    if (c.o.batch) {
        const Function batch = function_of(c, e, {c.o.scalar, false, true, uniform, c.o.lanes}, k.name + "_batch_");
        text += fmt::format("\nnamespace {} {{\nnamespace batch {{\n\n{}RBDGEN_CODE void {}({}) noexcept {{\n{}}}\n\n}}  // namespace batch\n}}  // namespace {}\n",
                            c.ns, batch.definitions, k.name, kernel_parameters(k, false, true), batch.body, c.ns);
    }
    // Its sections end with it: the next kernel file of a unity build (a robot's kernel files included
    // by one source, rbdgen_add_robot's UNITY) defines its own.
    return text + "\n#undef RBDGEN_CODE\n#undef RBDGEN_TABLE\n#undef RBDGEN_CALLS\n";
}

}  // namespace rbdgen
