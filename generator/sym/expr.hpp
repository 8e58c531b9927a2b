// The symbolic scalar: every arithmetic operation on an Expr appends a node to the current
// expression graph (DESIGN.md, "the central idea"). Nodes are hash-consed, so equal subexpressions
// are shared; constants are folded, and x·0, x·1, x+0, −(−x) vanish as they are built. Running a
// reference algorithm on Expr traces it; what the outputs need is then emitted as straight-line code.
#pragma once

#include <Eigen/Core>

#include "sym/step.hpp"
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rbdgen::sym {

// Sinc ... LogRatio: the Lie groups' coefficient functions (templates/rbdgen_runtime.hpp.in,
// sym/special.hpp), each one call in the emitted code; LogRatio of two operands, the others of one.
enum class Op : std::uint8_t { Const, Input, Add, Sub, Mul, Div, Neg, Sqrt, Sin, Cos, Sinc, Cosc, Sinc3, CoscDx, Sinc3Dx, DexpInv, LogRatio };
inline bool special(Op op) { return op >= Op::Sinc; }

struct Node {
    Op op;
    int a = -1, b = -1;   // operands (node ids)
    double value = 0;     // Const
    bool opaque = false;  // Const: a model's constant kept as a value, never folded (Graph::opaque_model)
    int array = -1, index = -1;  // Input: element `index` of the kernel's input array number `array`
    int step = -1;  // the algorithm's step that made it (Step, sym/step.hpp), −1 outside every step
};

// Operation counts, subtractions and negations counted as additions (Featherstone's convention).
struct OpCounts {
    long add = 0, mul = 0, div = 0, sqrt = 0, sin = 0, cos = 0, special = 0;  // special: a coefficient function's call
    long total() const { return add + mul + div + sqrt + sin + cos + special; }
};

class Graph {
public:
    // A trace larger than this is refused (std::length_error): its straight-line code would take
    // too long to compile and be far larger than any instruction cache.
    static constexpr int default_max_nodes = 4'000'000;
    int max_nodes = default_max_nodes;
    // Keep a negative constant where it is (x + c, c x) instead of pulling its sign outward (x − |c|,
    // −(|c| x)): then the operations of a step do not depend on the signs of its constants, and steps
    // that differ only in them share a function (the compact emission, emit/compact.hpp).
    bool sign_neutral = false;
    // Keep the model's constants (ModelConstants, sym/step.hpp: placements, inertias) as values that
    // never fold, 0 and 1 included: then every body of one joint type traces to the same operations
    // and their steps share one function (the compact emission), at the price of the operations on
    // those zeros and ones. Arithmetic on constants still folds; it stays opaque if an operand was.
    bool opaque_model = false;

    int constant(double v);
    int opaque_constant(double v);
    void begin_model() { ++model_depth_; }
    void end_model() { --model_depth_; }
    int input(int array, int index);
    int make(Op op, int a, int b = -1);

    const Node& node(int id) const { return nodes_[id]; }
    int size() const { return static_cast<int>(nodes_.size()); }

    // A readable name for a node (the first one given wins), used by the emitter for its variable.
    void name(int id, const std::string& label) { labels_.try_emplace(id, label); }
    const std::string* label(int id) const {
        const auto it = labels_.find(id);
        return it == labels_.end() ? nullptr : &it->second;
    }
    // The step new nodes belong to (sym/step.hpp): begin_step opens a new one (a step opened inside
    // another suspends it; the outer one resumes as a new step, so that every step's nodes are
    // consecutive), end_step closes it. set_step: a copy of a graph gives its nodes their steps.
    void begin_step();
    void end_step();
    void set_step(int step) { step_ = step; }
    bool is_const(int id, double v) const { return nodes_[id].op == Op::Const && !nodes_[id].opaque && nodes_[id].value == v; }

    // Nodes the given outputs depend on, in creation order (the algorithm's own order).
    std::vector<int> live(const std::vector<int>& outputs) const;
    OpCounts count(const std::vector<int>& outputs) const;

    // Every node's value for the given input arrays (inputs[array][index]), in node order: the
    // generator's own numeric run of a trace (the static-pivot check evaluates a traced LU this way).
    // In float too: the arithmetic of a `--scalar float` kernel, without a compiler (emit/float_budget).
    template <class T> std::vector<T> evaluate(const std::vector<std::vector<T>>& inputs) const;
    // The same for the nodes of `order` only (ascending ids, as live() gives them: every operand
    // before its user), into `values` (one a node of the graph; the others are left as they are).
    template <class T>
    void evaluate(const std::vector<std::vector<T>>& inputs, const std::vector<int>& order, std::vector<T>& values) const;

private:
    int intern(const Node& n);
    int folded_constant(double v);
    std::vector<Node> nodes_;
    int zero_ = -1;  // the constant 0's node, once made
    int step_ = -1, next_step_ = 0, open_steps_ = 0;
    int model_depth_ = 0;  // inside ModelConstants
    std::unordered_map<int, std::string> labels_;
    struct KeyHash {
        size_t operator()(const std::tuple<int, int, int, std::uint64_t>& k) const;
    };
    std::unordered_map<std::tuple<int, int, int, std::uint64_t>, int, KeyHash> index_;
};

// The live part of `in` for `outputs`, copied into `out` (empty) with the divisions that share a
// divisor made one reciprocal and multiplications: a / d, b / d → r = 1 / d; a r, b r (a division
// costs several multiplications; Featherstone's LTDL divides a column by its pivot). Names carry over.
// Returns the outputs' ids in `out`.
std::vector<int> share_reciprocals(const Graph& in, const std::vector<int>& outputs, Graph& out);

// The graph that Expr operations append to; set for the duration of a trace.
Graph& current();
class Tracing {
public:
    explicit Tracing(Graph& g);
    ~Tracing();
    Tracing(const Tracing&) = delete;
    Tracing& operator=(const Tracing&) = delete;

private:
    Graph* previous_;
};

class Expr {
public:
    Expr() : id_(current().constant(0.0)) {}
    Expr(double v) : id_(current().constant(v)) {}  // NOLINT: constants convert implicitly, as doubles do
    static Expr from_id(int id) {
        Expr e(Raw{});
        e.id_ = id;
        return e;
    }
    static Expr input(int array, int index) { return from_id(current().input(array, index)); }
    int id() const { return id_; }

    Expr& operator+=(const Expr& o) { return *this = *this + o; }
    Expr& operator-=(const Expr& o) { return *this = *this - o; }
    Expr& operator*=(const Expr& o) { return *this = *this * o; }
    Expr& operator/=(const Expr& o) { return *this = *this / o; }
    friend Expr operator+(const Expr& x, const Expr& y) { return from_id(current().make(Op::Add, x.id_, y.id_)); }
    friend Expr operator-(const Expr& x, const Expr& y) { return from_id(current().make(Op::Sub, x.id_, y.id_)); }
    friend Expr operator*(const Expr& x, const Expr& y) { return from_id(current().make(Op::Mul, x.id_, y.id_)); }
    friend Expr operator/(const Expr& x, const Expr& y) { return from_id(current().make(Op::Div, x.id_, y.id_)); }
    friend Expr operator-(const Expr& x) { return from_id(current().make(Op::Neg, x.id_)); }
    friend Expr operator+(const Expr& x) { return x; }
    friend Expr sqrt(const Expr& x) { return from_id(current().make(Op::Sqrt, x.id_)); }
    friend Expr sin(const Expr& x) { return from_id(current().make(Op::Sin, x.id_)); }
    friend Expr cos(const Expr& x) { return from_id(current().make(Op::Cos, x.id_)); }
    // The coefficient functions of x = θ² (sym/special.hpp)
    friend Expr sinc(const Expr& x) { return from_id(current().make(Op::Sinc, x.id_)); }
    friend Expr cosc(const Expr& x) { return from_id(current().make(Op::Cosc, x.id_)); }
    friend Expr sinc3(const Expr& x) { return from_id(current().make(Op::Sinc3, x.id_)); }
    friend Expr cosc_dx(const Expr& x) { return from_id(current().make(Op::CoscDx, x.id_)); }
    friend Expr sinc3_dx(const Expr& x) { return from_id(current().make(Op::Sinc3Dx, x.id_)); }
    friend Expr dexp_inv(const Expr& x) { return from_id(current().make(Op::DexpInv, x.id_)); }
    friend Expr log_ratio(const Expr& y, const Expr& w) { return from_id(current().make(Op::LogRatio, y.id_, w.id_)); }
    // Structural equality only: the algorithms never branch on values, and Eigen only asks this of
    // constants it created itself.
    friend bool operator==(const Expr& x, const Expr& y) { return x.id_ == y.id_; }
    friend bool operator!=(const Expr& x, const Expr& y) { return x.id_ != y.id_; }

private:
    struct Raw {};
    explicit Expr(Raw) {}
    int id_ = -1;
};

}  // namespace rbdgen::sym

namespace Eigen {
template <> struct NumTraits<rbdgen::sym::Expr> : NumTraits<double> {
    using Real = rbdgen::sym::Expr;
    using NonInteger = rbdgen::sym::Expr;
    using Nested = rbdgen::sym::Expr;
    using Literal = rbdgen::sym::Expr;
    enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 1, MulCost = 1 };
};
template <typename BinaryOp>
struct ScalarBinaryOpTraits<rbdgen::sym::Expr, double, BinaryOp> {
    using ReturnType = rbdgen::sym::Expr;
};
template <typename BinaryOp>
struct ScalarBinaryOpTraits<double, rbdgen::sym::Expr, BinaryOp> {
    using ReturnType = rbdgen::sym::Expr;
};
}  // namespace Eigen
