#!/usr/bin/env bash
# Nori's Fig. 1 in emitted operations: forward dynamics of a serial chain (rbdgen synth chain N_B,
# general geometry) by the static-pivot LU (fd_lu), by the ABA and by CRBA + LTDL, for N_B = 1..100,
# from the generator's report.json. Writes bench/fig1.md (a table) and bench/fig1.svg (the plot).
# Usage: bench/fig1.sh [path to rbdgen] (default build/generator/rbdgen)
set -euo pipefail
cd "$(dirname "$0")/.."
rbdgen=${1:-build/generator/rbdgen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ops() {  # total operations of kernel $2 in report $1 (a problem's kernels under problems.fd)
  grep -A12 "\"$2\": {" "$1" | awk '/"(add|mul|div|sqrt|sin|cos)":/ {gsub(/[^0-9]/, "", $2); s += $2} /}/ {print s; exit}'
}
echo "N_B fd_lu aba fd_crba_ltdl" > "$work/series"
for n in 1 2 3 4 5 6 8 10 12 15 20 25 30 40 50 60 70 80 90 100; do
  "$rbdgen" synth chain "$n" --seed 1 -o "$work/chain.urdf" >/dev/null
  "$rbdgen" generate "$work/chain.urdf" -o "$work/out" --name chain --kernels aba,fd_crba_ltdl --problem fd >/dev/null
  r="$work/out/report.json"
  echo "$n $(ops "$r" fd_lu) $(ops "$r" aba) $(ops "$r" fd_crba_ltdl)" >> "$work/series"
done
{
  echo "| N_B | fd_lu (static-pivot LU) | aba | fd_crba_ltdl | fd_lu / aba |"
  echo "|---|---|---|---|---|"
  awk 'NR > 1 {printf "| %d | %d | %d | %d | %.2f |\n", $1, $2, $3, $4, $2 / $3}' "$work/series"
} > bench/fig1.md
# The plot: operations against N_B, one polyline a method (linear axes, CRBA clipped at the top).
awk 'NR > 1 {n[NR] = $1; lu[NR] = $2; aba[NR] = $3; crba[NR] = $4; last = NR; if ($2 > top) top = $2}
END {
  W = 640; H = 400; L = 70; B = 40; top *= 1.1
  printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W + 20, H + 60
  printf "<text x=\"%d\" y=\"16\">Nori Fig. 1: forward dynamics of a serial chain, emitted operations</text>\n", L
  printf "<rect x=\"%d\" y=\"20\" width=\"%d\" height=\"%d\" fill=\"white\" stroke=\"#888\"/>\n", L, W - L, H - B
  for (k = 0; k <= 4; ++k) printf "<text x=\"4\" y=\"%.0f\">%d</text>\n", 20 + (H - B) * (1 - k / 4) + 4, top * k / 4
  for (k = 0; k <= 4; ++k) printf "<text x=\"%.0f\" y=\"%d\">%d</text>\n", L + (W - L) * k / 4 - 8, H - B + 36, 100 * k / 4
  printf "<text x=\"%d\" y=\"%d\">N_B</text>\n", W - 30, H + 10
  split("lu aba crba", names, " "); split("#d62728 #1f77b4 #2ca02c", colours, " ")
  split("fd_lu (static-pivot LU)|aba|fd_crba_ltdl (clipped)", labels, "|")
  for (m = 1; m <= 3; ++m) {
    printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colours[m]
    for (i = 2; i <= last; ++i) {
      v = names[m] == "lu" ? lu[i] : names[m] == "aba" ? aba[i] : crba[i]
      if (v > top) v = top
      printf "%.1f,%.1f ", L + (W - L) * n[i] / 100, 20 + (H - B) * (1 - v / top)
    }
    printf "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", L + 10, 20 + 16 * m, colours[m], labels[m]
  }
  print "</svg>"
}' "$work/series" > bench/fig1.svg
echo "wrote bench/fig1.md and bench/fig1.svg"
