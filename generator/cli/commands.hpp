// The subcommands of `rbdgen`, on CLI11. Each add_*_command registers its subcommand, its options
// with what each does (`rbdgen COMMAND --help`), and the action, which writes its result to `out`
// and throws rbdgen::Error for anything the user can fix.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>

#include "cli/command_line.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

void add_info_command(CLI::App& app, std::ostream& out);
void add_eval_command(CLI::App& app, std::ostream& out);
void add_generate_command(CLI::App& app, std::ostream& out);
void add_synth_command(CLI::App& app, std::ostream& out);

// ROBOT.urdf and the flags of every command that reads a URDF.
struct ModelArgs {
    std::string urdf;
    LoadOptions options;
    std::string armature;  // --armature JOINT=VALUE,..., parsed into options by load_model
};
void add_model_args(CLI::App& command, ModelArgs& args);
// Loads the URDF and prints the model's warnings (mimic joints, ...) on stderr.
Model load_model(const ModelArgs& args);

// The state layout of a model (joint names and coordinates), as STATE.json addresses them.
struct Layout;
Layout model_layout(const Model& model);

}  // namespace rbdgen
