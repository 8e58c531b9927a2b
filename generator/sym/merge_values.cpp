#include "sym/merge_values.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <unordered_map>

namespace rbdgen::sym {

namespace {
constexpr int kPoints = 4;
}  // namespace

std::vector<int> merge_equal_values(const Graph& in, const std::vector<int>& outputs, Graph& out, double tolerance,
                                    MergeReport* report) {
    const std::vector<int> live = in.live(outputs);
    // Every node's value at four random points of the inputs.
    std::vector<int> sizes;
    for (int id : live)
        if (in.node(id).op == Op::Input) {
            const Node& n = in.node(id);
            if (static_cast<int>(sizes.size()) <= n.array) sizes.resize(n.array + 1, 0);
            sizes[n.array] = std::max(sizes[n.array], n.index + 1);
        }
    std::mt19937_64 rng(61);
    std::uniform_real_distribution<double> u(-1, 1);
    std::array<std::vector<double>, kPoints> values;
    for (auto& v : values) {
        std::vector<std::vector<double>> inputs;
        for (int n : sizes) {
            inputs.emplace_back(n);
            for (double& x : inputs.back()) x = u(rng);
        }
        v.assign(in.size(), 0.0);
        in.evaluate(inputs, live, v);
    }
    // Candidates: computed nodes with a finite value far from zero at every point, by |value| at the first.
    std::vector<int> candidates;
    for (int id : live) {
        const Op op = in.node(id).op;
        if (op == Op::Const || op == Op::Input) continue;
        bool usable = true;
        for (const auto& v : values) usable = usable && std::isfinite(v[id]) && std::abs(v[id]) > 1e-200;
        if (usable) candidates.push_back(id);
    }
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        const double x = std::abs(values[0][a]), y = std::abs(values[0][b]);
        return x != y ? x < y : a < b;
    });
    const auto close = [tolerance](double a, double b) { return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b)); };
    // representative[id]: the earliest node found equal (sign +1) or opposite (−1) to id.
    std::unordered_map<int, std::pair<int, int>> representative;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const int a = candidates[i];
        for (size_t j = i + 1; j < candidates.size(); ++j) {
            const int b = candidates[j];
            if (std::abs(values[0][b]) > std::abs(values[0][a]) * (1 + 2 * tolerance)) break;
            bool same = true, opposite = true;
            for (const auto& v : values) same = same && close(v[a], v[b]), opposite = opposite && close(v[a], -v[b]);
            if (!same && !opposite) continue;
            const int first = std::min(a, b), later = std::max(a, b);
            const int sign = same ? 1 : -1;
            // the later node follows the first's representative (the earliest of its group)
            auto [root, root_sign] = representative.count(first) ? representative[first] : std::pair{first, 1};
            if (!representative.count(later) || representative[later].first > root)
                representative[later] = {root, root_sign * sign};
        }
    }
    out.sign_neutral = in.sign_neutral;
    out.opaque_model = in.opaque_model;
    std::unordered_map<int, int> to;  // old id → new id
    MergeReport r;
    for (int id : live) {
        const Node& n = in.node(id);
        out.set_step(n.step);
        int m;
        if (const auto it = representative.find(id); it != representative.end() && to.count(it->second.first)) {
            const auto [root, sign] = it->second;
            m = sign > 0 ? to.at(root) : out.make(Op::Neg, to.at(root));
            (sign > 0 ? r.same : r.opposite) += 1;
        } else {
            switch (n.op) {
                case Op::Const: m = n.opaque ? out.opaque_constant(n.value) : out.constant(n.value); break;
                case Op::Input: m = out.input(n.array, n.index); break;
                default: m = out.make(n.op, to.at(n.a), n.b >= 0 ? to.at(n.b) : -1); break;
            }
        }
        to[id] = m;
        if (const std::string* label = in.label(id)) out.name(m, *label);
    }
    out.set_step(-1);
    if (report) *report = r;
    std::vector<int> mapped;
    for (int o : outputs) mapped.push_back(to.at(o));
    return mapped;
}

}  // namespace rbdgen::sym
