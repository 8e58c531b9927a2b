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
long row_width(int columns, int lanes) {  // a row of that many numbers: columns / lanes statements, the rest by halves (rbdgen_row)
    long width = 0;
    for (int w = lanes, rest = columns; w >= 1; rest %= w, w /= 2) width += rest / w;
    return width;
}
long row_width(const Model& model, int lanes) { return row_width(model.nv, lanes); }
// A contact problem's derivatives: its contacts' rows (J's) and the number of sides [R; M] (2, an impact 1).
struct KktShape {
    int m = 0, sides = 0;
};
KktShape kkt_shape(const Model& model, const KernelSpec& spec) {
    return {spec.head->outputs[1].n_rows(model), static_cast<int>(spec.tail->outputs.size()) / 2};  // the tail's R and M a side
}
// rbdgen_ltdl's operations on rows of d entries each (the factors of LTDL's row k, d its length)
void add_ltdl(sym::OpCounts& n, long d, bool keep_divisions) {
    const bool reciprocal = !keep_divisions && d > 2;
    n.div += reciprocal ? 1 : d - 1;
    n.mul += (reciprocal ? d - 1 : 0) + d * (d - 1) / 2;
    n.add += d * (d - 1) / 2;
}
// The columns where J (the head's second output, m x NV) is not a traced zero, for rbdgen_sparse_product:
// four rows at a time (its blocks) the union of theirs, a remaining row its own; row i's columns are
// col[b[i]] to col[e[i] − 1]. J's row has nonzeros on its frame's path to the root alone.
struct KktColumns {
    std::vector<int> b, e, col;
    long updates = 0;  // the row updates of one product with J
};
KktColumns kkt_columns(const Model& model, const Kernel& head) {
    const int n = model.nv, m = head.outputs[1].rows;
    const std::vector<int>& J = head.output_nodes[1];
    KktColumns c;
    for (int i = 0; i < m;) {
        const int rows = i + 4 <= m ? 4 : 1;
        const int first = static_cast<int>(c.col.size());
        for (int k = 0; k < n; ++k) {
            bool nonzero = false;
            for (int r = i; r < i + rows; ++r) nonzero = nonzero || !head.graph->is_const(J[r * n + k], 0.0);
            if (nonzero) c.col.push_back(k);
        }
        const int last = static_cast<int>(c.col.size());
        for (int r = i; r < i + rows; ++r) c.b.push_back(first), c.e.push_back(last), c.updates += last - first;
        i += rows;
    }
    if (c.col.empty()) c.col = {0};  // no empty array
    return c;
}
}  // namespace

sym::OpCounts ltdl_loop_ops(const Model& model, const KernelSpec& spec, bool keep_divisions, int lanes, const Kernel* head) {
    if (spec.ltdl_loops != Loops::Kkt) return ltdl_loop_ops(model, spec.ltdl_loops, keep_divisions, lanes);
    // The loops of ltdl_loop_function's Kkt, in its order: a solve with L of M columns costs 2 nnz(L)
    // row updates and a row scaling a row (a division each); a product of P (a x b) a b row updates, of
    // J the columns kkt_columns keeps (all, without the head's trace)
    const KktShape kkt = kkt_shape(model, spec);
    const long n = model.nv, m = kkt.m, offH = static_cast<long>(ltdl_rows(expanded_parent(model)).col.size()) - n, offA = m * (m - 1) / 2;
    const long wm = row_width(kkt.m, lanes), wn = row_width(model, lanes);
    const bool impulse = kkt.sides == 1;
    const long Jupdates = head ? kkt_columns(model, *head).updates : m * n;
    sym::OpCounts c;
    const auto updates = [&c](long rows, long width) { c.mul += rows * width, c.add += rows * width; };
    const auto solve_rows = [&](long off, long rows, long width) { updates(2 * off, width), c.mul += rows * width, c.div += rows; };
    solve_rows(offH, n, wm);                                       // W = H⁻¹ Jᵀ
    updates(Jupdates, wm);                                         // A = J W
    for (long k = 0; k < m; ++k) add_ltdl(c, k + 1, keep_divisions);  // its factors
    if (impulse) {  // −A⁻¹ J, 1 + W (−A⁻¹ J), λ and q̇⁺
        solve_rows(offA, m, wn), updates(n * m, wn), c.add += n;
        updates(m * n + n * m, 1);
    } else {  // G = A⁻¹ Wᵀ; K = H⁻¹ − W G (H⁻¹ from the identity), −G; λ = −A⁻¹ (Wᵀ b + k), q̈ = K b − Gᵀ k
        solve_rows(offA, m, wn);
        solve_rows(offH, n, wn), updates(n * m, wn), c.add += m * n;
        updates(n, wm), c.add += m, updates(2 * offA, 1), c.div += m, updates(n + m, wn);
        if (const long ne = static_cast<long>(spec.kkt_errors.size())) c.mul += n * ne, solve_rows(offA, m, row_width(ne, lanes));  // along e
    }
    for (int t = 0; t < kkt.sides; ++t) {                          // Y = H⁻¹ R, M − J Y, ∂λ, ∂q̈ = W ∂λ − Y
        solve_rows(offH, n, wn), updates(Jupdates, wn), solve_rows(offA, m, wn), updates(n * m, wn);
        c.mul += n * wn;
    }
    return c;
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
        if (loops != Loops::Solve) add_ltdl(n, d, keep_divisions);  // rbdgen_ltdl's row k
        if (loops != Loops::Factor) n.mul += (1 + columns) * 2 * (d - 1), n.add += (1 + columns) * 2 * (d - 1), n.div += 1;  // the solves
    }
    return n;
}

namespace {
// A's factors as straight code (rbdgen_ltdl_dense, m³/6 multiply-adds) up to this many contact rows, by
// the loops over LTDL's tables beyond
constexpr int kDenseLtdlUnrolled = 16;

// A contact problem's derivatives (algorithms/contact_dynamics_derivatives.hpp): the head (H's factors
// LD, J, τ − C or q̇, k), then as loops over whole rows W = H⁻¹ Jᵀ, A = J W and its factors LA
// (dense: rbdgen_ltdl_dense up to kDenseLtdlUnrolled rows, else LTDL's tables of a chain), G = A⁻¹ Wᵀ, along τ K = H⁻¹ − W G and −G, λ and q̈; the tail's
// R and M of each side in the outputs' room, and in place Y = H⁻¹ R, ∂λ = A⁻¹ (J Y − M),
// ∂q̈ = W ∂λ − Y; an impact without G: along q̇ −A⁻¹ J and 1 + W (−A⁻¹ J) = 1 − Gᵀ J, then λ and q̇⁺.
LoopFunction kkt_loops(const Model& model, const Kernel& k, const LoopPart& head, const LoopPart& tail, const EmitOptions& options,
                       const std::string& prefix, bool keep_divisions) {
    const LtdlRows rows = ltdl_rows(expanded_parent(model));
    const KktShape kkt = kkt_shape(model, *k.spec);
    const int n = model.nv, m = kkt.m, nnz = static_cast<int>(rows.col.size());
    const LtdlRows arows = ltdl_rows(dense_parent(m));
    const int annz = static_cast<int>(arows.col.size());
    std::vector<int> aat(annz);  // entry e of A's rows at row-major m x m
    for (int i = 0; i < m; ++i)
        for (int e = arows.off[i]; e < arows.off[i + 1]; ++e) aat[e] = i * m + arows.col[e];
    const std::string index = std::max(n, m) * std::max(n, m) < 65536 ? "unsigned short" : "int";
    const std::string type = options.batch ? "Batch" : "Scalar";
    const bool sc = options.precomputed_trig, impulse = kkt.sides == 1;
    const KktColumns columns = kkt_columns(model, *head.kernel);
    const int joint_outputs = static_cast<int>(k.outputs.size()) / 2;
    const auto out = [&k](int i) { return k.outputs[i].name; };
    const auto solve_rows = [&](bool of_A, int columns, const std::string& X, int s) {  // X = s H⁻¹ X (of_A: s A⁻¹ X)
        const std::string t = prefix + (of_A ? "A" : "");
        return fmt::format("    rbdgen_ltdl_solve_rows<{}, {}, {}>({}, {}off, {}col, {}coff, {}cent, {}crow, {}, {}, {});\n", type, index, columns,
                           of_A ? "LA" : "LD", t, t, t, t, t, of_A ? m : n, X, s);
    };
    const auto product = [&](int a, int b, int columns, int keep, int sign, const std::string& P, const std::string& X, const std::string& Y) {
        return fmt::format("    rbdgen_product<{}, {}, {}, {}, {}, {}>({}, {}, {});\n", type, a, b, columns, keep, sign, P, X, Y);
    };
    const auto copy = [&type](long size, const std::string& from, const std::string& to, bool negated = false) {
        const std::string x = from.find(' ') == std::string::npos ? from : "(" + from + ")";
        return fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {}{}[e];\n", size, to, negated ? type + "{} - " : "", x);
    };
    const auto j_product = [&](int columns, int keep, const std::string& X, const std::string& Y) {  // Y = keep Y + J X
        return fmt::format("    rbdgen_sparse_product<{}, {}, {}, {}, {}, {}, {}>(J, {}Jb, {}Je, {}Jcol, {}, {});\n", type, index, m, n, columns, keep,
                           keep ? -1 : 1, prefix, prefix, prefix, X, Y);
    };
    const std::string nil = fmt::format("static_cast<const {}*>(nullptr)", index);
    std::string tail_outputs;  // each side's R and M in the room of ∂q̈ and ∂λ along it
    for (int t = 0; t < kkt.sides; ++t) tail_outputs += (t ? ", " : "") + out(t) + ", " + out(joint_outputs + t);
    LoopFunction f;
    f.definitions = "// LTDL's rows (rbdgen_ltdl in rbdgen_runtime.hpp): row k is entries off[k] to off[k + 1] - 1, a row its diagonal and then "
                    "its ancestors\n" + int_table(index, prefix + "off", rows.off) + int_table(index, prefix + "col", rows.col) +
                    column_tables(rows, index, prefix) + "// the same of A = J H^-1 J^T (dense), and where each entry is in A row-major\n" +
                    "// J's columns: those of row i are col[b[i]] to col[e[i] - 1] (four rows at a time their union)\n" +
                    int_table(index, prefix + "Jb", columns.b) + int_table(index, prefix + "Je", columns.e) + int_table(index, prefix + "Jcol", columns.col) +
                    int_table(index, prefix + "Aoff", arows.off) + int_table(index, prefix + "Acol", arows.col) +
                    column_tables(arows, index, prefix + "A") + int_table(index, prefix + "Aat", aat) +
                    part_function(prefix + "head", head, options) + part_function(prefix + "tail", tail, options);
    // Contact (b = τ − C): K = H⁻¹ − W G first (∂q̈/∂τ, its output's room), then λ = −A⁻¹ (Wᵀ b + k) and
    // q̈ = K b − Gᵀ k (K symmetric: bᵀ K), products over whole rows instead of the single vectors' solve
    // H⁻¹ b, whose updates wait on each other. An impact (b = q̇⁻, k = 0) needs no G: along q̇ −A⁻¹ J and
    // 1 + W (−A⁻¹ J), then λ = (−A⁻¹ J) q̇⁻ and q̇⁺ = q̇⁻ + W λ, products of single columns.
    const std::string b = impulse ? "qdd" : "b";
    f.body = fmt::format("    {} LD[{}], J[{}], {}[{}], k[{}], W[{}], A[{}], LA[{}], {}lambda[{}]{};  // H's factors, J, {}, k, "
                         "H^-1 J^T, J W and its factors, {}λ{}\n", type, nnz, m * n, b, n, m, n * m, m * m, annz,
                         impulse ? "" : fmt::format("G[{}], ", m * n), m, impulse ? "" : fmt::format(", qdd[{}]", n), impulse ? "q̇" : "τ − C",
                         impulse ? "" : "A^-1 W^T, ", impulse ? "" : ", q̈") +
             call(prefix + "head", *head.kernel, sc, "LD, J, " + b + ", k") + "\n";
    f.body += fmt::format("    rbdgen_transpose<{}, {}, {}>(J, W, 1);\n", type, m, n) + solve_rows(false, m, "W", 1) +
              j_product(m, 0, "W", "A") + fmt::format("    for (int e = 0; e < {}; ++e) LA[e] = A[{}Aat[e]];\n", annz, prefix) +
              (m <= kDenseLtdlUnrolled
                   ? fmt::format("    rbdgen_ltdl_dense<{}, {}, {}>(LA);\n", type, m, keep_divisions ? "false" : "true")
                   : fmt::format("    rbdgen_ltdl<{}, {}, {}, true>(LA, {}Aoff, {}Acol, {}, {});\n", type, index, keep_divisions ? "false" : "true",
                                 prefix, prefix, nil, m)) +
              (impulse ? "" : fmt::format("    rbdgen_transpose<{}, {}, {}>(W, G, 1);\n", type, n, m) + solve_rows(true, n, "G", 1));
    const std::string dq_last = out(kkt.sides), dl_last = out(joint_outputs + kkt.sides);  // along τ; an impact's along q̇
    if (impulse)  // −A⁻¹ J and 1 + W (−A⁻¹ J) first, then λ = (−A⁻¹ J) q̇ (k is zero) and q̇⁺ = q̇ + W λ
        f.body += copy(m * n, "J", dl_last) + solve_rows(true, n, dl_last, -1) + product(n, m, n, 0, 1, "W", dl_last, dq_last) +
                  fmt::format("    for (int i = 0; i < {}; ++i) {}[i * {}] = {}[i * {}] + 1;\n", n, dq_last, n + 1, dq_last, n + 1) +
                  product(m, n, 1, 0, 1, dl_last, "qdd", "lambda") + product(n, m, 1, 1, 1, "W", "lambda", "qdd");
    else  // K = H⁻¹ − W G (H⁻¹ from the identity) and −G; λ; q̈
        f.body += fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {}{{}};\n", n * n, dq_last, type) +
                  fmt::format("    for (int i = 0; i < {}; ++i) {}[i * {}] = {}{{}} + 1;\n", n, dq_last, n + 1, type) + solve_rows(false, n, dq_last, 1) +
                  product(n, m, n, 1, -1, "W", "G", dq_last) + copy(m * n, "G", dl_last, true) +
                  product(1, n, m, 0, -1, "b", "W", "lambda") + fmt::format("    for (int c = 0; c < {}; ++c) lambda[c] = lambda[c] - k[c];\n", m) +
                  fmt::format("    rbdgen_ltdl_solve<{}, {}, true>(LA, {}Aoff, {}Acol, {}, {}, lambda);\n", type, index, prefix, prefix, nil, m) +
                  product(1, n, n, 0, 1, "b", dq_last, "qdd") + product(1, m, n, 1, -1, "k", "G", "qdd");
    if (const int ne = static_cast<int>(k.spec->kkt_errors.size())) {  // along Baumgarte's errors, −Gᵀ Kp and −A⁻¹ Kp
        const std::string dq_e = out(joint_outputs - 1), dl_e = out(2 * joint_outputs - 1);
        f.body += fmt::format("    for (int e = 0; e < {}; ++e) {}[e] = {}{{}};\n", m * ne, dl_e, type);
        for (int j = 0; j < ne; ++j) {
            const auto [r, kp] = k.spec->kkt_errors[j];
            const std::string minus_kp = scalar_literal(-kp, options.scalar);
            f.body += fmt::format("    for (int i = 0; i < {}; ++i) {}[i * {} + {}] = G[{} + i] * {};\n", n, dq_e, ne, j, r * n, minus_kp) +
                      fmt::format("    {}[{}] = {}{{}} + {};\n", dl_e, r * ne + j, type, minus_kp);
        }
        f.body += solve_rows(true, ne, dl_e, 1);
    }
    f.body += call(prefix + "tail", *tail.kernel, sc, tail_outputs) + "\n";
    for (int t = 0; t < kkt.sides; ++t) {  // Y = H⁻¹ R, ∂λ = A⁻¹ (J Y − M), ∂q̈ = W ∂λ − Y, R and M where the tail left them
        const std::string dq = out(t), dl = out(joint_outputs + t);
        f.body += solve_rows(false, n, dq, 1) + j_product(n, 1, dq, dl) + solve_rows(true, n, dl, -1) + product(n, m, n, -1, 1, "W", dl, dq);
    }
    return f;
}
}  // namespace

LoopFunction ltdl_loop_function(const Model& model, const Kernel& k, const LoopPart& head, const LoopPart& tail,
                                const EmitOptions& options, const std::string& prefix, bool keep_divisions) {
    const Loops loops = k.spec->ltdl_loops;
    if (loops == Loops::Kkt) return kkt_loops(model, k, head, tail, options, prefix, keep_divisions);
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
