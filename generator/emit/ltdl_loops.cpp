// ltdl_loop_function and ltdl_loop_ops (emit/ltdl_loops.hpp).
#include "emit/ltdl_loops.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "algorithms/ltdl.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace {

using Loops = KernelSpec::LtdlLoops;

// The call of a head or tail: sin_q and cos_q first for an `_sc` entry point, then its inputs by the
// kernel's names for them (its unnamed ones as nullptr), then `outputs`.
std::string call(const std::string& function, const Kernel& part, bool sc, const std::string& outputs) {
    std::string arguments = sc ? "sin_q, cos_q, " : "";
    const std::vector<bool> named = arrays_named(part);
    for (size_t i = 0; i < part.inputs.size(); ++i) arguments += (named[i] ? part.inputs[i].name : "nullptr") + ", ";
    return fmt::format("    {}({}{});", function, arguments, outputs);
}

// The definition of a head or tail as a function of its own: its step functions and tables, then it.
std::string part_function(const std::string& name, const LoopPart& part, const EmitOptions& options) {
    return part.definitions + fmt::format("static RBDGEN_CODE void {}({}) noexcept {{\n{}}}\n\n", name,
                                          kernel_parameters(*part.kernel, options.precomputed_trig, options.batch), part.body);
}

// The first DoF of each DoF's joint.
std::vector<int> first_dofs(const Model& model) {
    std::vector<int> first(model.nv);
    for (const Body& b : model.bodies)
        for (int c = 0; c < b.joint.nv(); ++c) first[b.v_index + c] = b.v_index;
    return first;
}

// Column j of L for rbdgen_ltdl_solve_rows: the entries of the rows below j whose column is j,
// entries coff[j] to coff[j + 1] − 1 of cent (the entry) and crow (its row).
std::string column_tables(const LtdlRows& rows, const std::string& index, const std::string& prefix) {
    const int n = static_cast<int>(rows.off.size()) - 1;
    std::vector<std::vector<int>> entries(n);
    for (int i = 0; i < n; ++i)
        for (int e = rows.off[i] + 1; e < rows.off[i + 1]; ++e) entries[rows.col[e]].push_back(e);
    std::vector<int> coff{0}, cent, crow;
    for (int j = 0; j < n; ++j) {
        for (int e : entries[j]) {
            cent.push_back(e);
            crow.push_back(static_cast<int>(std::upper_bound(rows.off.begin(), rows.off.end(), e) - rows.off.begin()) - 1);
        }
        coff.push_back(static_cast<int>(cent.size()));
    }
    if (cent.empty()) cent = crow = {0};  // a chain of one DoF: no entry, and no empty array
    return "// L's columns: column j is entries coff[j] to coff[j + 1] - 1 of cent (the entry) and crow (its row)\n" +
           int_table(index, prefix + "coff", coff) + int_table(index, prefix + "cent", cent) + int_table(index, prefix + "crow", crow);
}

}  // namespace

namespace {
long row_width(const Model& model, int lanes) {  // a row of NV numbers: NV / lanes statements, the rest by halves (rbdgen_row)
    long width = 0;
    for (int w = lanes, rest = model.nv; w >= 1; rest %= w, w /= 2) width += rest / w;
    return width;
}
// A contact problem's derivatives: its KKT system's size (NV + the contacts' rows) and the products.
struct KktShape {
    int r = 0, products = 0;
};
KktShape kkt_shape(const Model& model, const KernelSpec& spec) {
    return {spec.head->outputs[0].n_rows(model), static_cast<int>(spec.tail->outputs.size())};
}
}  // namespace

sym::OpCounts ltdl_loop_ops(const Model& model, const KernelSpec& spec, bool keep_divisions, int lanes) {
    if (spec.ltdl_loops != Loops::Kkt) return ltdl_loop_ops(model, spec.ltdl_loops, keep_divisions, lanes);
    // rbdgen_kkt_product: r² row updates a product; rbdgen_constrained_inverse: NV m; H⁻¹ from the
    // identity by rbdgen_ltdl_solve_rows: 2 (nnz(L) − NV) row updates and NV scalings
    const KktShape kkt = kkt_shape(model, spec);
    const LtdlRows rows = ltdl_rows(expanded_parent(model));
    const long width = row_width(model, lanes), nv = model.nv, m = kkt.r - nv, offdiagonal = static_cast<long>(rows.col.size()) - nv;
    sym::OpCounts n;
    n.mul = n.add = (static_cast<long>(kkt.products) * kkt.r * kkt.r + nv * m + 2 * offdiagonal) * width;
    n.mul += nv * width, n.div += nv;
    return n;
}

sym::OpCounts ltdl_loop_ops(const Model& model, Loops loops, bool keep_divisions, int lanes) {
    const LtdlRows rows = ltdl_rows(expanded_parent(model));
    const long width = row_width(model, lanes);
    sym::OpCounts n;
    if (loops == Loops::DerivativesArticulated) {  // rbdgen_negated_product, twice: NV² row updates
        n.mul = n.add = 2L * model.nv * model.nv * width;
        return n;
    }
    if (loops == Loops::DerivativePairs) {  // rbdgen_rnea_derivative_pairs: 6-vector dot products, 11 operations each
        const std::vector<int> first = first_dofs(model);
        for (int i = 0; i < model.nv; ++i)
            for (int e = rows.off[i]; e < rows.off[i + 1]; ++e) {
                const int j = rows.col[e], dots = 4 + (j == i ? 0 : first[j] == first[i] ? 4 : 2);
                n.mul += 6L * dots, n.add += 5L * dots + (dots == 2 ? 0 : dots / 2);
            }
        return n;
    }
    if (loops == Loops::FactorAndSolve || loops == Loops::Derivatives) n.add += model.nv;  // τ − C
    // aba_derivatives: three solves more of NV columns (rbdgen_ltdl_solve_rows, a reciprocal a row):
    // −H⁻¹ ∂τ/∂q, −H⁻¹ ∂τ/∂q̇ and H⁻¹ from the identity
    const long columns = loops == Loops::Derivatives ? 3L * width : 0;  // three rows' width
    if (columns) n.div += 3L * model.nv, n.mul += columns * model.nv;  // each row scaled by its reciprocal
    for (int k = 0; k < model.nv; ++k) {
        const long d = rows.off[k + 1] - rows.off[k];
        if (loops != Loops::Solve) {  // rbdgen_ltdl's row k
            const bool reciprocal = !keep_divisions && d > 2;
            n.div += reciprocal ? 1 : d - 1;
            n.mul += (reciprocal ? d - 1 : 0) + d * (d - 1) / 2;
            n.add += d * (d - 1) / 2;
        }
        if (loops != Loops::Factor) n.mul += (1 + columns) * 2 * (d - 1), n.add += (1 + columns) * 2 * (d - 1), n.div += 1;  // the solves
    }
    return n;
}

LoopFunction ltdl_loop_function(const Model& model, const Kernel& k, const LoopPart& head, const LoopPart& tail,
                                const EmitOptions& options, const std::string& prefix, bool keep_divisions) {
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
    if (loops == Loops::Kkt) {  // the head; K = H⁻¹ − W G; the tail's sides [R; M]; −Kinv times each
        const bool sc = options.precomputed_trig;
        const KktShape kkt = kkt_shape(model, *k.spec);
        const int m = kkt.r - n, joint_outputs = static_cast<int>(k.outputs.size()) / 2;
        const bool impulse = kkt.products == 1;
        std::string head_outputs = "Kinv, LD, W, G, qdd, lambda", tail_outputs;
        for (size_t o = 6; o < head.kernel->outputs.size(); ++o) head_outputs += ", " + head.kernel->outputs[o].name;
        for (int t = 0; t < kkt.products; ++t) tail_outputs += (t ? ", X + " + std::to_string(t * kkt.r * n) : std::string("X"));
        f.definitions = "// LTDL's rows (rbdgen_ltdl in rbdgen_runtime.hpp): row k is entries off[k] to off[k + 1] - 1, a row its diagonal and then "
                        "its ancestors\n" + int_table(index, prefix + "off", rows.off) + int_table(index, prefix + "col", rows.col) +
                        column_tables(rows, index, prefix) + part_function(prefix + "head", head, options) + part_function(prefix + "tail", tail, options);
        f.body = fmt::format("    {} Kinv[{}], LD[{}], W[{}], G[{}], qdd[{}], lambda[{}], X[{}];  // the KKT system's inverse, H's factors, "
                             "H^-1 J^T, A^-1 W^T, q̈, λ, the sides [R; M]\n", type, kkt.r * kkt.r, nnz, n * m, m * n, n, m, kkt.products * kkt.r * n) +
                 call(prefix + "head", *head.kernel, sc, head_outputs) + "\n";
        // K = H⁻¹ − W G (H⁻¹ from the identity, in ∂q̈/∂τ's room; an impact's in Hinv), then ∂q̈/∂τ = K
        const std::string Hinv = impulse ? "Hinv" : k.outputs[joint_outputs - 1].name;
        if (impulse) f.body += fmt::format("    {} Hinv[{}];\n", type, n * n);
        f.body += fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {}{{}};\n", n * n, Hinv, type) +
                  fmt::format("    for (int i = 0; i < {}; ++i) {}[i * {}] = {}{{}} + 1;\n", n, Hinv, n + 1, type) +
                  fmt::format("    rbdgen_ltdl_solve_rows<{}, {}, {}>(LD, {}off, {}col, {}coff, {}cent, {}crow, {}, {}, 1);  // H^-1\n", type, index,
                              n, prefix, prefix, prefix, prefix, prefix, n, Hinv) +
                  fmt::format("    rbdgen_constrained_inverse<{}, {}, {}, {}>({}, W, G, Kinv);\n", type, n, m, kkt.r, Hinv);
        if (!impulse)
            f.body += fmt::format("    for (int i = 0; i < {}; ++i)\n        for (int j = 0; j < {}; ++j) {}[i * {} + j] = Kinv[i * {} + j];\n", n, n,
                                  Hinv, n, kkt.r);
        f.body += call(prefix + "tail", *tail.kernel, sc, tail_outputs) + "\n";
        for (int t = 0; t < kkt.products; ++t)
            f.body += fmt::format("    rbdgen_kkt_product<{}, {}, {}>(Kinv, X + {}, {}, {});\n", type, kkt.r, n, t * kkt.r * n, k.outputs[t].name,
                                  k.outputs[joint_outputs + t].name);
        return f;
    }
    if (loops == Loops::DerivativesArticulated) {  // H⁻¹ and q̈, ∂τ/∂q and ∂τ/∂q̇ at q̈, then −H⁻¹ times each
        const bool sc = options.precomputed_trig;
        const std::string& dq = k.outputs[0].name, &dqd = k.outputs[1].name, &dtau = k.outputs[2].name;
        f.definitions = part_function(prefix + "head", head, options) + part_function(prefix + "tail", tail, options);
        f.body = fmt::format("    {} qdd[{}], X[{}];  // X: room for a product's right-hand side\n", type, n, n * n) +
                 call(prefix + "head", *head.kernel, sc, dtau + ", qdd") + "  // H^-1 by the articulated-body recursion, qdd by the ABA\n" +
                 call(prefix + "tail", *tail.kernel, sc, dq + ", " + dqd) + "  // dtau/dq and dtau/dqd at qdd\n" +
                 fmt::format("    rbdgen_negated_product<{0}, {1}>({2}, {3}, X);\n    rbdgen_negated_product<{0}, {1}>({2}, {4}, X);\n", type, n,
                             dtau, dq, dqd);
        return f;
    }
    f.definitions = "// LTDL's rows (rbdgen_ltdl in rbdgen_runtime.hpp): row k is entries off[k] to off[k + 1] - 1, "
                    "a row its diagonal and then its ancestors\n" +
                    int_table(index, prefix + "off", rows.off) + int_table(index, prefix + "col", rows.col) +
                    (loops == Loops::FactorAndSolve ? ""
                     : loops == Loops::Derivatives ? column_tables(rows, index, prefix)
                     : loops == Loops::DerivativePairs ? "// the first DoF of each DoF's joint\n" + int_table(index, prefix + "first", first_dofs(model))
                                                       : int_table(index, prefix + "at", at));
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
        case Loops::FactorAndSolve:
        case Loops::Derivatives: {
            const bool sc = options.precomputed_trig;
            f.definitions += part_function(prefix + "head", head, options);
            const bool derivatives = loops == Loops::Derivatives;
            f.body = rows_array + (derivatives ? fmt::format("    {} qdd[{}];\n", type, n) : "") +
                     call(prefix + "head", *head.kernel, sc, "A, qdd") + "  // H's rows, and C in qdd\n" +
                     fmt::format("    for (int i = 0; i < {}; ++i) qdd[i] = tau[i] - qdd[i];\n", n) + factor + "A, " + tables +
                     ");\n" + solve + "A, " + tables + ", qdd);\n";
            if (!derivatives) break;
            // dτ/dq and dτ/dq̇ at q̈ into the outputs, then −H⁻¹ of each in place, and H⁻¹ from the identity
            f.definitions += part_function(prefix + "tail", tail, options);
            const std::string rows = fmt::format("    rbdgen_ltdl_solve_rows<{}, {}, {}>(A, {}off, {}col, {}coff, {}cent, {}crow, {}, ", type,
                                                 index, n, prefix, prefix, prefix, prefix, prefix, n);
            const std::string& dq = k.outputs[0].name, &dqd = k.outputs[1].name, &dtau = k.outputs[2].name;
            f.body += call(prefix + "tail", *tail.kernel, sc, dq + ", " + dqd) + "  // dtau/dq and dtau/dqd at qdd\n" +
                      rows + dq + ", -1);\n" + rows + dqd + ", -1);\n" +
                      fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {}{{}};\n", n * n, dtau, type) +
                      fmt::format("    for (int i = 0; i < {}; ++i) {}[i * {}] = {}{{}} + 1;\n", n, dtau, n + 1, type) + rows + dtau +
                      ", 1);  // H^-1\n";
            break;
        }
        case Loops::DerivativePairs: {
            const bool sc = options.precomputed_trig;
            f.definitions += part_function(prefix + "head", head, options);
            f.body = fmt::format("    {} V[{}];  // 8 six-vectors a DoF\n", type, head.kernel->outputs[0].size()) +
                     call(prefix + "head", *head.kernel, sc, "V") + "\n" +
                     fmt::format("    rbdgen_rnea_derivative_pairs<{}, {}>(V, {}off, {}col, {}first, {}, {}, {});\n", type, index, prefix,
                                 prefix, prefix, n, k.outputs[0].name, k.outputs[1].name);
            break;
        }
        case Loops::None:
        case Loops::DerivativesArticulated:
        case Loops::Kkt: break;
    }
    return f;
}

}  // namespace rbdgen
