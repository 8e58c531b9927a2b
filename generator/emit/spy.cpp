#include "emit/spy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace rbdgen {
namespace {

std::string xml_text(const std::string& text) {
    std::string out;
    for (char ch : text) {
        switch (ch) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += ch;
        }
    }
    return out;
}

}  // namespace

std::string spy_svg(const SpyPlot& p) {
    // One unit a matrix entry, drawn at most about 900 pixels wide; a title line above.
    const double scale = std::max(1.0, 900.0 / std::max(p.rows, p.cols));
    const double w = p.cols * scale, h = p.rows * scale, top = 24;
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\">\n"
        "<text x=\"0\" y=\"16\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n"
        "<rect x=\"0\" y=\"{}\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"white\" stroke=\"#888\"/>\n",
        w, h + top, w, h + top, xml_text(p.title), top, w, h);
    const auto squares = [&](const std::vector<std::pair<int, int>>& at, const char* colour) {
        svg += fmt::format("<g fill=\"{}\">\n", colour);
        for (const auto& [r, c] : at)
            svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", c * scale, top + r * scale, scale, scale);
        svg += "</g>\n";
    };
    squares(p.entries, "black");
    squares(p.fill, "#d62728");
    return svg + "</svg>\n";
}

// A problem's three pictures: D as assembled, D permuted (P D Q), and L + U with the fill-in red.
std::vector<std::pair<std::string, std::string>> spy_plots(const ProblemAnalysis& a) {
    const std::string& p = a.problem.name;
    SpyPlot D{fmt::format("{}: D as assembled, {} x {}, {} nonzeros", p, a.pattern.rows, a.pattern.cols, a.pattern.nnz()),
              a.pattern.rows, a.pattern.cols};
    std::vector<int> new_row(a.pattern.rows, -1), new_col(a.pattern.cols);
    for (size_t i = 0; i < a.lu.order.rows.size(); ++i) new_row[a.lu.order.rows[i]] = static_cast<int>(i);
    for (size_t j = 0; j < a.lu.order.columns.size(); ++j) new_col[a.lu.order.columns[j]] = static_cast<int>(j);
    SpyPlot permuted{fmt::format("{}: P D Q, ordering {}", p, a.ordering), a.lu.m, a.pattern.cols};
    std::set<std::pair<int, int>> original;
    for (int c = 0; c < a.pattern.cols; ++c)
        for (int r : a.pattern.columns[c]) {
            D.entries.push_back({r, c});
            if (new_row[r] >= 0) permuted.entries.push_back({new_row[r], new_col[c]}), original.insert({new_row[r], new_col[c]});
        }
    SpyPlot lu{fmt::format("{}: L + U, {} nonzeros, fill-in {} (red)", p, a.lu.nnz, a.lu.fill), a.lu.m, a.pattern.cols};
    const auto put = [&](int r, int c) { (original.count({r, c}) ? lu.entries : lu.fill).push_back({r, c}); };
    for (int i = 0; i < a.lu.m; ++i) {
        for (int k : a.lu.L[i]) put(i, k);
        if (i < a.lu.pivots) {
            put(i, i);
            for (int j : a.lu.U[i]) put(i, j);
        } else {
            for (int j = a.lu.pivots; j < a.lu.n; ++j) put(i, j);  // the least-squares tail, dense
        }
    }
    return {{p + "_D.svg", spy_svg(D)}, {p + "_D_permuted.svg", spy_svg(permuted)}, {p + "_LU.svg", spy_svg(lu)}};
}

}  // namespace rbdgen
