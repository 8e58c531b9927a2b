#!/usr/bin/env bash
# The N-CMTM kernels of the largest shipped robots, against the order: operations (report.json), the
# emission auto chose, and what g++ -O2 takes to compile each kernel alone (seconds, peak MB, bytes
# of text and read-only data as `size` counts them). Writes bench/ncmtm_sizes.md. Usage: bench/ncmtm_sizes.sh [orders, default "1 2 3 4 5 6"]
set -euo pipefail
cd "$(dirname "$0")/.."
orders=${1:-1 2 3 4 5 6}
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen -j"$(nproc)" >/dev/null
rbdgen=$PWD/build-bench/generator/rbdgen
robots=("models/humanoid30.urdf humanoid30_fb")
talos=../shared/models/talos_full_v2.urdf
if [ -f "$talos" ]; then robots+=("$talos talos_full_fb"); else echo "note: $talos absent, only models/" >&2; fi
kernels="ncmtm_fk cornea ncmtm_fd ncmtm_jacobian ncmtm_torque_jacobian"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=bench/ncmtm_sizes.md
{
  echo "# The N-CMTM kernels of the largest shipped robots: size against the order"
  echo
  echo "Written by \`bench/ncmtm_sizes.sh\` on $(date -u +%F), g++ $(g++ -dumpversion) -O2, one kernel a translation unit, floating base, default emission (auto). Cells: operations (add + mul + div) / emission / compile seconds / peak MB / bytes of text and read-only data (\`size\`: the machine code and the compact form's tables)."
  echo
  echo "| robot | N | $(echo $kernels | sed 's/ / | /g') |"
  echo "|---|---|$(for k in $kernels; do printf -- '---|'; done)"
  for r in "${robots[@]}"; do
    set -- $r
    for n in $orders; do
      "$rbdgen" generate "$1" --floating-base -o "$work/g" --name r --kernels "$(echo $kernels | tr ' ' ,)" --ncmtm-order "$n" >/dev/null
      row="| $2 | $n |"
      for k in $kernels; do
        ops=$(python3 -c "import json; o=json.load(open('$work/g/report.json'))['kernels']['$k']['ops']; print(o['add']+o['mul']+o['div'])")
        emission=$(sed -n 's|^// Emission: \([a-z-]*\).*|\1|p' "$work/g/r_$k.cpp")
        if /usr/bin/time -f "%e %M" -o "$work/t" timeout 600 g++ -std=c++17 -O2 -c "$work/g/r_$k.cpp" -I"$work/g" -o "$work/x.o" 2>/dev/null; then
          row+=" $ops / $emission / $(awk '{printf "%.1f / %.0f", $1, $2/1024}' "$work/t") / $(size "$work/x.o" | awk 'NR==2{print $1}') |"
        else row+=" $ops / $emission / over 600 s |"; fi
      done
      echo "$row"
      rm -rf "$work/g"
    done
  done
} > "$out"
cat "$out"
