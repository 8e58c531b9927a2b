#include "model/synthetic.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "model/error.hpp"

namespace rbdgen {
namespace {

std::vector<int> chain(int n, int root = -1) {
    std::vector<int> p;
    for (int i = 0; i < n; ++i) p.push_back(i == 0 ? root : i - 1);
    return p;
}

// Append `limb` (a parent array of its own) under body `at` of `p`.
void attach(std::vector<int>& p, const std::vector<int>& limb, int at) {
    const int offset = static_cast<int>(p.size());
    for (int q : limb) p.push_back(q < 0 ? at : q + offset);
}

// Uniform doubles from a fully specified engine, so that models are identical on every machine.
struct Random {
    std::mt19937_64 engine;
    double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(engine() >> 11) * 0x1p-53; }
};

}  // namespace

std::vector<std::string> synthetic_topologies() {
    return {"chain", "sidebranch", "bintree", "grid", "arm", "dualarm", "quadruped", "humanoid"};
}

SyntheticTree synthetic_tree(const std::string& topology, int size) {
    SyntheticTree t{topology, {}};
    if (topology == "chain") {  // n = size
        t.parent = chain(size);
    } else if (topology == "sidebranch") {  // n = 2m, m = size: a main chain, one side body per link
        for (int k = 0; k < size; ++k) {
            const int main = static_cast<int>(t.parent.size());
            t.parent.push_back(k == 0 ? -1 : main - 2);
            t.parent.push_back(main);
        }
    } else if (topology == "bintree") {  // n = 2^m − 1, m = size
        for (int i = 0; i < (1 << size) - 1; ++i) t.parent.push_back(i == 0 ? -1 : (i - 1) / 2);
    } else if (topology == "grid") {  // n = m², m = size: node (r, c) at depth r + c + 1
        for (int r = 0; r < size; ++r)
            for (int c = 0; c < size; ++c)
                t.parent.push_back(r > 0 ? (r - 1) * size + c : c > 0 ? c - 1 : -1);
    } else if (topology == "arm") {
        t.parent = chain(7);
    } else if (topology == "dualarm") {  // a torso joint carrying two 7-DoF arms
        t.parent = {-1};
        attach(t.parent, chain(7), 0);
        attach(t.parent, chain(7), 0);
    } else if (topology == "quadruped") {  // four 3-DoF legs on the (floating) trunk link
        for (int leg = 0; leg < 4; ++leg) attach(t.parent, chain(3), -1);
    } else if (topology == "humanoid") {  // Fig. 6: four 6-DoF limbs on the (floating) torso link
        for (int limb = 0; limb < 4; ++limb) attach(t.parent, chain(6), -1);
    } else {
        throw Error("unknown topology '" + topology +
                    "'; use chain, sidebranch, bintree, grid, arm, dualarm, quadruped or humanoid");
    }
    if (t.parent.empty()) throw Error("topology '" + topology + "' of size " + std::to_string(size) + " has no joint; use a size >= 1");
    if (topology != "arm" && topology != "dualarm" && topology != "quadruped" && topology != "humanoid")
        t.name = fmt::format("{}_{}", topology, size);
    return t;
}

std::string synthetic_urdf(const SyntheticTree& tree, std::uint64_t seed) {
    Random rnd{std::mt19937_64(seed)};
    std::string s = fmt::format("<?xml version=\"1.0\"?>\n<!-- written by rbdgen synth, seed {} -->\n<robot name=\"{}\">\n",
                                seed, tree.name);
    auto link = [&](const std::string& name) {
        // Principal moments from positive second moments (a, b, c) satisfy the triangle inequality.
        const double m = rnd.uniform(0.5, 5.0);
        const double a = rnd.uniform(0.002, 0.05) * m, b = rnd.uniform(0.002, 0.05) * m, c = rnd.uniform(0.002, 0.05) * m;
        s += fmt::format("  <link name=\"{}\">\n    <inertial>\n", name);
        s += fmt::format("      <origin xyz=\"{:.17g} {:.17g} {:.17g}\" rpy=\"{:.17g} {:.17g} {:.17g}\"/>\n",
                         rnd.uniform(-0.1, 0.1), rnd.uniform(-0.1, 0.1), rnd.uniform(0.0, 0.2), rnd.uniform(-3, 3),
                         rnd.uniform(-1.5, 1.5), rnd.uniform(-3, 3));
        s += fmt::format("      <mass value=\"{:.17g}\"/>\n", m);
        s += fmt::format("      <inertia ixx=\"{:.17g}\" ixy=\"0\" ixz=\"0\" iyy=\"{:.17g}\" iyz=\"0\" izz=\"{:.17g}\"/>\n",
                         b + c, a + c, a + b);
        s += "    </inertial>\n  </link>\n";
    };
    link("base_link");
    for (size_t i = 0; i < tree.parent.size(); ++i) {
        const std::string child = fmt::format("link{:03}", i + 1);
        const std::string parent = tree.parent[i] < 0 ? "base_link" : fmt::format("link{:03}", tree.parent[i] + 1);
        link(child);
        // General geometry: a random placement and orientation, and a random unit axis.
        double ax = rnd.uniform(-1, 1), ay = rnd.uniform(-1, 1), az = rnd.uniform(-1, 1);
        const double norm = std::sqrt(ax * ax + ay * ay + az * az) + 1e-3;
        ax /= norm, ay /= norm, az /= norm;
        s += fmt::format("  <joint name=\"joint{:03}\" type=\"revolute\">\n    <parent link=\"{}\"/>\n    <child link=\"{}\"/>\n",
                         i + 1, parent, child);
        s += fmt::format("    <origin xyz=\"{:.17g} {:.17g} {:.17g}\" rpy=\"{:.17g} {:.17g} {:.17g}\"/>\n",
                         rnd.uniform(-0.2, 0.2), rnd.uniform(-0.2, 0.2), rnd.uniform(0.05, 0.4), rnd.uniform(-3, 3),
                         rnd.uniform(-1.5, 1.5), rnd.uniform(-3, 3));
        s += fmt::format("    <axis xyz=\"{:.17g} {:.17g} {:.17g}\"/>\n", ax, ay, az);
        s += "    <limit lower=\"-3.14\" upper=\"3.14\" effort=\"100\" velocity=\"10\"/>\n  </joint>\n";
    }
    s += "</robot>\n";
    return s;
}

}  // namespace rbdgen
