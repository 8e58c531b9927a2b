#include <fmt/format.h>

#include <functional>
#include <stdexcept>

#include "emit/emitted.hpp"
#include "emit/ltdl_loops.hpp"
#include "emit/measure.hpp"
#include "model/error.hpp"

namespace rbdgen {

Emitted emitted_kernel(const Model& model, const KernelSpec& spec, const GenerateOptions& o, const std::string& fd_refusal,
                       const ProblemAnalysis* problem) {
    Emitted e;
    e.problem = problem;
    const auto named = o.methods.find(spec.name);
    const std::string method = named == o.methods.end() ? "" : named->second;
    try {
        e.kernel = trace_kernel(model, spec, o.max_operations, o.keep_divisions, Folding::Full, method);
    } catch (const std::length_error&) {
        throw Error(fmt::format("{}: kernel '{}' needs more than {} operations for this robot ({} DoF), the limit "
                                "--max-operations sets: straight-line code that large would take too long to compile "
                                "and be far larger than any instruction cache. Leave the kernel out with --kernels, "
                                "or raise the limit",
                                model.source, spec.name, o.max_operations, model.nv));
    }
    e.refused = !fd_refusal.empty() && spec.forward_dynamics;
    e.with_sc = o.trig_entry_points && !e.refused && uses_trig(e.kernel);
    // --emission compact or uniform, or auto and above the threshold: steps as functions, LTDL as loops
    const bool uniform = o.emission == "uniform";
    const auto compact_wanted = [&o, uniform](const Kernel& k) {
        return o.emission == "compact" || uniform || (o.emission == "auto" && k.ops().total() > kCompactAbove);
    };
    // The compact form, from the kernel traced again with the signs of constants kept in place, so that
    // steps differing only in them share code (uniform: with the model's placements and inertias not
    // folded either); that trace, to replace x's when the form is kept.
    // Its names begin with `prefix` (the kernel's, then head_ or tail_ for a part, as kernel_source
    // names them): a part shared by two kernels (fd_crba_ltdl's head in aba_derivatives) is named after
    // each, so that a robot's kernel files compile as one unit too.
    const auto make_compact = [&](const KernelSpec& s, Emitted& x, const std::string& prefix) -> std::optional<Kernel> {
        Kernel neutral = trace_kernel(model, s, o.max_operations, o.keep_divisions,
                                      uniform ? Folding::Opaque : Folding::SignNeutral, s.name == spec.name ? method : "");
        x.compact = compact_kernel(neutral, {o.scalar, false, false, uniform, o.lanes}, prefix);
        if (x.compact && o.emission == "auto" && neutral.ops().total() < kCompactMinOpsPerCall * x.compact->calls)
            x.compact.reset();
        if (!x.compact) return std::nullopt;
        return neutral;
    };
    // The form of a traced kernel: steps as functions, or LTDL's (and the pair terms') loops with the
    // head and tail they call, each in a form of its own.
    std::function<void(const KernelSpec&, Emitted&, const std::string&)> choose_form = [&](const KernelSpec& spec, Emitted& e,
                                                                                           const std::string& prefix) {
        if (e.refused || !compact_wanted(e.kernel)) return;
        // LTDL's loops; under auto, LTDL or its solve alone stays unrolled (compact or straight-line by
        // the rule above) while that fits an instruction cache (the floating humanoid's ltdl: 701 ns
        // compact and unrolled in 18 KB, 900 ns as loops in 0.3 KB, 698 ns straight-line in 37 KB).
        // The first trace stays while the form is open: the loops' ops_unrolled read it.
        bool loops = spec.ltdl_loops != KernelSpec::LtdlLoops::None;
        std::optional<Kernel> neutral;
        if (!loops || (!spec.head && o.emission == "auto")) neutral = make_compact(spec, e, prefix);
        if (loops && !spec.head && o.emission == "auto") {
            const long operations = e.compact ? e.compact->operations : e.kernel.ops().total();
            loops = estimated_code_bytes(operations, e.compact.has_value()) > kInstructionCache;
            if (loops) e.compact.reset(), neutral.reset();
        }
        if (neutral) e.kernel = std::move(*neutral);
        if (!loops) return;
        const auto part = [&](const KernelSpec& s, const std::string& name) {
            auto x = std::make_shared<Emitted>();
            x->kernel = trace_kernel(model, s, o.max_operations, o.keep_divisions);
            choose_form(s, *x, prefix + name);
            return x;
        };
        if (spec.head) e.head = part(*spec.head, "head_");
        if (spec.tail) e.tail = part(*spec.tail, "tail_");
        e.loop_ops = ltdl_loop_ops(model, spec, o.keep_divisions, 1, e.head ? &e.head->kernel : nullptr);
        // auto: fd_crba_ltdl's and rnea_derivatives' loops only after a compact head; a small kernel is
        // faster unrolled (arm7's fd_crba_ltdl: 402 ns straight-line, 569 ns with the loops after its
        // straight head); aba_derivatives' always (compiled unrolled, talos's takes 384 s and 7.7 GB at -Os)
        if (o.emission == "auto" && e.head && !e.head->compact && !e.tail) e.loop_ops.reset(), e.head.reset();
    };
    choose_form(spec, e, spec.name + "_");
    // A kernel of several methods emitted as loops (aba_derivatives): the one named by --method, else
    // the one of lowest cost, and every method's cost in its report. The cost: the head's operations
    // (each traced as written), the tail's (they share it), and the loops', counted as the portable
    // x86-64 build runs them (SSE2: a row of NV numbers is NV / 2 statements). Only the method kept is
    // traced whole.
    if (e.loop_ops && !spec.alternatives.empty()) {
        constexpr int kLanes = 2;
        const long tail = e.tail ? e.tail->ops().total() : 0;
        const auto cost = [&](const KernelSpec& s) {
            return ltdl_loop_ops(model, s, o.keep_divisions, kLanes).total() + tail +
                   (s.head ? trace_kernel(model, *s.head, o.max_operations, o.keep_divisions).ops().total() : 0);
        };
        long best = cost(spec);
        std::string costs = method_name(spec.method) + " " + std::to_string(best);
        const KernelSpec* kept = &spec;
        for (const auto& alternative : spec.alternatives) {
            if (alternative->tail != spec.tail) throw std::logic_error(spec.name + ": its methods' costs assume one tail");
            const long c = cost(*alternative);
            costs += ", " + method_name(alternative->method) + " " + std::to_string(c);
            if (method.empty() ? c < best : method_name(alternative->method) == method) best = c, kept = alternative.get();
        }
        if (kept != &spec) e = emitted_kernel(model, *kept, o, fd_refusal, problem);
        e.kernel.method += " (cost for this robot, operations with a row's vector statements of " + std::to_string(kLanes) +
                           " lanes counted as one: " + costs + (method.empty() ? "" : "; chosen by --method") + ")";
    }
    // what run-time wrenches and parameters cost: the kernel's operations with everything folded
    if (!e.problem)
        for (const KernelSpec& folded : kernel_specs())
            if (folded.name == spec.name && folded.inputs.size() != spec.inputs.size())
                e.ops_folded = trace_kernel(model, folded, o.max_operations, o.keep_divisions).ops();
    return e;
}

}  // namespace rbdgen
