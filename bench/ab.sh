#!/usr/bin/env bash
# A/B of two generators on aba_derivatives (issue 45's steps): each generates the floating humanoid
# (models/humanoid30.urdf) and talos (../shared/models/talos_full_v2.urdf), the kernels are compiled at
# -O2, -Os (rbdgen_add_robot's default) and -O2 -march=native, and bench/ab_aba_derivatives.cpp calls
# both in one process, interleaved. Prints a Markdown table of ns a call (the minimum over rounds).
# Usage: bench/ab.sh OLD_RBDGEN NEW_RBDGEN   (e.g. a build of the commit before, and build/generator/rbdgen)
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1") new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| robot | flags | before, ns | after, ns | before / after |"
echo "|---|---|---|---|---|"
for robot in humanoid30_fb:models/humanoid30.urdf talos_full_fb:../shared/models/talos_full_v2.urdf; do
  label=${robot%%:*} urdf=${robot#*:}
  [ -f "$urdf" ] || { echo "$urdf is absent: $label left out" >&2; continue; }
  for side in old new; do
    gen=$old; [ $side = new ] && gen=$new
    "$gen" generate "$urdf" --floating-base -o "$work/$side" --name "${label}_$side" --kernels aba_derivatives >/dev/null 2>&1
  done
  for flags in "-O2" "-Os" "-O2 -march=native"; do
    objects=()
    for side in old new; do
      # shellcheck disable=SC2086
      g++ -std=c++17 $flags -c -I "$work/$side" "$work/$side/${label}_${side}_aba_derivatives.cpp" -o "$work/$side.o"
      objects+=("$work/$side.o")
    done
    g++ -std=c++17 -O2 -I "$work/old" -DROBOT_OLD="${label}_old" -DROBOT_OLD_HEADER="\"${label}_old.hpp\"" \
      -DROBOT_NEW="${label}_new" -DROBOT_NEW_HEADER="\"$work/new/${label}_new.hpp\"" bench/ab_aba_derivatives.cpp "${objects[@]}" -o "$work/ab"
    read -r before after < <("$work/ab")
    echo "| $label | \`$flags\` | $before | $after | $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f×", a / b }') |"
  done
done
