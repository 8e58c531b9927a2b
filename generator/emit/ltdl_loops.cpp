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
    // LTDL works on an array of just the rows, contiguous: ltdl copies them in and out of its dense
    // NV x NV arrays by `at` (the floating humanoid's 1195 → 906 ns hot, the copies included);
    // ltdl_solve reads LD through `at`
    std::vector<int> at(nnz);
    for (int r = 0; r < n; ++r)
        for (int e = rows.off[r]; e < rows.off[r + 1]; ++e) at[e] = r * n + rows.col[e];
    const std::string index = n * n < 65536 ? "unsigned short" : "int";
    const std::string type = options.batch ? "Batch" : "Scalar";
    LoopFunction f;
    f.definitions = "// LTDL's rows (rbdgen_ltdl in rbdgen_runtime.hpp): row k is entries off[k] to off[k + 1] - 1, "
                    "a row its diagonal and then its ancestors\n" +
                    table(index, prefix + "off", rows.off) + table(index, prefix + "col", rows.col) +
                    (loops == Loops::FactorAndSolve ? "" : table(index, prefix + "at", at));
    const std::string tables = fmt::format("{0}off, {0}col, static_cast<const {2}*>(nullptr), {1}", prefix, n, index);
    const std::string factor = fmt::format("    rbdgen_ltdl<{}, {}, {}, true>(", type, index, keep_divisions ? "false" : "true");
    const std::string solve = fmt::format("    rbdgen_ltdl_solve<{}, {}, true>(", type, index);
    const std::string rows_array = fmt::format("    {} A[{}];  // the rows\n", type, nnz);
    switch (loops) {
        case Loops::Factor:  // LD: the factors where H has its lower triangle's nonzeros, zero elsewhere
            f.body = rows_array + fmt::format("    for (int e = 0; e < {}; ++e) A[e] = H[{}at[e]];\n", nnz, prefix) + factor + "A, " +
                     tables + ");\n" + fmt::format("    for (int e = 0; e < {}; ++e) LD[e] = {}{{}};\n", n * n, type) +
                     fmt::format("    for (int e = 0; e < {}; ++e) LD[{}at[e]] = A[e];\n", nnz, prefix);
            break;
        case Loops::Solve:  // through `at` (a copy into rows costs more than it saves here)
            f.body = fmt::format("    for (int i = 0; i < {}; ++i) x[i] = b[i];\n", n) +
                     fmt::format("    rbdgen_ltdl_solve<{}, {}, false>(LD, {}off, {}col, {}at, {}, x);\n", type, index, prefix, prefix, prefix, n);
            break;
        case Loops::FactorAndSolve: {
            const bool sc = options.precomputed_trig;
            std::string arguments = sc ? "sin_q, cos_q, " : "";
            const std::vector<bool> named = arrays_named(*head);
            for (size_t i = 0; i < head->inputs.size(); ++i) arguments += (named[i] ? head->inputs[i].name : "nullptr") + ", ";
            f.definitions += head_definitions + fmt::format("static void {}head({}) noexcept {{\n{}}}\n\n", prefix,
                                                            kernel_parameters(*head, sc, options.batch), head_body);
            f.body = rows_array + fmt::format("    {}head({}A, qdd);  // H's rows, and C in qdd\n", prefix, arguments) +
                     fmt::format("    for (int i = 0; i < {}; ++i) qdd[i] = tau[i] - qdd[i];\n", n) + factor + "A, " + tables +
                     ");\n" + solve + "A, " + tables + ", qdd);\n";
            break;
        }
        case Loops::None: break;
    }
    return f;
}

}  // namespace rbdgen
