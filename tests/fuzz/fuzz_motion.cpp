// libFuzzer target: motion input (fuzz_commands.hpp says what it runs).
#include "fuzz_target.hpp"

RBDGEN_FUZZ_TARGET("motion")
