#!/usr/bin/env bash
# Samy et al.'s Fig. 6 on the generated N-CMTM kernels: builds rbdgen_bench_ncmtm (the kernels of
# synthetic chains against ADOL-C's Taylor mode on the reference, in one process), runs it, and
# writes bench/ncmtm.md: the timing table, then the operation counts, code size and compile time of
# the emitted kernels against the order and the chain's length. Usage: bench/ncmtm.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -URBDGEN_BENCH_CHAINS -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen -j"$(nproc)"
rbdgen=build-bench/generator/rbdgen
chains=$PWD/build-bench/chains
mkdir -p "$chains"
for n in 5 10 20 50 100 150 200; do
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
  echo "Emitted size: operations (add + mul + div) from report.json, and g++ $(g++ -dumpversion) -O2 compiling the cornea kernel alone (seconds, peak MB, bytes of text and read-only data as \`size\` counts them) in the default emission (compact above 2000 operations) and straight-line (tried up to 40k operations; 600 s limit):"
  echo
  echo "| chain | N | ncmtm_fk ops | cornea ops | ncmtm_fd ops | cornea emission | cornea -O2 s / MB / bytes | straight-line cornea -O2 s / MB / bytes |"
  echo "|---|---|---|---|---|---|---|---|"
  for c in "100 1" "100 2" "100 3" "100 4" "100 5" "100 6" "100 8" "100 12" "5 5" "10 5" "20 5" "50 5" "150 5" "200 5"; do
    set -- $c
    compile() {  # seconds / peak MB / text + read-only data bytes (`size`) of $1 at -O2
      if /usr/bin/time -f "%e %M" -o "$work/t" timeout 600 g++ -std=c++17 -O2 -c "$1" -o "$work/x.o" 2>/dev/null; then
        echo "$(awk '{printf "%.0f / %.0f", $1, $2/1024}' "$work/t") / $(size "$work/x.o" | awk 'NR==2{print $1}')"
      else echo "over 600 s"; fi
    }
    "$rbdgen" generate "$chains/chain_$1.urdf" -o "$work/g" --name c --kernels rnea --ncmtm-order "$2" >/dev/null
    ops=$(python3 -c "import json; k=json.load(open('$work/g/report.json'))['kernels']; print(' | '.join(str(k[x]['ops']['add']+k[x]['ops']['mul']+k[x]['ops']['div']) for x in ('ncmtm_fk','cornea','ncmtm_fd')))")
    emission=$(sed -n 's|^// Emission: ||p' "$work/g/c_cornea.cpp")
    cornea_ops=$(echo "$ops" | awk -F' [|] ' '{print $2}')
    default=$(compile "$work/g/c_cornea.cpp")
    straight="not tried (over 40k operations)"
    if [ "$cornea_ops" -le 40000 ]; then
      "$rbdgen" generate "$chains/chain_$1.urdf" -o "$work/s" --name c --kernels cornea --ncmtm-order "$2" --emission straight >/dev/null
      straight=$(compile "$work/s/c_cornea.cpp")
    fi
    echo "| $1 | $2 | $ops | $emission | $default | $straight |"
    rm -rf "$work/g" "$work/s"
  done
} > "$sizes"
# The plots of Fig. 6 from the timing table: ns against N (100-body chain) and against the joints (N = 5).
awk -F' *[|] *' 'BEGIN {print "N fk ADOL-C_fk cornea ADOL-C_cornea"} $2 == "chain_100" {print $4, $6, $7, $10, $11}' "$table" |
  awk -f bench/plot.awk -v title="Samy et al. Fig. 6: a 100-body chain, ns a call against the order N (log)" -v xlabel="N" -v logy=1 \
    -v labels="ncmtm_fk (rbdgen)|ADOL-C, FK|cornea (rbdgen)|ADOL-C, RNEA" > bench/ncmtm_order.svg
awk -F' *[|] *' 'BEGIN {print "joints fk ADOL-C_fk cornea ADOL-C_cornea"} $2 ~ /^chain_/ && $4 == 5 {print $3, $6, $7, $10, $11}' "$table" | sort -n |
  awk -f bench/plot.awk -v title="Samy et al. Fig. 6: order 5, ns a call against the number of joints" -v xlabel="joints" \
    -v labels="ncmtm_fk (rbdgen)|ADOL-C, FK|cornea (rbdgen)|ADOL-C, RNEA" > bench/ncmtm_joints.svg
{
  echo "# The N-CMTM kernels: time against ADOL-C, size against order and length"
  echo
  echo "Written by \`bench/ncmtm.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine). Plots: [against the order](ncmtm_order.svg), [against the joints](ncmtm_joints.svg)."
  cat "$table"
  cat "$sizes"
} > bench/ncmtm.md
rm -rf "$table" "$sizes" "$work"
echo "wrote bench/ncmtm.md"
