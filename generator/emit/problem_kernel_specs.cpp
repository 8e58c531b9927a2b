// A problem's kernels on Nori's sparse system (sparse/analysis.hpp): the fused static-pivot LU, its
// assemble, factor and solve steps, and the articulated-body solve of constrained dynamics.
#include "algorithms/aba.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/contact_dynamics_derivatives.hpp"
#include "emit/kernel_spec_parts.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen {
namespace {
using namespace spec_parts;

// A problem's arrays: q, qd, its known quantities, gravity (the analysis numbers them so).
std::vector<ArraySpec> problem_inputs(const Problem& p) {
    std::vector<ArraySpec> in{q_in(), qd_in()};
    for (const ProblemInput& i : p.inputs) {
        const int n = i.size();
        const StateField state = i.name == "qdd"            ? StateField::A
                                 : i.name == "tau"          ? StateField::Tau
                                 : i.name == "measurements" ? StateField::Measurements
                                                            : StateField::None;
        ArraySpec a{i.name, i.doc, [n](const Model&) { return n; }, {}, ArrayLayout::Vector, state};
        if (state == StateField::Measurements) a.element_names = i.element_names;
        in.push_back(a);
    }
    in.push_back(gravity_in());
    return in;
}

ArraySpec sized(std::string name, std::string doc, long n) {
    return {std::move(name), std::move(doc), [n](const Model&) { return static_cast<int>(n); }};
}
template <class S> struct ProblemArrays {
    VecX<S> q, qd;
    Vec3<S> gravity;
    std::vector<VecX<S>> known;
};
template <class S> ProblemArrays<S> problem_arrays(const Arrays<S>& x) {
    return {x[0], x[1], vec3(x.back()), std::vector<VecX<S>>(x.begin() + 2, x.end() - 1)};
}
// A contact problem's τ (zero where the problem does not read it) and Baumgarte's errors.
template <class S> std::pair<VecX<S>, VecX<S>> held_inputs(const Model& m, const Problem& pr, const ProblemArrays<S>& in) {
    VecX<S> tau = VecX<S>::Zero(m.nv), errors;
    for (int i = 0; i < m.nv; ++i)
        if (pr.tau_known[i]) tau[i] = in.known[pr.tau_input][i];
    if (pr.error_input >= 0) errors = in.known[pr.error_input];
    return {tau, errors};
}
// A derivative's matrix, row-major: the rows a dof's (q̈, q̇⁺) or a wrench component's, the columns the dofs.
ArraySpec derivative_out(const std::string& name, const std::string& doc, const std::vector<std::string>& wrench_names) {
    ArraySpec a{name, doc + ", row-major (column j: with respect to dof j; a floating base's along q + delta, delta = [omega; v] in base "
                            "coordinates)", nv, nv, ArrayLayout::RowMajor};
    a.json = EvalForm::JointMatrix;
    if (wrench_names.empty()) return a;
    a.rows = [n = static_cast<int>(wrench_names.size())](const Model&) { return n; };
    a.json = EvalForm::Matrix;
    a.row_names = [wrench_names](const Model&) { return wrench_names; };
    return a;
}

}  // namespace

std::vector<KernelSpec> problem_kernel_specs(std::shared_ptr<const ProblemAnalysis> analysis) {
    const ProblemAnalysis& a = *analysis;
    const std::string& p = a.problem.name;
    const SparsePattern& P = a.pattern;
    // D's array: its nonzeros that vary with the state, column by column (the pattern's order), each
    // value once (ProblemAnalysis::entry_first); where each (row, column) sits there, or
    // −1 − (its index among all nonzeros) for a constant.
    auto slots = std::make_shared<std::unordered_map<long, long>>();
    const std::vector<long> slot = D_slots(a);
    long variable = 0;
    for (int c = 0, k = 0; c < P.cols; ++c)
        for (int r : P.columns[c]) {
            (*slots)[static_cast<long>(r) * P.cols + c] = slot[k] >= 0 ? slot[k] : -1 - k;
            variable = std::max(variable, slot[k] + 1);
            ++k;
        }
    const std::string shape = fmt::format("{} x {}", P.rows, P.cols);
    std::vector<KernelSpec> k;
    ArraySpec wanted = sized(a.problem.output_name, a.problem.output_doc, static_cast<long>(a.problem.wanted.size()));
    wanted.json = a.problem.joint_space_output ? EvalForm::JointVector : EvalForm::Named;
    if (!a.problem.joint_space_output) wanted.element_names = a.problem.wanted_names;
    k.push_back(spec(p + "_lu", a.problem.doc, problem_inputs(a.problem), {wanted}, [analysis](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        const ProblemArrays<S> in = problem_arrays(x);
        const VecX<S> d = solve_problem<S>(m, *analysis, in.q, in.qd, in.gravity, in.known);
        return std::vector{wanted_of(analysis->problem, d)};
    }));
    if (!a.problem.held.empty()) {
        ArraySpec same = wanted;
        KernelSpec by_aba = spec(p + "_aba", "What " + p + "_lu returns, " + (a.problem.impulse ? "the impact" : "constrained dynamics") +
                                                 " solved with the articulated-body algorithm instead: the free motion, the contacts' "
                                                 "operational-space system J H^-1 J^T through the articulated inertias, and the ABA with the "
                                                 "contact wrenches (algorithms/contact_aba.hpp).",
            problem_inputs(a.problem), {same}, [analysis](const Model& m, const auto& x) {
                using S = ScalarOf<std::decay_t<decltype(x)>>;
                const Problem& pr = analysis->problem;
                const ProblemArrays<S> in = problem_arrays(x);
                const auto [tau, errors] = held_inputs(m, pr, in);
                const ConstrainedMotion<S> c = contact_aba<S>(m, pr.held, in.q, in.qd, tau, in.gravity, errors, pr.impulse);
                VecX<S> out(m.nv + c.lambda.size());  // p.wanted's order: q̈ body by body, then the wrenches
                int o = 0;
                for (const Body& b : m.bodies)
                    for (int e = 0; e < b.joint.nv(); ++e) out[o++] = c.qdd[b.v_index + e];
                out.tail(c.lambda.size()) = c.lambda;
                return std::vector{out};
            });
        by_aba.method = "articulated-body algorithm with the contacts' operational-space system";
        k.push_back(std::move(by_aba));
        // Its derivatives (algorithms/contact_dynamics_derivatives.hpp), the rows of the wrenches named as the unknowns
        const bool impulse = a.problem.impulse;
        const std::vector<std::string> wrenches(a.problem.wanted_names.end() - held_rows(a.problem.held), a.problem.wanted_names.end());
        const std::string moved = impulse ? "qd_plus" : "qdd", w = impulse ? "impulse" : "lambda";
        std::vector<ArraySpec> outputs{derivative_out("d" + moved + "_dq", "d" + moved + "/dq", {}),
                                       derivative_out("d" + moved + "_dqd", "d" + moved + "/dqd", {})};
        if (!impulse) outputs.push_back(derivative_out("dqdd_dtau", "dqdd/dtau, the constrained inverse H^-1 - H^-1 J^T (J H^-1 J^T)^-1 J "
                                                                    "H^-1 (with respect to a force on every dof, a floating base's too)", {}));
        // along Baumgarte's errors (the measurements input), when the problem has them
        const bool with_errors = !impulse && !held_errors(a.problem.held).empty();
        const auto along_errors = [&](ArraySpec d) {
            const std::vector<std::string> e = a.problem.inputs[a.problem.error_input].element_names;
            d.doc = d.doc.substr(0, d.doc.find(", row-major")) + ", row-major (column j: with respect to Baumgarte's error j, the "
                    "measurements' order)";
            d.cols = [n = static_cast<int>(e.size())](const Model&) { return n; };
            d.json = EvalForm::Matrix;
            d.column_names = [e](const Model&) { return e; };
            return d;
        };
        if (with_errors) outputs.push_back(along_errors(derivative_out("dqdd_de", "dqdd/de, Baumgarte's position errors", {})));
        for (const char* along : impulse ? std::vector{"q", "qd"} : std::vector{"q", "qd", "tau"})
            outputs.push_back(derivative_out("d" + w + "_d" + along, "d" + w + "/d" + along + " of the wrenches, in the order of " + p +
                                             "_aba's", wrenches));
        if (with_errors) outputs.push_back(along_errors(derivative_out("dlambda_de", "dlambda/de of the wrenches, in the order of " + p + "_aba's",
                                                                  wrenches)));
        KernelSpec derivatives = spec(p + "_derivatives",
            "The derivatives of what " + p + "_aba returns, " + (impulse ? "the joint velocities after the impact and the impulses" :
            "the joint accelerations and the contact wrenches") + ", with respect to q (tangent space), qd" + (impulse ? "" : " and tau") +
            (impulse ? "" : " (and Baumgarte's errors e, where the problem has them)") +
            ": the KKT system's implicit derivative, with H's LTDL factors (algorithms/contact_dynamics_derivatives.hpp).",
            problem_inputs(a.problem), outputs, [analysis, with_errors](const Model& m, const auto& x) {
                using S = ScalarOf<std::decay_t<decltype(x)>>;
                const Problem& pr = analysis->problem;
                const ProblemArrays<S> in = problem_arrays(x);
                const auto [tau, errors] = held_inputs(m, pr, in);
                ContactDerivatives<S> d = contact_dynamics_derivatives<S>(m, pr.held, in.q, in.qd, tau, in.gravity, errors, pr.impulse);
                if (pr.impulse) return std::vector{row_major(d.dqdd_dq), row_major(d.dqdd_dqd), row_major(d.dlambda_dq), row_major(d.dlambda_dqd)};
                if (!with_errors)
                    return std::vector{row_major(d.dqdd_dq), row_major(d.dqdd_dqd), row_major(d.dqdd_dtau),
                                       row_major(d.dlambda_dq), row_major(d.dlambda_dqd), row_major(d.dlambda_dtau)};
                return std::vector{row_major(d.dqdd_dq), row_major(d.dqdd_dqd), row_major(d.dqdd_dtau), row_major(d.dqdd_de),
                                   row_major(d.dlambda_dq), row_major(d.dlambda_dqd), row_major(d.dlambda_dtau), row_major(d.dlambda_de)};
            });
        derivatives.method = "kkt: the KKT system's implicit derivative: H's LTDL factors, J H^-1 J^T's, and solves with them of the "
                             "right-hand sides of rnea_derivatives and the contacts' motion derivatives";
        // Emitted as its head (H's factors, J, tau - C and k, traced), the dense steps as loops, its tail (the
        // sides [R; M], traced) and their solves as loops (KernelSpec::LtdlLoops::Kkt)
        const int contact_rows = static_cast<int>(held_rows(a.problem.held));
        const ArraySpec qdd{"qdd", impulse ? "the joint velocities after the impact" : "joint accelerations", nv};
        const ArraySpec lambda = sized("lambda", "the wrenches", contact_rows);
        const std::vector<ArraySpec> head_outputs{
            {"LD", "H's LTDL factors, LTDL's rows (algorithms/ltdl.hpp ltdl_rows)", ltdl_nonzeros},
            {"J", "the held rows of the frames' Jacobians, row-major", [contact_rows](const Model&) { return contact_rows; }, nv, ArrayLayout::RowMajor},
            {"qdd", impulse ? "the joint velocities before the impact" : "tau - C", nv},
            sized("k", impulse ? "zero" : "the held motion at zero joint accelerations", contact_rows)};
        derivatives.ltdl_loops = KernelSpec::LtdlLoops::Kkt;
        for (const HeldError& e : with_errors ? held_errors(a.problem.held) : std::vector<HeldError>()) derivatives.kkt_errors.push_back({e.row, e.kp});
        derivatives.head = std::make_shared<const KernelSpec>(spec(p + "_derivatives_head", "The KKT system of " + p + ": H's factors, J, " +
            (impulse ? "qd" : "tau - C") + " and k.", problem_inputs(a.problem), head_outputs, [analysis](const Model& m, const auto& x) {
                using S = ScalarOf<std::decay_t<decltype(x)>>;
                const Problem& pr = analysis->problem;
                const ProblemArrays<S> in = problem_arrays(x);
                const auto [tau, errors] = held_inputs(m, pr, in);
                const ContactSystem<S> sys = contact_system<S>(m, pr.held, in.q, in.qd, tau, in.gravity, errors, pr.impulse);
                const LtdlRows rows = ltdl_rows(expanded_parent(m));
                VecX<S> LD(rows.col.size());
                for (int i = 0; i < m.nv; ++i)
                    for (int e = rows.off[i]; e < rows.off[i + 1]; ++e) LD[e] = sys.LD(i, rows.col[e]);
                return std::vector<VecX<S>>{LD, row_major(sys.J), sys.b, sys.k};
            }));
        // R and M of each side, in the room of ∂q̈ and ∂λ along it (the solves then work in place)
        std::vector<ArraySpec> tail_inputs{q_in(), qd_in(), qdd, lambda, gravity_in()}, sides;
        for (const char* along_x : impulse ? std::vector{"q"} : std::vector{"q", "qd"}) {
            sides.push_back({std::string("R") + along_x, std::string("dID/d") + along_x + ", row-major", nv, nv, ArrayLayout::RowMajor});
            sides.push_back({std::string("M") + along_x, std::string("dm/d") + along_x + " (the held motion), row-major",
                             [contact_rows](const Model&) { return contact_rows; }, nv, ArrayLayout::RowMajor});
        }
        derivatives.tail = std::make_shared<const KernelSpec>(spec(p + "_derivatives_tail", "The right-hand sides of " + p + "_derivatives.",
            tail_inputs, sides, [analysis](const Model& m, const auto& x) {
                using S = ScalarOf<std::decay_t<decltype(x)>>;
                const Problem& pr = analysis->problem;
                std::vector<VecX<S>> out;
                for (const MatX<S>& X : contact_kkt_sides<S>(m, pr.held, x[0], x[1], x[2], x[3], vec3(x[4]), pr.impulse)) {
                    out.push_back(row_major(MatX<S>(X.topRows(m.nv))));
                    out.push_back(row_major(MatX<S>(X.bottomRows(X.rows() - m.nv))));
                }
                return out;
            }));
        k.push_back(std::move(derivatives));
    }
    ArraySpec D_out = sized("D", "the nonzeros of D (" + shape + ") that vary with the state, each value once (report.json D_slots)", variable);
    ArraySpec b_out = sized("b", "b of D d + b = 0", P.rows);
    k.push_back(spec(p + "_assemble", "Nori's system D d + b = 0 of problem " + p + " (eq. 3-5 and its measurement rows).",
        problem_inputs(a.problem), {D_out, b_out}, [analysis, P, variable](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const ProblemArrays<S> in = problem_arrays(x);
            const NewtonEulerSystem<S> sys = problem_system<S>(m, analysis->problem, in.q, in.qd, in.gravity, in.known);
            VecX<S> D(variable);
            for (int c = 0, k = 0, n = 0; c < P.cols; ++c)
                for (int r : P.columns[c]) {
                    if (!analysis->entry_constant[k] && analysis->entry_first[k] == k) D[n++] = sys.D(r, c);
                    ++k;
                }
            return std::vector{D, sys.b};
        }));
    ArraySpec D_in = D_out;
    D_in.produced_by = p + "_assemble";
    // The factors of lu_factor on D's array. Those that come out constants of the model (a ±1 pivot's
    // reciprocal, L's entries under it) are folded into the solve; those that are an entry of D the
    // elimination leaves as it is (U's rows that no earlier pivot updates: all of them for inverse
    // dynamics, whose LU has no fill) the solve reads from D; the factor's array holds the rest.
    const auto factors = [analysis, slots](const auto& D_values) {
        using S = typename std::decay_t<decltype(D_values)>::Scalar;
        const auto entry = [&](int r, int c) {
            const auto it = slots->find(static_cast<long>(r) * analysis->pattern.cols + c);
            if (it == slots->end()) return S(0.0);
            return it->second >= 0 ? D_values[it->second] : S(analysis->entry_value[-1 - it->second]);
        };
        return lu_values(analysis->lu, lu_factor<S>(analysis->lu, entry));
    };
    struct FactorEntry {
        enum class From { Constant, D, LU } from;
        double value = 0;  // Constant: its value
        long index = -1;   // D: its index in D's array
    };
    auto source = std::make_shared<std::vector<FactorEntry>>();
    {
        sym::Graph g;
        sym::Tracing tracing(g);
        VecX<sym::Expr> D(variable);
        for (int i = 0; i < D.size(); ++i) D[i] = sym::Expr::input(0, i);
        for (const sym::Expr& e : factors(D)) {
            const sym::Node& n = g.node(e.id());
            source->push_back(n.op == sym::Op::Const ? FactorEntry{FactorEntry::From::Constant, n.value}
                              : n.op == sym::Op::Input ? FactorEntry{FactorEntry::From::D, 0, n.index}
                                                       : FactorEntry{FactorEntry::From::LU});
        }
    }
    const long lu_variable = std::count_if(source->begin(), source->end(), [](const FactorEntry& e) { return e.from == FactorEntry::From::LU; });
    ArraySpec LU = sized("LU", "the factors that vary with the state and are not entries of D (sparse/static_lu.hpp lu_values: row "
                                 "by row of P D Q, L's entries, 1 / u_ii, U's entries)", lu_variable);
    k.push_back(spec(p + "_factor", "Static-pivot sparse LU P D Q = L U of problem " + p + " (ordering " + a.ordering + ").",
        {D_in}, {LU}, [factors, source, lu_variable](const Model&, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> all = factors(x[0]);
            VecX<S> out(lu_variable);
            for (long i = 0, n = 0; i < all.size(); ++i)
                if ((*source)[i].from == FactorEntry::From::LU) out[n++] = all[i];
            return std::vector{out};
        }));
    ArraySpec LU_in = LU, b_in = b_out;
    LU_in.produced_by = p + "_factor", b_in.produced_by = p + "_assemble";
    k.push_back(spec(p + "_solve", "Forward and backward substitution with the LU factors of problem " + p + ": d = -D^-1 b.",
        {D_in, LU_in, b_in}, {sized("d", "every variable of d (report.json names them)", P.cols)}, [analysis, source](const Model&, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            VecX<S> all(source->size());
            for (long i = 0, n = 0; i < all.size(); ++i) {
                const FactorEntry& e = (*source)[i];
                all[i] = e.from == FactorEntry::From::Constant ? S(e.value)
                         : e.from == FactorEntry::From::D      ? x[0][e.index]
                                                               : x[1][n++];
            }
            return std::vector{lu_solve(analysis->lu, lu_from_values(analysis->lu, all), VecX<S>(x[2]))};
        }));
    for (KernelSpec& spec : k) spec.merge_values = spec.name != p + "_aba";  // the LU's kernels
    return k;
}

}  // namespace rbdgen
