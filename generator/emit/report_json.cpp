#include <cmath>

#include "emit/emitted.hpp"
#include "emit/names.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace {

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

}  // namespace

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
            entry["compact"] = {{"steps", steps.compact->calls}, {"calls", steps.compact->invocations}, {"lane_calls", steps.compact->lane_calls},
                                {"functions", steps.compact->functions}, {"slots", steps.compact->slots}};
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
        if (!e.kernel.method.empty()) entry["method"] = e.kernel.method;
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
    report["snapping"] = {{"tolerance", c.o.snap_tolerance}, {"max_effect", c.o.snap_max_effect},
                          {"snapped", prepared.snap.lines(model, true)}, {"kept", prepared.snap.lines(model, false)},
                          {"largest_change", prepared.snap.max_change()}, {"effect", prepared.snap.max_effect}};
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

}  // namespace rbdgen
