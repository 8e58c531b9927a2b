// Synthetic robots: the topologies of Featherstone Table 2 (unbranched chain, chain with short side
// branches, balanced binary tree, spanning tree of a square grid) and the models the project ships
// (arm, dual arm on a torso, quadruped, the 30-DoF humanoid of Fig. 6), with general geometry and
// random but physically valid inertias, written as URDF.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rbdgen {

// A tree of revolute joints: parent[i] < i, −1 for the root link.
struct SyntheticTree {
    std::string name;
    std::vector<int> parent;
};

// Topology names: chain, sidebranch, bintree, grid (Table 2; `size` is m where the table has one,
// else n), arm, dualarm, quadruped, humanoid (size ignored).
SyntheticTree synthetic_tree(const std::string& topology, int size);
std::vector<std::string> synthetic_topologies();

// The URDF of the tree, with random joint placements, axes and inertias drawn from `seed`.
std::string synthetic_urdf(const SyntheticTree& tree, std::uint64_t seed);

}  // namespace rbdgen
