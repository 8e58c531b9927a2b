#include "sparse/static_lu.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace rbdgen {

long SparsePattern::nnz() const {
    long n = 0;
    for (const auto& c : columns) n += static_cast<long>(c.size());
    return n;
}

bool SparsePattern::has(int r, int c) const { return std::binary_search(columns[c].begin(), columns[c].end(), r); }

LuPattern symbolic_lu(const SparsePattern& D, const Permutations& order, int pivots) {
    const int n = D.cols;
    const int m = pivots < 0 ? n : D.rows;
    if (pivots < 0) pivots = n;
    if (static_cast<int>(order.columns.size()) != n || static_cast<int>(order.rows.size()) < m || pivots > std::min(m, n))
        throw std::invalid_argument("symbolic_lu: the permutations do not fit the matrix");
    std::vector<int> new_row(D.rows, -1);
    for (int i = 0; i < m; ++i) new_row[order.rows[i]] = i;
    // Row and column structures of P D Q's rows in use, updated by elimination (right-looking).
    std::vector<std::set<int>> row(m), col(n);
    long entries = 0;
    for (int j = 0; j < n; ++j)
        for (int r : D.columns[order.columns[j]])
            if (new_row[r] >= 0) row[new_row[r]].insert(j), col[j].insert(new_row[r]), ++entries;
    for (int k = 0; k < pivots; ++k) {
        if (!row[k].count(k)) throw std::invalid_argument("structurally zero pivot at " + std::to_string(k));
        const std::vector<int> upper(row[k].upper_bound(k), row[k].end());
        for (auto it = col[k].upper_bound(k); it != col[k].end(); ++it)
            for (int j : upper)
                if (row[*it].insert(j).second) col[j].insert(*it);
    }
    LuPattern lu;
    lu.n = n, lu.m = m, lu.pivots = pivots;
    lu.order = order;
    lu.order.rows.resize(m);
    lu.L.resize(m), lu.U.resize(pivots);
    for (int i = 0; i < m; ++i) {
        for (int j : row[i]) {
            if (j < std::min(i, pivots)) lu.L[i].push_back(j);
            else if (i < pivots && j > i) lu.U[i].push_back(j);
        }
        lu.nnz += i < pivots ? static_cast<long>(row[i].size()) : static_cast<long>(lu.L[i].size()) + lu.tail_cols();
    }
    lu.fill = lu.nnz - entries;
    return lu;
}

}  // namespace rbdgen
