// The subcommands of `rbdgen`. Each takes its arguments after the subcommand name, writes its
// result to `out`, and throws rbdgen::Error for anything the user can fix.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace rbdgen {

using Args = std::vector<std::string>;

int command_info(const Args& args, std::ostream& out);
int command_eval(const Args& args, std::ostream& out);
int command_synth(const Args& args, std::ostream& out);
int command_generate(const Args& args, std::ostream& out);

// Load the URDF and print the model's warnings (mimic joints, ...) on stderr.
struct Model;
struct LoadOptions;
LoadOptions load_options(const struct ParsedArgs& args);
Model load_model(const std::string& path, const LoadOptions& options);
// Flags every command that reads a URDF accepts.
inline const std::vector<std::string> model_flags = {"--floating-base", "--strict-inertia"};
inline std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The state layout of a model (joint names and coordinates), as STATE.json addresses them.
struct Layout;
Layout model_layout(const Model& model);

// Options shared by the subcommands: positional arguments and --flags with or without a value.
struct ParsedArgs {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options;  // (--name, value or "")
    bool has(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback = "") const;
};
// `with_value` lists the options that take a value; any other option not in `flags` is an error.
ParsedArgs parse_args(const std::string& command, const Args& args, const std::vector<std::string>& flags,
                      const std::vector<std::string>& with_value);

}  // namespace rbdgen
