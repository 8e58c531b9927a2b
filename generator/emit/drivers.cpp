#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "emit/emitted.hpp"
#include "emit/names.hpp"

namespace rbdgen {
namespace {

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
        case StateField::Parameters:
        case StateField::QNext: break;  // integrate's output (produced_by)
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

}  // namespace

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
                const ArraySpec& a = k.spec->outputs[o];
                if (!a.json) continue;
                block += fmt::format("        r.results.push_back({{\"{}\", rbdgen::EvalResult::Form::{}, to_double({}), {}, {}}});\n",
                                     k.spec->result_name(o), enumerator_name(*a.json), buffer(k, k.outputs[o]),
                                     list_literal(a.printed_names(c.model)), list_literal(a.printed_row_names(c.model)));  // every member: -Wextra
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

}  // namespace rbdgen
