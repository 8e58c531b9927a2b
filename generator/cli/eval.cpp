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

nlohmann::ordered_json evaluate(const Model& model, const State& s) {
    nlohmann::ordered_json j;
    j["joints"] = model.joint_names();
    j["rnea"] = joint_vector_json(model, rnea<double>(model, s.q, s.v, s.a, s.gravity));
    const int massless = model.first_massless_subtree();
    if (massless < 0) {
        j["aba"] = joint_vector_json(model, aba<double>(model, s.q, s.v, s.tau, s.gravity));
        j["fd_crba_ltdl"] = joint_vector_json(model, fd_crba_ltdl<double>(model, s.q, s.v, s.tau, s.gravity));
    } else {
        j["fd_error"] = model.source + ": joint '" + model.bodies[massless].joint_name +
                        "' moves only massless links, so H is singular and forward dynamics is undefined; "
                        "give a link below it a mass and inertia";
    }
    j["gravity"] = joint_vector_json(model, gravity_vector<double>(model, s.q, s.gravity));
    const MatX<double> H = crba<double>(model, s.q);
    nlohmann::ordered_json matrix = nlohmann::ordered_json::array();
    for (int r = 0; r < H.rows(); ++r) matrix.push_back(std::vector<double>(H.row(r).begin(), H.row(r).end()));
    j["crba"] = {{"order", model.dof_names()}, {"matrix", matrix}};
    return j;
}

int command_eval(const Args& args, std::ostream& out) {
    const ParsedArgs a = parse_args("eval", args, model_flags, {"--state"});
    if (a.positional.size() != 1 || !a.has("--state"))
        throw Error("usage: rbdgen eval ROBOT.urdf [--floating-base] [--strict-inertia] --state STATE.json");
    const Model model = load_model(a.positional[0], load_options(a));
    const State state = read_state(model, a.value("--state"));
    const nlohmann::ordered_json result = evaluate(model, state);
    if (result.contains("fd_error"))
        std::cerr << "rbdgen: forward dynamics refused: " << result["fd_error"].get<std::string>() << "\n";
    out << result.dump(2) << "\n";
    return 0;
}

}  // namespace rbdgen
