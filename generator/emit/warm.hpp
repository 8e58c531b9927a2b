// Cold calls: the robot header's enumeration of its kernels, each kernel's extent (the bounds of the
// sections its source file fills, which the linker gives) and warm(), which reads them into the caches.
#pragma once

#include <string>
#include <vector>

namespace rbdgen {

// The sections a kernel's source file fills (templates/kernel.cpp.in): its code always; its tables and
// its call tables (a uniform kernel's pointers to its steps) where it has them.
struct KernelSections {
    std::string kernel;
    bool tables = false, calls = false;
};
KernelSections kernel_sections(const std::string& kernel, const std::string& source);

// The header's declarations: enum class Kernel, extent(Kernel), warm(Kernel...), warm_all().
std::string warm_declarations(const std::string& ns, const std::vector<KernelSections>& kernels);

}  // namespace rbdgen
