# A line plot as SVG, for the benchmark scripts (fig1.sh, ncmtm.sh): one polyline a series.
# Input: a header line (x, then a name a series), then rows of numbers.
# Variables (-v): title, xlabel; labels (the series' legend, "|"-separated; default the header's
# names); scale (the series, "|"-separated column numbers from 2, whose maximum sets the top of the
# y axis; others are clipped there; default all); logy=1 for a logarithmic y axis.
NR == 1 { series = NF - 1; for (c = 2; c <= NF; ++c) name[c] = $c; next }
{
    ++rows
    for (c = 1; c <= NF; ++c) v[rows, c] = $c
    if ($1 > xmax) xmax = $1
}
function y_of(value) {
    if (value > top) value = top
    if (logy) return 20 + (H - B) * (1 - (log(value) - log(bottom)) / (log(top) - log(bottom)))
    return 20 + (H - B) * (1 - value / top)
}
END {
    W = 640; H = 400; L = 80; B = 40
    n_scale = scale == "" ? 0 : split(scale, scaled, "|")
    if (n_scale == 0) for (c = 2; c <= series + 1; ++c) scaled[++n_scale] = c
    bottom = -1
    for (r = 1; r <= rows; ++r) {
        for (k = 1; k <= n_scale; ++k) if (v[r, scaled[k]] > top) top = v[r, scaled[k]]
        for (c = 2; c <= series + 1; ++c) if (v[r, c] > 0 && (bottom < 0 || v[r, c] < bottom)) bottom = v[r, c]
    }
    if (logy) { top = exp(log(top) + 0.05 * (log(top) - log(bottom))); bottom = exp(log(bottom) - 0.05 * (log(top) - log(bottom))) }
    else top *= 1.1
    n_labels = labels == "" ? 0 : split(labels, label, "|")
    split("#d62728 #1f77b4 #2ca02c #ff7f0e #9467bd #8c564b", colour, " ")
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W + 20, H + 60
    printf "<text x=\"%d\" y=\"16\">%s</text>\n", L, title
    printf "<rect x=\"%d\" y=\"20\" width=\"%d\" height=\"%d\" fill=\"white\" stroke=\"#888\"/>\n", L, W - L, H - B
    for (k = 0; k <= 4; ++k) {
        tick = logy ? exp(log(bottom) + (log(top) - log(bottom)) * k / 4) : top * k / 4
        printf "<text x=\"4\" y=\"%.0f\">" (!logy && top >= 100 ? "%.0f" : "%.3g") "</text>\n", y_of(tick) + 4, tick
        printf "<text x=\"%.0f\" y=\"%d\">%.4g</text>\n", L + (W - L) * k / 4 - 8, H - B + 36, xmax * k / 4
    }
    printf "<text x=\"%d\" y=\"%d\">%s</text>\n", W - 60, H + 10, xlabel
    for (c = 2; c <= series + 1; ++c) {
        printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour[c - 1]
        for (r = 1; r <= rows; ++r) if (!logy || v[r, c] > 0) printf "%.1f,%.1f ", L + (W - L) * v[r, 1] / xmax, y_of(v[r, c])
        printf "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", L + 10, 20 + 16 * (c - 1), colour[c - 1],
               c - 1 <= n_labels ? label[c - 1] : name[c]
    }
    print "</svg>"
}
