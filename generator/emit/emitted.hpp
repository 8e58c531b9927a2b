// What generation hands from the traced kernels to the files written from them: the context every
// emitted file shares and each kernel as emitted (its trace and chosen form). Each kind of file is
// written by its own function, declared below with the file that holds it.
#pragma once

#include <fmt/args.h>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "emit/compact.hpp"
#include "emit/float_budget.hpp"
#include "emit/generate.hpp"
#include "emit/kernel.hpp"
#include "emit/prepare.hpp"
#include "emit/templates.hpp"
#include "emit/warm.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen {

inline std::string ops_text(const sym::OpCounts& c) {
    return fmt::format("{} add, {} mul, {} div, {} sqrt, {} sin, {} cos", c.add, c.mul, c.div, c.sqrt, c.sin, c.cos) +
           (c.special ? fmt::format(", {} coefficient functions", c.special) : "");
}

inline nlohmann::ordered_json ops_json(const sym::OpCounts& c) {
    nlohmann::ordered_json j = {{"add", c.add}, {"mul", c.mul}, {"div", c.div}, {"sqrt", c.sqrt}, {"sin", c.sin}, {"cos", c.cos}};
    if (c.special) j["coefficient_functions"] = c.special;
    return j;
}

inline std::string fill(const std::string& name, const fmt::dynamic_format_arg_store<fmt::format_context>& args) {
    return fmt::vformat(template_text(name), args);
}

// What every emitted file shares.
struct Context {
    const Model& model;
    const GenerateOptions& o;
    const std::string& ns;
    std::string header, banner, fd_refusal;
    std::vector<std::string> wrench_links;  // --external-forces, resolved (the kernels' f_ext rows)
    std::vector<std::string> payload_links;  // --parameters (the kernels' pi rows)
    std::vector<double> payload_urdf;        // their URDF values, 10 a link
};

// One emitted kernel: the trace, and whether it is refused (H singular) or gets an `_sc` entry point.
struct Emitted {
    Kernel kernel;
    bool refused = false, with_sc = false;
    const ProblemAnalysis* problem = nullptr;  // a problem's kernel (report.json lists it under "problems")
    FloatError float_error;                    // its arithmetic in float against double (emit/float_budget.hpp)
    std::optional<sym::OpCounts> ops_folded;   // with f_ext or pi as inputs: the same kernel's ops with them folded
    std::optional<CompactKernel> compact;      // emitted compact: the single-state entry point's form
    // Emitted compact with LTDL's loops (emit/ltdl_loops.hpp): the operations they execute, and
    // fd_crba_ltdl's and aba_derivatives' head before them and aba_derivatives' tail between them
    // (emitted straight or compact like any kernel).
    std::optional<sym::OpCounts> loop_ops;
    std::shared_ptr<Emitted> head, tail;
    // What the emitted code computes: the trace's operations, or the head's, the tail's and the loops'.
    sym::OpCounts ops() const {
        if (!loop_ops) return kernel.ops();
        sym::OpCounts n = *loop_ops;
        for (const auto& part : {head, tail})
            if (part) {
                const sym::OpCounts p = part->ops();
                n.add += p.add, n.mul += p.mul, n.div += p.div, n.sqrt += p.sqrt, n.sin += p.sin, n.cos += p.cos, n.special += p.special;
            }
        return n;
    }
};

// Kernel `spec` traced on the model and given its form (emit/kernel_form.cpp): straight-line, compact
// steps (--emission, emit/compact.hpp) or LTDL's loops with the head and tail they call
// (emit/ltdl_loops.hpp); refused, every output NaN, where forward dynamics is (fd_refusal); its
// operations with the run-time wrenches and parameters folded, for report.json.
Emitted emitted_kernel(const Model& model, const KernelSpec& spec, const GenerateOptions& o, const std::string& fd_refusal,
                       const ProblemAnalysis* problem);

// The robot's kernel source <ns>_<kernel>.cpp: the single-state function, and its _sc and batch:: forms
// (emit/kernel_source.cpp).
std::string kernel_source(const Context& c, const Emitted& e);

// The robot's header <ns>.hpp: sizes, the joint table, each kernel's declaration, warm() (emit/header_file.cpp).
std::string header_file(const Context& c, const std::vector<Emitted>& kernels, const std::vector<KernelSections>& sections);

// A driver from its template: eval_main.cpp.in (prints what the kernels return at a STATE.json) or
// bench_main.cpp.in (times each kernel) (emit/drivers.cpp).
std::string drivers_text(const Context& c, const std::vector<Emitted>& kernels, const std::string& template_name);

// report.json (emit/report_json.cpp) and report.md, its tables for a reader (emit/report_md.cpp).
nlohmann::ordered_json report_json(const Context& c, const PreparedModel& prepared, const std::vector<Emitted>& kernels);
std::string report_md(const Context& c, const PreparedModel& prepared, const nlohmann::ordered_json& report);

}  // namespace rbdgen
