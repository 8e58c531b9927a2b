#include "sparse/constant_pivots.hpp"

#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace rbdgen {
namespace {

// An entry during elimination: a constant (its value) or an expression of the state.
struct Entry {
    bool constant = false;
    double value = 0;
};

}  // namespace

PartialOrder constant_pivot_order(const sym::Graph& g, const MatX<sym::Expr>& D, const SparsePattern& pattern) {
    const int m = pattern.rows, n = pattern.cols;
    std::vector<std::map<int, Entry>> row(m);
    std::vector<std::set<int>> col(n);
    for (int c = 0; c < n; ++c)
        for (int r : pattern.columns[c]) {
            const sym::Node& node = g.node(D(r, c).id());
            row[r][c] = {node.op == sym::Op::Const, node.value};
            col[c].insert(r);
        }
    std::vector<bool> row_done(m, false), col_done(n, false);
    PartialOrder p;
    while (true) {
        // The constant pivot of least Markowitz cost; ±1 before other constants; then the lowest index.
        std::tuple<long, int, int, int> best{-1, 0, 0, 0};
        bool found = false;
        for (int r = 0; r < m; ++r) {
            if (row_done[r]) continue;
            for (const auto& [c, e] : row[r]) {
                if (!e.constant || e.value == 0) continue;
                const long cost = static_cast<long>(row[r].size() - 1) * static_cast<long>(col[c].size() - 1);
                const std::tuple<long, int, int, int> key{cost, std::abs(e.value) == 1 ? 0 : 1, r, c};
                if (!found || key < best) best = key, found = true;
            }
        }
        if (!found) break;
        const int r = std::get<2>(best), c = std::get<3>(best);
        const Entry pivot = row[r][c];
        for (int i : std::vector<int>(col[c].begin(), col[c].end())) {
            if (i == r) continue;
            const Entry l = row[i][c];
            const Entry lc{l.constant, l.constant ? l.value / pivot.value : 0};
            row[i].erase(c);
            for (const auto& [j, u] : row[r]) {
                if (j == c) continue;
                const auto it = row[i].find(j);
                const bool was = it != row[i].end();
                Entry x = was ? it->second : Entry{true, 0};
                if (x.constant && lc.constant && u.constant) {
                    x.value -= lc.value * u.value;
                    if (x.value == 0) {  // exact cancellation of constants: zero at every state
                        if (was) row[i].erase(it), col[j].erase(i);
                        continue;
                    }
                } else {
                    x = {false, 0};
                }
                row[i][j] = x;
                col[j].insert(i);
            }
        }
        for (const auto& [j, u] : row[r]) col[j].erase(r);
        row_done[r] = col_done[c] = true;
        p.order.rows.push_back(r), p.order.columns.push_back(c);
        ++p.pivots;
    }
    for (int r = 0; r < m; ++r)
        if (!row_done[r]) p.order.rows.push_back(r);
    for (int c = 0; c < n; ++c)
        if (!col_done[c]) p.order.columns.push_back(c);
    return p;
}

}  // namespace rbdgen
