#include <fmt/format.h>

#include "algorithms/com.hpp"
#include "algorithms/regressor.hpp"
#include "emit/emit_cpp.hpp"
#include "emit/emitted.hpp"
#include "emit/names.hpp"

namespace rbdgen {
namespace {

std::string declaration(const Emitted& e) {
    const Kernel& k = e.kernel;
    std::string sizes;
    auto shape = [](const KernelArray& a) {
        return a.cols == 1 ? fmt::format("[{}]", a.size()) : fmt::format("[{} x {}{}]", a.rows, a.cols,
                                                                         a.layout == ArrayLayout::LowerRowMajor ? ", lower" : "");
    };
    for (const KernelArray& a : k.inputs) sizes += fmt::format("//   {}{}: {}\n", a.name, shape(a), a.doc);
    for (const KernelArray& a : k.outputs) sizes += fmt::format("//   {}{} (out): {}\n", a.name, shape(a), a.doc);
    std::string constants;  // each array's size, for the caller's buffers
    for (const auto* arrays : {&k.inputs, &k.outputs})
        for (const KernelArray& a : *arrays) constants += fmt::format("constexpr int {}_{}_size = {};\n", k.name, a.name, a.size());
    std::string d = fmt::format("// {}\n{}// {}\nvoid {}({}) noexcept;\n// {} that first warms itself (warm below).\nvoid {}_cold({}) noexcept;\n{}\n",
                                k.doc, sizes, ops_text(e.ops()), k.name, kernel_parameters(k), k.name, k.name,
                                kernel_parameters(k, false, false, true), constants);
    if (e.with_sc)
        d += fmt::format("// {} with sin_q[NQ], cos_q[NQ] = sin, cos of q given (see sincos below).\nvoid {}_sc({}) noexcept;\n\n",
                         k.name, k.name, kernel_parameters(k, true));
    return d;
}

// A Batch wider than the target's vector registers is split by the compiler into pieces, every
// operation: measured with g++ 12 on the 30-DoF humanoid's fd_lu, 4 doubles without AVX compile in
// 101 s at -O1 (1.8 s with -mavx2 at -O0), 8 doubles with AVX2 only in 127 s at -O2 (22 s with
// AVX-512). The header says so at compile time rather than leave it to be found (RBDGEN_BATCH_WIDTH_OK
// silences it in code that only passes arrays of Batch to kernels built for the target).
std::string batch_width_check(int bytes) {
    if (bytes <= 16) return "";
    const char* condition = bytes == 32 ? "!defined(__AVX__)" : "!defined(__AVX512F__)";
    return fmt::format("#if {} && !defined(RBDGEN_BATCH_WIDTH_OK)\n#warning \"Batch is {} bytes, wider than this target's vector registers: the compiler splits every "
                       "operation, slow to compile and to run. Build with {} (or -march=native), or regenerate with a smaller "
                       "--batch\"\n#endif\n",
                       condition, bytes, bytes == 32 ? "-mavx2" : "-mavx512f");
}

}  // namespace

std::string header_file(const Context& c, const std::vector<Emitted>& kernels, const std::vector<KernelSections>& sections) {
    const Model& model = c.model;
    std::string joint_comments, joint_table, dof_names, declarations;
    for (const Body& b : model.bodies) {
        joint_comments += fmt::format("//   {:<24} {} (q[{}], qd[{}])\n", comment_text(b.joint_name),
                                      b.joint.type == JointType::Floating ? "floating" :
                                      b.joint.type == JointType::Ball     ? "ball" :
                                      b.joint.type == JointType::Revolute ? "revolute" : "prismatic",
                                      b.q_index, b.v_index);
        joint_table += fmt::format("    {{{}, {}, {}, {}, {}}},\n", string_literal(b.joint_name),
                                   b.joint.type == JointType::Floating ? "true" : "false",
                                   b.joint.type == JointType::Ball ? "true" : "false", b.q_index, b.v_index);
    }
    for (const std::string& d : model.dof_names()) dof_names += "    " + string_literal(d) + ",\n";
    if (!c.payload_links.empty()) {  // the URDF's values of the kernels' input pi
        std::string values, links;
        for (size_t k = 0; k < c.payload_links.size(); ++k) {
            links += fmt::format("//   {}: {}\n", k, comment_text(c.payload_links[k]));
            values += "   ";
            for (int p = 0; p < kInertialParameters; ++p) values += fmt::format(" {},", scalar_literal(c.payload_urdf[kInertialParameters * k + p], c.o.scalar));
            values += "\n";
        }
        declarations += fmt::format(
            "// The URDF's inertial parameters of the links whose parameters the kernels take (input pi), a row\n"
            "// of 10 a link: m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz, in the link's URDF frame, the\n"
            "// rotational inertia about its origin. Start from these and add a payload's. The kernels assume a\n"
            "// physical body (m > 0, the inertia about the centre of mass positive definite): the caller ensures it.\n"
            "{}inline constexpr Scalar parameters_urdf[{}] = {{\n{}}};\n\n",
            links, c.payload_urdf.size(), values);
    }
    for (const Emitted& e : kernels) declarations += declaration(e);
    if (c.o.batch) {
        std::string batched;
        for (const Emitted& e : kernels) {
            std::string sizes;
            for (const auto* arrays : {&e.kernel.inputs, &e.kernel.outputs})
                for (const KernelArray& a : *arrays) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", a.size());
            batched += fmt::format("void {}({}) noexcept;\ninline constexpr int {}_sizes[] = {{{}}};\n", e.kernel.name,
                                   kernel_parameters(e.kernel, false, true), e.kernel.name, sizes);
        }
        declarations += fmt::format(
            "// The batched kernels (--batch {0}): BATCH states a call, structure of arrays. Each kernel of batch:: takes\n"
            "// the arrays of the kernel of the same name above, of Batch instead of Scalar: element i of an array\n"
            "// holds element i of the BATCH states, one a lane (x[i][s] of state s). Lane s computes what the\n"
            "// single-state kernel computes for state s. Batch is a vector of the compiler's vector extensions\n"
            "// (GCC, Clang) and has its natural alignment (BATCH x sizeof(Scalar) bytes): use arrays of Batch, as\n"
            "// std::vector<Batch> or alignas(Batch). <kernel>_sizes: each argument's number of Batch, in order.\n"
            "inline constexpr int BATCH = {0};\n"
            "#if defined(__GNUC__) || defined(__clang__)\n"
            "typedef Scalar Batch __attribute__((vector_size(BATCH * sizeof(Scalar))));\n"
            "#else\n#error \"the batched kernels (rbdgen generate --batch) need GCC's or Clang's vector extensions\"\n#endif\n"
            "{2}namespace batch {{\n{1}}}  // namespace batch\n\n",
            c.o.batch, batched, batch_width_check(c.o.batch * (c.o.scalar == "float" ? 4 : 8)));
    }
    declarations += warm_declarations(c.ns, sections);
    if (c.o.trig_entry_points)
        declarations += "// sin and cos of every joint position, for the _sc entry points (entries of non-revolute coordinates are\n"
                        "// computed too, and ignored).\ninline void sincos(const Scalar* RBDGEN_RESTRICT q, Scalar* RBDGEN_RESTRICT sin_q, "
                        "Scalar* RBDGEN_RESTRICT cos_q) noexcept {\n    for (int i = 0; i < NQ; ++i) rbdgen_sincos(q[i], &sin_q[i], &cos_q[i]);\n}\n\n";
    fmt::dynamic_format_arg_store<fmt::format_context> h;
    h.push_back(fmt::arg("banner", c.banner));
    h.push_back(fmt::arg("robot_comment", comment_text("robot " + model.name)));
    h.push_back(fmt::arg("ns", c.ns));
    h.push_back(fmt::arg("scalar", c.o.scalar));
    h.push_back(fmt::arg("nq", model.nq));
    h.push_back(fmt::arg("nv", model.nv));
    h.push_back(fmt::arg("nb", model.N()));
    h.push_back(fmt::arg("total_mass", fmt::format("{}", total_mass(model))));
    const Vec3<double> g = model.gravity.value_or(Vec3<double>(0, 0, -9.81));
    h.push_back(fmt::arg("gravity", fmt::format("{{{}, {}, {}}}", g[0], g[1], g[2])));
    h.push_back(fmt::arg("joint_comments", joint_comments));
    h.push_back(fmt::arg("joint_table", joint_table));
    h.push_back(fmt::arg("dof_names", dof_names));
    h.push_back(fmt::arg("fd_refusal", string_literal(c.fd_refusal)));
    h.push_back(fmt::arg("declarations", declarations));
    return fill("robot.hpp.in", h);
}

}  // namespace rbdgen
