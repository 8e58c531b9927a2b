// rbdgen synth TOPOLOGY SIZE [--seed S] [-o FILE]: a synthetic robot (model/synthetic.hpp) as URDF.
#include <fstream>
#include <ostream>

#include "cli/commands.hpp"
#include "model/error.hpp"
#include "model/synthetic.hpp"

namespace rbdgen {

int command_synth(const Args& args, std::ostream& out) {
    const ParsedArgs a = parse_args("synth", args, {}, {"--seed", "-o"});
    if (a.positional.size() != 2) throw Error("usage: rbdgen synth TOPOLOGY SIZE [--seed S] [-o FILE]");
    int size = 0;
    std::uint64_t seed = 1;
    try {
        size = std::stoi(a.positional[1]);
        seed = std::stoull(a.value("--seed", "1"));
    } catch (const std::exception&) {
        throw Error("rbdgen synth: SIZE and --seed must be integers");
    }
    if (size < 1 || size > 4096) throw Error("rbdgen synth: SIZE must be between 1 and 4096");
    const std::string urdf = synthetic_urdf(synthetic_tree(a.positional[0], size), seed);
    if (!a.has("-o")) {
        out << urdf;
        return 0;
    }
    const std::string path = a.value("-o");
    std::ofstream file(path);
    if (!(file << urdf)) throw Error(path + ": cannot write the URDF; check the directory exists and is writable");
    return 0;
}

}  // namespace rbdgen
