// The one exception type for errors a user can cause: its message names the file, link, joint or
// option and says what to change. The command prints it and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace rbdgen {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace rbdgen
