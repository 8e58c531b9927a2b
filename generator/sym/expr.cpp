#include "sym/expr.hpp"

#include "sym/special.hpp"

#include <cmath>
#include <numeric>
#include <cstring>
#include <stdexcept>

namespace rbdgen::sym {
namespace {

thread_local Graph* g_current = nullptr;

std::uint64_t bits(double v) {
    if (v == 0.0) v = 0.0;  // +0 and −0 are one constant
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

double fold(Op op, double x, double y) {
    switch (op) {
        case Op::Add: return x + y;
        case Op::Sub: return x - y;
        case Op::Mul: return x * y;
        case Op::Div: return x / y;
        case Op::Neg: return -x;
        case Op::Sqrt: return std::sqrt(x);
        case Op::Sin: return std::sin(x);
        case Op::Cos: return std::cos(x);
        default:
            if (special(op)) return special_value(op, x, y);
            throw std::logic_error("fold: not an operation");
    }
}

bool commutative(Op op) { return op == Op::Add || op == Op::Mul; }

}  // namespace

size_t Graph::KeyHash::operator()(const std::tuple<int, int, int, std::uint64_t>& k) const {
    size_t h = std::hash<std::uint64_t>()(std::get<3>(k));
    h ^= std::hash<int>()(std::get<0>(k)) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<int>()(std::get<1>(k)) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<int>()(std::get<2>(k)) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

int Graph::intern(const Node& n) {
    const std::uint64_t payload = n.opaque ? std::uint64_t(size())  // every opaque constant a node of its own
                                  : n.op == Op::Const ? bits(n.value)
                                  : n.op == Op::Input ? (std::uint64_t(std::uint32_t(n.array)) << 32) | std::uint32_t(n.index)
                                                      : 0;
    const int kind = n.opaque ? -1 : static_cast<int>(n.op);  // an opaque constant apart from the foldable one
    const auto key = std::make_tuple(kind, n.a, n.b, payload);
    const auto [it, inserted] = index_.try_emplace(key, size());
    if (inserted) {
        if (size() >= max_nodes) {
            index_.erase(it);
            throw std::length_error("expression graph larger than Graph::max_nodes");
        }
        nodes_.push_back(n);
        nodes_.back().step = step_;
    }
    return it->second;
}

int Graph::constant(double v) { return opaque_model && model_depth_ > 0 ? opaque_constant(v) : folded_constant(v); }

int Graph::folded_constant(double v) {
    if (v == 0.0 && zero_ >= 0) return zero_;  // the commonest constant (every Expr() is one), without hashing
    Node n{Op::Const};
    n.value = v == 0.0 ? 0.0 : v;
    const int id = intern(n);
    if (v == 0.0) zero_ = id;
    return id;
}

int Graph::opaque_constant(double v) {
    Node n{Op::Const};
    n.value = v == 0.0 ? 0.0 : v;
    n.opaque = true;
    return intern(n);
}

int Graph::input(int array, int index) {
    Node n{Op::Input};
    n.array = array;
    n.index = index;
    return intern(n);
}

// Build op(a, b), simplifying as we go: constant arithmetic, identities, and signs pulled outward
// so that x − (−y), (−x)·y and the like share nodes with their positive forms.
int Graph::make(Op op, int a, int b) {
    auto is_c = [&](int id) { return nodes_[id].op == Op::Const; };
    auto opaque = [&](int id) { return nodes_[id].opaque; };
    auto negated = [&](int id) { return opaque(id) ? opaque_constant(-nodes_[id].value) : folded_constant(-nodes_[id].value); };
    auto val = [&](int id) { return nodes_[id].value; };
    auto neg_of = [&](int id) { return nodes_[id].op == Op::Neg ? nodes_[id].a : -1; };
    const bool unary = op == Op::Neg || op == Op::Sqrt || op == Op::Sin || op == Op::Cos || (special(op) && op != Op::LogRatio);
    if (unary ? is_c(a) : is_c(a) && is_c(b)) {
        const double v = fold(op, val(a), unary ? 0.0 : val(b));
        if (op == Op::Mul && (is_const(a, 0) || is_const(b, 0))) return folded_constant(0.0);
        return opaque(a) || (!unary && opaque(b)) ? opaque_constant(v) : folded_constant(v);
    }
    switch (op) {
        case Op::Add:
            if (is_const(a, 0)) return b;
            if (is_const(b, 0)) return a;
            if (neg_of(b) >= 0) return make(Op::Sub, a, neg_of(b));
            if (neg_of(a) >= 0) return make(Op::Sub, b, neg_of(a));
            if (is_c(b) && val(b) < 0 && !sign_neutral) return make(Op::Sub, a, negated(b));
            if (is_c(a) && val(a) < 0 && !sign_neutral) return make(Op::Sub, b, negated(a));
            break;
        case Op::Sub:
            if (is_const(b, 0)) return a;
            if (is_const(a, 0)) return make(Op::Neg, b);
            if (a == b) return folded_constant(0.0);
            if (neg_of(b) >= 0) return make(Op::Add, a, neg_of(b));
            if (neg_of(a) >= 0) return make(Op::Neg, make(Op::Add, neg_of(a), b));  // −x − y = −(x + y)
            break;
        case Op::Mul:
            if (is_const(a, 0) || is_const(b, 0)) return folded_constant(0.0);
            if (is_const(a, 1)) return b;
            if (is_const(b, 1)) return a;
            if (is_const(a, -1)) return make(Op::Neg, b);
            if (is_const(b, -1)) return make(Op::Neg, a);
            if (neg_of(a) >= 0) return make(Op::Neg, make(Op::Mul, neg_of(a), b));
            if (neg_of(b) >= 0) return make(Op::Neg, make(Op::Mul, a, neg_of(b)));
            if (is_c(a) && val(a) < 0 && !sign_neutral) return make(Op::Neg, make(Op::Mul, negated(a), b));
            if (is_c(b) && val(b) < 0 && !sign_neutral) return make(Op::Neg, make(Op::Mul, a, negated(b)));
            break;
        case Op::Div:
            if (is_const(a, 0)) return folded_constant(0.0);
            if (is_const(b, 1)) return a;
            if (is_const(b, -1)) return make(Op::Neg, a);
            if (neg_of(a) >= 0) return make(Op::Neg, make(Op::Div, neg_of(a), b));
            if (neg_of(b) >= 0) return make(Op::Neg, make(Op::Div, a, neg_of(b)));
            break;
        case Op::Neg:
            if (neg_of(a) >= 0) return neg_of(a);
            if (nodes_[a].op == Op::Sub) return make(Op::Sub, nodes_[a].b, nodes_[a].a);
            break;
        default: break;
    }
    if (commutative(op) && b < a) std::swap(a, b);
    return intern(Node{op, a, b});
}

void Graph::begin_step() {
    ++open_steps_;
    step_ = next_step_++;
}

void Graph::end_step() {
    if (open_steps_ == 0) throw std::logic_error("end_step without begin_step");
    step_ = --open_steps_ > 0 ? next_step_++ : -1;
}

void begin_step() { current().begin_step(); }
void end_step() { current().end_step(); }
void begin_model() { current().begin_model(); }
void end_model() { current().end_model(); }
bool opaque_model() { return current().opaque_model; }

std::vector<int> Graph::live(const std::vector<int>& outputs) const {
    std::vector<bool> needed(nodes_.size(), false);
    for (int o : outputs) needed[o] = true;
    for (int id = size() - 1; id >= 0; --id) {  // operands always precede their users
        if (!needed[id]) continue;
        if (nodes_[id].a >= 0) needed[nodes_[id].a] = true;
        if (nodes_[id].b >= 0) needed[nodes_[id].b] = true;
    }
    std::vector<int> order;
    for (int id = 0; id < size(); ++id)
        if (needed[id]) order.push_back(id);
    return order;
}

template <class T>
void Graph::evaluate(const std::vector<std::vector<T>>& inputs, const std::vector<int>& order, std::vector<T>& v) const {
    v.resize(nodes_.size());
    for (int id : order) {
        const Node& n = nodes_[id];
        const T x = n.a >= 0 ? v[n.a] : T(0), y = n.b >= 0 ? v[n.b] : T(0);
        switch (n.op) {
            case Op::Const: v[id] = static_cast<T>(n.value); break;
            case Op::Input: v[id] = inputs.at(n.array).at(n.index); break;
            case Op::Add: v[id] = x + y; break;
            case Op::Sub: v[id] = x - y; break;
            case Op::Mul: v[id] = x * y; break;
            case Op::Div: v[id] = x / y; break;
            case Op::Neg: v[id] = -x; break;
            case Op::Sqrt: v[id] = std::sqrt(x); break;
            case Op::Sin: v[id] = std::sin(x); break;
            case Op::Cos: v[id] = std::cos(x); break;
            default: v[id] = special_value(n.op, x, y); break;
        }
    }
}
template <class T> std::vector<T> Graph::evaluate(const std::vector<std::vector<T>>& inputs) const {
    std::vector<int> all(nodes_.size());
    std::iota(all.begin(), all.end(), 0);
    std::vector<T> v;
    evaluate(inputs, all, v);
    return v;
}
template std::vector<double> Graph::evaluate(const std::vector<std::vector<double>>&) const;
template std::vector<float> Graph::evaluate(const std::vector<std::vector<float>>&) const;
template void Graph::evaluate(const std::vector<std::vector<double>>&, const std::vector<int>&, std::vector<double>&) const;
template void Graph::evaluate(const std::vector<std::vector<float>>&, const std::vector<int>&, std::vector<float>&) const;

OpCounts Graph::count(const std::vector<int>& outputs) const {
    OpCounts c;
    for (int id : live(outputs)) {
        switch (nodes_[id].op) {
            case Op::Add:
            case Op::Sub:
            case Op::Neg: ++c.add; break;
            case Op::Mul: ++c.mul; break;
            case Op::Div: ++c.div; break;
            case Op::Sqrt: ++c.sqrt; break;
            case Op::Sin: ++c.sin; break;
            case Op::Cos: ++c.cos; break;
            default: c.special += special(nodes_[id].op); break;
        }
    }
    return c;
}

std::vector<int> share_reciprocals(const Graph& in, const std::vector<int>& outputs, Graph& out) {
    const std::vector<int> live = in.live(outputs);
    std::unordered_map<int, int> divisions;  // divisor → live divisions by it
    for (int id : live)
        if (in.node(id).op == Op::Div && in.node(in.node(id).b).op != Op::Const) ++divisions[in.node(id).b];
    out.sign_neutral = in.sign_neutral;
    out.opaque_model = in.opaque_model;
    std::unordered_map<int, int> to;  // old id → new id
    for (int id : live) {
        const Node& n = in.node(id);
        out.set_step(n.step);
        int m;
        switch (n.op) {
            case Op::Const: m = n.opaque ? out.opaque_constant(n.value) : out.constant(n.value); break;
            case Op::Input: m = out.input(n.array, n.index); break;
            case Op::Div:
                m = divisions.count(n.b) && divisions[n.b] > 1 ? out.make(Op::Mul, to[n.a], out.make(Op::Div, out.constant(1.0), to[n.b]))
                                                               : out.make(Op::Div, to[n.a], to[n.b]);
                break;
            default: m = out.make(n.op, to[n.a], n.b >= 0 ? to[n.b] : -1); break;
        }
        to[id] = m;
        if (const std::string* label = in.label(id)) out.name(m, *label);
    }
    out.set_step(-1);
    std::vector<int> mapped;
    for (int o : outputs) mapped.push_back(to.at(o));
    return mapped;
}

Graph& current() {
    if (!g_current) throw std::logic_error("symbolic expression used outside of a trace");
    return *g_current;
}

Tracing::Tracing(Graph& g) : previous_(g_current) { g_current = &g; }
Tracing::~Tracing() { g_current = previous_; }

}  // namespace rbdgen::sym
