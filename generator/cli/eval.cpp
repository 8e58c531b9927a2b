// rbdgen eval ROBOT.urdf [--floating-base] [--strict-inertia] --state STATE.json: the reference algorithms at one state,
// as JSON (format in docs/command.md; every generated robot's eval driver prints the same).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "algorithms/configuration.hpp"
#include "algorithms/com.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "cli/commands.hpp"
#include "cli/state.hpp"
#include "model/error.hpp"
#include "model/urdf_loader.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen {

namespace {

VecX<double> state_array(const State& s, const ArraySpec& a, const Model& model) {
    const int psi_rows = a.n_rows(model);
    switch (a.state) {
        case StateField::Measurements: {
            const std::vector<double> m = measurement_array(s, a.element_names);
            return Eigen::Map<const VecX<double>>(m.data(), static_cast<long>(m.size()));
        }
        case StateField::ExternalWrenches: {
            const std::vector<double> f = external_wrench_array(s, a.element_names);
            return Eigen::Map<const VecX<double>>(f.data(), static_cast<long>(f.size()));
        }
        case StateField::Parameters: {
            const std::vector<double> pi = parameter_array(s, a.element_names, a.defaults);
            return Eigen::Map<const VecX<double>>(pi.data(), static_cast<long>(pi.size()));
        }
        case StateField::Q: return s.q;
        case StateField::QNext: return integrate<double>(model, s.q, s.v);
        case StateField::V: return s.v;
        case StateField::A: return s.a;
        case StateField::Tau: return s.tau;
        case StateField::Gravity: return s.gravity;
        case StateField::MotionQ: {
            const std::vector<double> q = motion_positions(s);
            return Eigen::Map<const VecX<double>>(q.data(), static_cast<long>(q.size()));
        }
        case StateField::Motion: {  // (N + 1) x NV
            const std::vector<double> psi = motion_derivatives(s, static_cast<int>(psi_rows) - 1);
            return Eigen::Map<const VecX<double>>(psi.data(), static_cast<long>(psi.size()));
        }
        case StateField::None: break;
    }
    throw std::logic_error("a kernel input that no state gives");
}

}  // namespace

// Every kernel a state gives the inputs of (KernelSpec::evaluated), by the reference algorithms:
// the kernels, then the problems' (their fused kernels).
EvalResults evaluate(const Model& model, const State& s, const std::vector<std::string>& problems, int ncmtm_order,
                     const std::vector<std::string>& on_request, const std::vector<std::string>& frames) {
    EvalResults r;
    r.fd_error = forward_dynamics_refusal(model);
    // rnea, aba and fd_crba_ltdl take the state's external wrenches, if it gives any
    std::vector<std::string> links;
    for (const auto& w : s.external_wrenches) links.push_back(w.first);
    std::vector<std::string> payload;  // and its payload's parameters
    for (const auto& p : s.parameters) payload.push_back(p.first);
    std::vector<KernelSpec> specs = kernel_specs(link_frames(model, links, s.file + ": 'external_wrenches'", true),
                                                 link_frames(model, frames, "--frames", false),
                                                 link_frames(model, payload, s.file + ": 'parameters'", true));
    if (ncmtm_order != 0)
        for (KernelSpec& k : ncmtm_kernel_specs(model, ncmtm_order)) specs.push_back(std::move(k));
    for (const std::string& p : problems) {
        const Problem problem = load_problem(model, p);
        if (problem.name == "fd" && !r.fd_error.empty()) throw Error("--problem fd: " + r.fd_error);
        // the state's readings of the problem's sensors, checked before its analysis (seconds on a humanoid)
        for (const ProblemInput& i : problem.inputs)
            if (i.name == "measurements") measurement_array(s, i.element_names);
        for (KernelSpec& k : problem_kernel_specs(std::make_shared<const ProblemAnalysis>(analyze_problem(model, problem))))
            if (k.name == problem.name + "_lu" || k.name == problem.name + "_aba" || k.name == problem.name + "_derivatives")
                specs.push_back(std::move(k));
    }
    for (const KernelSpec& k : specs) {
        if (!k.evaluated() || (k.forward_dynamics && !r.fd_error.empty())) continue;
        if (!(total_mass(model) > 0) && std::count(mass_kernel_names().begin(), mass_kernel_names().end(), k.name)) continue;  // no centre of mass
        if (k.on_request && std::find(on_request.begin(), on_request.end(), k.name) == on_request.end()) continue;
        Arrays<double> in;
        for (const ArraySpec& a : k.inputs) in.push_back(state_array(s, a, model));
        const Arrays<double> out = k.reference(model, in);
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            const ArraySpec& a = k.outputs[o];
            if (!a.json) continue;
            r.results.push_back({k.result_name(o), *a.json, std::vector<double>(out[o].data(), out[o].data() + out[o].size()),
                                 a.printed_names(model), a.printed_row_names(model)});
        }
    }
    return r;
}

void add_eval_command(CLI::App& app, std::ostream& out) {
    CLI::App* c = app.add_subcommand("eval", "run the reference algorithms (double) at one state and print JSON: every "
                                             "kernel a state gives the inputs of (format in docs/command.md)");
    auto args = std::make_shared<ModelArgs>();
    auto state = std::make_shared<std::string>();
    auto problems = std::make_shared<std::vector<std::string>>();
    auto order = std::make_shared<int>(0);
    add_model_args(*c, *args);
    c->add_option("--state", *state, "the state: STATE.json (joint positions, velocities, accelerations, torques, "
                                     "gravity, floating base)")->required()->type_name("STATE.json");
    c->add_option("--problem", *problems,
                  "also solve a problem on Nori's sparse system by the static-pivot LU and print its unknowns: id, fd, "
                  "contact:LINK[:point],... (constrained dynamics), impulse:LINK[:point],... (an impact) or FILE.yaml "
                  "(measurements from the state's \"measurements\"); repeatable")
        ->type_name("id|fd|contact:LINKS|impulse:LINKS|FILE")->allow_extra_args(false);
    auto kernels = std::make_shared<std::vector<std::string>>();
    std::string on_request;
    for (const std::string& k : kernel_names(true)) on_request += (on_request.empty() ? "" : ",") + k;
    c->add_option("--kernels", *kernels, "also run kernels emitted only when named (" + on_request + "), comma-separated; "
                                         "those the state gives the inputs of are printed")
        ->delimiter(',')->type_name("LIST")->allow_extra_args(false);
    auto frames = std::make_shared<std::vector<std::string>>();
    c->add_option("--frames", *frames, "also run the operational frames' kernels on these links (comma-separated): "
                                       "frame_jacobians, frame_jacobians_dot, frame_motion and frame_motion_derivatives")
        ->delimiter(',')->type_name("LINK,...")->allow_extra_args(false);
    CLI::Option* ncmtm = c->add_option("--ncmtm-order", *order,
                  "also run the N-CMTM kernels of order N (1 to " + std::to_string(kMaxNcmtmOrder) + "): ncmtm_fk and cornea, "
                  "from the state's \"motion\" (q and its N + 1 derivatives a joint)")->type_name("N");
    c->callback([args, state, problems, order, ncmtm, kernels, frames, &out] {
        for (const std::string& k : *kernels) try {  // an unknown kernel, before reading anything
                kernel_spec(k);
            } catch (const Error& e) {
                throw Error(std::string("--kernels: ") + e.what());
            }
        const Model model = load_model(*args);
        const Layout layout = model_layout(model);
        if (ncmtm->count()) ncmtm_kernel_specs(model, *order);  // an order out of range, before reading the state
        const EvalResults result = evaluate(model, read_state(layout, *state), *problems, *order, *kernels, *frames);
        if (!result.fd_error.empty()) std::cerr << "rbdgen: forward dynamics refused: " << result.fd_error << "\n";
        write_eval_json(out, layout, result);
    });
}

}  // namespace rbdgen
