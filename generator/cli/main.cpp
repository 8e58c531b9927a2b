// rbdgen: URDF in, specialized rigid-body dynamics out. See README.md.
#include <iostream>

#include "cli/commands.hpp"
#include "model/error.hpp"

int main(int argc, char** argv) {
    const std::string usage =
        "usage: rbdgen info ROBOT.urdf [--floating-base] [--strict-inertia] [--json]\n"
        "       rbdgen eval ROBOT.urdf [--floating-base] [--strict-inertia] --state STATE.json\n"
        "       rbdgen generate ROBOT.urdf -o DIR [--name NAME] [--floating-base] [--strict-inertia]\n"
        "                       [--scalar double|float] [--kernels fk,rnea,gravity,crba,ltdl,ltdl_solve,fd_crba_ltdl,aba,jacobians]\n"
        "                       [--max-operations N] [--snap-tolerance T] [--trig-entry-points]\n"
        "       rbdgen synth TOPOLOGY SIZE [--seed S] [-o FILE]\n";
    if (argc < 2) {
        std::cerr << usage;
        return 2;
    }
    const std::string command = argv[1];
    const rbdgen::Args args(argv + 2, argv + argc);
    try {
        if (command == "info") return rbdgen::command_info(args, std::cout);
        if (command == "eval") return rbdgen::command_eval(args, std::cout);
        if (command == "generate") return rbdgen::command_generate(args, std::cout);
        if (command == "synth") return rbdgen::command_synth(args, std::cout);
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage;
            return 0;
        }
        std::cerr << "rbdgen: unknown command '" << command << "'\n" << usage;
        return 2;
    } catch (const rbdgen::Error& e) {
        std::cerr << "rbdgen: error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rbdgen: internal error: " << e.what() << "\n";
        return 3;
    }
}
