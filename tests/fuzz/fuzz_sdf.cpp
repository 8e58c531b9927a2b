// libFuzzer target: sdf input (fuzz_commands.hpp says what it runs).
#include "fuzz_target.hpp"

RBDGEN_FUZZ_TARGET("sdf")
