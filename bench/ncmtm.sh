#!/usr/bin/env bash
# Samy et al.'s Fig. 6 on the generated N-CMTM kernels: builds rbdgen_bench_ncmtm (the kernels of
# synthetic chains against ADOL-C's Taylor mode on the reference, in one process), runs it, and
# writes bench/ncmtm.md: the timing table, then the operation counts, code size and compile time of
# the emitted kernels against the order and the chain's length. Usage: bench/ncmtm.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen -j"$(nproc)"
rbdgen=build-bench/generator/rbdgen
chains=$PWD/build-bench/chains
mkdir -p "$chains"
for n in 5 10 20 40 100; do
  [ -f "$chains/chain_$n.urdf" ] || "$rbdgen" synth chain "$n" --seed 1 -o "$chains/chain_$n.urdf" >/dev/null
done
cmake -S . -B build-bench -DRBDGEN_BENCH_CHAINS="$chains" >/dev/null
cmake --build build-bench --target rbdgen_bench_ncmtm -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_ncmtm --benchmark_repetitions=20 --benchmark_min_time=0.02 --benchmark_enable_random_interleaving=true --out="$table" "$@" >&2
# Size against order and length: operations of each kernel (report.json), and the time and memory
# g++ takes on the emitted cornea (one translation unit, one function) at -O1 and -O2, with a limit.
work=$(mktemp -d)
sizes=$(mktemp)
{
  echo
  echo "Emitted size: operations (add + mul + div) from report.json; g++ $(g++ -dumpversion) compiling the cornea kernel alone (seconds, peak MB, .text bytes), 600 s limit, tried up to 40k operations:"
  echo
  echo "| chain | N | ncmtm_fk ops | cornea ops | ncmtm_fd ops | cornea -O1 s / MB / bytes | cornea -O2 s / MB / bytes |"
  echo "|---|---|---|---|---|---|---|"
  for c in "10 1" "10 2" "10 3" "10 5" "10 8" "10 12" "5 5" "20 5" "40 5" "100 5" "100 12"; do
    set -- $c
    "$rbdgen" generate "$chains/chain_$1.urdf" -o "$work/g" --name c --kernels rnea --ncmtm-order "$2" >/dev/null
    ops=$(python3 -c "import json; k=json.load(open('$work/g/report.json'))['kernels']; print(' | '.join(str(k[x]['ops']['add']+k[x]['ops']['mul']+k[x]['ops']['div']) for x in ('ncmtm_fk','cornea','ncmtm_fd')))")
    cells=""
    cornea_ops=$(echo "$ops" | awk -F' [|] ' '{print $2}')
    for O in -O1 -O2; do
      if [ "$cornea_ops" -le 40000 ]; then
        if /usr/bin/time -f "%e %M" -o "$work/t" timeout 600 g++ -std=c++17 $O -c "$work/g/c_cornea.cpp" -o "$work/x.o" 2>/dev/null; then
          cells="$cells | $(awk '{printf "%.0f / %.0f", $1, $2/1024}' "$work/t") / $(size "$work/x.o" | awk 'NR==2{print $1}')"
        else cells="$cells | over 600 s"; fi
      else cells="$cells | not tried (over 40k operations)"; fi
    done
    echo "| $1 | $2 | $ops$cells |"
    rm -rf "$work/g"
  done
} > "$sizes"
{
  echo "# The N-CMTM kernels: time against ADOL-C, size against order and length"
  echo
  echo "Written by \`bench/ncmtm.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine)."
  cat "$table"
  cat "$sizes"
} > bench/ncmtm.md
rm -rf "$table" "$sizes" "$work"
echo "wrote bench/ncmtm.md"
