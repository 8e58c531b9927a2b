#!/usr/bin/env bash
# Cold calls (rbdgen_runtime.hpp's warm): with each linker of this machine (GNU ld, gold, lld), the
# kernels of two robots link, their sections bracket every function and table of each kernel, and
# warm_all() and extent() read exactly those bounds (sections.py). The robots: the floating quadruped
# (compact kernels with tables, LTDL's loops, the batched and _sc entry points in the same files) and
# arm7 in the uniform emission (call tables of function pointers). The cross-compiled firmware check
# is cortex_m.sh's. Usage: warm.sh RBDGEN MODELS_DIR DATA_DIR
set -euo pipefail
rbdgen=$1 models=$2 data=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-std=c++17 -O2 -Wall -Wextra -Werror"
robot() {  # NAME URDF [generate flags...]
  local name=$1 urdf=$2
  shift 2
  "$rbdgen" generate "$urdf" -o "$work/$name" --name "$name" "$@" >/dev/null
  objs=()
  for src in "$work/$name/${name}"_*.cpp; do
    case $src in *_eval.cpp | *_bench.cpp) continue ;; esac
    g++ $flags -c "$src" -o "${src%.cpp}.o" &
    objs+=("${src%.cpp}.o")
  done
  wait
  # the kernels' names in the order of the header's enum class Kernel
  local kernels
  kernels=$(awk '/^enum class Kernel/ {on = 1; next} on && /^}/ {exit} on {sub(/,$/, ""); gsub(/ /, ""); printf "%s\"%s\"", n++ ? "," : "", $0}' "$work/$name/$name.hpp")
  g++ $flags -I"$work/$name" -DROBOT_HEADER="\"$name.hpp\"" -DROBOT="$name" -DKERNELS="$kernels" -c "$data/print_extents.cpp" -o "$work/$name/main.o"
  for linker in bfd gold lld; do
    if ! g++ -fuse-ld=$linker -Wl,--version >/dev/null 2>&1; then
      echo "skipped: $name with ld.$linker (not installed)"
      continue
    fi
    # -no-pie: the addresses the program prints are those nm reads
    g++ -fuse-ld=$linker -no-pie -o "$work/$name/main_$linker" "$work/$name/main.o" "${objs[@]}" -lm
    "$work/$name/main_$linker" >"$work/$name/printed_$linker"
    echo "== $name, ld.$linker"
    "$here/sections.py" nm "$name" "$work/$name/main_$linker" "$work/$name/printed_$linker" "${objs[@]}"
  done
}
robot quadruped "$models/quadruped.urdf" --floating-base --batch 2 --trig-entry-points
robot arm7_uniform "$models/arm7.urdf" --emission uniform
