#include "emit/emit_cpp.hpp"

#include "emit/schedule.hpp"
#include "sym/special.hpp"
#include "model/error.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace rbdgen {

std::string scalar_literal(double v, const std::string& scalar) {
    if (!std::isfinite(scalar == "float" ? static_cast<float>(v) : v))
        throw Error(fmt::format("a constant of the model, {:g}, does not fit in {}: check the model's masses, inertias "
                                "and lengths{}", v, scalar, scalar == "float" ? ", or use --scalar double" : ""));
    std::string s = scalar == "float" ? fmt::format("{:.9g}", static_cast<float>(v)) : fmt::format("{:.17g}", v);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    if (scalar == "float") s += "f";
    return v < 0 ? "(" + s + ")" : s;
}

bool uses_trig(const Kernel& k) {  // sin or cos of an angle of q (or of one plus an offset): what sin_q, cos_q replace
    const sym::Graph& g = *k.graph;
    const auto angle = [&](int id) { return g.node(id).op == sym::Op::Input && k.spec->inputs[g.node(id).array].angles; };
    for (int id : g.live(k.all_output_nodes())) {
        const sym::Node& n = g.node(id);
        if (n.op != sym::Op::Sin && n.op != sym::Op::Cos) continue;
        const sym::Node& arg = g.node(n.a);
        if (angle(n.a) || ((arg.op == sym::Op::Add || arg.op == sym::Op::Sub) && angle(arg.a))) return true;
    }
    return false;
}

std::vector<bool> arrays_named(const Kernel& k) {
    std::vector<bool> named(k.inputs.size() + k.outputs.size(), false);
    for (int id : k.graph->live(k.all_output_nodes()))
        if (k.graph->node(id).op == sym::Op::Input) named[k.graph->node(id).array] = true;
    for (size_t o = 0; o < k.outputs.size(); ++o) named[k.inputs.size() + o] = k.outputs[o].size() > 0;
    return named;
}

std::string kernel_parameters(const Kernel& k, bool precomputed_trig, bool batch, bool name_all) {
    const char* type = batch ? "Batch" : "Scalar";
    std::vector<bool> named = arrays_named(k);
    if (name_all) named.assign(named.size(), true);
    std::string p = precomputed_trig ? "const Scalar* RBDGEN_RESTRICT sin_q, const Scalar* RBDGEN_RESTRICT cos_q, " : "";
    // With sin q and cos q given (the _sc entry points), q may be read nowhere else (the floating
    // quadruped's crba: its only angles are the legs' joints), which -Wunused-parameter would report.
    for (size_t i = 0; i < k.inputs.size(); ++i)
        p += fmt::format("{}const {}*{}, ", precomputed_trig && named[i] && k.inputs[i].name == "q" ? "[[maybe_unused]] " : "", type,
                         named[i] ? " RBDGEN_RESTRICT " + k.inputs[i].name : "");
    for (size_t o = 0; o < k.outputs.size(); ++o)
        p += fmt::format("{}{}*{}", o ? ", " : "", type, named[k.inputs.size() + o] ? " RBDGEN_RESTRICT " + k.outputs[o].name : "");
    return p;
}

std::string kernel_arguments(const Kernel& k) {
    std::string a;
    for (const auto* arrays : {&k.inputs, &k.outputs})
        for (const KernelArray& x : *arrays) a += (a.empty() ? "" : ", ") + x.name;
    return a;
}

StatementPrinter::StatementPrinter(const Kernel& k, const Schedule& sch, const EmitOptions& options)
    : k_(k), sch_(sch), o_(options), type_(options.batch ? "Batch" : "Scalar") {}

std::string StatementPrinter::var(int id) const {
    return sch_.values[id].name.empty() ? fmt::format("t{}", id) : sch_.values[id].name;
}

std::string StatementPrinter::read(int id) const {
    const Value& v = sch_.values[id];
    switch (v.kind) {
        case Value::Kind::Constant: return scalar_literal(v.constant, o_.scalar);
        case Value::Kind::Input: return fmt::format("{}[{}]", k_.inputs[v.array].name, v.index);
        case Value::Kind::SinQ: return fmt::format("sin_q[{}]", v.index);
        case Value::Kind::CosQ: return fmt::format("cos_q[{}]", v.index);
        case Value::Kind::Temporary: break;
    }
    if (elsewhere) {
        const std::string e = elsewhere(id);
        if (!e.empty()) return e;
    }
    return var(id);
}

std::string StatementPrinter::operation(sym::Op op, const std::string& a, const std::string& b) const {
    using sym::Op;
    switch (op) {
        case Op::Add: return a + " + " + b;
        case Op::Sub: return a + " - " + b;
        case Op::Mul: return a + " * " + b;
        case Op::Div: return a + " / " + b;
        case Op::Neg: return "-" + a;
        case Op::Sqrt: return (o_.batch ? "rbdgen_sqrt(" : "std::sqrt(") + a + ")";
        default:
            if (sym::special(op)) return std::string(sym::special_name(op)) + "(" + a + (b.empty() ? "" : ", " + b) + ")";
            throw std::logic_error("not an arithmetic operation");
    }
}

// A call writes both results; one no statement reads is named after the node it was scheduled at.
std::string StatementPrinter::print(const Statement& s) const {
    using sym::Op;
    auto result = [&](int id, const char* what, int first) { return id >= 0 ? var(id) : fmt::format("unused_{}{}", what, first); };
    switch (s.kind) {
        case Statement::Kind::Assign:
            return fmt::format("    const {} {} = {};\n", type_, var(s.target), operation(s.op, read(s.a), s.b >= 0 ? read(s.b) : ""));
        case Statement::Kind::SinCos: {
            const std::string sn = result(s.sin_a, "sin", s.first_a), cs = result(s.cos_a, "cos", s.first_a);
            return fmt::format("    {} {}, {};\n    rbdgen_sincos({}, &{}, &{});\n", type_, sn, cs, read(s.a), sn, cs);
        }
        case Statement::Kind::SinCos2: {
            const std::string s1 = result(s.sin_a, "sin", s.first_a), c1 = result(s.cos_a, "cos", s.first_a);
            const std::string s2 = result(s.sin_b, "sin", s.first_b), c2 = result(s.cos_b, "cos", s.first_b);
            return o_.batch  // a Batch call already takes W angles
                       ? fmt::format("    Batch {}, {}, {}, {};\n    rbdgen_sincos({}, &{}, &{});\n    rbdgen_sincos({}, &{}, &{});\n", s1, c1,
                                     s2, c2, read(s.a), s1, c1, read(s.b), s2, c2)
                       : fmt::format("    Scalar {}, {}, {}, {};\n    rbdgen_sincos2({}, {}, &{}, &{}, &{}, &{});\n", s1, c1, s2, c2,
                                     read(s.a), read(s.b), s1, c1, s2, c2);
        }
        case Statement::Kind::TurnedTrig: {
            const std::string ct = scalar_literal(s.cos_theta, o_.scalar), st = scalar_literal(s.sin_theta, o_.scalar);
            return s.op == Op::Sin
                       ? fmt::format("    const Scalar {} = sin_q[{}] * {} + cos_q[{}] * {};\n", var(s.target), s.index, ct, s.index, st)
                       : fmt::format("    const Scalar {} = cos_q[{}] * {} - sin_q[{}] * {};\n", var(s.target), s.index, ct, s.index, st);
        }
        case Statement::Kind::Store: {
            const bool broadcast = o_.batch && sch_.values[s.a].kind == Value::Kind::Constant;
            return fmt::format("    {}[{}] = {};\n", k_.outputs[s.output].name, s.element, broadcast ? "Batch{} + " + read(s.a) : read(s.a));
        }
    }
    return "";
}

bool zero_store(const Statement& s, const Schedule& sch) {
    return s.kind == Statement::Kind::Store && sch.values[s.a].kind == Value::Kind::Constant && sch.values[s.a].constant == 0;
}

std::vector<bool> zero_filled(const Kernel& k, const Schedule& sch) {
    std::vector<int> zeros(k.outputs.size(), 0);
    for (const Statement& s : sch.statements)
        if (zero_store(s, sch)) ++zeros[s.output];
    std::vector<bool> filled(k.outputs.size());
    for (size_t o = 0; o < k.outputs.size(); ++o) filled[o] = zeros[o] >= 16 && 2 * zeros[o] >= k.outputs[o].size();
    return filled;
}

std::string zero_fill(const Kernel& k, const std::vector<bool>& filled, bool batch) {
    std::string text;
    for (size_t o = 0; o < k.outputs.size(); ++o)
        if (filled[o])
            text += fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {};\n", k.outputs[o].size(), k.outputs[o].name, batch ? "Batch{}" : "Scalar(0)");
    return text;
}

// The straight-line backend: a schedule printed one statement a line. Batched, the same statements
// on Batch values (a constant operand is broadcast by the vector extensions; a stored one explicitly),
// sqrt and sin/cos by the runtime's lane functions. Outputs mostly zeros filled first (zero_filled).
std::string kernel_body(const Kernel& k, const EmitOptions& options) {
    const Schedule sch = schedule(k, options.precomputed_trig, Stores::AtDefinition);
    const StatementPrinter printer(k, sch, options);
    const std::vector<bool> filled = zero_filled(k, sch);
    std::string body = zero_fill(k, filled, options.batch);
    for (const Statement& s : sch.statements)
        if (!(zero_store(s, sch) && filled[s.output])) body += printer.print(s);
    return body;
}

}  // namespace rbdgen
