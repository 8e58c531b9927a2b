// What a compiler makes of the emitted kernels: each kernel's machine code and its worst stack frame,
// measured by compiling it (`rbdgen generate --measure COMPILER`). The kernels call nothing but
// libm's sin, cos and sqrt, so the worst frame of a kernel's object is the stack it needs beyond
// those leaf routines'. Reported under report.json's "host_build" and in report.md, with the bytes
// of its tables and constants.
#pragma once

#include <string>

#include "emit/generate.hpp"

namespace rbdgen {

// The flags every kernel is measured with: rbdgen_add_robot's default -Os, freestanding.
inline constexpr const char* kMeasureFlags = "-std=c++17 -Os -ffreestanding -fno-exceptions -fno-rtti -fstack-usage";

// Compiles every kernel source of `files` (robot `name`) with `compiler` in a temporary folder and
// adds the results to report.json and report.md. Throws rbdgen::Error naming the compiler and the
// kernel when a compilation fails or the compiler gives no stack usage (-fstack-usage is GCC's and
// Clang's).
void measure_kernels(Files& files, const std::string& name, const std::string& compiler);

// An ELF object's bytes (32- or 64-bit): its machine code (sections with the execute flag) and its
// data (.rodata*, .data* and the kernel's own table sections: the compact and uniform kernels'
// constexpr tables, a straight-line kernel's literal pool; not the unwind tables). Of these, what is
// in the kernel's own sections (rbdgen_<robot>_<kernel>_code, _tables, _calls: what warm() reads),
// and the cache lines of 64 bytes they fill, each section starting on a line. Throws rbdgen::Error
// for a file that is not a little-endian ELF object.
struct ElfBytes {
    long text = 0, data = 0;
    long own_code = 0, own_tables = 0, own_lines = 0;
};
ElfBytes elf_bytes(const std::string& object_path);

}  // namespace rbdgen
