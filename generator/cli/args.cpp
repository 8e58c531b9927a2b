// The command line (CLI11) and what the commands share: the model arguments and their loading.
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/state.hpp"
#include "model/error.hpp"
#include "model/load_model.hpp"
#include "model/xml_text.hpp"

#ifndef RBDGEN_VERSION
#error "RBDGEN_VERSION is defined by the build (the project's version)"
#endif

namespace rbdgen {

void add_model_args(CLI::App& command, ModelArgs& args) {
    command.add_option("ROBOT.urdf", args.urdf, "the robot's file: URDF, MJCF or SDFormat, recognised by its root element (<robot>, <mujoco>, <sdf>)")->required()->type_name("");
    command.add_flag("--floating-base", args.options.floating_base,
                     "add a 6-DoF joint between the world and the root link (legged robots, humanoids); its velocity "
                     "is in base-body coordinates, its pose a position and a unit quaternion (x, y, z, w)");
    command.add_flag("--strict-inertia", args.options.strict_inertia,
                     "make an inertia whose principal moments violate the triangle inequality an error (by default "
                     "a warning: its spatial inertia is still positive definite)");
    command.add_option("--armature", args.armature,
                       "comma-separated JOINT=VALUE: each joint's armature (the rotor's inertia reflected through the gear, "
                       "kg m^2), tau += armature qdd, for a URDF, which has no field for it, or in place of an MJCF file's")
        ->type_name("JOINT=VALUE,...");
}

namespace {
// "a=0.1,b=0.2" as (joint, value) pairs; the value after a joint's last '='.
std::vector<std::pair<std::string, double>> parse_armature(const std::string& text) {
    std::vector<std::pair<std::string, double>> out;
    std::stringstream entries(text);
    for (std::string entry; std::getline(entries, entry, ',');) {
        const size_t eq = entry.rfind('=');
        double value = 0;
        std::string why;
        if (eq == std::string::npos || eq == 0 || !parse_number(entry.substr(eq + 1), value, why))
            throw Error("--armature: '" + entry + "' is not JOINT=VALUE with a finite number; write e.g. --armature shoulder=0.05,elbow=0.02");
        out.emplace_back(entry.substr(0, eq), value);
    }
    return out;
}
}  // namespace

Model load_model(const ModelArgs& args) {
    LoadOptions options = args.options;
    if (!args.armature.empty()) options.armature = parse_armature(args.armature);
    Model model = load_model(args.urdf, options);
    for (const std::string& w : model.warnings) std::cerr << "rbdgen: warning: " << w << "\n";
    return model;
}

Layout model_layout(const Model& model) {
    Layout layout;
    layout.source = model.source;
    layout.nq = model.nq;
    layout.nv = model.nv;
    layout.dof_names = model.dof_names();
    if (model.gravity) layout.gravity = *model.gravity;
    for (const Body& b : model.bodies)
        layout.joints.push_back({b.joint_name, b.joint.type == JointType::Floating, b.joint.type == JointType::Ball, b.q_index, b.v_index});
    return layout;
}

namespace {

// What went wrong on the command line, in the words rbdgen has always used for it.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const CLI::App& command = chosen.empty() ? app : *chosen.front();
    const std::string name = chosen.empty() ? "rbdgen" : "rbdgen " + command.get_name();
    const std::string help = " (see " + name + " --help)";
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
        for (const std::string& extra : command.remaining()) {
            if (extra.size() < 2 || extra[0] != '-') return name + ": unexpected argument '" + extra + "'" + help;
            std::string known;
            for (const CLI::Option* o : command.get_options())
                if (!o->get_positional() && o->get_name() != "--help") known += " " + o->get_name(false, true);
            return name + ": unknown option '" + extra + "'; options are" + known + help;
        }
    }
    return name + ": " + e.what() + help;
}

}  // namespace

int run_command_line(int argc, const char* const* argv) {
    CLI::App app{"rbdgen " RBDGEN_VERSION ": a robot's URDF in, specialized straight-line C++ dynamics kernels out.",
                 "rbdgen"};
    app.set_version_flag("--version", "rbdgen " RBDGEN_VERSION, "print the generator's version and exit");
    app.require_subcommand(1);
    app.footer("Errors name the file, link, joint or key and what to change, and exit with status 1.\n"
               "`rbdgen COMMAND --help` lists a command's options.");
    add_info_command(app, std::cout);
    add_eval_command(app, std::cout);
    add_generate_command(app, std::cout);
    add_synth_command(app, std::cout);
    try {
        app.parse(argc, argv);
        return 0;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        if (app.get_subcommands().empty()) {
            const bool named = argc >= 2 && argv[1][0] != '-';
            std::cerr << "rbdgen: " << (argc < 2 ? "no command given" : named ? "unknown command '" + std::string(argv[1]) + "'" : e.what())
                      << "\n" << app.help();
            return 2;
        }
        std::cerr << "rbdgen: error: " << parse_error_message(app, e) << "\n";
        return 1;
    }
}

}  // namespace rbdgen
