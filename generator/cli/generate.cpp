// rbdgen generate ROBOT.urdf -o DIR [--name NAME] [--floating-base] [--scalar double|float]
//                 [--kernels LIST]: the robot's straight-line kernels, header, drivers and report.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "emit/generate.hpp"
#include "emit/names.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

int command_generate(const Args& args, std::ostream& out) {
    const ParsedArgs a = parse_args("generate", args, with(model_flags, {"--trig-entry-points"}), {"-o", "--name", "--scalar", "--kernels", "--max-operations", "--snap-tolerance"});
    if (a.positional.size() != 1 || !a.has("-o"))
        throw Error("usage: rbdgen generate ROBOT.urdf -o DIR [--name NAME] [--floating-base] [--scalar double|float] "
                    "[--kernels k1,k2,...]");
    const std::string path = a.positional[0];
    const Model model = load_model(path, load_options(a));
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();

    GenerateOptions o;
    o.name = a.value("--name", sanitize_identifier(model.name));
    o.scalar = a.value("--scalar", "double");
    std::stringstream list(a.value("--kernels"));
    for (std::string k; std::getline(list, k, ',');)
        if (!k.empty()) o.kernels.push_back(k);
    try {
        o.max_operations = std::stoi(a.value("--max-operations", "4000000"));
    } catch (const std::exception&) {
        throw Error("--max-operations must be an integer");
    }
    try {
        o.snap_tolerance = std::stod(a.value("--snap-tolerance", "1e-7"));
    } catch (const std::exception&) {
        throw Error("--snap-tolerance must be a number (0 disables snapping)");
    }
    if (!(o.snap_tolerance >= 0 && o.snap_tolerance <= 1e-3))
        throw Error("--snap-tolerance must be between 0 and 1e-3 (it snaps entries meant to be exactly 0 or 1)");
    // The command line without -o DIR: where the files go does not change what they say.
    o.command_line = "rbdgen generate";
    for (size_t k = 0; k < args.size(); ++k) {
        if (args[k] == "-o") ++k;
        else o.command_line += " " + args[k];
    }
    o.urdf_text = text.str();
    o.trig_entry_points = a.has("--trig-entry-points");
    if (!forward_dynamics_refusal(model).empty())
        std::cerr << "rbdgen: warning: " << forward_dynamics_refusal(model)
                  << " (its forward-dynamics kernels return NaN)\n";

    const Files files = generate_sources(model, o);
    write_atomically(a.value("-o"), files);
    out << "rbdgen: wrote " << files.size() << " files for " << o.name << " to " << a.value("-o") << "\n";
    return 0;
}

}  // namespace rbdgen
