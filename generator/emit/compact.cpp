#include "emit/compact.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

// compact_kernel in four steps, each a function below: cut the schedule into units (find the steps
// and group their statements), lay out the slots that carry values between units, put the joint
// angles' sines and cosines in a table, then print (a function a kind of step, the tables, the body).
namespace rbdgen {

namespace {

// What the kernel runs, in order: a call of a step's function (at the place of the step's last
// statement), or one of the kernel's own statements.
struct Unit {
    int step = -1;                // a call of this step's function, or
    int statement = -1;           // one of the kernel's statements
    std::vector<int> statements;  // a call: the step's statements (of every lane)
    // A lane call: steps of one function run side by side, each one lane of a vector (their
    // statements, in the order of the first's), padded to a power of two by repeating the last.
    std::vector<std::vector<int>> lanes;
};
struct Units {
    std::vector<int> defined_by;  // the statement defining each temporary
    std::vector<int> step_of;     // the step of each statement (−1: the kernel's own)
    std::vector<Unit> units;
    std::vector<int> unit_of_statement, unit_of_value;  // where a statement runs, where a temporary is defined
};

// The values that cross a unit's boundary: a step's result that is an output lives at its first
// place there (its home); the others get a slot of the value array v_.
struct Slots {
    std::vector<int> home_output, home_element;
    std::vector<bool> slotted;
    std::vector<int> slot;
    std::vector<std::vector<int>> defined_at, freed_after;  // a unit's slotted values, and those it reads last
    int n = 0;
};

// The joint angles' sines and cosines (q[i] + c, two angles a call) as one loop over a table of q's
// elements, offsets and the slots the results go to.
struct Angle {
    int q = -1, sin = -1, cos = -1;  // q's element, the results' slots (−1 before placing: a scratch slot)
    double offset = 0;
};
struct TrigLoop {
    std::vector<Angle> angles;
    std::set<int> statements, calls;  // the calls and the angles' sums, emitted as the loop at the first call
};

// The kernel, its schedule, and what the steps above found.
struct Compact {
    const Kernel& k;
    const Schedule& sch;
    Units u;
    Slots s;
    TrigLoop trig;

    bool temporary(int id) const { return id >= 0 && sch.values[id].kind == Value::Kind::Temporary; }
    bool slot_kind(int id) const { return id >= 0 && sch.values[id].kind != Value::Kind::Constant; }
    bool in_step(int id) const { return u.unit_of_value[id] >= 0 && u.units[u.unit_of_value[id]].step >= 0; }
    // The array a value is read from in a step (its home, or the kernel's input), or "" (a slot).
    std::string array_of(int id) const {
        const Value& x = sch.values[id];
        if (s.home_output[id] >= 0) return k.outputs[s.home_output[id]].name;
        return x.kind == Value::Kind::Input ? k.inputs[x.array].name : x.kind == Value::Kind::SinQ ? "sin_q" : x.kind == Value::Kind::CosQ ? "cos_q" : "";
    }
    int index_of(int id) const { return s.home_output[id] >= 0 ? s.home_element[id] : sch.values[id].index; }
};

// Where each statement runs and each temporary is defined, from the units (their order and their
// statements): after step 1 cuts them and after step 3 orders them again.
void index_units(const Compact& c, Units& x) {
    x.unit_of_statement.assign(c.sch.statements.size(), 0);
    for (size_t u = 0; u < x.units.size(); ++u) {
        if (x.units[u].step < 0) x.unit_of_statement[x.units[u].statement] = static_cast<int>(u);
        for (int j : x.units[u].statements) x.unit_of_statement[j] = static_cast<int>(u);
    }
    x.unit_of_value.assign(c.k.graph->size(), -1);
    for (int id = 0; id < c.k.graph->size(); ++id)
        if (c.temporary(id) && x.defined_by[id] >= 0) x.unit_of_value[id] = x.unit_of_statement[x.defined_by[id]];
}

// Step 1: the units. What the trig calls read stays in the kernel (the calls come first, two angles at
// a time); every other statement of a step (sym/step.hpp) is in that step's call. None without steps.
std::optional<Units> cut_into_units(const Compact& c) {
    const std::vector<Statement>& st = c.sch.statements;
    const sym::Graph& g = *c.k.graph;
    const int n_nodes = g.size();
    Units x;
    x.defined_by.assign(n_nodes, -1);
    for (size_t j = 0; j < st.size(); ++j) {
        const Statement& s = st[j];
        for (int t : {s.target, s.sin_a, s.cos_a, s.sin_b, s.cos_b})
            if (t >= 0 && s.kind != Statement::Kind::Store) x.defined_by[t] = static_cast<int>(j);
    }
    std::vector<bool> kernel_level(n_nodes, false);
    std::vector<int> todo;
    for (const Statement& s : st)
        if (s.kind == Statement::Kind::SinCos || s.kind == Statement::Kind::SinCos2) todo.push_back(s.a), todo.push_back(s.b);
    while (!todo.empty()) {
        const int id = todo.back();
        todo.pop_back();
        if (!c.temporary(id) || kernel_level[id]) continue;
        kernel_level[id] = true;
        if (x.defined_by[id] >= 0 && st[x.defined_by[id]].kind == Statement::Kind::Assign)
            todo.push_back(st[x.defined_by[id]].a), todo.push_back(st[x.defined_by[id]].b);
    }
    x.step_of.assign(st.size(), -1);
    std::map<int, int> last_of_step;
    for (size_t j = 0; j < st.size(); ++j)
        if (st[j].kind == Statement::Kind::Assign && !kernel_level[st[j].target] && g.node(st[j].target).step >= 0) {
            x.step_of[j] = g.node(st[j].target).step;
            last_of_step[x.step_of[j]] = static_cast<int>(j);
        }
    if (last_of_step.empty()) return std::nullopt;
    std::map<int, int> unit_of_step;
    for (size_t j = 0; j < st.size(); ++j) {
        if (x.step_of[j] < 0) {
            x.units.push_back({-1, static_cast<int>(j), {}});
        } else if (last_of_step[x.step_of[j]] == static_cast<int>(j)) {
            unit_of_step[x.step_of[j]] = static_cast<int>(x.units.size());
            x.units.push_back({x.step_of[j], -1, {}});
        }
    }
    for (size_t j = 0; j < st.size(); ++j)
        if (x.step_of[j] >= 0) x.units[unit_of_step[x.step_of[j]]].statements.push_back(static_cast<int>(j));
    index_units(c, x);
    return x;
}

// Step 2: the values that cross a step's boundary: a step's results read elsewhere, and the kernel's
// own temporaries read by a step. A step reads the kernel's inputs from their arrays, and writes a
// result that is an output into its output array (its home), where later steps read it; the others
// get a slot of the value array (step 4).
void find_crossings(Compact& c) {
    const std::vector<Statement>& st = c.sch.statements;
    const int n_nodes = c.k.graph->size();
    const std::vector<Unit>& units = c.u.units;
    Slots& s = c.s;
    s.home_output.assign(n_nodes, -1), s.home_element.assign(n_nodes, -1);
    for (const Statement& t : st)
        if (t.kind == Statement::Kind::Store && c.temporary(t.a) && c.in_step(t.a) && s.home_output[t.a] < 0)
            s.home_output[t.a] = t.output, s.home_element[t.a] = t.element;
    s.slotted.assign(n_nodes, false);
    for (size_t j = 0; j < st.size(); ++j) {
        const int u = c.u.unit_of_statement[j];
        for (int x : {st[j].a, st[j].b}) {
            if (!c.slot_kind(x) || st[j].kind == Statement::Kind::TurnedTrig) continue;
            if (c.u.unit_of_value[x] > u) throw std::logic_error("compact emission of " + c.k.name + ": steps interleave");
            const bool crossing = units[u].step >= 0 ? c.u.unit_of_value[x] != u
                                                     : c.u.unit_of_value[x] >= 0 && units[c.u.unit_of_value[x]].step >= 0;
            if (crossing && c.array_of(x).empty()) s.slotted[x] = true;
        }
    }
}

// Step 2b: one step's function text (printed in step 6). Its inputs are the values it reads (x_[0..]: slots or array
// elements, in order of first use), its constants (c_[..]) and its results (x_ after the inputs); its
// key, the text up to the values of constants and places, is what steps of one function share.
// With lanes > 1, a lane call's function: every value a vector of `lanes` steps' values (x_ and c_
// by entry, then lane): an input gathered, or one load where `whole` says its lanes are consecutive
// slots (a block of a lane call before); a result one store into its block, an output's scattered;
// a constant one load.
struct StepFunction {
    std::string key, text;
    std::vector<int> inputs, constants, results;
    std::set<std::string> used;  // the arrays the step reads or writes: the kernel's, and v_, x_ and c_
};
StepFunction step_function(const Compact& c, const std::vector<int>& statements, const StatementPrinter& printer, const char* type,
                           int lanes = 1, const std::vector<bool>& whole = {}) {
    const std::vector<Statement>& st = c.sch.statements;
    StepFunction f;
    std::map<int, int> local, input, constant;
    std::string text;
    const auto gathered = [lanes](const std::string& array, int entry) {  // entry's value of every lane
        std::string x;
        for (int l = 0; l < lanes; ++l) x += fmt::format("{}{}[{}]", l ? ", " : "", array, entry * lanes + l);
        return "{" + x + "}";
    };
    auto operand = [&](int id) -> std::string {
        if (id < 0) return "";
        if (auto it = local.find(id); it != local.end()) return fmt::format("t{}", it->second);
        if (c.sch.values[id].kind == Value::Kind::Constant) {
            auto [it, added] = constant.try_emplace(id, static_cast<int>(f.constants.size()));
            if (added) {
                f.constants.push_back(id);
                f.used.insert("c_");
                if (lanes > 1) text += fmt::format("    const L k{} = {};\n", it->second, gathered("c_", it->second));
            }
            return fmt::format("c_[{}]", it->second);
        }
        auto [it, added] = input.try_emplace(id, static_cast<int>(f.inputs.size()));
        if (added) {
            f.inputs.push_back(id);
            const std::string array = c.array_of(id).empty() ? "v_" : c.array_of(id);
            std::string read = fmt::format("{}[x_[{}]]", array, it->second);
            if (lanes > 1 && it->second < static_cast<int>(whole.size()) && whole[it->second]) {
                read = fmt::format("rbdgen_lanes_load<L>(v_ + x_[{}])", it->second * lanes);
            } else if (lanes > 1) {
                read.clear();
                for (int l = 0; l < lanes; ++l) read += fmt::format("{}{}[x_[{}]]", l ? ", " : "", array, it->second * lanes + l);
                read = "{" + read + "}";
            }
            text += fmt::format("    const {} i{} = {};\n", type, it->second, read);
            f.key += "<" + c.array_of(id) + ">";
            f.used.insert({array, "x_"});
        }
        return fmt::format("i{}", it->second);
    };
    const auto local_name = [lanes](const std::string& x) { return lanes > 1 && x[0] == 'c' ? "k" + x.substr(3, x.size() - 4) : x; };
    for (int j : statements) {
        const Statement& s = st[j];
        std::string a = operand(s.a), b = operand(s.b);
        // The graph orders a sum's or product's operands by node id, which differs from step to step:
        // constants first, then inputs, then the step's own values, each by number.
        auto rank = [](const std::string& x) { return std::make_pair(x[0] == 'c' ? 0 : x[0] == 'i' ? 1 : 2, std::stoi(x.substr(x[0] == 'c' ? 3 : 1))); };
        if ((s.op == sym::Op::Add || s.op == sym::Op::Mul) && rank(b) < rank(a)) std::swap(a, b);
        const int t = static_cast<int>(local.size());
        local[s.target] = t;
        text += fmt::format("    const {} t{} = {};\n", type, t, printer.operation(s.op, local_name(a), b.empty() ? b : local_name(b)));
        f.key += fmt::format("{}:{},{}", static_cast<int>(s.op), a, b);
        if (c.s.slotted[s.target] || c.s.home_output[s.target] >= 0) {
            f.results.push_back(s.target);
            const std::string array = c.s.home_output[s.target] >= 0 ? c.array_of(s.target) : "v_";
            if (lanes > 1 && array == "v_")
                text += fmt::format("    rbdgen_lanes_store(v_ + x_[@{}.0], t{});\n", f.results.size() - 1, t);
            else
                for (int l = 0; l < lanes; ++l)
                    text += lanes > 1 ? fmt::format("    {}[x_[@{}.{}]] = t{}[{}];\n", array, f.results.size() - 1, l, t, l)
                                      : fmt::format("    {}[x_[@{}]] = t{};\n", array, f.results.size() - 1, t);
            f.key += "!" + array;
            f.used.insert({array, "x_"});
        }
        f.key += ";";
    }
    // Results' places in x follow the inputs' (@result.lane).
    const auto number = [&text](size_t& e) {
        const size_t from = e;
        while (std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
        return std::stoul(text.substr(from, e - from));
    };
    for (size_t p = 0; p < text.size(); ++p) {
        if (text[p] == '@') {
            size_t e = p + 1;
            const size_t entry = f.inputs.size() + number(e), lane = text[e] == '.' ? number(++e) : 0;
            f.text += std::to_string(entry * lanes + lane);
            p = e - 1;
        } else {
            f.text += text[p];
        }
    }
    f.key = fmt::format("{} {} {}|", f.inputs.size(), f.results.size(), f.constants.size()) + f.key;
    return f;
}

// Step 3: lane calls (SIMD within one state). Steps of one function of which none reads another's
// values (a body of each of the four limbs) run as one call whose every value is a vector, a step a
// lane. The units are scheduled again, in their order, except that a step takes with it the steps of
// its function whose values are all defined at that point, up to kMaxLanes, where that pays
// (kMinLanes of them, and at least as many operations as values gathered and scattered). A square
// root stays a step's own: it has no vector form here.
void group_lanes(Compact& c, const EmitOptions& options) {
    if (!options.lanes || options.batch || options.call_tables) return;  // a Batch value already holds W states; uniform: least code
    const std::vector<Statement>& st = c.sch.statements;
    std::vector<Unit>& units = c.u.units;
    const int n = static_cast<int>(units.size());
    const StatementPrinter printer(c.k, c.sch, options);
    std::vector<std::string> key(n);
    for (int u = 0; u < n; ++u) {
        if (units[u].step < 0) continue;
        bool vector_ops = true;
        for (int j : units[u].statements) vector_ops = vector_ops && st[j].op != sym::Op::Sqrt && !sym::special(st[j].op);
        const StepFunction f = step_function(c, units[u].statements, printer, "Scalar");
        if (vector_ops && units[u].statements.size() >= f.inputs.size() + f.results.size()) key[u] = f.key;
    }
    std::vector<std::vector<int>> readers(n);  // the units reading a unit's values
    std::vector<int> waiting(n, 0);            // a unit's reads of values not yet defined
    for (size_t j = 0; j < st.size(); ++j) {
        const int u = c.u.unit_of_statement[j];
        for (int x : {st[j].a, st[j].b})
            if (x >= 0 && c.u.unit_of_value[x] >= 0 && c.u.unit_of_value[x] != u) readers[c.u.unit_of_value[x]].push_back(u), ++waiting[u];
    }
    std::set<int> ready;
    for (int u = 0; u < n; ++u)
        if (waiting[u] == 0) ready.insert(u);
    std::vector<Unit> order;
    while (!ready.empty()) {
        const int first = *ready.begin();
        std::vector<int> group{first};
        if (!key[first].empty())
            for (int u : ready)
                if (u != first && key[u] == key[first] && static_cast<int>(group.size()) < kMaxLanes) group.push_back(u);
        if (static_cast<int>(group.size()) < kMinLanes) group.resize(1);
        for (int u : group) ready.erase(u);
        Unit unit = units[first];
        if (group.size() > 1) {
            unit.statements.clear();
            for (int u : group) {
                unit.lanes.push_back(units[u].statements);
                unit.statements.insert(unit.statements.end(), units[u].statements.begin(), units[u].statements.end());
            }
            while (unit.lanes.size() & (unit.lanes.size() - 1)) unit.lanes.push_back(unit.lanes.back());
        }
        order.push_back(std::move(unit));
        for (int u : group)
            for (int r : readers[u])
                if (--waiting[r] == 0) ready.insert(r);
    }
    if (static_cast<int>(order.size()) == n) return;  // no lane call: the order is the one given
    units = std::move(order);
    index_units(c, c.u);
}

// A step's results, in the order its function writes them: what crosses its boundary.
std::vector<int> step_results(const Compact& c, const std::vector<int>& statements) {
    std::vector<int> r;
    for (int j : statements) {
        const int t = c.sch.statements[j].target;
        if (c.s.slotted[t] || c.s.home_output[t] >= 0) r.push_back(t);
    }
    return r;
}

// Step 4: the slots, by linear scan in the order the units run: a value's slot is free again after
// its last reader (never at the unit that defines another value: a step, or a lane call's every
// lane, writes its results while it reads). A lane call's result is a block of kMaxLanes slots, lane
// l its l-th (a repeated lane's a scratch place), from blocks after the single slots: so that the
// lane call of the next bodies reads it as one vector.
void lay_out_slots(Compact& c) {
    const std::vector<Statement>& st = c.sch.statements;
    const int n_nodes = c.k.graph->size();
    const std::vector<Unit>& units = c.u.units;
    Slots& s = c.s;
    std::vector<int> last_use(n_nodes, -1);
    for (size_t j = 0; j < st.size(); ++j)
        for (int x : {st[j].a, st[j].b})
            if (x >= 0 && s.slotted[x] && st[j].kind != Statement::Kind::TurnedTrig) {
                if (c.u.unit_of_value[x] > c.u.unit_of_statement[j]) throw std::logic_error("compact emission of " + c.k.name + ": a value read before its step");
                last_use[x] = std::max(last_use[x], c.u.unit_of_statement[j]);
            }
    std::vector<int> block_of(n_nodes, -1), lane_of(n_nodes, -1);
    std::vector<std::vector<std::vector<int>>> blocks_at(units.size()), blocks_freed_after(units.size());
    for (size_t u = 0; u < units.size(); ++u) {
        const std::vector<std::vector<int>>& lanes = units[u].lanes;
        if (lanes.size() < 2) continue;
        std::vector<std::vector<int>> results;
        for (const std::vector<int>& lane : lanes) results.push_back(step_results(c, lane));
        for (size_t i = 0; i < results[0].size(); ++i) {
            if (!s.slotted[results[0][i]]) continue;  // an output's element
            std::vector<int> block;
            int last = -1;
            for (size_t l = 0; l < lanes.size(); ++l) {
                block.push_back(results[l][i]);
                last = std::max(last, last_use[results[l][i]]);
                if (lane_of[results[l][i]] < 0) lane_of[results[l][i]] = static_cast<int>(l);
            }
            blocks_at[u].push_back(block);
            blocks_freed_after[last].push_back(block);
        }
    }
    s.defined_at.assign(units.size(), {}), s.freed_after.assign(units.size(), {});
    for (int id = 0; id < n_nodes; ++id) {
        if (!s.slotted[id]) continue;
        s.defined_at[c.u.unit_of_value[id]].push_back(id);
        if (lane_of[id] < 0) s.freed_after[last_use[id]].push_back(id);
    }
    s.slot.assign(n_nodes, -1);
    std::vector<int> free_slots, free_blocks;
    int blocks = 0;
    for (size_t u = 0; u < units.size(); ++u) {
        for (int id : s.defined_at[u]) {
            if (lane_of[id] >= 0) continue;
            if (free_slots.empty()) {
                s.slot[id] = s.n++;
            } else {
                s.slot[id] = free_slots.back();
                free_slots.pop_back();
            }
        }
        for (const std::vector<int>& block : blocks_at[u]) {
            int b = blocks;
            if (free_blocks.empty()) {
                ++blocks;
            } else {
                b = free_blocks.back();
                free_blocks.pop_back();
            }
            for (int id : block) block_of[id] = b;
        }
        for (int id : s.freed_after[u]) free_slots.push_back(s.slot[id]);
        for (const std::vector<int>& block : blocks_freed_after[u]) free_blocks.push_back(block_of[block[0]]);
    }
    for (int id = 0; id < n_nodes; ++id)
        if (lane_of[id] >= 0) s.slot[id] = s.n + block_of[id] * kMaxLanes + lane_of[id];
    s.n += blocks * kMaxLanes;
}

// Step 5: the trig table, where every angle is q[i] or q[i] + c read only by its call, and every
// result only by steps (a few bytes a call instead of its straight-line statements and copies into
// slots); else none (the calls are the kernel's own statements). The results' slots are placed, an
// unneeded one in a scratch slot.
TrigLoop trig_loop(Compact& c, const EmitOptions& options) {
    const std::vector<Statement>& st = c.sch.statements;
    const int n_nodes = c.k.graph->size();
    TrigLoop t;
    std::vector<int> reads(n_nodes, 0);  // by the kernel's own statements, and by all
    std::vector<int> kernel_reads(n_nodes, 0);
    for (size_t j = 0; j < st.size(); ++j)
        for (int x : {st[j].a, st[j].b})
            if (x >= 0) ++reads[x], kernel_reads[x] += c.u.step_of[j] < 0;
    const int q_array = [&] {
        for (size_t a = 0; a < c.k.inputs.size(); ++a)
            if (c.k.inputs[a].name == "q") return static_cast<int>(a);
        return -1;
    }();
    bool loop = !options.precomputed_trig && q_array >= 0;
    const auto result = [&](int id) {  // a slot, or −1 (scratch) for an unneeded result
        if (id < 0) return -1;
        if (!c.s.slotted[id] || kernel_reads[id] > 0) loop = false;
        return id;
    };
    const auto q_element = [&](int id) {
        const Value& v = c.sch.values[id];
        return v.kind == Value::Kind::Input && v.array == q_array ? v.index : -1;
    };
    for (size_t j = 0; j < st.size() && loop; ++j) {
        const Statement& call = st[j];
        if (call.kind != Statement::Kind::SinCos && call.kind != Statement::Kind::SinCos2) continue;
        t.statements.insert(static_cast<int>(j)), t.calls.insert(static_cast<int>(j));
        for (const auto& [angle, sin, cos] : {std::array<int, 3>{call.a, call.sin_a, call.cos_a}, std::array<int, 3>{call.b, call.sin_b, call.cos_b}}) {
            if (angle < 0) continue;
            Angle a{-1, result(sin), result(cos), 0};
            if (q_element(angle) >= 0) {
                a.q = q_element(angle);
            } else if (c.temporary(angle) && c.u.defined_by[angle] >= 0 && reads[angle] == 1) {
                const Statement& sum = st[c.u.defined_by[angle]];
                if (sum.kind == Statement::Kind::Assign && sum.op == sym::Op::Add) {
                    for (const auto& [x, k] : {std::pair{sum.a, sum.b}, std::pair{sum.b, sum.a}})
                        if (x >= 0 && k >= 0 && q_element(x) >= 0 && c.sch.values[k].kind == Value::Kind::Constant)
                            a.q = q_element(x), a.offset = c.sch.values[k].constant;
                    t.statements.insert(c.u.defined_by[angle]);
                }
            }
            if (a.q < 0) loop = false;
            t.angles.push_back(a);
        }
    }
    // The loop writes every result at the first call's place: no step may run, nor any slot be
    // freed (and taken again by a later result), between the first call and the last.
    if (loop && !t.calls.empty()) {
        const int first = c.u.unit_of_statement[*t.calls.begin()], last = c.u.unit_of_statement[*t.calls.rbegin()];
        for (int u = first; u < last && loop; ++u) loop = c.u.units[u].step < 0 && c.s.freed_after[u].empty();
    }
    if (!loop) return {};
    int scratch = -1;  // where an unneeded sine or cosine goes
    for (Angle& a : t.angles)
        for (int* r : {&a.sin, &a.cos}) {
            if (*r < 0 && scratch < 0) scratch = c.s.n++;
            *r = *r < 0 ? scratch : c.s.slot[*r];
        }
    return t;
}

// Step 6b: the trig loop's statements, at the first call's place, and its tables.
std::string trig_loop_text(const TrigLoop& t, const EmitOptions& options, const std::string& prefix, const char* index,
                           std::string& tables) {
    std::vector<int> entries;
    std::vector<double> offsets;
    for (const Angle& a : t.angles) entries.insert(entries.end(), {a.q, a.sin, a.cos}), offsets.push_back(a.offset);
    tables += int_table(index, prefix + "trig", entries);
    tables += fmt::format("RBDGEN_TABLE constexpr Scalar {}trig_c[] = {{{}}};\n", prefix,
                          table_entries(offsets, [&](double c) { return scalar_literal(c, options.scalar); }));
    const size_t n = t.angles.size();
    std::string text;
    if (options.batch)  // a Batch call already takes W angles
        text += fmt::format("    for (int j = 0; j < {}; ++j) {{\n        const {}* T = {}trig + 3 * j;\n"
                            "        rbdgen_sincos(q[T[0]] + {}trig_c[j], &v_[T[1]], &v_[T[2]]);\n    }}\n",
                            n, index, prefix, prefix);
    else
        text += fmt::format("    for (int j = 0; j + 1 < {}; j += 2) {{\n        const {}* T = {}trig + 3 * j;\n"
                            "        rbdgen_sincos2(q[T[0]] + {}trig_c[j], q[T[3]] + {}trig_c[j + 1], &v_[T[1]], &v_[T[2]], "
                            "&v_[T[4]], &v_[T[5]]);\n    }}\n",
                            n, index, prefix, prefix, prefix);
    if (!options.batch && n % 2)
        text += fmt::format("    rbdgen_sincos(q[{}] + {}trig_c[{}], &v_[{}], &v_[{}]);\n", t.angles.back().q, prefix, n - 1,
                            t.angles.back().sin, t.angles.back().cos);
    return text;
}

// Step 6c: the kernel's body, its step functions and tables. Units are printed in order: a step's call
// (its function defined at the first step of its kind), or one of the kernel's own statements, except
// the stores that become tables: copies of a value to a second place, and zeros.
class Printer {
public:
    Printer(const Compact& c, const EmitOptions& options, const std::string& prefix)
        : c_(c), o_(options), prefix_(prefix), type_(options.batch ? "Batch" : "Scalar"), printer_(c.k, c.sch, options),
          filled_(zero_filled(c.k, c.sch)) {
        int largest = c.s.n;  // the tables' index type: before the scratch slot, as it always was
        for (const auto* arrays : {&c.k.inputs, &c.k.outputs})
            for (const KernelArray& a : *arrays) largest = std::max(largest, a.size());
        index_ = largest <= 65535 ? "unsigned short" : "unsigned";
        printer_.elsewhere = [&c](int id) {
            return !c.in_step(id) ? std::string() : c.s.home_output[id] >= 0 ? fmt::format("{}[{}]", c.array_of(id), c.index_of(id)) : fmt::format("v_[{}]", c.s.slot[id]);
        };
        if (o_.precomputed_trig) sources_ = {"sin_q", "cos_q"};
        for (const KernelArray& a : c.k.inputs) sources_.push_back(a.name);
        first_output_ = sources_.size();
        for (const KernelArray& a : c.k.outputs) sources_.push_back(a.name);
        const std::vector<bool> named = arrays_named(c.k);  // an array the kernel leaves unnamed is passed on as nullptr
        for (size_t a = 0; a < sources_.size(); ++a) {
            const size_t kernel_array = a - (o_.precomputed_trig ? 2 : 0);
            call_arrays_ += ", " + (a < sources_.size() - named.size() || named[kernel_array] ? sources_[a] : std::string("nullptr"));
        }
        out_.slots = c.s.n;
    }

    void unit(size_t u) {
        const Unit& unit = c_.u.units[u];
        if (unit.step >= 0) return call(unit);
        if (c_.trig.statements.count(unit.statement)) {
            if (unit.statement == *c_.trig.calls.begin()) say() += trig_loop_text(c_.trig, o_, prefix_, index_, tables_);
            return;
        }
        const Statement& s = c_.sch.statements[unit.statement];
        if (s.kind == Statement::Kind::Store && c_.temporary(s.a) && c_.in_step(s.a)) {
            if (s.output != c_.s.home_output[s.a] || s.element != c_.s.home_element[s.a]) {  // a second place (H's upper triangle)
                std::vector<int>& pairs = copies_[{s.output, c_.array_of(s.a)}];
                pairs.insert(pairs.end(), {s.element, c_.index_of(s.a)});
            }
            return;
        }
        if (zero_store(s, c_.sch)) {
            if (!filled_[s.output]) zeros_[s.output].push_back(s.element);
            return;
        }
        say() += printer_.print(s);
        for (int id : c_.s.defined_at[u]) say() += fmt::format("    v_[{}] = {};\n", c_.s.slot[id], printer_.var(id));
    }

    CompactKernel finish() {
        flush();
        for (const auto& [where, pairs] : copies_)
            out_.body += copy_loop(fmt::format("{}copy_{}_{}", prefix_, c_.k.outputs[where.first].name, where.second), pairs,
                                   fmt::format("{}[T[j]] = {}[T[j + 1]]", c_.k.outputs[where.first].name, where.second), 2);
        for (const auto& [o, elements] : zeros_)
            out_.body += copy_loop(fmt::format("{}zero_{}", prefix_, c_.k.outputs[o].name), elements,
                                   c_.k.outputs[o].name + (o_.batch ? "[T[j]] = Batch{}" : "[T[j]] = Scalar(0)"), 1);
        out_.functions = static_cast<int>(kinds_.size());
        out_.body = fmt::format("    {} v_[{}];\n", type_, c_.s.n) + zero_fill(c_.k, filled_, o_.batch) + out_.body;
        out_.definitions = fmt::format("namespace {{\n\n// {} steps, {} functions; the slots each call reads and writes, and its constants.\n{}",
                                       out_.calls, out_.functions, int_table(index_, prefix_ + "x", x_table_));
        if (!c_table_.empty())
            out_.definitions += fmt::format("RBDGEN_TABLE constexpr Scalar {}c[] = {{{}}};\n", prefix_,
                                            table_entries(c_table_, [&](double x) { return scalar_literal(x, o_.scalar); }));
        out_.definitions += tables_ + "\n" + functions_ + call_table() + "}  // namespace\n\n";
        return std::move(out_);
    }

private:
    // A step: its function, the first time one of its kind is met, and a call with its places in x and
    // c (a lane call's by entry, then lane).
    void call(const Unit& unit) {
        const int lanes = unit.lanes.empty() ? 1 : static_cast<int>(unit.lanes.size());
        std::vector<StepFunction> lane;  // each lane's step, for its places
        for (int l = 0; l < lanes; ++l) lane.push_back(step_function(c_, lanes > 1 ? unit.lanes[l] : unit.statements, printer_, type_));
        std::vector<bool> whole;  // inputs whose lanes are consecutive slots (lane calls' blocks)
        std::string wholes;
        for (size_t i = 0; lanes > 1 && i < lane[0].inputs.size(); ++i) {
            bool w = true;
            for (int l = 0; l < lanes; ++l) {
                const int id = lane[l].inputs[i];
                w = w && c_.array_of(id).empty() && c_.s.slot[id] == c_.s.slot[lane[0].inputs[i]] + l;
            }
            whole.push_back(w);
            wholes += w ? 'w' : '.';
        }
        const StepFunction f = lanes > 1 ? step_function(c_, unit.lanes[0], printer_, "L", lanes, whole) : lane[0];
        auto [kind, added] = kinds_.try_emplace(fmt::format("{} lanes {} ", lanes, wholes) + f.key, static_cast<int>(kinds_.size()));
        const std::string name = fmt::format("{}step{}", prefix_, kind->second);
        if (added) {
            out_.operations += static_cast<long>(lanes > 1 ? unit.lanes[0].size() : unit.statements.size());
            functions_ += function_text(name, f, lanes);
        }
        run_.push_back({name, x_table_.size(), c_table_.size()});
        const auto place = [&](int id) { return c_.array_of(id).empty() ? c_.s.slot[id] : c_.index_of(id); };
        for (size_t i = 0; i < f.inputs.size(); ++i)
            for (const StepFunction& x : lane) x_table_.push_back(place(x.inputs[i]));
        for (size_t i = 0; i < f.results.size(); ++i)
            for (int l = 0; l < lanes; ++l)  // a lane call's block: lane l at its l-th slot
                x_table_.push_back(lanes > 1 && c_.array_of(f.results[i]).empty() ? place(lane[0].results[i]) + l : place(lane[l].results[i]));
        for (size_t i = 0; i < f.constants.size(); ++i)
            for (const StepFunction& x : lane) c_table_.push_back(c_.sch.values[x.constants[i]].constant);
        out_.calls += lanes > 1 ? static_cast<int>(std::set<std::vector<int>>(unit.lanes.begin(), unit.lanes.end()).size()) : 1;
        out_.lane_calls += lanes > 1;
        ++out_.invocations;
    }
    std::string function_text(const std::string& name, const StepFunction& f, int lanes) const {
        std::string arrays;  // every kernel's array, named where the step reads or writes it
        for (size_t a = 0; a < sources_.size(); ++a)
            arrays += fmt::format(", {}{}* {}", a < first_output_ ? "const " : "", element_type(a),
                                  f.used.count(sources_[a]) ? "RBDGEN_RESTRICT " + sources_[a] : "");
        // v_, x_ and c_ (never a kernel array's name: frame_motion returns v, ltdl_solve x) unnamed
        // where the step does not use them: no unused-parameter warning under -Wextra -Werror.
        const auto named_if_used = [&](const char* p) { return f.used.count(p) ? fmt::format(" RBDGEN_RESTRICT {}", p) : std::string(); };
        const std::string lane_type = lanes > 1 ? fmt::format("    typedef rbdgen_lanes<Scalar, {}>::type L;\n", lanes) : "";
        return fmt::format("RBDGEN_NOINLINE RBDGEN_CODE void {}({}*{}, const {}*{}, const Scalar*{}{}) noexcept {{\n{}{}}}\n\n",
                           name, type_, named_if_used("v_"), index_, named_if_used("x_"), named_if_used("c_"), arrays, lane_type, f.text);
    }
    const char* element_type(size_t a) const { return sources_[a] == "sin_q" || sources_[a] == "cos_q" ? "Scalar" : type_; }

    // The calls since the last of the kernel's own statements: with call tables (--emission uniform),
    // a run of kCallTableRun calls or more is one loop over a table of the functions and their offsets
    // in x and c (a few bytes of data a call instead of its call site).
    void flush() {
        if (o_.call_tables && static_cast<int>(run_.size()) >= kCallTableRun) {
            out_.body += fmt::format("    for (int j = {}; j < {}; ++j) {{\n        const auto& s = {}calls[j];\n        s.f(v_, {}x + s.x, {}{});\n    }}\n",
                                     dispatch_.size(), dispatch_.size() + run_.size(), prefix_, prefix_, c_at("s.c"), call_arrays_);
            dispatch_.insert(dispatch_.end(), run_.begin(), run_.end());
        } else {
            for (const Call& call : run_)
                out_.body += fmt::format("    {}(v_, {}x + {}, {}{});\n", call.function, prefix_, call.x, c_at(std::to_string(call.c)), call_arrays_);
        }
        run_.clear();
    }
    std::string c_at(const std::string& offset) const { return c_table_.empty() ? std::string("nullptr") : prefix_ + "c + " + offset; }
    std::string& say() {  // the kernel's own statements, after the calls before them
        flush();
        return out_.body;
    }
    std::string call_table() const {
        if (dispatch_.empty()) return "";
        std::string params = fmt::format("{}*, const {}*, const Scalar*", type_, index_);
        for (size_t a = 0; a < sources_.size(); ++a) params += fmt::format(", {}{}*", a < first_output_ ? "const " : "", element_type(a));
        const char* offset = x_table_.size() <= 65535 && c_table_.size() <= 65535 ? "unsigned short" : "unsigned";
        return fmt::format("struct {}call {{\n    void (*f)({}) noexcept;\n    {} x, c;\n}};\nRBDGEN_CALLS constexpr {}call {}calls[] = {{{}}};\n\n", prefix_, params,
                           offset, prefix_, prefix_, table_entries(dispatch_, [&](const Call& call) { return fmt::format("{{{}, {}, {}}}", call.function, call.x, call.c); }));
    }
    // A loop over a table of (element, element read) pairs (stride 2) or elements (stride 1).
    std::string copy_loop(const std::string& name, const std::vector<int>& entries, const std::string& statement, int stride) {
        tables_ += int_table(index_, name, entries);
        return fmt::format("    for (int j = 0; j < {}; j += {}) {{\n        const {}* T = {};\n        {};\n    }}\n", entries.size(), stride,
                           index_, name, statement);
    }

    struct Call {
        std::string function;
        size_t x, c;
    };
    const Compact& c_;
    const EmitOptions& o_;
    const std::string& prefix_;
    const char* type_;
    const char* index_;
    StatementPrinter printer_;
    std::vector<std::string> sources_;  // the kernel's arrays, as every step function takes them
    size_t first_output_ = 0;
    std::string call_arrays_;
    CompactKernel out_;
    std::map<std::string, int> kinds_;  // a step's operations (its function's key) → the function
    std::vector<int> x_table_;
    std::vector<double> c_table_;
    std::string functions_, tables_;
    std::map<std::pair<int, std::string>, std::vector<int>> copies_;  // (output, array read) → element, element read, ...
    std::map<int, std::vector<int>> zeros_;                             // output → elements (one not filled whole)
    std::vector<bool> filled_;                                          // outputs filled whole first (zero_filled)
    std::vector<Call> run_, dispatch_;
};

}  // namespace

std::optional<CompactKernel> compact_kernel(const Kernel& k, const EmitOptions& options, const std::string& prefix) {
    const Schedule sch = schedule(k, options.precomputed_trig, Stores::AtEnd);
    Compact c{k, sch, {}, {}, {}};
    std::optional<Units> units = cut_into_units(c);
    if (!units) return std::nullopt;
    c.u = std::move(*units);
    find_crossings(c);
    group_lanes(c, options);
    lay_out_slots(c);
    c.trig = trig_loop(c, options);
    Printer printer(c, options, prefix);
    for (size_t u = 0; u < c.u.units.size(); ++u) printer.unit(u);
    return printer.finish();
}

}  // namespace rbdgen
