// rbdgen synth TOPOLOGY SIZE [--seed S] [-o FILE]: a synthetic robot (model/synthetic.hpp) as URDF.
#include <fstream>
#include <ostream>

#include "cli/commands.hpp"
#include "model/error.hpp"
#include "model/synthetic.hpp"

namespace rbdgen {

void add_synth_command(CLI::App& app, std::ostream& out) {
    CLI::App* c = app.add_subcommand("synth", "write a synthetic URDF: Featherstone's Table 2 topologies or a robot "
                                              "shape, general geometry and random valid inertias");
    auto topology = std::make_shared<std::string>();
    auto size = std::make_shared<std::string>();
    auto seed = std::make_shared<std::string>("1");
    auto file = std::make_shared<std::string>();
    c->add_option("TOPOLOGY", *topology, "chain (n = SIZE), sidebranch (n = 2 SIZE), bintree (n = 2^SIZE - 1), grid "
                                         "(n = SIZE^2), or arm, dualarm, quadruped, humanoid (SIZE ignored)")->required()->type_name("");
    c->add_option("SIZE", *size, "the topology's size, 1 to 4096")->required()->type_name("");
    c->add_option("--seed", *seed, "random seed: the same seed gives the same file (default 1)")->type_name("S");
    c->add_option("-o,--output", *file, "write the URDF to FILE instead of standard output")->type_name("FILE");
    c->callback([=, &out] {
        int n = 0;
        std::uint64_t s = 1;
        try {
            n = std::stoi(*size);
            s = std::stoull(*seed);
        } catch (const std::exception&) {
            throw Error("rbdgen synth: SIZE and --seed must be integers");
        }
        if (n < 1 || n > 4096) throw Error("rbdgen synth: SIZE must be between 1 and 4096");
        const std::string urdf = synthetic_urdf(synthetic_tree(*topology, n), s);
        if (file->empty()) {
            out << urdf;
            return;
        }
        std::ofstream f(*file);
        if (!(f << urdf)) throw Error(*file + ": cannot write the URDF; check the directory exists and is writable");
    });
}

}  // namespace rbdgen
