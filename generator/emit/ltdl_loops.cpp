// ltdl_loop_function and ltdl_loop_ops (emit/ltdl_loops.hpp).
#include "emit/ltdl_loops.hpp"

#include <fmt/format.h>

#include "algorithms/ltdl.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace {

using Loops = KernelSpec::LtdlLoops;

std::string table(const std::string& type, const std::string& name, const std::vector<int>& values) {
    std::string t = fmt::format("constexpr {} {}[] = {{", type, name);
    for (size_t i = 0; i < values.size(); ++i) t += fmt::format("{}{}", i == 0 ? "\n    " : i % 24 ? ", " : ",\n    ", values[i]);
    return t + "};\n";
}

}  // namespace

sym::OpCounts ltdl_loop_ops(const Model& model, Loops loops, bool keep_divisions) {
    const LtdlRows rows = ltdl_rows(expanded_parent(model));
    sym::OpCounts n;
    if (loops == Loops::FactorAndSolve) n.add += model.nv;  // τ − C
    for (int k = 0; k < model.nv; ++k) {
        const long d = rows.off[k + 1] - rows.off[k];
        if (loops != Loops::Solve) {  // rbdgen_ltdl's row k
            const bool reciprocal = !keep_divisions && d > 2;
            n.div += reciprocal ? 1 : d - 1;
            n.mul += (reciprocal ? d - 1 : 0) + d * (d - 1) / 2;
            n.add += d * (d - 1) / 2;
        }
        if (loops != Loops::Factor) n.mul += 2 * (d - 1), n.add += 2 * (d - 1), n.div += 1;  // rbdgen_ltdl_solve's
    }
    return n;
}

LoopFunction ltdl_loop_function(const Model& model, const Kernel& k, const Kernel* head, const std::string& head_definitions,
                                const std::string& head_body, const EmitOptions& options, const std::string& prefix,
                                bool keep_divisions) {
    const Loops loops = k.spec->ltdl_loops;
    const LtdlRows rows = ltdl_rows(expanded_parent(model));
    const int n = model.nv, nnz = static_cast<int>(rows.col.size());
    // where A keeps entry e: the dense NV x NV arrays of ltdl and ltdl_solve, or fd_crba_ltdl's own array of the nonzeros
    std::vector<int> at(nnz);
    for (int r = 0; r < n; ++r)
        for (int e = rows.off[r]; e < rows.off[r + 1]; ++e) at[e] = loops == Loops::FactorAndSolve ? e : r * n + rows.col[e];
    const std::string index = n * n < 65536 ? "unsigned short" : "int";
    const std::string type = options.batch ? "Batch" : "Scalar";
    LoopFunction f;
    f.definitions = "// LTDL's rows (rbdgen_ltdl in rbdgen_runtime.hpp): row k is entries off[k] to off[k + 1] - 1, "
                    "a row its diagonal and then its ancestors\n" +
                    table(index, prefix + "off", rows.off) + table(index, prefix + "col", rows.col) + table(index, prefix + "at", at);
    const std::string tables = fmt::format("{0}off, {0}col, {0}at, {1}", prefix, n);
    const std::string factor = fmt::format("    rbdgen_ltdl<{}, {}, {}>(", type, index, keep_divisions ? "false" : "true");
    const std::string solve = fmt::format("    rbdgen_ltdl_solve<{}, {}>(", type, index);
    switch (loops) {
        case Loops::Factor:  // LD = the lower triangle's nonzeros of H, zero elsewhere, then factorized
            f.body = fmt::format("    for (int e = 0; e < {}; ++e) LD[e] = {}{{}};\n", n * n, type) +
                     fmt::format("    for (int e = 0; e < {}; ++e) LD[{}at[e]] = H[{}at[e]];\n", nnz, prefix, prefix) +
                     factor + "LD, " + tables + ");\n";
            break;
        case Loops::Solve:
            f.body = fmt::format("    for (int i = 0; i < {}; ++i) x[i] = b[i];\n", n) + solve + "LD, " + tables + ", x);\n";
            break;
        case Loops::FactorAndSolve: {
            const bool sc = options.precomputed_trig;
            std::string arguments = sc ? "sin_q, cos_q, " : "";
            const std::vector<bool> named = arrays_named(*head);
            for (size_t i = 0; i < head->inputs.size(); ++i) arguments += (named[i] ? head->inputs[i].name : "nullptr") + ", ";
            f.definitions += head_definitions + fmt::format("static void {}head({}) noexcept {{\n{}}}\n\n", prefix,
                                                            kernel_parameters(*head, sc, options.batch), head_body);
            f.body = fmt::format("    {} H[{}];  // H's nonzeros, then L and D\n", type, nnz) +
                     fmt::format("    {}head({}H, qdd);  // and C in qdd\n", prefix, arguments) +
                     fmt::format("    for (int i = 0; i < {}; ++i) qdd[i] = tau[i] - qdd[i];\n", n) + factor + "H, " + tables +
                     ");\n" + solve + "H, " + tables + ", qdd);\n";
            break;
        }
        case Loops::None: break;
    }
    return f;
}

}  // namespace rbdgen
