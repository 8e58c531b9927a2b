#include "sparse/ordering.hpp"

#include <amd.h>
#include <colamd.h>
#include <umfpack.h>

#include <numeric>

namespace rbdgen {
namespace {

struct Compressed {
    std::vector<int> p, i;
};
Compressed compressed(const SparsePattern& D) {
    Compressed c;
    c.p.push_back(0);
    for (const auto& column : D.columns) {
        c.i.insert(c.i.end(), column.begin(), column.end());
        c.p.push_back(static_cast<int>(c.i.size()));
    }
    return c;
}

// UMFPACK's factorization of the instance with `control` set (and a given column order when qinit):
// its P and Q, or nothing when it fails or finds the instance singular.
bool umfpack_order(const SparsePattern& D, const std::vector<double>& values, const std::vector<std::pair<int, double>>& control,
                   const std::vector<int>* qinit, Permutations& out) {
    const Compressed c = compressed(D);
    double Control[UMFPACK_CONTROL], Info[UMFPACK_INFO];
    umfpack_di_defaults(Control);
    for (const auto& [k, v] : control) Control[k] = v;
    void* symbolic = nullptr;
    void* numeric = nullptr;
    const int s = qinit ? umfpack_di_qsymbolic(D.rows, D.cols, c.p.data(), c.i.data(), values.data(), qinit->data(), &symbolic, Control, Info)
                        : umfpack_di_symbolic(D.rows, D.cols, c.p.data(), c.i.data(), values.data(), &symbolic, Control, Info);
    bool ok = s == UMFPACK_OK;
    if (ok) ok = umfpack_di_numeric(c.p.data(), c.i.data(), values.data(), symbolic, &numeric, Control, Info) == UMFPACK_OK;
    if (ok) {
        out.rows.assign(D.rows, 0), out.columns.assign(D.cols, 0);
        ok = umfpack_di_get_numeric(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, out.rows.data(), out.columns.data(),
                                    nullptr, nullptr, nullptr, numeric) == UMFPACK_OK;
    }
    if (numeric) umfpack_di_free_numeric(&numeric);
    if (symbolic) umfpack_di_free_symbolic(&symbolic);
    return ok;
}

std::vector<int> colamd_order(const SparsePattern& D) {
    const Compressed c = compressed(D);
    const int nnz = static_cast<int>(c.i.size());
    const size_t alen = colamd_recommended(nnz, D.rows, D.cols);
    std::vector<int> A(alen), p = c.p;
    std::copy(c.i.begin(), c.i.end(), A.begin());
    double knobs[COLAMD_KNOBS];
    int stats[COLAMD_STATS];
    colamd_set_defaults(knobs);
    if (!colamd(D.rows, D.cols, static_cast<int>(alen), A.data(), p.data(), knobs, stats)) return {};
    p.resize(D.cols);
    return p;
}

std::vector<int> amd_order_of(const SparsePattern& D) {  // AMD on D + Dᵀ: square patterns only
    if (D.rows != D.cols) return {};
    const Compressed c = compressed(D);
    std::vector<int> P(D.cols);
    double Control[AMD_CONTROL], Info[AMD_INFO];
    amd_defaults(Control);
    if (amd_order(D.cols, c.p.data(), c.i.data(), P.data(), Control, Info) < AMD_OK) return {};
    return P;
}

}  // namespace

std::vector<OrderingCandidate> suitesparse_orderings(const SparsePattern& D, const std::vector<double>& values) {
    std::vector<OrderingCandidate> out;
    auto add = [&](const std::string& name, const std::vector<std::pair<int, double>>& control, const std::vector<int>* qinit) {
        Permutations p;
        if (umfpack_order(D, values, control, qinit, p)) out.push_back({name, p});
    };
    add("umfpack", {}, nullptr);
    add("umfpack-unsymmetric", {{UMFPACK_STRATEGY, UMFPACK_STRATEGY_UNSYMMETRIC}}, nullptr);
    add("umfpack-symmetric-amd", {{UMFPACK_STRATEGY, UMFPACK_STRATEGY_SYMMETRIC}, {UMFPACK_ORDERING, UMFPACK_ORDERING_AMD}}, nullptr);
    const std::vector<std::pair<int, double>> fixed = {{UMFPACK_FIXQ, 1}};
    if (const std::vector<int> q = colamd_order(D); !q.empty()) add("colamd", fixed, &q);
    if (const std::vector<int> q = amd_order_of(D); !q.empty()) add("amd", fixed, &q);
    return out;
}

}  // namespace rbdgen
