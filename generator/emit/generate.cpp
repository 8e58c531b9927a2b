#include "emit/generate.hpp"

#include "algorithms/regressor.hpp"

#include <fmt/args.h>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "emit/compact.hpp"
#include "emit/emit_cpp.hpp"
#include "emit/float_budget.hpp"
#include "emit/kernel.hpp"
#include "emit/ltdl_loops.hpp"
#include "emit/names.hpp"
#include "emit/python.hpp"
#include "emit/spy.hpp"
#include "emit/templates.hpp"
#include "emit/warm.hpp"
#include "model/error.hpp"
#include "model/prepare.hpp"
#include "model/topology.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen {
namespace {

std::string ops_text(const sym::OpCounts& c) {
    return fmt::format("{} add, {} mul, {} div, {} sqrt, {} sin, {} cos", c.add, c.mul, c.div, c.sqrt, c.sin, c.cos);
}

nlohmann::ordered_json ops_json(const sym::OpCounts& c) {
    return {{"add", c.add}, {"mul", c.mul}, {"div", c.div}, {"sqrt", c.sqrt}, {"sin", c.sin}, {"cos", c.cos}};
}

std::string fill(const std::string& name, const fmt::dynamic_format_arg_store<fmt::format_context>& args) {
    return fmt::vformat(template_text(name), args);
}

// The statement body of a refused forward-dynamics kernel: every output NaN.
std::string nan_body(const Kernel& k, bool batch) {
    std::string body;
    for (const KernelArray& a : k.outputs)
        body += fmt::format("    for (int i = 0; i < {}; ++i) {}[i] = {}static_cast<Scalar>(std::nan(\"\"));\n", a.size(), a.name,
                            batch ? "Batch{} + " : "");
    return body;
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
                n.add += p.add, n.mul += p.mul, n.div += p.div, n.sqrt += p.sqrt, n.sin += p.sin, n.cos += p.cos;
            }
        return n;
    }
};

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
    const Function plain = function_of(c, e, {c.o.scalar, false, false, uniform}, k.name + "_");
    args.push_back(fmt::arg("definitions", plain.definitions));
    args.push_back(fmt::arg("body", plain.body));
    const std::string compact = uniform ? "uniform" : "compact";
    const auto emission = [&compact](const Emitted& x) {
        return x.compact ? fmt::format("{} ({} steps, {} functions)", compact, x.compact->calls, x.compact->functions) : std::string("straight-line");
    };
    args.push_back(fmt::arg("emission", !e.loop_ops ? emission(e)
                                        : e.tail    ? emission(*e.head) + ", then LTDL and its solve as loops, " + emission(*e.tail) +
                                                              ", the columns' solves as loops"
                                        : k.spec->ltdl_loops == KernelSpec::LtdlLoops::DerivativePairs
                                                    ? emission(*e.head) + ", then the pair terms as loops"
                                        : e.head    ? emission(*e.head) + ", then LTDL and its solve as loops"
                                                    : compact + " (LTDL's loops)"));
    std::string text = fill("kernel.cpp.in", args);
    if (e.with_sc) {
        const Function sc = function_of(c, e, {c.o.scalar, true, false, uniform}, k.name + "_sc_");
        text += fmt::format("\nnamespace {} {{\n\n{}RBDGEN_CODE void {}_sc({}) noexcept {{\n{}}}\n\n}}  // namespace {}\n", c.ns, sc.definitions, k.name,
                            kernel_parameters(k, true), sc.body, c.ns);
    }
    if (c.o.batch) {
        const Function batch = function_of(c, e, {c.o.scalar, false, true, uniform}, k.name + "_batch_");
        text += fmt::format("\nnamespace {} {{\nnamespace batch {{\n\n{}RBDGEN_CODE void {}({}) noexcept {{\n{}}}\n\n}}  // namespace batch\n}}  // namespace {}\n",
                            c.ns, batch.definitions, k.name, kernel_parameters(k, false, true), batch.body, c.ns);
    }
    return text;
}

std::string declaration(const Emitted& e) {
    const Kernel& k = e.kernel;
    std::string sizes;
    auto shape = [](const KernelArray& a) {
        return a.cols == 1 ? fmt::format("[{}]", a.size()) : fmt::format("[{} x {}{}]", a.rows, a.cols,
                                                                         a.layout == ArrayLayout::LowerRowMajor ? ", lower" : "");
    };
    for (const KernelArray& a : k.inputs) sizes += fmt::format("//   {}{}: {}\n", a.name, shape(a), a.doc);
    for (const KernelArray& a : k.outputs) sizes += fmt::format("//   {}{} (out): {}\n", a.name, shape(a), a.doc);
    std::string constants;  // each array's size, for the caller's buffers
    for (const auto* arrays : {&k.inputs, &k.outputs})
        for (const KernelArray& a : *arrays) constants += fmt::format("constexpr int {}_{}_size = {};\n", k.name, a.name, a.size());
    std::string d = fmt::format("// {}\n{}// {}\nvoid {}({}) noexcept;\n// {} that first warms itself (warm below).\nvoid {}_cold({}) noexcept;\n{}\n",
                                k.doc, sizes, ops_text(e.ops()), k.name, kernel_parameters(k), k.name, k.name,
                                kernel_parameters(k, false, false, true), constants);
    if (e.with_sc)
        d += fmt::format("// {} with sin_q[NQ], cos_q[NQ] = sin, cos of q given (see sincos below).\nvoid {}_sc({}) noexcept;\n\n",
                         k.name, k.name, kernel_parameters(k, true));
    return d;
}

// A Batch wider than the target's vector registers is split by the compiler into pieces, every
// operation: measured with g++ 12 on the 30-DoF humanoid's fd_lu, 4 doubles without AVX compile in
// 101 s at -O1 (1.8 s with -mavx2 at -O0), 8 doubles with AVX2 only in 127 s at -O2 (22 s with
// AVX-512). The header says so at compile time rather than leave it to be found (RBDGEN_BATCH_WIDTH_OK
// silences it in code that only passes arrays of Batch to kernels built for the target).
std::string batch_width_check(int bytes) {
    if (bytes <= 16) return "";
    const char* condition = bytes == 32 ? "!defined(__AVX__)" : "!defined(__AVX512F__)";
    return fmt::format("#if {} && !defined(RBDGEN_BATCH_WIDTH_OK)\n#warning \"Batch is {} bytes, wider than this target's vector registers: the compiler splits every "
                       "operation, slow to compile and to run. Build with {} (or -march=native), or regenerate with a smaller "
                       "--batch\"\n#endif\n",
                       condition, bytes, bytes == 32 ? "-mavx2" : "-mavx512f");
}

std::string header_file(const Context& c, const std::vector<Emitted>& kernels, const std::vector<KernelSections>& sections) {
    const Model& model = c.model;
    std::string joint_comments, joint_table, dof_names, declarations;
    for (const Body& b : model.bodies) {
        joint_comments += fmt::format("//   {:<24} {} (q[{}], qd[{}])\n", comment_text(b.joint_name),
                                      b.joint.type == JointType::Floating ? "floating" :
                                      b.joint.type == JointType::Revolute ? "revolute" : "prismatic",
                                      b.q_index, b.v_index);
        joint_table += fmt::format("    {{{}, {}, {}, {}}},\n", string_literal(b.joint_name),
                                   b.joint.type == JointType::Floating ? "true" : "false", b.q_index, b.v_index);
    }
    for (const std::string& d : model.dof_names()) dof_names += "    " + string_literal(d) + ",\n";
    if (!c.payload_links.empty()) {  // the URDF's values of the kernels' input pi
        std::string values, links;
        for (size_t k = 0; k < c.payload_links.size(); ++k) {
            links += fmt::format("//   {}: {}\n", k, comment_text(c.payload_links[k]));
            values += "   ";
            for (int p = 0; p < kInertialParameters; ++p) values += " " + scalar_literal(c.payload_urdf[kInertialParameters * k + p], c.o.scalar) + ",";
            values += "\n";
        }
        declarations += fmt::format(
            "// The URDF's inertial parameters of the links whose parameters the kernels take (input pi), a row\n"
            "// of 10 a link: m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz, in the link's URDF frame, the\n"
            "// rotational inertia about its origin. Start from these and add a payload's. The kernels assume a\n"
            "// physical body (m > 0, the inertia about the centre of mass positive definite): the caller ensures it.\n"
            "{}inline constexpr Scalar parameters_urdf[{}] = {{\n{}}};\n\n",
            links, c.payload_urdf.size(), values);
    }
    for (const Emitted& e : kernels) declarations += declaration(e);
    if (c.o.batch) {
        std::string batched;
        for (const Emitted& e : kernels) {
            std::string sizes;
            for (const auto* arrays : {&e.kernel.inputs, &e.kernel.outputs})
                for (const KernelArray& a : *arrays) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", a.size());
            batched += fmt::format("void {}({}) noexcept;\ninline constexpr int {}_sizes[] = {{{}}};\n", e.kernel.name,
                                   kernel_parameters(e.kernel, false, true), e.kernel.name, sizes);
        }
        declarations += fmt::format(
            "// The batched kernels (--batch {0}): BATCH states a call, structure of arrays. Each kernel of batch:: takes\n"
            "// the arrays of the kernel of the same name above, of Batch instead of Scalar: element i of an array\n"
            "// holds element i of the BATCH states, one a lane (x[i][s] of state s). Lane s computes what the\n"
            "// single-state kernel computes for state s. Batch is a vector of the compiler's vector extensions\n"
            "// (GCC, Clang) and has its natural alignment (BATCH x sizeof(Scalar) bytes): use arrays of Batch, as\n"
            "// std::vector<Batch> or alignas(Batch). <kernel>_sizes: each argument's number of Batch, in order.\n"
            "inline constexpr int BATCH = {0};\n"
            "#if defined(__GNUC__) || defined(__clang__)\n"
            "typedef Scalar Batch __attribute__((vector_size(BATCH * sizeof(Scalar))));\n"
            "#else\n#error \"the batched kernels (rbdgen generate --batch) need GCC's or Clang's vector extensions\"\n#endif\n"
            "{2}namespace batch {{\n{1}}}  // namespace batch\n\n",
            c.o.batch, batched, batch_width_check(c.o.batch * (c.o.scalar == "float" ? 4 : 8)));
    }
    declarations += warm_declarations(c.ns, sections);
    if (c.o.trig_entry_points)
        declarations += "// sin and cos of every joint position, for the _sc entry points (entries of non-revolute coordinates are\n"
                        "// computed too, and ignored).\ninline void sincos(const Scalar* RBDGEN_RESTRICT q, Scalar* RBDGEN_RESTRICT sin_q, "
                        "Scalar* RBDGEN_RESTRICT cos_q) noexcept {\n    for (int i = 0; i < NQ; ++i) rbdgen_sincos(q[i], &sin_q[i], &cos_q[i]);\n}\n\n";
    fmt::dynamic_format_arg_store<fmt::format_context> h;
    h.push_back(fmt::arg("banner", c.banner));
    h.push_back(fmt::arg("robot_comment", comment_text("robot " + model.name)));
    h.push_back(fmt::arg("ns", c.ns));
    h.push_back(fmt::arg("scalar", c.o.scalar));
    h.push_back(fmt::arg("nq", model.nq));
    h.push_back(fmt::arg("nv", model.nv));
    h.push_back(fmt::arg("nb", model.N()));
    h.push_back(fmt::arg("joint_comments", joint_comments));
    h.push_back(fmt::arg("joint_table", joint_table));
    h.push_back(fmt::arg("dof_names", dof_names));
    h.push_back(fmt::arg("fd_refusal", string_literal(c.fd_refusal)));
    h.push_back(fmt::arg("declarations", declarations));
    return fill("robot.hpp.in", h);
}

// The drivers' own buffers: the state's vectors (in_q, ...) and each kernel's arrays (k_<kernel>_<array>).
std::string state_buffer(StateField f) {
    switch (f) {
        case StateField::Q: return "in_q";
        case StateField::V: return "in_qd";
        case StateField::A: return "in_qdd";
        case StateField::Tau: return "in_tau";
        case StateField::Gravity: return "in_gravity";
        case StateField::None:
        case StateField::Measurements:
        case StateField::MotionQ:
        case StateField::Motion:
        case StateField::ExternalWrenches:
        case StateField::Parameters: break;
    }
    return "";
}
std::string buffer(const Kernel& k, const KernelArray& a) { return "k_" + k.name + "_" + a.name; }

// Kernel k's driver buffers, in its arguments' order: state inputs from in_*, the rest its own.
std::vector<std::string> call_buffers(const Kernel& k) {
    std::vector<std::string> b;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const std::string state = state_buffer(k.spec->inputs[i].state);
        b.push_back(state.empty() ? buffer(k, k.inputs[i]) : state);
    }
    for (const KernelArray& a : k.outputs) b.push_back(buffer(k, a));
    return b;
}
// The call of kernel k on its driver buffers.
std::string call(const std::string& ns, const Kernel& k) {
    std::string args;
    for (const std::string& b : call_buffers(k)) args += b + ".data(), ";
    return fmt::format("{}::{}({});", ns, k.name, args.substr(0, args.size() - 2));
}
// The bench driver's batched call: every buffer broadcast to BATCH lanes (the same state in each).
std::string batch_bench(const std::string& ns, const Kernel& k) {
    std::string text, args;
    const std::vector<std::string> b = call_buffers(k);
    for (size_t i = 0; i < b.size(); ++i) {
        text += fmt::format("        auto batch_{} = broadcast<{}::Batch>({});\n", i, ns, b[i]);
        args += fmt::format("{}batch_{}.data()", i ? ", " : "", i);
    }
    return text + fmt::format("        report(\"batch::{0}\", [&] {{ {1}::batch::{0}({2}); }}, {1}::BATCH);\n", k.name, ns, args);
}

const Emitted* find(const std::vector<Emitted>& kernels, const std::string& name) {
    for (const Emitted& e : kernels)
        if (e.kernel.name == name) return &e;
    return nullptr;
}

// Declarations of kernel k's buffers. An input no state gives is what the kernel that produces it
// makes (ltdl's H from crba), where that kernel is emitted; otherwise the identity for a square
// matrix (H, LD) and random numbers for a vector (b). A problem's measurements: the state's, in the
// eval driver (`s`), random numbers in the bench driver.
std::string list_literal(const std::vector<std::string>& names) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + string_literal(n);
    return "{" + list + "}";
}
// `called`: the producers already run in this block (a solve's LU and b come from one assembly).
std::string buffers(const std::string& ns, const std::vector<Emitted>& kernels, const Kernel& k, bool eval,
                    std::set<std::string>& called) {
    std::string text;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const ArraySpec& s = k.spec->inputs[i];
        const KernelArray& a = k.inputs[i];
        if (s.state == StateField::Measurements && eval) {
            text += fmt::format("        const std::vector<Scalar> {} = to_scalar(rbdgen::measurement_array(s, {}));\n",
                                buffer(k, a), list_literal(s.element_names));
            continue;
        }
        if (s.state == StateField::MotionQ && eval) {
            text += fmt::format("        const std::vector<Scalar> {} = to_scalar(rbdgen::motion_positions(s));\n", buffer(k, a));
            continue;
        }
        if (s.state == StateField::ExternalWrenches && eval) {
            text += fmt::format("        const std::vector<Scalar> {} = to_scalar(rbdgen::external_wrench_array(s, {}));\n",
                                buffer(k, a), list_literal(s.element_names));
            continue;
        }
        if (s.state == StateField::Parameters) {  // the state's payload, or the URDF's
            const std::string urdf = fmt::format("std::vector<double>({0}::parameters_urdf, {0}::parameters_urdf + {1})", ns, a.size());
            text += eval ? fmt::format("        const std::vector<Scalar> {} = to_scalar(rbdgen::parameter_array(s, {}, {}));\n", buffer(k, a),
                                       list_literal(s.element_names), urdf)
                         : fmt::format("        const std::vector<Scalar> {}({}::parameters_urdf, {}::parameters_urdf + {});\n", buffer(k, a), ns,
                                       ns, a.size());
            continue;
        }
        if (s.state == StateField::Motion && eval) {
            text += fmt::format("        const std::vector<Scalar> {} = to_scalar(rbdgen::motion_derivatives(s, {}));\n", buffer(k, a), a.rows - 1);
            continue;
        }
        if (!state_buffer(s.state).empty()) continue;
        text += fmt::format("        std::vector<Scalar> {}({});\n", buffer(k, a), a.size());
        const Emitted* producer = s.produced_by.empty() ? nullptr : find(kernels, s.produced_by);
        if (producer && !producer->refused) {
            const Kernel& p = producer->kernel;
            if (called.insert(p.name).second) {
                text += buffers(ns, kernels, p, eval, called);
                text += fmt::format("        {}\n", call(ns, p));
            }
            const auto same_name = std::find_if(p.outputs.begin(), p.outputs.end(), [&](const KernelArray& o) { return o.name == a.name; });
            text += fmt::format("        {} = {};\n", buffer(k, a), buffer(p, same_name != p.outputs.end() ? *same_name : p.outputs.at(0)));
        } else if (a.rows == a.cols && a.cols > 1) {
            text += fmt::format("        for (int i = 0; i < {}; ++i) {}[i * {} + i] = Scalar(1);\n", a.rows, buffer(k, a), a.cols);
        } else {
            text += fmt::format("        {} = random_array(rng, {});\n", buffer(k, a), a.size());
        }
    }
    for (const KernelArray& a : k.outputs) text += fmt::format("        std::vector<Scalar> {}({});\n", buffer(k, a), a.size());
    return text;
}

std::string drivers_text(const Context& c, const std::vector<Emitted>& kernels, const std::string& template_name) {
    const bool eval = template_name == "eval_main.cpp.in";
    std::string calls;
    for (const Emitted& e : kernels) {
        const Kernel& k = e.kernel;
        if (eval && !k.spec->evaluated()) continue;
        std::set<std::string> called;
        std::string block = buffers(c.ns, kernels, k, eval, called);
        if (eval) {
            block += fmt::format("        {}\n", call(c.ns, k));
            for (size_t o = 0; o < k.outputs.size(); ++o) {
                const JsonForm form = k.spec->outputs[o].json;
                if (form == JsonForm::None) continue;
                block += fmt::format("        r.results.push_back({{\"{}\", rbdgen::EvalResult::Form::{}, to_double({}), {}}});\n",
                                     k.spec->result_name(o),
                                     form == JsonForm::JointVector        ? "JointVector"
                                     : form == JsonForm::JointMatrix      ? "JointMatrix"
                                     : form == JsonForm::JointDerivatives ? "JointDerivatives"
                                     : form == JsonForm::LinkMotions      ? "LinkMotions"
                                                                          : "Named",
                                     buffer(k, k.outputs[o]), list_literal(k.spec->outputs[o].element_names));
            }
            // Forward dynamics is printed only where it is defined, the N-CMTM kernels when the state has a motion.
            const bool motion = std::any_of(k.spec->inputs.begin(), k.spec->inputs.end(), [](const ArraySpec& a) { return a.state == StateField::Motion; });
            calls += k.spec->forward_dynamics ? fmt::format("    if (r.fd_error.empty()) {{\n{}    }}\n", block)
                     : motion                 ? fmt::format("    if (s.has_motion) {{\n{}    }}\n", block)
                                              : fmt::format("    {{\n{}    }}\n", block);
        } else {
            calls += fmt::format("    {{\n{}        report(\"{}\", [&] {{ {} }});\n{}    }}\n", block, k.name, call(c.ns, k),
                                 c.o.batch ? batch_bench(c.ns, k) : "");
        }
    }
    if (eval) {  // inside main's try block
        // a wrench or a payload on a link the kernels do not take is an error, not ignored
        calls = fmt::format("    (void)rbdgen::external_wrench_array(s, {});\n    (void)rbdgen::parameter_array(s, {}, {});\n",
                            list_literal(c.wrench_links), list_literal(c.payload_links),
                            c.payload_links.empty() ? std::string("{}")
                                                    : fmt::format("std::vector<double>({0}::parameters_urdf, {0}::parameters_urdf + {1})",
                                                                  c.ns, c.payload_urdf.size())) + calls;
        std::string indented;
        for (size_t p = 0, e; p < calls.size(); p = e + 1) {
            e = calls.find('\n', p);
            indented += "    " + calls.substr(p, e - p + 1);
        }
        calls = indented;
    }
    fmt::dynamic_format_arg_store<fmt::format_context> d;
    d.push_back(fmt::arg("banner", c.banner));
    d.push_back(fmt::arg("ns", c.ns));
    d.push_back(fmt::arg("header", c.header));
    d.push_back(fmt::arg("source", string_literal(c.model.source)));
    d.push_back(fmt::arg("calls", calls));
    return fill(template_name, d);
}

struct Patterns {
    std::vector<std::string> H, L;  // rows of x (nonzero) and . (branch-induced zero)
};
Patterns jsim_patterns(const Model& model) {
    const auto pattern = jsim_pattern(expanded_parent(model));
    Patterns p;
    for (int i = 0; i < model.nv; ++i) {
        std::string hr, lr;
        for (int j = 0; j < model.nv; ++j) {
            hr += pattern[i][j] ? 'x' : '.';
            lr += j <= i && pattern[i][j] ? 'x' : '.';
        }
        p.H.push_back(hr);
        p.L.push_back(lr);
    }
    return p;
}

// A problem's three pictures: D as assembled, D permuted (P D Q), and L + U with the fill-in red.
std::vector<std::pair<std::string, std::string>> spy_plots(const ProblemAnalysis& a) {
    const std::string& p = a.problem.name;
    SpyPlot D{fmt::format("{}: D as assembled, {} x {}, {} nonzeros", p, a.pattern.rows, a.pattern.cols, a.pattern.nnz()),
              a.pattern.rows, a.pattern.cols};
    std::vector<int> new_row(a.pattern.rows, -1), new_col(a.pattern.cols);
    for (size_t i = 0; i < a.lu.order.rows.size(); ++i) new_row[a.lu.order.rows[i]] = static_cast<int>(i);
    for (size_t j = 0; j < a.lu.order.columns.size(); ++j) new_col[a.lu.order.columns[j]] = static_cast<int>(j);
    SpyPlot permuted{fmt::format("{}: P D Q, ordering {}", p, a.ordering), a.lu.m, a.pattern.cols};
    std::set<std::pair<int, int>> original;
    for (int c = 0; c < a.pattern.cols; ++c)
        for (int r : a.pattern.columns[c]) {
            D.entries.push_back({r, c});
            if (new_row[r] >= 0) permuted.entries.push_back({new_row[r], new_col[c]}), original.insert({new_row[r], new_col[c]});
        }
    SpyPlot lu{fmt::format("{}: L + U, {} nonzeros, fill-in {} (red)", p, a.lu.nnz, a.lu.fill), a.lu.m, a.pattern.cols};
    const auto put = [&](int r, int c) { (original.count({r, c}) ? lu.entries : lu.fill).push_back({r, c}); };
    for (int i = 0; i < a.lu.m; ++i) {
        for (int k : a.lu.L[i]) put(i, k);
        if (i < a.lu.pivots) {
            put(i, i);
            for (int j : a.lu.U[i]) put(i, j);
        } else {
            for (int j = a.lu.pivots; j < a.lu.n; ++j) put(i, j);  // the least-squares tail, dense
        }
    }
    return {{p + "_D.svg", spy_svg(D)}, {p + "_D_permuted.svg", spy_svg(permuted)}, {p + "_LU.svg", spy_svg(lu)}};
}

// A problem's analysis for report.json: the order kept and why, its fill and pivots, the pattern.
nlohmann::ordered_json problem_json(const ProblemAnalysis& a, const Model& model) {
    nlohmann::ordered_json j;
    j["source"] = a.problem.source;
    j["ordering"] = a.ordering;
    j["rows"] = a.pattern.rows;
    j["columns"] = a.pattern.cols;
    j["nnz_D"] = a.pattern.nnz();
    j["nnz_LU"] = a.lu.nnz;
    j["fill"] = a.lu.fill;
    j["min_pivot"] = a.min_pivot;
    j["states_checked"] = a.states_checked;
    j["singular_states"] = a.singular_states;
    j["unused_rows"] = a.unused_rows;
    nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
    for (const OrderingReport& r : a.candidates) {
        nlohmann::ordered_json x{{"name", r.name}, {"nnz_LU", r.nnz_lu}, {"fill", r.fill}, {"ops", r.ops}};
        if (r.states) x["min_pivot"] = r.min_pivot, x["states"] = r.states;
        if (!r.rejected.empty()) x["rejected"] = r.rejected;
        candidates.push_back(x);
    }
    j["candidates"] = candidates;
    j["variables"] = variable_names(model);
    j["unknowns"] = a.problem.wanted_names;
    std::vector<int> column_start{0}, row_index;
    for (const auto& column : a.pattern.columns) {
        row_index.insert(row_index.end(), column.begin(), column.end());
        column_start.push_back(static_cast<int>(row_index.size()));
    }
    j["pattern"] = {{"column_start", column_start}, {"row_index", row_index}};
    j["D_slots"] = D_slots(a);
    j["order"] = {{"rows", a.lu.order.rows}, {"columns", a.lu.order.columns}};
    return j;
}

// JSON has no infinity: a float run that overflowed or divided by zero is "inf".
nlohmann::ordered_json finite_or_inf(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json("inf"); }

nlohmann::ordered_json report_json(const Context& c, const PreparedModel& prepared, const std::vector<Emitted>& kernels) {
    const Model& model = c.model;
    const std::vector<int> lambda = parent_array(model), lambda_e = expanded_parent(model);
    const CostQuantities q = cost_quantities(lambda), qe = cost_quantities(lambda_e);
    const Patterns p = jsim_patterns(model);
    nlohmann::ordered_json report_kernels = nlohmann::ordered_json::object(), problems = nlohmann::ordered_json::object();
    for (const Emitted& e : kernels) {
        nlohmann::ordered_json entry;
        entry["ops"] = ops_json(e.ops());
        if (e.loop_ops) entry["ops_unrolled"] = ops_json(e.kernel.ops());
        if (e.ops_folded) entry["ops_folded"] = ops_json(*e.ops_folded);
        if (e.kernel.ops_with_divisions) entry["ops_with_divisions"] = ops_json(*e.kernel.ops_with_divisions);
        entry["statements"] = e.kernel.graph->live(e.kernel.all_output_nodes()).size();
        entry["emission"] = !(e.compact || e.loop_ops) ? "straight" : c.o.emission == "uniform" ? "uniform" : "compact";
        const Emitted& steps = e.head ? *e.head : e;
        if (steps.compact)
            entry["compact"] = {{"steps", steps.compact->calls}, {"functions", steps.compact->functions}, {"slots", steps.compact->slots}};
        if (e.loop_ops) entry["ltdl_loops"] = true;
        int size = 0;
        for (const KernelArray& a : e.kernel.outputs) size += a.size();
        entry["output_size"] = size;
        // the outputs' structural nonzeros: the entries not folded to the constant 0 (H's and Y's
        // branch-induced zeros, a Jacobian's columns of joints that do not move the link)
        long nonzeros = 0;
        nlohmann::ordered_json by_output = nlohmann::ordered_json::object();
        for (size_t o = 0; o < e.kernel.outputs.size(); ++o) {
            long n = 0;
            for (int id : e.kernel.output_nodes[o])
                n += !(e.kernel.graph->node(id).op == sym::Op::Const && e.kernel.graph->node(id).value == 0.0);
            by_output[e.kernel.outputs[o].name] = n, nonzeros += n;
        }
        entry["output_nonzeros"] = nonzeros;
        if (e.kernel.outputs.size() > 1) entry["output_nonzeros_each"] = by_output;
        if (!e.kernel.spec->method.empty()) entry["method"] = e.kernel.spec->method;
        if (e.refused) entry["refused"] = c.fd_refusal;
        else
            entry["float_error"] = {{"worst", finite_or_inf(e.float_error.worst)}, {"p99", finite_or_inf(e.float_error.p99)},
                                    {"states", e.float_error.states}, {"worst_kind", e.float_error.worst_kind}};
        if (e.problem) {
            problems[e.problem->problem.name]["kernels"][e.kernel.name] = entry;
            continue;
        }
        report_kernels[e.kernel.name] = entry;
    }
    for (const Emitted& e : kernels) {
        if (!e.problem) continue;
        const ProblemAnalysis& a = *e.problem;
        nlohmann::ordered_json& j = problems[a.problem.name];
        if (j.contains("ordering")) continue;
        nlohmann::ordered_json kernels_of = j["kernels"];
        j = problem_json(a, model);
        j["kernels"] = kernels_of;
    }
    nlohmann::ordered_json report;
    report["robot"] = c.ns;
    report["urdf"] = model.source;
    report["urdf_fnv1a"] = fnv1a_hex(c.o.urdf_text);
    report["generator_version"] = RBDGEN_VERSION;
    report["command"] = c.o.command_line;
    report["scalar"] = c.o.scalar;
    report["floating_base"] = model.floating_base;
    report["bodies"] = model.N();
    report["nq"] = model.nq;
    report["nv"] = model.nv;
    report["D0"] = q.D0;
    report["D1"] = q.D1;
    report["D2"] = q.D2;
    report["expanded"] = {{"D1", qe.D1}, {"D2", qe.D2}};
    report["jsim_nonzeros"] = jsim_nonzeros(lambda_e);
    report["dh_transforms"] = prepared.dh_transforms;
    nlohmann::ordered_json general = nlohmann::ordered_json::array();
    for (const Body& b : model.bodies)
        if (!b.general_transform.empty()) general.push_back({{"joint", b.joint_name}, {"why", b.general_transform}});
    report["general_transforms"] = general;
    report["snapping"] = {{"tolerance", c.o.snap_tolerance}, {"snapped", prepared.snap.snapped},
                          {"largest_change", prepared.snap.max_change}, {"effect_on_tau_and_H", prepared.snap_effect}};
    report["kernels"] = report_kernels;
    if (c.o.ncmtm_order != 0) report["ncmtm_order"] = c.o.ncmtm_order;
    if (c.o.batch != 0) report["batch"] = c.o.batch;
    if (!c.wrench_links.empty()) report["external_forces"] = c.wrench_links;
    if (!c.o.frames.empty()) report["frames"] = c.o.frames;
    if (!c.payload_links.empty()) report["parameters"] = c.payload_links;
    if (!problems.empty()) report["problems"] = problems;
    report["jsim_pattern"] = p.H;
    report["ltdl_pattern"] = p.L;
    if (!c.fd_refusal.empty()) report["fd_refusal"] = c.fd_refusal;
    return report;
}

std::string report_md(const Context& c, const PreparedModel& prepared, const nlohmann::ordered_json& report) {
    const Model& model = c.model;
    const Patterns p = jsim_patterns(model);
    std::string md = fmt::format("# rbdgen report: {}\n\nGenerated by rbdgen {} from {}: {}\n\n", c.ns, RBDGEN_VERSION,
                                 comment_text(model.source), "`" + comment_text(c.o.command_line) + "`");
    md += fmt::format("- URDF: `{}` (FNV-1a {})\n- bodies {}, NQ {}, NV {}, scalar {}{}\n", comment_text(model.source),
                      fnv1a_hex(c.o.urdf_text), model.N(), model.nq, model.nv, c.o.scalar,
                      model.floating_base ? ", floating base" : "");
    md += fmt::format("- Featherstone: D0 {}, D1 {}, D2 {}; expanded D1 {}, D2 {}; H has {} nonzeros of {}\n\n",
                      report["D0"].get<int>(), report["D1"].get<int>(), report["D2"].get<int>(),
                      report["expanded"]["D1"].get<int>(), report["expanded"]["D2"].get<int>(),
                      report["jsim_nonzeros"].get<long>(), model.nv * model.nv);
    md += fmt::format("- Near-exact constants snapped to 0 / ±1 (tolerance {:.0e}): {} groups, largest change {:.1e}, "
                      "largest relative effect on tau and H over 50 random states {:.1e}\n",
                      c.o.snap_tolerance, prepared.snap.snapped.size(), prepared.snap.max_change, prepared.snap_effect);
    for (const std::string& line : prepared.snap.snapped) md += "  - " + comment_text(line) + "\n";
    md += fmt::format("- Joint placements as axial screws: {} DH transforms; {} general transforms\n",
                      report["dh_transforms"].get<int>(), report["general_transforms"].size());
    for (const auto& g : report["general_transforms"])
        md += "  - joint '" + comment_text(g["joint"].get<std::string>()) + "': " + g["why"].get<std::string>() + "\n";
    md += "\n";
    md += "Float error: each kernel's arithmetic in float against double, relative (max |diff| / max |value| of its "
          "outputs, the latter not below 1% of its median over the states), worst and 99th percentile over 1,000 random, "
          "right-angle and fast states (the kind of the worst in brackets): what a `--scalar float` build of it computes.\n\n";
    md += "| kernel | add | mul | div | sqrt | sin | cos | statements | float error worst | p99 |\n|---|---|---|---|---|---|---|---|---|---|\n";
    const auto float_cells = [](const nlohmann::ordered_json& e) {
        if (!e.contains("float_error")) return std::string("| - | - |");
        const auto& f = e["float_error"];
        const auto text = [](const nlohmann::ordered_json& x) { return x.is_string() ? x.get<std::string>() : fmt::format("{:.1e}", x.get<double>()); };
        return fmt::format("| {} ({}) | {} |", text(f["worst"]), f["worst_kind"].get<std::string>(), text(f["p99"]));
    };
    for (const auto& [name, e] : report["kernels"].items()) {
        const auto& op = e["ops"];
        md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} {}\n", name, op["add"].get<long>(), op["mul"].get<long>(),
                          op["div"].get<long>(), op["sqrt"].get<long>(), op["sin"].get<long>(), op["cos"].get<long>(),
                          e["statements"].get<long>(), float_cells(e));
    }
    md += "\nSparsity of H (x nonzero, . branch-induced zero) and of L in the LTDL factorization:\n\n```\n";
    for (int i = 0; i < model.nv; ++i) md += p.H[i] + "   " + p.L[i] + "\n";
    md += "```\n";
    if (!c.fd_refusal.empty()) md += "\nForward dynamics refused: " + comment_text(c.fd_refusal) + "\n";
    if (report.contains("problems")) {
        md += "\n## Problems on Nori's sparse system\n";
        for (const auto& [name, j] : report["problems"].items()) {
            md += fmt::format("\n### {} ({})\n\n- D {} x {}, {} nonzeros; ordering {}: L + U {} nonzeros, fill-in {}\n"
                              "- smallest relative pivot {:.2e} over {} states ({} where D itself is singular)\n",
                              name, comment_text(j["source"].get<std::string>()), j["rows"].get<int>(), j["columns"].get<int>(),
                              j["nnz_D"].get<long>(), j["ordering"].get<std::string>(), j["nnz_LU"].get<long>(), j["fill"].get<long>(),
                              j["min_pivot"].get<double>(), j["states_checked"].get<int>(), j["singular_states"].get<int>());
            md += "\n| ordering | nnz L+U | fill | ops (fused) | kept? |\n|---|---|---|---|---|\n";
            for (const auto& x : j["candidates"])
                md += fmt::format("| {} | {} | {} | {} | {} |\n", x["name"].get<std::string>(), x["nnz_LU"].get<long>(),
                                  x["fill"].get<long>(), x["ops"].get<long>(),
                                  x.contains("rejected") ? comment_text(x["rejected"].get<std::string>()) : "kept");
            md += "\n| kernel | add | mul | div | sin | cos | float error worst | p99 |\n|---|---|---|---|---|---|---|---|\n";
            for (const auto& [k, e] : j["kernels"].items()) {
                const auto& op = e["ops"];
                md += fmt::format("| {} | {} | {} | {} | {} | {} {}\n", k, op["add"].get<long>(), op["mul"].get<long>(),
                                  op["div"].get<long>(), op["sin"].get<long>(), op["cos"].get<long>(), float_cells(e));
            }
            md += fmt::format("\n![D]({0}_D.svg) ![P D Q]({0}_D_permuted.svg) ![L + U]({0}_LU.svg)\n", name);
        }
    }
    return md;
}

}  // namespace

Files generate_sources(const Model& urdf_model, const GenerateOptions& o, std::vector<std::string>* warnings) {
    const PreparedModel prepared = prepare_model(urdf_model, o.snap_tolerance);
    const Model& model = prepared.model;
    if (o.name.empty() || sanitize_identifier(o.name) != o.name)
        throw Error("--name '" + comment_text(o.name) + "' is not usable as a C++ identifier; use letters, digits and single underscores, starting with a letter (e.g. " +
                    sanitize_identifier(o.name) + ")");
    if (o.scalar != "double" && o.scalar != "float")
        throw Error("--scalar '" + comment_text(o.scalar) + "' is not supported; use double or float");
    refuse_overflow(model, o.scalar);
    if (o.emission != "straight" && o.emission != "compact" && o.emission != "uniform" && o.emission != "auto")
        throw Error("--emission '" + comment_text(o.emission) + "' is not one of straight, compact, uniform and auto");
    if (o.batch != 0 && o.batch != 2 && o.batch != 4 && o.batch != 8)
        throw Error(fmt::format("--batch {}: the batched kernels take 2, 4 or 8 states a call; use one of those", o.batch));
    std::vector<std::string> names = o.kernels.empty() ? kernel_names() : o.kernels;
    if (o.kernels.empty() && !o.frames.empty())  // --frames adds its kernels
        names.insert(names.end(), frame_kernel_names().begin(), frame_kernel_names().end());
    // --kernels may name N-CMTM kernels (with --ncmtm-order): then only those of them are emitted; the
    // Jacobians only then.
    std::vector<KernelSpec> ncmtm = o.ncmtm_order != 0 ? ncmtm_kernel_specs(model, o.ncmtm_order) : std::vector<KernelSpec>();
    const auto named = [&names](const KernelSpec& k) { return std::find(names.begin(), names.end(), k.name) != names.end(); };
    const bool any_named = std::any_of(ncmtm.begin(), ncmtm.end(), named);
    ncmtm.erase(std::remove_if(ncmtm.begin(), ncmtm.end(),
                               [&](const KernelSpec& k) { return any_named || k.on_request ? !named(k) : false; }),
                ncmtm.end());
    for (const std::string& n : names) {
        const auto& frame_kernels = frame_kernel_names();
        if (std::count(frame_kernels.begin(), frame_kernels.end(), n) && o.frames.empty())
            throw Error("--kernels: " + n + " is the kernel of operational frames; name them with --frames LINK,...");
        if (std::none_of(ncmtm.begin(), ncmtm.end(), [&n](const KernelSpec& k) { return k.name == n; }) &&
            !std::count(frame_kernels.begin(), frame_kernels.end(), n))
            kernel_spec(n);  // throws the unknown-kernel message
    }

    Context c{model, o, o.name, o.name + ".hpp",
                    comment_text("Generated by rbdgen " RBDGEN_VERSION " from " + model.source + " (FNV-1a " +
                                 fnv1a_hex(o.urdf_text) + "): " + o.command_line) +
                        "\n// Do not edit: regenerate instead.",
                    forward_dynamics_refusal(model)};
    std::vector<std::string> wrench_links = o.external_forces;  // "all": every body's own link
    if (std::count(wrench_links.begin(), wrench_links.end(), "all")) {
        wrench_links.clear();
        for (const Body& b : model.bodies)
            if (b.is_link()) wrench_links.push_back(b.name);
    }
    const std::vector<LinkFrame> sites = link_frames(model, wrench_links, "--external-forces", true);
    for (const LinkFrame& s : sites) c.wrench_links.push_back(s.link);
    const std::vector<LinkFrame> frames = link_frames(model, o.frames, "--frames", false);
    const std::vector<LinkFrame> payload = link_frames(model, o.parameters, "--parameters", true);
    for (const LinkFrame& l : payload) {
        c.payload_links.push_back(l.link);
        const auto pi = parameters_of_inertia(l.I);
        c.payload_urdf.insert(c.payload_urdf.end(), pi.data(), pi.data() + pi.size());
    }
    // Problems on Nori's system, analysed (orderings, pivots, rank) before anything is traced.
    std::vector<std::shared_ptr<const ProblemAnalysis>> analyses;
    std::vector<KernelSpec> specs;
    std::vector<const ProblemAnalysis*> problem_of;  // of each spec: its problem, or none
    for (const KernelSpec& spec : kernel_specs(sites, frames, payload))
        if (std::find(names.begin(), names.end(), spec.name) != names.end()) specs.push_back(spec), problem_of.push_back(nullptr);
    for (const std::string& p : o.problems) {
        const Problem problem = load_problem(model, p);
        for (const auto& a : analyses)
            if (a->problem.name == problem.name)
                throw Error("--problem " + comment_text(p) + ": a second problem named '" + problem.name + "'; give each a name of its own");
        if (problem.name == "fd" && !c.fd_refusal.empty()) throw Error("--problem fd: " + c.fd_refusal);
        for (const char* step : {"_lu", "_aba", "_assemble", "_factor", "_solve"})
            if (const std::vector<std::string> all = kernel_names(); std::count(all.begin(), all.end(), problem.name + step))
                throw Error(problem.source + ": problem '" + problem.name + "' would emit kernel " + problem.name + step +
                            ", which rbdgen already has; rename the file");
        analyses.push_back(std::make_shared<const ProblemAnalysis>(analyze_problem(model, problem)));
        for (KernelSpec& s : problem_kernel_specs(analyses.back())) specs.push_back(std::move(s)), problem_of.push_back(analyses.back().get());
    }
    for (KernelSpec& s : ncmtm) specs.push_back(std::move(s)), problem_of.push_back(nullptr);
    // Traced in the specs' order, whatever order they were asked in; a problem's after them.
    std::vector<Emitted> kernels;
    for (size_t k = 0; k < specs.size(); ++k) {
        const KernelSpec& spec = specs[k];
        Emitted e;
        e.problem = problem_of[k];
        try {
            e.kernel = trace_kernel(model, spec, o.max_operations, o.keep_divisions);
        } catch (const std::length_error&) {
            throw Error(fmt::format("{}: kernel '{}' needs more than {} operations for this robot ({} DoF), the limit "
                                    "--max-operations sets: straight-line code that large would take too long to compile "
                                    "and be far larger than any instruction cache. Leave the kernel out with --kernels, "
                                    "or raise the limit",
                                    model.source, spec.name, o.max_operations, model.nv));
        }
        e.refused = !c.fd_refusal.empty() && spec.forward_dynamics;
        e.with_sc = o.trig_entry_points && !e.refused && uses_trig(e.kernel);
        // --emission compact or uniform, or auto and above the threshold: steps as functions, LTDL as loops
        const bool uniform = o.emission == "uniform";
        const auto compact_wanted = [&o, uniform](const Kernel& k) {
            return o.emission == "compact" || uniform || (o.emission == "auto" && k.ops().total() > kCompactAbove);
        };
        const auto make_compact = [&](const KernelSpec& s, Emitted& x) {
            // traced again with the signs of constants kept in place, so that steps differing only in them
            // share code; uniform: with the model's placements and inertias not folded either
            Kernel neutral = trace_kernel(model, s, o.max_operations, o.keep_divisions,
                                          uniform ? Folding::Opaque : Folding::SignNeutral);
            x.compact = compact_kernel(neutral, {o.scalar, false, false, uniform}, neutral.name + "_");
            if (x.compact && o.emission == "auto" && neutral.ops().total() < kCompactMinOpsPerCall * x.compact->calls)
                x.compact.reset();
            if (x.compact) x.kernel = std::move(neutral);
        };
        // The form of a traced kernel: steps as functions, or LTDL's (and the pair terms') loops with the
        // head and tail they call, each in a form of its own.
        std::function<void(const KernelSpec&, Emitted&)> choose_form = [&](const KernelSpec& spec, Emitted& e) {
            if (e.refused || !compact_wanted(e.kernel)) return;
            // LTDL's loops; under auto, LTDL or its solve alone stays unrolled (compact or straight-line by
            // the rule above) while that fits an instruction cache (the floating humanoid's ltdl: 701 ns
            // compact and unrolled in 18 KB, 900 ns as loops in 0.3 KB, 698 ns straight-line in 37 KB)
            bool loops = spec.ltdl_loops != KernelSpec::LtdlLoops::None;
            if (!loops || (!spec.head && o.emission == "auto")) make_compact(spec, e);
            if (loops && !spec.head && o.emission == "auto") {
                loops = estimated_code_bytes(e.compact ? e.compact->operations : e.kernel.ops().total(), e.compact.has_value()) >
                        kInstructionCache;
                if (loops && e.compact) e.kernel = trace_kernel(model, spec, o.max_operations, o.keep_divisions), e.compact.reset();
            }
            if (!loops) return;
            const auto part = [&](const KernelSpec& s) {
                auto x = std::make_shared<Emitted>();
                x->kernel = trace_kernel(model, s, o.max_operations, o.keep_divisions);
                choose_form(s, *x);
                return x;
            };
            if (spec.head) e.head = part(*spec.head);
            if (spec.tail) e.tail = part(*spec.tail);
            e.loop_ops = ltdl_loop_ops(model, spec.ltdl_loops, o.keep_divisions);
            // auto: fd_crba_ltdl's and rnea_derivatives' loops only after a compact head; a small kernel is
            // faster unrolled (arm7's fd_crba_ltdl: 402 ns straight-line, 569 ns with the loops after its
            // straight head); aba_derivatives' always (compiled unrolled, talos's takes 384 s and 7.7 GB at -Os)
            if (o.emission == "auto" && e.head && !e.head->compact && !e.tail) e.loop_ops.reset(), e.head.reset();
        };
        choose_form(spec, e);
        // what run-time wrenches and parameters cost: the kernel's operations with everything folded
        if (!e.problem)
            for (const KernelSpec& folded : kernel_specs())
                if (folded.name == spec.name && folded.inputs.size() != spec.inputs.size())
                    e.ops_folded = trace_kernel(model, folded, o.max_operations, o.keep_divisions).ops();
        kernels.push_back(std::move(e));
    }

    // The float error budget of every kernel; with --scalar float, a warning for one that loses more than 1e-3.
    const auto producer = [&kernels](const std::string& name) -> const Kernel* {
        for (const Emitted& e : kernels)
            if (e.kernel.name == name && !e.refused) return &e.kernel;
        return nullptr;
    };
    for (Emitted& e : kernels) {
        if (e.refused) continue;
        e.float_error = float_error(model, e.kernel, producer);
        const FloatError& f = e.float_error;
        if (!warnings || o.scalar != "float" || !(f.worst > 1e-3)) continue;
        warnings->push_back(std::isfinite(f.worst)
            ? fmt::format("kernel {} loses up to {:.1e} relative in float (99% of states within {:.1e}; the worst at {} states): "
                          "check its use, or use --scalar double", e.kernel.name, f.worst, f.p99, f.worst_kind)
            : fmt::format("kernel {} returns infinite or NaN values in float at {} states ({} of the states tried; a pivot or a "
                          "divisor that rounds to zero): use --scalar double for it", e.kernel.name, f.worst_kind,
                          std::isfinite(f.p99) ? "under 1%" : "over 1%"));
    }

    Files files;
    std::vector<KernelSections> sections;
    for (const Emitted& e : kernels) {
        const std::string source = kernel_source(c, e);
        sections.push_back(kernel_sections(e.kernel.name, source));
        files[c.ns + "_" + e.kernel.name + ".cpp"] = source;
    }
    // A problem file's or a built-in contact problem's <problem>_aba.cpp exists whether or not the
    // problem has that kernel, so that a build lists its sources without reading the problem.
    for (const auto& a : analyses)
        if (a->problem.held.empty() && a->problem.name != "id" && a->problem.name != "fd")
            files[c.ns + "_" + a->problem.name + "_aba.cpp"] =
                "// Problem " + a->problem.name + " has no kernel " + a->problem.name + "_aba: the articulated-body solve takes constrained dynamics\n"
                "// or an impact with one contact a body, every joint acceleration unknown and returned, every joint force known and\n"
                "// no sensor. " + a->problem.name + "_lu solves it. (Written so that a build's list of sources does not depend on the problem.)\n";
    files[c.header] = header_file(c, kernels, sections);
    files["rbdgen_runtime.hpp"] = template_text("rbdgen_runtime.hpp.in");
    if (o.python) {
        std::vector<PythonKernel> python;
        for (const Emitted& e : kernels) python.push_back({&e.kernel, e.refused});
        files[c.ns + "_python.cpp"] = python_module(c.ns, c.header, c.banner, python, o.batch);
        files["rbdgen_python.hpp"] = template_text("rbdgen_python.hpp.in");
    }
    files[c.ns + "_eval.cpp"] = drivers_text(c, kernels, "eval_main.cpp.in");
    files[c.ns + "_bench.cpp"] = drivers_text(c, kernels, "bench_main.cpp.in");
    const nlohmann::ordered_json report = report_json(c, prepared, kernels);
    files["report.json"] = report.dump(2) + "\n";
    files["report.md"] = report_md(c, prepared, report);
    for (const auto& a : analyses)
        for (const auto& [name, svg] : spy_plots(*a)) files[name] = svg;
    return files;
}

}  // namespace rbdgen
