// rbdgen eval ROBOT.urdf [--floating-base] [--strict-inertia] --state STATE.json: the reference algorithms at one state,
// as JSON (format in README.md; every generated robot's eval driver prints the same).
#include <nlohmann/json.hpp>
#include <iostream>

#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "cli/commands.hpp"
#include "cli/state.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

EvalResults evaluate(const Model& model, const State& s) {
    EvalResults r;
    r.rnea = rnea<double>(model, s.q, s.v, s.a, s.gravity);
    r.fd_error = forward_dynamics_refusal(model);
    if (r.fd_error.empty()) {
        r.aba = aba<double>(model, s.q, s.v, s.tau, s.gravity);
        r.fd_crba_ltdl = fd_crba_ltdl<double>(model, s.q, s.v, s.tau, s.gravity);
    }
    r.gravity = gravity_vector<double>(model, s.q, s.gravity);
    r.crba = crba<double>(model, s.q);
    return r;
}

void add_eval_command(CLI::App& app, std::ostream& out) {
    CLI::App* c = app.add_subcommand("eval", "run the reference algorithms (double) at one state and print JSON: "
                                             "rnea, aba, fd_crba_ltdl, gravity, crba (format in README.md)");
    auto args = std::make_shared<ModelArgs>();
    auto state = std::make_shared<std::string>();
    add_model_args(*c, *args);
    c->add_option("--state", *state, "the state: STATE.json (joint positions, velocities, accelerations, torques, "
                                     "gravity, floating base)")->required()->type_name("STATE.json");
    c->callback([args, state, &out] {
        const Model model = load_model(*args);
        const Layout layout = model_layout(model);
        const EvalResults result = evaluate(model, read_state(layout, *state));
        if (!result.fd_error.empty()) std::cerr << "rbdgen: forward dynamics refused: " << result.fd_error << "\n";
        out << eval_json(layout, result).dump(2) << "\n";
    });
}

}  // namespace rbdgen
