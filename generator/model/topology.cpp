#include "model/topology.hpp"

#include <algorithm>

namespace rbdgen {

std::vector<int> expanded_parent(const std::vector<int>& lambda, const std::vector<int>& n_i) {
    std::vector<int> last(lambda.size());  // expanded index of each body's last joint variable
    std::vector<int> expanded;
    for (size_t i = 0; i < lambda.size(); ++i) {
        int parent = lambda[i] < 0 ? -1 : last[lambda[i]];
        for (int k = 0; k < n_i[i]; ++k) {
            expanded.push_back(parent);
            parent = static_cast<int>(expanded.size()) - 1;
        }
        last[i] = parent;
    }
    return expanded;
}

std::vector<int> parent_array(const Model& model) {
    std::vector<int> lambda;
    for (const Body& b : model.bodies) lambda.push_back(b.lambda);
    return lambda;
}

std::vector<int> expanded_parent(const Model& model) {
    std::vector<int> n_i;
    for (const Body& b : model.bodies) n_i.push_back(b.joint.nv());
    return expanded_parent(parent_array(model), n_i);
}

std::vector<int> depths(const std::vector<int>& lambda) {
    std::vector<int> d(lambda.size());
    for (size_t i = 0; i < lambda.size(); ++i) d[i] = lambda[i] < 0 ? 1 : d[lambda[i]] + 1;
    return d;
}

CostQuantities cost_quantities(const std::vector<int>& lambda) {
    CostQuantities c;
    for (int d : depths(lambda)) {
        c.D0 += std::min(1, d - 1);         // eq. (15)
        c.D1 += d - 1;                      // eq. (8)
        c.D2 += static_cast<long>(d) * (d - 1) / 2;  // eq. (9)
    }
    return c;
}

bool in_subtree(const std::vector<int>& lambda, int i, int j) {
    for (int k = i; k >= 0; k = lambda[k])
        if (k == j) return true;
    return false;
}

std::vector<std::vector<bool>> jsim_pattern(const std::vector<int>& lambda) {
    const size_t n = lambda.size();
    std::vector<std::vector<bool>> p(n, std::vector<bool>(n, false));
    for (size_t i = 0; i < n; ++i)
        for (int j = static_cast<int>(i); j >= 0; j = lambda[j]) p[i][j] = p[j][i] = true;
    return p;
}

long jsim_nonzeros(const std::vector<int>& lambda) {
    return 2 * cost_quantities(lambda).D1 + static_cast<long>(lambda.size());
}

int branching_bodies(const std::vector<int>& lambda) {
    std::vector<int> children(lambda.size(), 0);
    int roots = 0;
    for (int p : lambda) (p < 0 ? roots : children[p]) += 1;
    return (roots > 1 ? 1 : 0) +
           static_cast<int>(std::count_if(children.begin(), children.end(), [](int c) { return c > 1; }));
}

int leaf_bodies(const std::vector<int>& lambda) {
    std::vector<bool> has_child(lambda.size(), false);
    for (int p : lambda)
        if (p >= 0) has_child[p] = true;
    return static_cast<int>(std::count(has_child.begin(), has_child.end(), false));
}

std::string draw_pattern(const std::vector<std::vector<bool>>& pattern) {
    std::string s;
    for (const auto& row : pattern) {
        for (size_t j = 0; j < row.size(); ++j) {
            if (j) s += ' ';
            s += row[j] ? 'x' : '.';
        }
        s += '\n';
    }
    return s;
}

}  // namespace rbdgen
