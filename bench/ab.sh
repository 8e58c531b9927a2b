#!/usr/bin/env bash
# A/B of two generators on a kernel (issue 45's steps): each generates the floating quadruped
# (models/quadruped.urdf), humanoid (models/humanoid30.urdf) and talos (../shared/models/talos_full_v2.urdf), the kernel is compiled at
# -O2, -Os (rbdgen_add_robot's default) and -O2 -march=native, and bench/ab_kernel.cpp calls both in
# one process, interleaved. Prints a Markdown table of ns a call (the minimum over rounds); the
# operations being the same, before / after is also the ratio of operations per cycle.
# AB_ROBOTS replaces the robots (label:file ...). NEW_OPTIONS and OLD_OPTIONS add options to the new and the old generator's command (e.g. NEW_OPTIONS=--lanes).
# Usage: bench/ab.sh OLD_RBDGEN NEW_RBDGEN [KERNEL]   (KERNEL: rnea, crba, aba, rnea_derivatives or aba_derivatives, the
# default; OLD_RBDGEN e.g. a build of the commit before, NEW_RBDGEN build/generator/rbdgen)
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1") new=$(realpath "$2") kernel=${3:-aba_derivatives}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| robot | kernel | flags | before, ns | after, ns | before / after |"
echo "|---|---|---|---|---|---|"
for robot in ${AB_ROBOTS:-quadruped_fb:models/quadruped.urdf humanoid30_fb:models/humanoid30.urdf talos_full_fb:../shared/models/talos_full_v2.urdf}; do
  label=${robot%%:*} urdf=${robot#*:}
  [ -f "$urdf" ] || { echo "$urdf is absent: $label left out" >&2; continue; }
  for side in old new; do
    gen=$old options=()
    read -r -a options <<< "${OLD_OPTIONS:-}"
    [ $side = new ] && gen=$new && read -r -a options <<< "${NEW_OPTIONS:-}"
    "$gen" generate "$urdf" --floating-base -o "$work/$side" --name "${label}_$side" --kernels "$kernel" "${options[@]}" >/dev/null 2>&1
  done
  for flags in "-O2" "-Os" "-O2 -march=native"; do
    objects=()
    for side in old new; do
      # shellcheck disable=SC2086
      g++ -std=c++17 $flags -c -I "$work/$side" "$work/$side/${label}_${side}_$kernel.cpp" -o "$work/$side.o"
      objects+=("$work/$side.o")
    done
    g++ -std=c++17 -O2 -I "$work/old" -DKERNEL="$kernel" -DROBOT_OLD="${label}_old" -DROBOT_OLD_HEADER="\"${label}_old.hpp\"" \
      -DROBOT_NEW="${label}_new" -DROBOT_NEW_HEADER="\"$work/new/${label}_new.hpp\"" bench/ab_kernel.cpp "${objects[@]}" -o "$work/ab"
    read -r before after < <("$work/ab")
    echo "| $label | $kernel | \`$flags\` | $before | $after | $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f×", a / b }') |"
  done
done
