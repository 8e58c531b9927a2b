// rbdgen: URDF in, specialized rigid-body dynamics out. See README.md and docs/.
#include <iostream>

#include "cli/command_line.hpp"
#include "model/error.hpp"

int main(int argc, char** argv) {
    try {
        return rbdgen::run_command_line(argc, argv);
    } catch (const rbdgen::Error& e) {
        std::cerr << "rbdgen: error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rbdgen: internal error: " << e.what() << "\n";
        return 3;
    }
}
