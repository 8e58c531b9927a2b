// Writes a generated robot's Python module: one registration a kernel, from its traced arrays.
#include "emit/python.hpp"

#include <fmt/format.h>

#include "emit/names.hpp"

namespace rbdgen {

namespace {

// An array's entry in rbdgen::python::Array: name, rows, cols (0: a vector), its default if any.
std::string array_entry(const KernelArray& a, const std::string& preset) {
    return fmt::format("{{\"{}\", {}, {}, {}}}", a.name, a.rows, a.cols == 1 ? 0 : a.cols, preset.empty() ? "nullptr" : preset);
}

}  // namespace

std::string python_module(const std::string& ns, const std::string& header, const std::string& banner,
                          const std::vector<PythonKernel>& kernels, int batch) {
    std::string presets, registrations;
    for (const PythonKernel& p : kernels) {
        const Kernel& k = *p.kernel;
        std::string inputs, outputs, args;
        for (size_t i = 0; i < k.inputs.size(); ++i) {
            const ArraySpec& spec = k.spec->inputs[i];
            std::string preset;
            if (spec.state == StateField::Gravity) preset = "r::default_gravity";
            if (!spec.defaults.empty()) {  // a payload's URDF parameters
                preset = fmt::format("k_{}_{}", k.name, spec.name);
                presets += fmt::format("const double {}[] = {{{}}};\n", preset, fmt::join(spec.defaults, ", "));
            }
            inputs += (i ? ", " : "") + array_entry(k.inputs[i], preset);
            args += fmt::format("in[{}], ", i);
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            outputs += (o ? ", " : "") + array_entry(k.outputs[o], "");
            args += fmt::format("out[{}]{}", o, o + 1 < k.outputs.size() ? ", " : "");
        }
        const std::string batched =
            batch ? fmt::format(",\n        [](const r::Batch* const* in, r::Batch* const* out) {{ r::batch::{}({}); }}", k.name, args) : "";
        registrations += fmt::format(
            "    rbdgen::python::kernel<r::Scalar{6}>(m, \"{0}\", {1}, {{{2}}}, {{{3}}},\n"
            "        [](const r::Scalar* const* in, r::Scalar* const* out) {{ r::{0}({4}); }}, {5}{7});\n",
            k.name, string_literal(k.doc), inputs, outputs, args, p.refused ? "r::fd_refusal" : "nullptr", batch ? ", r::Batch" : "",
            batched);
    }
    return fmt::format(
        "// {0}\n"
        "//\n"
        "// The Python module {1} (pybind11): every kernel of {2} as a function of NumPy arrays, one state or many\n"
        "// (templates/rbdgen_python.hpp.in, rbdgen_python.hpp here, says how they are called).\n"
        "#include \"{2}\"\n"
        "#include \"rbdgen_python.hpp\"\n\n"
        "namespace {{\n"
        "{3}"
        "}}  // namespace\n\n"
        "PYBIND11_MODULE({1}, m) {{\n"
        "    namespace r = {1};\n"
        "    m.doc() = {4};\n"
        "    rbdgen::python::robot<r::Scalar>(m, r::NQ, r::NV, r::joints, r::NB, r::dof_names, r::fd_refusal, {6}, r::default_gravity);\n"
        "    m.attr(\"total_mass\") = r::total_mass;  // the moving bodies' mass, kg\n"
        "{5}"
        "}}\n",
        banner, ns, header, presets, string_literal("rbdgen's kernels for robot " + ns + ": " + header + " as NumPy functions"),
        registrations, batch ? "r::BATCH" : "0");
}

}  // namespace rbdgen
