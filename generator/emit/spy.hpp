// Spy plots of a problem's matrices for report.md: an SVG with a square per structural nonzero,
// entries of D in one colour and the LU's fill-in in another.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sparse/analysis.hpp"

namespace rbdgen {

struct SpyPlot {
    std::string title;
    int rows = 0, cols = 0;
    std::vector<std::pair<int, int>> entries, fill;  // (row, column)
};

std::string spy_svg(const SpyPlot& plot);

// A problem's three pictures, as (file name, SVG): D as assembled, D permuted (P D Q), and L + U with
// the fill-in red.
std::vector<std::pair<std::string, std::string>> spy_plots(const ProblemAnalysis& a);

}  // namespace rbdgen
