#include "emit/spy.hpp"

#include <fmt/format.h>

#include <algorithm>

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

}  // namespace rbdgen
