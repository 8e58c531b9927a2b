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
# The plot: operations against N_B, one polyline a method (CRBA clipped at the top).
awk -f bench/plot.awk -v title="Nori Fig. 1: forward dynamics of a serial chain, emitted operations" -v xlabel="N_B" \
  -v scale=2 -v labels="fd_lu (static-pivot LU)|aba|fd_crba_ltdl (clipped)" "$work/series" > bench/fig1.svg
echo "wrote bench/fig1.md and bench/fig1.svg"
