// rbdgen info ROBOT.urdf [--floating-base] [--strict-inertia] [--json]: the model's structure and cost quantities.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "cli/commands.hpp"
#include "model/topology.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

namespace {

void info(const ModelArgs& args, bool json, std::ostream& out) {
    const Model model = load_model(args);

    const std::vector<int> lambda = parent_array(model);
    const std::vector<int> lambda_e = expanded_parent(model);
    const CostQuantities c = cost_quantities(lambda), ce = cost_quantities(lambda_e);
    const std::vector<int> d = depths(lambda);
    int revolute = 0, prismatic = 0, planar = 0, floating = 0, ball = 0, links = 0;
    for (const Body& b : model.bodies) {
        links += b.is_link();
        if (b.planar >= 0)
            planar += b.planar == 2;
        else
            (b.joint.type == JointType::Revolute    ? revolute
             : b.joint.type == JointType::Prismatic ? prismatic
             : b.joint.type == JointType::Ball      ? ball
                                                    : floating) += 1;
    }
    // every link that is no body's own, but the root on the fixed base (a URDF's, an SDFormat file's; MJCF's world is none)
    int merged = -links;
    for (const Frame& f : model.frames) merged += !f.named && !(f.body < 0 && f.name == model.root_link);
    nlohmann::ordered_json armature = nlohmann::ordered_json::object();  // joint → its armature, where it has one
    for (const Body& b : model.bodies)
        if (b.joint.armature != 0) armature[b.joint_name] = {{"value", b.joint.armature}, {"from", b.armature_from}};
    const int depth = *std::max_element(d.begin(), d.end());
    const long nnz = jsim_nonzeros(lambda_e);
    const std::string pattern = draw_pattern(jsim_pattern(lambda_e));

    if (json) {
        nlohmann::ordered_json j;
        j["robot"] = model.name;
        j["file"] = model.source;
        j["files"] = model.files;  // every file read: the model's, then those it includes
        j["root_link"] = model.root_link;
        j["floating_base"] = model.floating_base;
        j["bodies"] = model.N();
        j["joints"] = {{"revolute", revolute}, {"prismatic", prismatic}, {"planar", planar}, {"ball", ball}, {"floating", floating}, {"fixed_merged", merged}};
        j["joint_order"] = model.joint_names();
        j["dof"] = model.nv;
        j["nq"] = model.nq;
        j["depth"] = depth;
        j["branching_bodies"] = branching_bodies(lambda);
        j["chains"] = leaf_bodies(lambda);
        j["D0"] = c.D0;
        j["D1"] = c.D1;
        j["D2"] = c.D2;
        j["expanded"] = {{"D0", ce.D0}, {"D1", ce.D1}, {"D2", ce.D2}};
        j["jsim_nonzeros"] = nnz;
        std::vector<std::string> rows;
        std::istringstream lines(pattern);
        for (std::string line; std::getline(lines, line);) rows.push_back(line);
        j["jsim_pattern"] = rows;
        j["armature"] = armature;
        if (model.gravity) j["gravity"] = {(*model.gravity)[0], (*model.gravity)[1], (*model.gravity)[2]};
        j["ignored"] = model.ignored;
        j["warnings"] = model.warnings;
        out << j.dump(2) << "\n";
        return;
    }
    out << fmt::format("robot {} ({})\n", model.name, model.source);
    out << fmt::format("  bodies            {} moving, root link '{}'{}\n", model.N(), model.root_link,
                       model.floating_base ? " on a floating base" : "");
    out << fmt::format("  joints            {} revolute, {} prismatic, {}{}{} floating; {} fixed joints merged\n", revolute,
                       prismatic, planar ? fmt::format("{} planar (3 coordinates each), ", planar) : "",
                       ball ? fmt::format("{} ball (a quaternion, 3 velocities each), ", ball) : "", floating, merged);
    out << fmt::format("  DoF               {} (q has {} coordinates)\n", model.nv, model.nq);
    out << fmt::format("  tree depth        {}\n", depth);
    out << fmt::format("  branching bodies  {} ({} terminal chains)\n", branching_bodies(lambda), leaf_bodies(lambda));
    out << fmt::format("  D0, D1, D2        {}, {}, {}   (bodies; Featherstone eq. 15, 8, 9)\n", c.D0, c.D1, c.D2);
    out << fmt::format("  D1e, D2e          {}, {}   (expanded graph)\n", ce.D1, ce.D2);
    out << fmt::format("  JSIM nonzeros     {} of {} ({:.0f}%)\n", nnz, model.nv * model.nv,
                       100.0 * nnz / (model.nv * model.nv));
    out << "  joint order      ";
    for (const std::string& n : model.dof_names()) out << " " << n;
    out << "\n  JSIM pattern (x nonzero, . branch-induced zero):\n";
    std::istringstream lines(pattern);
    for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
    if (!armature.empty()) {
        out << "  armature (τ += armature q̈)\n";
        for (const Body& b : model.bodies)
            if (b.joint.armature != 0) out << fmt::format("    {} {} (from {})\n", b.joint_name, b.joint.armature, b.armature_from);
    }
    if (model.gravity) out << fmt::format("  gravity           {} {} {} (the file's)\n", (*model.gravity)[0], (*model.gravity)[1], (*model.gravity)[2]);
    for (const std::string& i : model.ignored) out << "  ignored           " << i << "\n";
}

}  // namespace

void add_info_command(CLI::App& app, std::ostream& out) {
    CLI::App* c = app.add_subcommand("info", "the model's structure: bodies, joints, DoF, tree depth, Featherstone's "
                                             "D0, D1, D2, the joint-space inertia matrix's sparsity");
    auto args = std::make_shared<ModelArgs>();
    auto json = std::make_shared<bool>(false);
    add_model_args(*c, *args);
    c->add_flag("--json", *json, "print the same as one JSON object");
    c->callback([args, json, &out] { info(*args, *json, out); });
}

}  // namespace rbdgen
