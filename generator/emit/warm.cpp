#include "emit/warm.hpp"

#include <fmt/format.h>

namespace rbdgen {

KernelSections kernel_sections(const std::string& kernel, const std::string& source) {
    return {kernel, source.find("RBDGEN_TABLE constexpr") != std::string::npos, source.find("RBDGEN_CALLS constexpr") != std::string::npos};
}

std::string warm_declarations(const std::string& ns, const std::vector<KernelSections>& kernels) {
    std::string names, bounds, cases;
    for (const KernelSections& k : kernels) {
        const std::string section = fmt::format("rbdgen_{}_{}_", ns, k.kernel);
        names += fmt::format("    {},\n", k.kernel);
        const auto range = [&](bool filled, const char* part) {
            if (!filled) return std::string("{nullptr, nullptr}");
            bounds += fmt::format("RBDGEN_BOUNDS({}{})\n", section, part);
            return fmt::format("{{RBDGEN_RANGE({}{})}}", section, part);
        };
        const std::string code = range(true, "code"), tables = range(k.tables, "tables"), calls = range(k.calls, "calls");
        cases += fmt::format("        case Kernel::{}: return {{{{{}, {}, {}}}}};\n", k.kernel, code, tables, calls);
    }
    return fmt::format(
        "// Cold calls. Where other work runs between two calls of a kernel, its code and tables are no longer\n"
        "// in the caches, and the core fetches them a cache line at a time as it runs into them. Each kernel's\n"
        "// code and tables are in sections of their own (rbdgen_runtime.hpp); warm(kernels) reads one byte of\n"
        "// each of their cache lines, loads that do not wait for each other, so that the kernels then run\n"
        "// from the caches. Call it ahead, while the controller waits for its sensors, never in a hot loop:\n"
        "//\n"
        "//     {0}::warm({0}::Kernel::rnea, {0}::Kernel::aba);  // at the start of the cycle\n"
        "//     read_sensors(q, qd);  // other work, while the lines arrive\n"
        "//     {0}::aba(q, qd, tau, gravity, qdd);\n"
        "//\n"
        "// <kernel>_cold() warms and then calls the kernel, for a caller that cannot warm ahead. warm_all()\n"
        "// warms every kernel linked into the program: a kernel of the static library that the program\n"
        "// never calls is not linked, and warm() skips it. On Cortex-M warm() does nothing (see\n"
        "// rbdgen_warm), and where the sections are not available (not ELF, RBDGEN_NO_SECTIONS) neither.\n"
        "enum class Kernel {{\n{1}}};\n"
        "inline constexpr int kernel_count = {2};\n"
        "{3}"
        "// The kernel's code, tables and call tables, [begin, end) each, as the linker placed them (null where\n"
        "// the kernel has none or is not linked).\n"
        "inline rbdgen_extent extent(Kernel kernel) noexcept {{\n"
        "    switch (kernel) {{\n{4}    }}\n"
        "    return {{}};\n"
        "}}\n"
        "inline void warm(Kernel kernel) noexcept {{ rbdgen_warm(extent(kernel)); }}\n"
        "template <class... More> inline void warm(Kernel kernel, More... more) noexcept {{\n"
        "    warm(kernel);\n"
        "    warm(more...);\n"
        "}}\n"
        "inline void warm_all() noexcept {{\n"
        "    for (int k = 0; k < kernel_count; ++k) warm(static_cast<Kernel>(k));\n"
        "}}\n\n",
        ns, names, kernels.size(), bounds, cases);
}

}  // namespace rbdgen
