#include "emit/generate.hpp"

#include <fmt/args.h>
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "emit/emit_cpp.hpp"
#include "emit/kernel.hpp"
#include "emit/names.hpp"
#include "emit/templates.hpp"
#include "model/error.hpp"
#include "model/frames.hpp"
#include "model/snap.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/rnea.hpp"
#include <random>
#include "model/topology.hpp"

namespace rbdgen {
namespace {

const char* const kForwardDynamicsKernels[] = {"ltdl", "ltdl_solve", "fd_crba_ltdl", "aba"};

bool is_forward_dynamics(const std::string& kernel) {
    return std::find(std::begin(kForwardDynamicsKernels), std::end(kForwardDynamicsKernels), kernel) !=
           std::end(kForwardDynamicsKernels);
}

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
std::string nan_body(const Kernel& k) {
    return fmt::format("    for (int i = 0; i < {}; ++i) {}[i] = static_cast<Scalar>(std::nan(\"\"));\n", k.output.size,
                       k.output.name);
}

// Driver argument for a kernel array: the drivers name their buffers after the arrays.
std::string call(const std::string& ns, const Kernel& k, const std::string& output_buffer) {
    std::string args;
    for (const KernelArray& a : k.inputs) args += a.name + ".data(), ";
    return fmt::format("{}::{}({}{}.data());", ns, k.name, args, output_buffer);
}

}  // namespace

// The largest relative change that snapping makes to τ and H, over random states.
double snapping_effect(const Model& before, const Model& after) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    double worst = 0;
    for (int s = 0; s < 50; ++s) {
        VecX<double> q = VecX<double>::NullaryExpr(before.nq, [&] { return 3 * u(rng); });
        for (const Body& b : before.bodies)
            if (b.joint.type == JointType::Floating) q.segment<4>(b.q_index + 3).normalize();
        const VecX<double> qd = VecX<double>::NullaryExpr(before.nv, [&] { return 2 * u(rng); });
        const VecX<double> qdd = VecX<double>::NullaryExpr(before.nv, [&] { return 5 * u(rng); });
        const Vec3<double> g(0, 0, -9.81);
        const VecX<double> t0 = rnea<double>(before, q, qd, qdd, g), t1 = rnea<double>(after, q, qd, qdd, g);
        const MatX<double> H0 = crba<double>(before, q), H1 = crba<double>(after, q);
        worst = std::max(worst, (t1 - t0).cwiseAbs().maxCoeff() / std::max(1.0, t0.cwiseAbs().maxCoeff()));
        worst = std::max(worst, (H1 - H0).cwiseAbs().maxCoeff() / std::max(1.0, H0.cwiseAbs().maxCoeff()));
    }
    return worst;
}

// A model whose numbers overflow the kernels' arithmetic would compile into kernels that return
// inf or NaN: refused, naming the joint, from the reference at a few random states.
void refuse_overflow(const Model& model, const std::string& scalar) {
    const double largest = scalar == "float" ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int s = 0; s < 4; ++s) {
        VecX<double> q = VecX<double>::NullaryExpr(model.nq, [&] { return 3 * u(rng); });
        for (const Body& b : model.bodies)
            if (b.joint.type == JointType::Floating) q.segment<4>(b.q_index + 3).normalize();
        const VecX<double> qd = VecX<double>::NullaryExpr(model.nv, [&] { return u(rng); });
        const VecX<double> tau = rnea<double>(model, q, qd, qd, Vec3<double>(0, 0, -9.81));
        const MatX<double> H = crba<double>(model, q);
        for (const Body& b : model.bodies)
            for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k)
                if (!(std::abs(tau[k]) <= largest) || !(H.row(k).cwiseAbs().maxCoeff() <= largest))
                    throw Error(model.source + ": at joint '" + b.joint_name + "' the dynamics overflow " + scalar +
                                " arithmetic (inverse dynamics or the inertia matrix is " +
                                (std::isnan(tau[k]) ? "not a number" : "beyond " + fmt::format("{:g}", largest)) +
                                " at a sample state); check the masses, inertias and lengths of the links it moves");
    }
}

Files generate_sources(const Model& urdf_model, const GenerateOptions& o) {
    Model snapped = urdf_model;
    const SnapReport snap = snap_near_exact_constants(snapped, o.snap_tolerance);
    const double snap_effect = snap.snapped.empty() ? 0.0 : snapping_effect(urdf_model, snapped);
    const FrameChoice frames = choose_internal_frames(snapped);
    const Model& model = frames.model;
    if (o.name.empty() || sanitize_identifier(o.name) != o.name)
        throw Error("--name '" + comment_text(o.name) + "' is not usable as a C++ identifier; use letters, digits and single underscores, starting with a letter (e.g. " +
                    sanitize_identifier(o.name) + ")");
    if (o.scalar != "double" && o.scalar != "float")
        throw Error("--scalar '" + comment_text(o.scalar) + "' is not supported; use double or float");
    refuse_overflow(model, o.scalar);
    std::vector<std::string> names = o.kernels.empty() ? kernel_names() : o.kernels;
    for (const std::string& n : names)
        if (std::find(kernel_names().begin(), kernel_names().end(), n) == kernel_names().end())
            trace_kernel(model, n);  // throws the unknown-kernel message
    // Emit in the canonical order, whatever order they were asked in.
    std::vector<std::string> ordered;
    for (const std::string& n : kernel_names())
        if (std::find(names.begin(), names.end(), n) != names.end()) ordered.push_back(n);

    const std::string& ns = o.name;
    const std::string header = ns + ".hpp";
    const std::string banner = comment_text("Generated by rbdgen " RBDGEN_VERSION " from " + model.source + " (FNV-1a " + fnv1a_hex(o.urdf_text) +
                                            "): " + o.command_line) + "\n// Do not edit: regenerate instead.";
    const std::string fd_refusal = forward_dynamics_refusal(model);
    EmitOptions emit_options{o.scalar};

    Files files;
    nlohmann::ordered_json report_kernels;
    std::string declarations, eval_calls, bench_timings;
    for (const std::string& name : ordered) {
        Kernel k;
        try {
            k = trace_kernel(model, name, o.max_operations);
        } catch (const std::length_error&) {
            throw Error(fmt::format("{}: kernel '{}' needs more than {} operations for this robot ({} DoF), the limit "
                                    "--max-operations sets: straight-line code that large would take too long to compile "
                                    "and be far larger than any instruction cache. Leave the kernel out with --kernels, "
                                    "or raise the limit",
                                    model.source, name, o.max_operations, model.nv));
        }
        const bool refused = !fd_refusal.empty() && is_forward_dynamics(name);
        const sym::OpCounts ops = k.ops();
        fmt::dynamic_format_arg_store<fmt::format_context> args;
        args.push_back(fmt::arg("banner", banner));
        args.push_back(fmt::arg("kernel", name));
        args.push_back(fmt::arg("doc", k.doc));
        args.push_back(fmt::arg("ops", refused ? "none (refused: H is singular)" : ops_text(ops)));
        args.push_back(fmt::arg("header", header));
        args.push_back(fmt::arg("ns", ns));
        args.push_back(fmt::arg("parameters", kernel_parameters(k)));
        args.push_back(fmt::arg("body", refused ? nan_body(k) : kernel_body(k, emit_options)));
        std::string text = fill("kernel.cpp.in", args);
        const bool with_sc = o.trig_entry_points && !refused && uses_trig(k);
        if (with_sc) {
            EmitOptions sc = emit_options;
            sc.precomputed_trig = true;
            text += fmt::format("\nnamespace {} {{\n\nvoid {}_sc({}) noexcept {{\n{}}}\n\n}}  // namespace {}\n", ns, name,
                                kernel_parameters(k, true), kernel_body(k, sc), ns);
        }
        files[ns + "_" + name + ".cpp"] = text;

        std::string sizes;
        for (const KernelArray& a : k.inputs) sizes += fmt::format("//   {}[{}]: {}\n", a.name, a.size, a.doc);
        sizes += fmt::format("//   {}[{}] (out): {}\n", k.output.name, k.output.size, k.output.doc);
        declarations += fmt::format("// {}\n{}// {}\nvoid {}({}) noexcept;\n\n", k.doc, sizes, ops_text(ops), name,
                                    kernel_parameters(k));
        if (with_sc)
            declarations += fmt::format("// {} with sin_q[NQ], cos_q[NQ] = sin, cos of q given (see sincos below).\nvoid {}_sc({}) noexcept;\n\n",
                                        name, name, kernel_parameters(k, true));

        nlohmann::ordered_json entry;
        entry["ops"] = ops_json(ops);
        entry["statements"] = k.graph->live(k.output_nodes).size();
        entry["output_size"] = k.output.size;
        if (refused) entry["refused"] = fd_refusal;
        report_kernels[name] = entry;

        if (name == "rnea" || name == "gravity" || name == "aba" || name == "fd_crba_ltdl")
            eval_calls += fmt::format("        {}\n        r.{} = Eigen::VectorXd(to_double(out).head({}::NV));\n", call(ns, k, "out"),
                                      name, ns);
        if (name == "crba")
            eval_calls += fmt::format("        {}\n        r.crba = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>"
                                      "(to_double(H).data(), {}::NV, {}::NV);\n",
                                      call(ns, k, "H"), ns, ns);
        bench_timings += fmt::format("    report(\"{}\", [&] {{ {} }});\n", name, call(ns, k, "out"));
    }

    // The robot header.
    std::string joint_comments, joint_table, dof_names;
    for (const Body& b : model.bodies) {
        joint_comments += fmt::format("//   {:<24} {} (q[{}], qd[{}])\n", comment_text(b.joint_name),
                                      b.joint.type == JointType::Floating ? "floating" :
                                      b.joint.type == JointType::Revolute ? "revolute" : "prismatic",
                                      b.q_index, b.v_index);
        joint_table += fmt::format("    {{{}, {}, {}, {}}},\n", string_literal(b.joint_name),
                                   b.joint.type == JointType::Floating ? "true" : "false", b.q_index, b.v_index);
    }
    for (const std::string& d : model.dof_names()) dof_names += "    " + string_literal(d) + ",\n";
    fmt::dynamic_format_arg_store<fmt::format_context> h;
    h.push_back(fmt::arg("banner", banner));
    h.push_back(fmt::arg("robot_comment", comment_text("robot " + model.name)));
    h.push_back(fmt::arg("ns", ns));
    h.push_back(fmt::arg("scalar", o.scalar));
    h.push_back(fmt::arg("nq", model.nq));
    h.push_back(fmt::arg("nv", model.nv));
    h.push_back(fmt::arg("nb", model.N()));
    h.push_back(fmt::arg("joint_comments", joint_comments));
    h.push_back(fmt::arg("joint_table", joint_table));
    h.push_back(fmt::arg("dof_names", dof_names));
    h.push_back(fmt::arg("fd_refusal", string_literal(fd_refusal)));
    if (o.trig_entry_points)
        declarations += "// sin and cos of every joint position, for the _sc entry points (entries of non-revolute coordinates are\n"
                        "// computed too, and ignored).\ninline void sincos(const Scalar* RBDGEN_RESTRICT q, Scalar* RBDGEN_RESTRICT sin_q, "
                        "Scalar* RBDGEN_RESTRICT cos_q) noexcept {\n    for (int i = 0; i < NQ; ++i) rbdgen_sincos(q[i], &sin_q[i], &cos_q[i]);\n}\n\n";
    h.push_back(fmt::arg("declarations", declarations));
    files[header] = fill("robot.hpp.in", h);
    files["rbdgen_runtime.hpp"] = template_text("rbdgen_runtime.hpp.in");

    // The drivers.
    std::string bench_setup;
    if (std::find(ordered.begin(), ordered.end(), "crba") != ordered.end())
        bench_setup += fmt::format("    {}::crba(q.data(), H.data());\n", ns);
    else
        bench_setup += fmt::format("    for (int i = 0; i < {0}::NV; ++i) H[i * {0}::NV + i] = Scalar(1);\n", ns);
    if (std::find(ordered.begin(), ordered.end(), "ltdl") != ordered.end())
        bench_setup += fmt::format("    {}::ltdl(H.data(), LD.data());\n", ns);
    else
        bench_setup += fmt::format("    for (int i = 0; i < {0}::NV; ++i) LD[i * {0}::NV + i] = Scalar(1);\n", ns);
    fmt::dynamic_format_arg_store<fmt::format_context> d;
    d.push_back(fmt::arg("banner", banner));
    d.push_back(fmt::arg("ns", ns));
    d.push_back(fmt::arg("header", header));
    d.push_back(fmt::arg("source", string_literal(model.source)));
    d.push_back(fmt::arg("calls", eval_calls));
    d.push_back(fmt::arg("setup", bench_setup));
    d.push_back(fmt::arg("timings", bench_timings));
    files[ns + "_eval.cpp"] = fill("eval_main.cpp.in", d);
    files[ns + "_bench.cpp"] = fill("bench_main.cpp.in", d);

    // The report.
    const std::vector<int> lambda = parent_array(model), lambda_e = expanded_parent(model);
    const CostQuantities c = cost_quantities(lambda), ce = cost_quantities(lambda_e);
    const auto pattern = jsim_pattern(lambda_e);
    std::vector<std::string> H_rows, L_rows;
    for (int i = 0; i < model.nv; ++i) {
        std::string hr, lr;
        for (int j = 0; j < model.nv; ++j) {
            hr += pattern[i][j] ? 'x' : '.';
            lr += j <= i && pattern[i][j] ? 'x' : '.';
        }
        H_rows.push_back(hr);
        L_rows.push_back(lr);
    }
    nlohmann::ordered_json report;
    report["robot"] = ns;
    report["urdf"] = model.source;
    report["urdf_fnv1a"] = fnv1a_hex(o.urdf_text);
    report["generator_version"] = RBDGEN_VERSION;
    report["command"] = o.command_line;
    report["scalar"] = o.scalar;
    report["floating_base"] = model.floating_base;
    report["bodies"] = model.N();
    report["nq"] = model.nq;
    report["nv"] = model.nv;
    report["D0"] = c.D0;
    report["D1"] = c.D1;
    report["D2"] = c.D2;
    report["expanded"] = {{"D1", ce.D1}, {"D2", ce.D2}};
    report["jsim_nonzeros"] = jsim_nonzeros(lambda_e);
    report["dh_transforms"] = frames.dh_transforms;
    report["snapping"] = {{"tolerance", o.snap_tolerance}, {"snapped", snap.snapped}, {"largest_change", snap.max_change},
                          {"effect_on_tau_and_H", snap_effect}};
    report["kernels"] = report_kernels;
    report["jsim_pattern"] = H_rows;
    report["ltdl_pattern"] = L_rows;
    if (!fd_refusal.empty()) report["fd_refusal"] = fd_refusal;
    files["report.json"] = report.dump(2) + "\n";

    std::string md = fmt::format("# rbdgen report: {}\n\nGenerated by rbdgen {} from {}: {}\n\n", ns, RBDGEN_VERSION, comment_text(model.source), "`" + comment_text(o.command_line) + "`");
    md += fmt::format("- URDF: `{}` (FNV-1a {})\n- bodies {}, NQ {}, NV {}, scalar {}{}\n", comment_text(model.source),
                      fnv1a_hex(o.urdf_text), model.N(), model.nq, model.nv, o.scalar,
                      model.floating_base ? ", floating base" : "");
    md += fmt::format("- Featherstone: D0 {}, D1 {}, D2 {}; expanded D1 {}, D2 {}; H has {} nonzeros of {}\n\n", c.D0, c.D1,
                      c.D2, ce.D1, ce.D2, jsim_nonzeros(lambda_e), model.nv * model.nv);
    md += fmt::format("- Near-exact constants snapped to 0 / ±1 (tolerance {:.0e}): {} groups, largest change {:.1e}, "
                      "largest relative effect on tau and H over 50 random states {:.1e}\n",
                      o.snap_tolerance, snap.snapped.size(), snap.max_change, snap_effect);
    for (const std::string& line : snap.snapped) md += "  - " + comment_text(line) + "\n";
    md += "\n";
    md += "| kernel | add | mul | div | sqrt | sin | cos | statements |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& [name, e] : report_kernels.items()) {
        const auto& op = e["ops"];
        md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", name, op["add"].get<long>(), op["mul"].get<long>(),
                          op["div"].get<long>(), op["sqrt"].get<long>(), op["sin"].get<long>(), op["cos"].get<long>(),
                          e["statements"].get<long>());
    }
    md += "\nSparsity of H (x nonzero, . branch-induced zero) and of L in the LTDL factorization:\n\n```\n";
    for (int i = 0; i < model.nv; ++i) md += H_rows[i] + "   " + L_rows[i] + "\n";
    md += "```\n";
    if (!fd_refusal.empty()) md += "\nForward dynamics refused: " + comment_text(fd_refusal) + "\n";
    files["report.md"] = md;
    return files;
}

}  // namespace rbdgen
