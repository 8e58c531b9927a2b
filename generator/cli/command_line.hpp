// The whole command line: `rbdgen` with its subcommands (cli/commands.hpp). run_command_line runs the
// chosen one and returns the exit status: 0, 1 for an error the user can fix (message on stderr), 2 for
// no command. A header of its own, so that main.cpp compiles without CLI11 and the model.
#pragma once

namespace rbdgen {

int run_command_line(int argc, const char* const* argv);

}  // namespace rbdgen
