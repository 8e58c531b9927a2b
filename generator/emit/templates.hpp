// The text templates of templates/, embedded in the generator at build time (so the rbdgen binary
// works wherever it is installed). Filled with fmt named arguments.
#pragma once

#include <string>

namespace rbdgen {

// The template `name` (a file name in templates/, e.g. "kernel.cpp.in").
const std::string& template_text(const std::string& name);

}  // namespace rbdgen
