// Value numbering by value: two nodes whose values agree, or are opposite, to `tolerance` relative at
// four random points of the inputs become one node (or a negation of it). Most of what it merges in
// Nori's LU (KernelSpec::merge_values) are the two triangles of the symmetric Xᵀ Iᴬ X: one function
// traced as two expressions, whose values differ by the rounding of the constants folded along each
// path (1e-15 to 1e-13 relative), so that an exact identity test finds 1% of them. Values that agree
// at four random points to 1e-12 are one function but for a chance of that order (Schwartz–Zippel, in
// floating point); the merged kernel computes one of the two roundings.
#pragma once

#include <vector>

#include "sym/expr.hpp"

namespace rbdgen::sym {

inline constexpr double kMergeTolerance = 1e-12;

struct MergeReport {
    int same = 0, opposite = 0;  // nodes replaced by an earlier one, or by its negation
};

// The live part of `in` for `outputs`, copied into `out` (empty) with every node equal by value to an
// earlier one replaced by it. Returns the outputs' ids in `out`.
std::vector<int> merge_equal_values(const Graph& in, const std::vector<int>& outputs, Graph& out, double tolerance,
                                    MergeReport* report = nullptr);

}  // namespace rbdgen::sym
