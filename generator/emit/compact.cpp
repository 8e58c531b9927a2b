#include "emit/compact.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace rbdgen {

namespace {

// A table's entries, 12 a line.
template <class T, class F> std::string table(const std::vector<T>& entries, F text) {
    std::string s;
    for (size_t j = 0; j < entries.size(); ++j) s += (j % 12 ? " " : "\n    ") + text(entries[j]) + ",";
    return s + "\n";
}

}  // namespace

std::optional<CompactKernel> compact_kernel(const Kernel& k, const EmitOptions& options, const std::string& prefix) {
    const sym::Graph& g = *k.graph;
    const Schedule sch = schedule(k, options.precomputed_trig, Stores::AtEnd);
    const std::vector<Statement>& st = sch.statements;
    const int n_nodes = g.size();
    auto temporary = [&](int id) { return id >= 0 && sch.values[id].kind == Value::Kind::Temporary; };
    auto slot_kind = [&](int id) { return id >= 0 && sch.values[id].kind != Value::Kind::Constant; };

    // What the trig calls read stays in the kernel (the calls come first, two angles at a time).
    std::vector<int> defined_by(n_nodes, -1);  // statement defining each temporary
    for (size_t j = 0; j < st.size(); ++j) {
        const Statement& s = st[j];
        for (int t : {s.target, s.sin_a, s.cos_a, s.sin_b, s.cos_b})
            if (t >= 0 && s.kind != Statement::Kind::Store) defined_by[t] = static_cast<int>(j);
    }
    std::vector<bool> kernel_level(n_nodes, false);
    {
        std::vector<int> todo;
        for (const Statement& s : st)
            if (s.kind == Statement::Kind::SinCos || s.kind == Statement::Kind::SinCos2) todo.push_back(s.a), todo.push_back(s.b);
        while (!todo.empty()) {
            const int id = todo.back();
            todo.pop_back();
            if (!temporary(id) || kernel_level[id]) continue;
            kernel_level[id] = true;
            if (defined_by[id] >= 0 && st[defined_by[id]].kind == Statement::Kind::Assign)
                todo.push_back(st[defined_by[id]].a), todo.push_back(st[defined_by[id]].b);
        }
    }
    // The step of each statement (−1: the kernel's own), and the units the kernel runs in order: its
    // own statements, and each step's call at the place of the step's last statement.
    std::vector<int> step_of(st.size(), -1);
    std::map<int, int> last_of_step;
    for (size_t j = 0; j < st.size(); ++j)
        if (st[j].kind == Statement::Kind::Assign && !kernel_level[st[j].target] && g.node(st[j].target).step >= 0) {
            step_of[j] = g.node(st[j].target).step;
            last_of_step[step_of[j]] = static_cast<int>(j);
        }
    if (last_of_step.empty()) return std::nullopt;
    struct Unit {
        int step = -1;       // a call of this step's function, or
        int statement = -1;  // one of the kernel's statements
        std::vector<int> statements;  // a call: the step's statements
    };
    std::vector<Unit> units;
    std::map<int, int> unit_of_step;
    std::vector<int> unit_of_statement(st.size());
    for (size_t j = 0; j < st.size(); ++j) {
        if (step_of[j] < 0) {
            unit_of_statement[j] = static_cast<int>(units.size());
            units.push_back({-1, static_cast<int>(j), {}});
        } else if (last_of_step[step_of[j]] == static_cast<int>(j)) {
            unit_of_step[step_of[j]] = static_cast<int>(units.size());
            units.push_back({step_of[j], -1, {}});
        }
    }
    for (size_t j = 0; j < st.size(); ++j)
        if (step_of[j] >= 0) {
            unit_of_statement[j] = unit_of_step[step_of[j]];
            units[unit_of_statement[j]].statements.push_back(static_cast<int>(j));
        }
    std::vector<int> unit_of_value(n_nodes, -1);  // where a temporary is defined
    for (int id = 0; id < n_nodes; ++id)
        if (temporary(id) && defined_by[id] >= 0) unit_of_value[id] = unit_of_statement[defined_by[id]];

    // Values that cross a step's boundary get a slot of the value array: a step's results read
    // elsewhere, and the kernel's own temporaries read by a step. A step reads the kernel's inputs
    // from their arrays, and writes a result that is an output into its output array (its first
    // place there, its home), where later steps read it.
    auto in_step = [&](int id) { return unit_of_value[id] >= 0 && units[unit_of_value[id]].step >= 0; };
    std::vector<int> home_output(n_nodes, -1), home_element(n_nodes, -1);
    for (const Statement& s : st)
        if (s.kind == Statement::Kind::Store && temporary(s.a) && in_step(s.a) && home_output[s.a] < 0)
            home_output[s.a] = s.output, home_element[s.a] = s.element;
    auto array_of = [&](int id) -> std::string {
        const Value& x = sch.values[id];
        if (home_output[id] >= 0) return k.outputs[home_output[id]].name;
        return x.kind == Value::Kind::Input ? k.inputs[x.array].name : x.kind == Value::Kind::SinQ ? "sin_q" : x.kind == Value::Kind::CosQ ? "cos_q" : "";
    };
    auto index_of = [&](int id) { return home_output[id] >= 0 ? home_element[id] : sch.values[id].index; };
    std::vector<int> last_use(n_nodes, -1);
    std::vector<bool> slotted(n_nodes, false);
    for (size_t j = 0; j < st.size(); ++j) {
        const int u = unit_of_statement[j];
        for (int x : {st[j].a, st[j].b}) {
            if (!slot_kind(x) || st[j].kind == Statement::Kind::TurnedTrig) continue;
            if (unit_of_value[x] > u) throw std::logic_error("compact emission of " + k.name + ": steps interleave");
            const bool crossing = units[u].step >= 0 ? unit_of_value[x] != u : unit_of_value[x] >= 0 && units[unit_of_value[x]].step >= 0;
            if (!crossing || !array_of(x).empty()) continue;
            slotted[x] = true;
            last_use[x] = std::max(last_use[x], u);
        }
    }
    // Slots by linear scan, in the order the units run: a value's slot is free again after its last
    // reader (never at the unit that defines another value: a step writes its results while it reads).
    std::vector<std::vector<int>> defined_at(units.size()), freed_after(units.size());
    for (int id = 0; id < n_nodes; ++id) {
        if (!slotted[id]) continue;
        defined_at[unit_of_value[id]].push_back(id);
        freed_after[last_use[id]].push_back(id);
    }
    std::vector<int> slot(n_nodes, -1), free_slots;
    int n_slots = 0;
    auto take = [&](int id) {
        if (free_slots.empty()) {
            slot[id] = n_slots++;
        } else {
            slot[id] = free_slots.back();
            free_slots.pop_back();
        }
    };
    for (size_t u = 0; u < units.size(); ++u) {
        for (int id : defined_at[u]) take(id);
        for (int id : freed_after[u]) free_slots.push_back(slot[id]);
    }
    const char* type = options.batch ? "Batch" : "Scalar";
    int largest = n_slots;
    for (const auto* arrays : {&k.inputs, &k.outputs})
        for (const KernelArray& a : *arrays) largest = std::max(largest, a.size());
    const char* index = largest <= 65535 ? "unsigned short" : "unsigned";

    // The joint angles' sines and cosines (q[i] + c, two angles a call) as one loop over a table of
    // q's elements, offsets and the slots the results go to, where every angle is of that form and
    // read only by its call, and every result only by steps (a few bytes a call instead of its
    // straight-line statements and copies into slots); else as the kernel's own statements.
    struct Angle {
        int q = -1, sin = -1, cos = -1;  // q's element, the results' slots (−1: a scratch slot)
        double offset = 0;
    };
    std::vector<Angle> angles;
    std::set<int> trig_statements, calls;  // the calls and the angles' sums, emitted as the loop at the first call
    {
        std::vector<int> reads(n_nodes, 0);  // by the kernel's own statements, and by all
        std::vector<int> kernel_reads(n_nodes, 0);
        for (size_t j = 0; j < st.size(); ++j)
            for (int x : {st[j].a, st[j].b})
                if (x >= 0) ++reads[x], kernel_reads[x] += step_of[j] < 0;
        const int q_array = [&] {
            for (size_t a = 0; a < k.inputs.size(); ++a)
                if (k.inputs[a].name == "q") return static_cast<int>(a);
            return -1;
        }();
        bool loop = !options.precomputed_trig && q_array >= 0;
        const auto result = [&](int id) {  // a slot, or −1 (scratch) for an unneeded result
            if (id < 0) return -1;
            if (!slotted[id] || kernel_reads[id] > 0) loop = false;
            return id;
        };
        for (size_t j = 0; j < st.size() && loop; ++j) {
            const Statement& t = st[j];
            if (t.kind != Statement::Kind::SinCos && t.kind != Statement::Kind::SinCos2) continue;
            trig_statements.insert(static_cast<int>(j)), calls.insert(static_cast<int>(j));
            for (const auto& [angle, sin, cos] : {std::array<int, 3>{t.a, t.sin_a, t.cos_a}, std::array<int, 3>{t.b, t.sin_b, t.cos_b}}) {
                if (angle < 0) continue;
                Angle a{-1, result(sin), result(cos), 0};
                const auto q_element = [&](int id) {
                    const Value& v = sch.values[id];
                    return v.kind == Value::Kind::Input && v.array == q_array ? v.index : -1;
                };
                if (q_element(angle) >= 0) {
                    a.q = q_element(angle);
                } else if (temporary(angle) && defined_by[angle] >= 0 && reads[angle] == 1) {
                    const Statement& sum = st[defined_by[angle]];
                    if (sum.kind == Statement::Kind::Assign && sum.op == sym::Op::Add) {
                        for (const auto& [x, c] : {std::pair{sum.a, sum.b}, std::pair{sum.b, sum.a}})
                            if (x >= 0 && c >= 0 && q_element(x) >= 0 && sch.values[c].kind == Value::Kind::Constant)
                                a.q = q_element(x), a.offset = sch.values[c].constant;
                        trig_statements.insert(defined_by[angle]);
                    }
                }
                if (a.q < 0) loop = false;
                angles.push_back(a);
            }
        }
        // The loop writes every result at the first call's place: no step may run, nor any slot be
        // freed (and taken again by a later result), between the first call and the last.
        if (loop && !calls.empty()) {
            const int first = unit_of_statement[*calls.begin()], last = unit_of_statement[*calls.rbegin()];
            for (int u = first; u < last && loop; ++u) loop = units[u].step < 0 && freed_after[u].empty();
        }
        if (!loop) angles.clear(), trig_statements.clear(), calls.clear();
    }
    int scratch = -1;  // where an unneeded sine or cosine goes
    for (Angle& a : angles)
        for (int* r : {&a.sin, &a.cos}) {
            if (*r < 0 && scratch < 0) scratch = n_slots++;
            *r = *r < 0 ? scratch : slot[*r];
        }

    StatementPrinter printer(k, sch, options);
    printer.elsewhere = [&](int id) {
        return !in_step(id) ? std::string() : home_output[id] >= 0 ? fmt::format("{}[{}]", array_of(id), index_of(id)) : fmt::format("v_[{}]", slot[id]);
    };
    CompactKernel out;
    out.slots = n_slots;
    std::map<std::string, int> kinds;  // a step's operations (its function's key) → the function
    std::vector<int> x_table;
    std::vector<double> c_table;
    std::string functions, tables;
    std::vector<std::string> sources;  // the kernel's arrays, as every step function takes them
    if (options.precomputed_trig) sources = {"sin_q", "cos_q"};
    for (const KernelArray& a : k.inputs) sources.push_back(a.name);
    const size_t first_output = sources.size();
    for (const KernelArray& a : k.outputs) sources.push_back(a.name);
    std::string call_arrays;  // an array the kernel leaves unnamed (emit_cpp.hpp arrays_named) passed on as nullptr
    const std::vector<bool> named = arrays_named(k);
    for (size_t a = 0; a < sources.size(); ++a) {
        const size_t kernel_array = a - (options.precomputed_trig ? 2 : 0);
        call_arrays += ", " + (a < sources.size() - named.size() || named[kernel_array] ? sources[a] : std::string("nullptr"));
    }
    std::map<std::pair<int, std::string>, std::vector<int>> copies;  // (output, array read) → element, element read, ...
    std::map<int, std::vector<int>> zeros;                             // output → elements
    auto copy_loop = [&](const std::string& name, const std::vector<int>& entries, const std::string& statement, int stride = 2) {
        tables += fmt::format("RBDGEN_TABLE constexpr {} {}[] = {{{}}};\n", index, name, table(entries, [](int e) { return std::to_string(e); }));
        return fmt::format("    for (int j = 0; j < {}; j += {}) {{\n        const {}* T = {};\n        {};\n    }}\n", entries.size(), stride,
                           index, name, statement);
    };
    // With call tables, a run of kCallTableRun calls or more is one loop over a table of the functions
    // and their offsets in x and c (a few bytes of data a call instead of its call site).
    struct Call {
        std::string function;
        size_t x, c;
    };
    std::vector<Call> run, dispatch;
    const auto c_at = [&](const std::string& offset) { return c_table.empty() ? std::string("nullptr") : prefix + "c + " + offset; };
    auto flush = [&] {
        if (options.call_tables && static_cast<int>(run.size()) >= kCallTableRun) {
            out.body += fmt::format("    for (int j = {}; j < {}; ++j) {{\n        const auto& s = {}calls[j];\n        s.f(v_, {}x + s.x, {}{});\n    }}\n",
                                    dispatch.size(), dispatch.size() + run.size(), prefix, prefix, c_at("s.c"), call_arrays);
            dispatch.insert(dispatch.end(), run.begin(), run.end());
        } else {
            for (const Call& c : run)
                out.body += fmt::format("    {}(v_, {}x + {}, {}{});\n", c.function, prefix, c.x, c_at(std::to_string(c.c)), call_arrays);
        }
        run.clear();
    };
    auto say = [&]() -> std::string& {  // the kernel's own statements, after the calls before them
        flush();
        return out.body;
    };
    for (size_t u = 0; u < units.size(); ++u) {
        const Unit& unit = units[u];
        if (unit.step < 0 && trig_statements.count(unit.statement)) {
            if (unit.statement != *calls.begin()) continue;
            std::vector<int> entries;
            std::vector<double> offsets;
            for (const Angle& a : angles) entries.insert(entries.end(), {a.q, a.sin, a.cos}), offsets.push_back(a.offset);
            tables += fmt::format("RBDGEN_TABLE constexpr {} {}trig[] = {{{}}};\n", index, prefix, table(entries, [](int e) { return std::to_string(e); }));
            tables += fmt::format("RBDGEN_TABLE constexpr Scalar {}trig_c[] = {{{}}};\n", prefix,
                                  table(offsets, [&](double c) { return scalar_literal(c, options.scalar); }));
            const size_t n = angles.size();
            if (options.batch)  // a Batch call already takes W angles
                say() += fmt::format("    for (int j = 0; j < {}; ++j) {{\n        const {}* T = {}trig + 3 * j;\n"
                                        "        rbdgen_sincos(q[T[0]] + {}trig_c[j], &v_[T[1]], &v_[T[2]]);\n    }}\n",
                                        n, index, prefix, prefix);
            else
                say() += fmt::format("    for (int j = 0; j + 1 < {}; j += 2) {{\n        const {}* T = {}trig + 3 * j;\n"
                                        "        rbdgen_sincos2(q[T[0]] + {}trig_c[j], q[T[3]] + {}trig_c[j + 1], &v_[T[1]], &v_[T[2]], "
                                        "&v_[T[4]], &v_[T[5]]);\n    }}\n",
                                        n, index, prefix, prefix, prefix);
            if (!options.batch && n % 2)
                say() += fmt::format("    rbdgen_sincos(q[{}] + {}trig_c[{}], &v_[{}], &v_[{}]);\n", angles.back().q, prefix, n - 1,
                                        angles.back().sin, angles.back().cos);
            continue;
        }
        if (unit.step < 0) {
            const Statement& s = st[unit.statement];
            if (s.kind == Statement::Kind::Store && temporary(s.a) && in_step(s.a)) {
                if (s.output != home_output[s.a] || s.element != home_element[s.a])  // a second place (H's upper triangle)
                    copies[{s.output, array_of(s.a)}].insert(copies[{s.output, array_of(s.a)}].end(), {s.element, index_of(s.a)});
                continue;
            }
            if (s.kind == Statement::Kind::Store && sch.values[s.a].kind == Value::Kind::Constant && sch.values[s.a].constant == 0) {
                zeros[s.output].push_back(s.element);
                continue;
            }
            say() += printer.print(s);
            for (int id : defined_at[u]) say() += fmt::format("    v_[{}] = {};\n", slot[id], printer.var(id));
            continue;
        }
        // The step's function: its inputs (slots read, in order of first use), constants and results.
        std::map<int, int> local, input, constant;
        std::vector<int> inputs, constants, results;
        std::string key, text;
        std::set<std::string> used;  // the kernel's input arrays the step reads
        auto operand = [&](int id) -> std::string {
            if (id < 0) return "";
            if (auto it = local.find(id); it != local.end()) return fmt::format("t{}", it->second);
            if (sch.values[id].kind == Value::Kind::Constant) {
                auto [it, added] = constant.try_emplace(id, static_cast<int>(constants.size()));
                if (added) constants.push_back(id);
                return fmt::format("c_[{}]", it->second);
            }
            auto [it, added] = input.try_emplace(id, static_cast<int>(inputs.size()));
            if (added) {
                inputs.push_back(id);
                const std::string array = array_of(id);
                text += fmt::format("    const {} i{} = {}[x_[{}]];\n", type, it->second, array.empty() ? "v_" : array, it->second);
                key += "<" + array + ">";
                if (!array.empty()) used.insert(array);
            }
            return fmt::format("i{}", it->second);
        };
        for (int j : unit.statements) {
            const Statement& s = st[j];
            std::string a = operand(s.a), b = operand(s.b);
            // The graph orders a sum's or product's operands by node id, which differs from step to step:
            // constants first, then inputs, then the step's own values, each by number.
            auto rank = [](const std::string& x) { return std::make_pair(x[0] == 'c' ? 0 : x[0] == 'i' ? 1 : 2, std::stoi(x.substr(x[0] == 'c' ? 3 : 1))); };
            if ((s.op == sym::Op::Add || s.op == sym::Op::Mul) && rank(b) < rank(a)) std::swap(a, b);
            const int t = static_cast<int>(local.size());
            local[s.target] = t;
            text += fmt::format("    const {} t{} = {};\n", type, t, printer.operation(s.op, a, b));
            key += fmt::format("{}:{},{}", static_cast<int>(s.op), a, b);
            if (slotted[s.target] || home_output[s.target] >= 0) {
                results.push_back(s.target);
                const std::string array = home_output[s.target] >= 0 ? array_of(s.target) : "v_";
                text += fmt::format("    {}[x_[@{}]] = t{};\n", array, results.size() - 1, t);
                key += "!" + array;
                if (array != "v_") used.insert(array);
            }
            key += ";";
        }
        // Results' places in x follow the inputs'.
        std::string resolved;
        for (size_t p = 0; p < text.size(); ++p) {
            if (text[p] == '@') {
                size_t e = p + 1;
                while (std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
                resolved += std::to_string(inputs.size() + std::stoul(text.substr(p + 1, e - p - 1)));
                p = e - 1;
            } else {
                resolved += text[p];
            }
        }
        key = fmt::format("{} {} {}|", inputs.size(), results.size(), constants.size()) + key;
        auto [kind, added] = kinds.try_emplace(key, static_cast<int>(kinds.size()));
        const std::string name = fmt::format("{}step{}", prefix, kind->second);
        if (added) {
            out.operations += static_cast<long>(unit.statements.size());
            std::string arrays;  // every kernel's input array, named where the step reads it
            for (size_t a = 0; a < sources.size(); ++a)
                arrays += fmt::format(", {}{}* {}", a < first_output ? "const " : "", sources[a] == "sin_q" || sources[a] == "cos_q" ? "Scalar" : type,
                                      used.count(sources[a]) ? "RBDGEN_RESTRICT " + sources[a] : "");
            // v_, x_ and c_ (never a kernel array's name: frame_motion returns v, ltdl_solve x) unnamed
            // where the step does not use them: no unused-parameter warning under -Wextra -Werror
            const auto named = [&](const char* p) { return resolved.find(std::string(p) + "[") != std::string::npos ? fmt::format(" RBDGEN_RESTRICT {}", p) : std::string(); };
            functions += fmt::format("RBDGEN_NOINLINE RBDGEN_CODE void {}({}*{}, const {}*{}, const Scalar*{}{}) noexcept {{\n{}}}\n\n",
                                     name, type, named("v_"), index, named("x_"), named("c_"), arrays, resolved);
        }
        run.push_back({name, x_table.size(), c_table.size()});
        for (int id : inputs) x_table.push_back(array_of(id).empty() ? slot[id] : index_of(id));
        for (int id : results) x_table.push_back(array_of(id).empty() ? slot[id] : index_of(id));
        for (int id : constants) c_table.push_back(sch.values[id].constant);
        ++out.calls;
    }
    flush();
    for (const auto& [where, pairs] : copies)
        out.body += copy_loop(fmt::format("{}copy_{}_{}", prefix, k.outputs[where.first].name, where.second), pairs,
                              fmt::format("{}[T[j]] = {}[T[j + 1]]", k.outputs[where.first].name, where.second));
    for (const auto& [o, elements] : zeros)
        out.body += copy_loop(fmt::format("{}zero_{}", prefix, k.outputs[o].name), elements, k.outputs[o].name + (options.batch ? "[T[j]] = Batch{}" : "[T[j]] = Scalar(0)"), 1);
    out.functions = static_cast<int>(kinds.size());
    out.body = fmt::format("    {} v_[{}];\n", type, n_slots) + out.body;
    out.definitions = fmt::format("namespace {{\n\n// {} steps, {} functions; the slots each call reads and writes, and its constants.\nRBDGEN_TABLE constexpr {} {}x[] = {{{}}};\n",
                                  out.calls, out.functions, index, prefix, table(x_table, [](int s) { return std::to_string(s); }));
    if (!c_table.empty())
        out.definitions += fmt::format("RBDGEN_TABLE constexpr Scalar {}c[] = {{{}}};\n", prefix,
                                       table(c_table, [&](double c) { return scalar_literal(c, options.scalar); }));
    out.definitions += tables + "\n" + functions;
    if (!dispatch.empty()) {
        std::string params = fmt::format("{}*, const {}*, const Scalar*", type, index);
        for (size_t a = 0; a < sources.size(); ++a)
            params += fmt::format(", {}{}*", a < first_output ? "const " : "", sources[a] == "sin_q" || sources[a] == "cos_q" ? "Scalar" : type);
        const char* offset = x_table.size() <= 65535 && c_table.size() <= 65535 ? "unsigned short" : "unsigned";
        out.definitions += fmt::format("struct {}call {{\n    void (*f)({}) noexcept;\n    {} x, c;\n}};\nRBDGEN_CALLS constexpr {}call {}calls[] = {{{}}};\n\n", prefix,
                                       params, offset, prefix, prefix, table(dispatch, [&](const Call& c) { return fmt::format("{{{}, {}, {}}}", c.function, c.x, c.c); }));
    }
    out.definitions += "}  // namespace\n\n";
    return out;
}

}  // namespace rbdgen
