#include "sparse/analysis.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_map>

#include "model/error.hpp"
#include "sparse/constant_pivots.hpp"
#include "sparse/ordering.hpp"

namespace rbdgen {
namespace {

// The problem traced once on the symbolic scalar; input arrays numbered as the problem kernels'
// (q, qd, the problem's inputs, gravity).
struct TracedSystem {
    sym::Graph g;
    MatX<sym::Expr> D;
    std::vector<int> sizes;  // of the input arrays
};

std::vector<VecX<sym::Expr>> symbolic_inputs(const std::vector<int>& sizes) {
    std::vector<VecX<sym::Expr>> in;
    for (size_t a = 0; a < sizes.size(); ++a) {
        VecX<sym::Expr> x(sizes[a]);
        for (int i = 0; i < sizes[a]; ++i) x[i] = sym::Expr::input(static_cast<int>(a), i);
        in.push_back(x);
    }
    return in;
}

std::vector<int> input_sizes(const Model& model, const Problem& p) {
    std::vector<int> sizes{model.nq, model.nv};
    for (const ProblemInput& i : p.inputs) sizes.push_back(i.size());
    sizes.push_back(3);
    return sizes;
}

// Runs the problem's solve on the symbolic scalar with `lu`: the fused kernel's operations.
long fused_operations(const Model& model, const ProblemAnalysis& a) {
    sym::Graph g;
    sym::Tracing tracing(g);
    const std::vector<VecX<sym::Expr>> in = symbolic_inputs(input_sizes(model, a.problem));
    const std::vector<VecX<sym::Expr>> known(in.begin() + 2, in.end() - 1);
    const VecX<sym::Expr> d = solve_problem<sym::Expr>(model, a, in[0], in[1], Vec3<sym::Expr>(in.back()), known);
    const VecX<sym::Expr> wanted = wanted_of(a.problem, d);
    std::vector<int> out;
    for (const sym::Expr& w : wanted) out.push_back(w.id());
    return g.count(out).total();
}

// Joint positions for the pivot check: every fourth state has each revolute joint's angle (its
// offset included) at a multiple of π/2, every fourth half of them, the rest are uniform; a
// floating base or ball joint turns by multiples of π/2 about x, y and z in the first kind.
VecX<double> check_state(const Model& model, int s, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-M_PI, M_PI);
    std::uniform_int_distribution<int> quarter(-2, 2);
    VecX<double> q(model.nq);
    const int kind = s % 4;
    for (const Body& b : model.bodies) {
        const bool right_angles = kind == 0 || (kind == 1 && rng() % 2);
        switch (b.joint.type) {
            case JointType::Revolute:
                q[b.q_index] = right_angles ? quarter(rng) * M_PI / 2 - b.joint.offset : u(rng);
                break;
            case JointType::Prismatic: q[b.q_index] = right_angles ? 0.0 : u(rng) / 3; break;
            case JointType::Floating:
            case JointType::Ball: {
                Eigen::Quaterniond r;
                if (right_angles)
                    r = Eigen::AngleAxisd(quarter(rng) * M_PI / 2, Eigen::Vector3d::UnitX()) *
                        Eigen::AngleAxisd(quarter(rng) * M_PI / 2, Eigen::Vector3d::UnitY()) *
                        Eigen::AngleAxisd(quarter(rng) * M_PI / 2, Eigen::Vector3d::UnitZ());
                else
                    r = Eigen::Quaterniond::UnitRandom();
                if (b.joint.type == JointType::Floating) q.segment<3>(b.q_index) = Eigen::Vector3d(u(rng), u(rng), u(rng));
                q.segment<4>(b.q_index + b.joint.quaternion_at()) = r.coeffs();  // x, y, z, w
                break;
            }
        }
    }
    return q;
}

std::string row_name(const Model& model, const Problem& p, int row, const std::vector<std::string>& names) {
    const int constraints = newton_euler_layout(model).constraints;
    if (row < constraints) return fmt::format("Newton-Euler constraint row {}", row);
    const MeasurementRow& m = p.rows[row - constraints];
    if (m.input >= 0) return "measurement " + p.inputs[m.input].name + "[" + p.inputs[m.input].element_names[m.element] + "]";
    return names[m.terms.front().first] + " = 0";
}

// Refuses an ill-posed problem: D must have full column rank at random states.
void check_well_posed(const Model& model, const Problem& p, const std::vector<std::string>& names) {
    std::mt19937_64 rng(7);
    const std::vector<int> sizes = input_sizes(model, p);
    for (int s = 0; s < 2; ++s) {
        const VecX<double> q = check_state(model, 2 + s, rng);  // a generic state
        std::vector<VecX<double>> known;
        for (size_t a = 2; a + 1 < sizes.size(); ++a) known.push_back(VecX<double>::Zero(sizes[a]));
        const NewtonEulerSystem<double> sys =
            problem_system<double>(model, p, q, VecX<double>::Zero(model.nv), Vec3<double>(0, 0, -9.81), known);
        Eigen::FullPivLU<MatX<double>> lu(sys.D);
        lu.setThreshold(1e-10);
        if (lu.rank() == sys.D.cols()) continue;
        // An unknown the problem returns is undetermined where it has a component in D's null space.
        const MatX<double> K = lu.kernel();
        std::vector<std::string> undetermined, internal, others;
        for (size_t w = 0; w < p.wanted.size(); ++w) {
            Eigen::RowVectorXd k = Eigen::RowVectorXd::Zero(K.cols());
            for (const auto& [column, c] : p.wanted[w]) k += c * K.row(column);
            if (k.cwiseAbs().maxCoeff() >= 1e-8) undetermined.push_back(p.wanted_names[w]);
        }
        for (int c = 0; c < K.rows(); ++c) {
            if (K.row(c).cwiseAbs().maxCoeff() < 1e-8) continue;
            const std::string& n = names[c];
            (n.rfind("a[", 0) == 0 || n.rfind("f[", 0) == 0 ? internal : others).push_back(n);
        }
        if (undetermined.empty()) undetermined = others;  // none of the unknowns asked for: name d's
        std::string list;
        for (size_t k = 0; k < undetermined.size() && k < 24; ++k) list += (k ? ", " : "") + undetermined[k];
        if (undetermined.size() > 24) list += fmt::format(" and {} more", undetermined.size() - 24);
        if (!p.contacts.empty()) {  // more contact rows than the joints between the contacts can move
            std::string links;
            for (const std::string& l : p.contacts) links += (links.empty() ? "" : ", ") + l;
            throw Error(fmt::format("{}: problem '{}' is ill-posed for {}: its contacts ({}) hold more than the joints between "
                                    "them and the base can move, so their wrenches are not determined: {} (D is {} x {} with "
                                    "rank {} at a random state). Remove a contact, or make it a point contact",
                                    p.source, p.name, model.source, links, list, sys.D.rows(), sys.D.cols(), lu.rank()));
        }
        throw Error(fmt::format(
            "{}: problem '{}' is ill-posed for {}: its measurements cannot determine {} (D is {} x {} with rank {} at a "
            "random state; {} link accelerations and forces are undetermined too). Measure or declare known more "
            "quantities, or ask for fewer unknowns",
            p.source, p.name, model.source, list.empty() ? "the link accelerations and forces" : list, sys.D.rows(),
            sys.D.cols(), lu.rank(), internal.size()));
    }
}

}  // namespace

std::vector<long> D_slots(const ProblemAnalysis& a) {
    std::vector<long> slot(a.entry_first.size(), -1);
    long n = 0;
    for (size_t k = 0; k < slot.size(); ++k)
        if (!a.entry_constant[k]) slot[k] = a.entry_first[k] == static_cast<int>(k) ? n++ : slot[a.entry_first[k]];
    return slot;
}

SparsePattern traced_pattern(const sym::Graph& g, const MatX<sym::Expr>& D) {
    SparsePattern p{static_cast<int>(D.rows()), static_cast<int>(D.cols()), {}};
    p.columns.resize(D.cols());
    for (int c = 0; c < D.cols(); ++c)
        for (int r = 0; r < D.rows(); ++r)
            if (!g.is_const(D(r, c).id(), 0.0)) p.columns[c].push_back(r);
    return p;
}

ProblemAnalysis analyze_problem(const Model& model, const Problem& problem, const AnalysisOptions& options) {
    ProblemAnalysis a;
    a.problem = problem;
    const std::vector<std::string> names = variable_names(model);
    // 1. The worst-case pattern, and D's entries as graph nodes for the pivot check.
    TracedSystem t;
    t.sizes = input_sizes(model, problem);
    {
        sym::Tracing tracing(t.g);
        const std::vector<VecX<sym::Expr>> in = symbolic_inputs(t.sizes);
        const std::vector<VecX<sym::Expr>> known(in.begin() + 2, in.end() - 1);
        t.D = problem_system<sym::Expr>(model, problem, in[0], in[1], Vec3<sym::Expr>(in.back()), known).D;
    }
    a.pattern = traced_pattern(t.g, t.D);
    std::unordered_map<int, int> first_entry;  // traced node → the first entry that is it
    for (int c = 0; c < a.pattern.cols; ++c)
        for (int r : a.pattern.columns[c]) {
            const sym::Node& node = t.g.node(t.D(r, c).id());
            a.entry_constant.push_back(node.op == sym::Op::Const);
            a.entry_value.push_back(node.value);
            a.entry_first.push_back(first_entry.try_emplace(t.D(r, c).id(), static_cast<int>(a.entry_first.size())).first->second);
        }
    // 2. Well-posedness (fewer equations than unknowns included: the message names what is missing).
    check_well_posed(model, problem, names);
    // Values at a generic state, for UMFPACK.
    std::mt19937_64 rng(2024);
    auto inputs_at = [&](const VecX<double>& q) {
        std::vector<std::vector<double>> in;
        for (int size : t.sizes) in.emplace_back(size, 0.0);
        in[0].assign(q.data(), q.data() + q.size());
        return in;
    };
    auto D_at = [&](const std::vector<double>& v) { return [&t, &v](int r, int c) { return v[t.D(r, c).id()]; }; };
    std::vector<double> instance;
    {
        const std::vector<double> v = t.g.evaluate(inputs_at(check_state(model, 2, rng)));
        for (int c = 0; c < a.pattern.cols; ++c)
            for (int r : a.pattern.columns[c]) instance.push_back(v[t.D(r, c).id()]);
    }
    // 3. Candidates: fill and operations.
    std::vector<OrderingCandidate> candidates = suitesparse_orderings(a.pattern, instance);
    for (const auto& [name, order] : problem.hand_made_orders) candidates.insert(candidates.begin(), {name, order});
    const PartialOrder constant = constant_pivot_order(t.g, t.D, a.pattern);
    candidates.push_back({"constant-pivots", constant.order, constant.pivots});
    struct Tried {
        OrderingReport report;
        LuPattern lu;
        std::vector<int> rows;  // the candidate's whole row order (a rectangular D's unused rows last)
    };
    std::vector<Tried> tried;
    for (const OrderingCandidate& c : candidates) {
        Tried x;
        x.report.name = c.name;
        x.rows = c.order.rows;
        try {
            x.lu = symbolic_lu(a.pattern, c.order, c.pivots);
        } catch (const std::invalid_argument& e) {
            x.report.rejected = std::string("structurally singular with this order: ") + e.what();
            tried.push_back(x);
            continue;
        }
        x.report.nnz_lu = x.lu.nnz, x.report.fill = x.lu.fill, x.report.tail = {x.lu.tail_rows(), x.lu.tail_cols()};
        ProblemAnalysis probe;
        probe.problem = problem;
        probe.lu = x.lu;
        try {
            x.report.ops = fused_operations(model, probe);
        } catch (const std::length_error&) {
            x.report.rejected = fmt::format("its fill ({}) makes the kernels larger than {} operations", x.lu.fill,
                                            sym::Graph::default_max_nodes);
        }
        tried.push_back(x);
    }
    // Cheapest first; an order with a least-squares tail only after every full LU: its normal
    // equations square the tail's condition number (forward dynamics lost a digit that way).
    std::stable_sort(tried.begin(), tried.end(), [](const Tried& x, const Tried& y) {
        if (x.report.rejected.empty() != y.report.rejected.empty()) return x.report.rejected.empty();
        const bool x_tail = x.lu.tail_cols() > 0, y_tail = y.lu.tail_cols() > 0;
        return std::tie(x_tail, x.report.ops, x.report.fill) < std::tie(y_tail, y.report.ops, y.report.fill);
    });
    // 4. Static pivots: the cheapest order safe on every state where the problem is regular is kept.
    std::vector<std::vector<int>> row_entries(a.pattern.rows);  // D's pattern by rows
    for (int c = 0; c < a.pattern.cols; ++c)
        for (int r : a.pattern.columns[c]) row_entries[r].push_back(c);
    // The smallest relative pivot of an order at a state: |u_ii| over the largest |entry| of its row
    // of D, and for a tail the square root of LDLᵀ's d_j over (SᵀS)_jj.
    LuFactors<double> f;  // reused from state to state
    auto smallest_pivot = [&](const LuPattern& lu, const std::vector<double>& v) {
        lu_factor(lu, D_at(v), f);
        double smallest = INFINITY;
        for (int i = 0; i < lu.pivots; ++i) {
            double scale = 0;
            for (int c : row_entries[lu.order.rows[i]]) scale = std::max(scale, std::abs(v[t.D(lu.order.rows[i], c).id()]));
            smallest = std::min(smallest, std::abs(f.pivot[i]) / scale);
        }
        for (int j = 0; j < lu.tail_cols(); ++j)
            smallest = std::min(smallest, std::sqrt(std::max(0.0, 1.0 / f.tail_inv_d[j]) / f.tail.col(j).squaredNorm()));
        return smallest;
    };
    // A state where the problem itself is singular (rank D < n) fails every order: rank D = constant
    // pivots + rank S, so the constant-pivot order's tail says which states those are.
    const LuPattern constant_lu = symbolic_lu(a.pattern, constant.order, constant.pivots);
    std::vector<signed char> singular(options.states, -1);
    auto is_singular = [&](int s, const std::vector<double>& v) {
        if (singular[s] < 0) singular[s] = constant_lu.tail_cols() > 0 && !(smallest_pivot(constant_lu, v) >= options.pivot_threshold);
        return singular[s] == 1;
    };
    std::vector<VecX<double>> states;
    for (int s = 0; s < options.states; ++s) states.push_back(check_state(model, s, rng));
    // Each state evaluates only D's entries (not b's), into buffers reused from state to state.
    std::vector<int> D_nodes;
    for (int c = 0; c < a.pattern.cols; ++c)
        for (int r : a.pattern.columns[c]) D_nodes.push_back(t.D(r, c).id());
    D_nodes = t.g.live(D_nodes);
    std::vector<std::vector<double>> in = inputs_at(states.empty() ? VecX<double>() : states[0]);
    std::vector<double> v;
    bool chosen = false;
    for (Tried& x : tried) {
        if (!x.report.rejected.empty()) continue;
        if (chosen) {
            x.report.rejected = "not checked: a cheaper order is safe";
            continue;
        }
        double min_pivot = INFINITY;
        int s = 0, singular_states = 0;
        for (; s < options.states; ++s) {
            in[0].assign(states[s].data(), states[s].data() + states[s].size());
            t.g.evaluate(in, D_nodes, v);
            const double p = smallest_pivot(x.lu, v);
            if (p >= options.pivot_threshold) {
                min_pivot = std::min(min_pivot, p);
                continue;
            }
            // Singular configurations are special (right angles); one at a uniformly random state
            // (every second pair of states) is no excuse.
            if (!is_singular(s, v) || s % 4 >= 2) {
                min_pivot = p;
                break;
            }
            ++singular_states;
        }
        x.report.min_pivot = min_pivot, x.report.states = std::min(s + 1, options.states);
        if (s < options.states) {
            x.report.rejected = fmt::format("relative pivot {:.1e} below {:.0e} at state {}", min_pivot, options.pivot_threshold, s);
            continue;
        }
        chosen = true;
        a.ordering = x.report.name, a.lu = x.lu, a.min_pivot = min_pivot, a.states_checked = options.states;
        a.singular_states = singular_states;
        for (size_t k = x.lu.m; k < x.rows.size(); ++k) a.unused_rows.push_back(row_name(model, problem, x.rows[k], names));
    }
    for (const Tried& x : tried) a.candidates.push_back(x.report);
    if (!chosen) {
        std::string why;
        for (const OrderingReport& r : a.candidates) why += fmt::format("; {}: {}", r.name, r.rejected);
        throw Error(fmt::format("{}: problem '{}' for {}: no ordering has safe static pivots{}. The static-pivot LU cannot "
                                "solve this problem at every state: change the sensor set",
                                problem.source, problem.name, model.source, why));
    }
    return a;
}

}  // namespace rbdgen
