// Topology quantities of Featherstone's "Efficient factorization of the JSIM for branched kinematic
// trees": the expanded parent array (§2), depths d_i, and the cost quantities D0, D1, D2 (eq. 8, 9, 15).
// Arrays are 0-based with -1 for the root, so Featherstone's λ(i) is lambda[i-1] + 1.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbdgen {

// §2: replace every joint of n_i > 1 DoF by a chain of n_i 1-DoF joints.
std::vector<int> expanded_parent(const std::vector<int>& lambda, const std::vector<int>& n_i);

// The expanded parent array of a model (one entry per velocity coordinate, i.e. per row of H).
std::vector<int> expanded_parent(const Model& model);
std::vector<int> parent_array(const Model& model);

// d_i: the number of arcs between node i and the root.
std::vector<int> depths(const std::vector<int>& lambda);

struct CostQuantities {
    long D0 = 0, D1 = 0, D2 = 0;
};
CostQuantities cost_quantities(const std::vector<int>& lambda);

// Is j an ancestor of i, or i itself (i ∈ ν(j))?
bool in_subtree(const std::vector<int>& lambda, int i, int j);

// Branch-induced pattern of H (eq. 6): nonzero[i][j] iff i ∈ ν(j) or j ∈ ν(i).
std::vector<std::vector<bool>> jsim_pattern(const std::vector<int>& lambda);
long jsim_nonzeros(const std::vector<int>& lambda);

// Number of bodies with more than one child, the fixed base included.
int branching_bodies(const std::vector<int>& lambda);
// Number of bodies with no child: the tree's terminal chains.
int leaf_bodies(const std::vector<int>& lambda);

// The pattern drawn in text, one row per line: 'x' nonzero, '.' branch-induced zero.
std::string draw_pattern(const std::vector<std::vector<bool>>& pattern);

}  // namespace rbdgen
