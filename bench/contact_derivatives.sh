#!/usr/bin/env bash
# The derivatives of constrained dynamics: builds rbdgen_bench_contact_derivatives (contact_derivatives of
# the floating humanoid, talos and the quadruped at the default emission against central differences of
# the emitted contact_aba and ADOL-C's forward mode on the reference, in one process), runs it
# (interleaved, the minimum of the repetitions), times the generation and compile of talos's kernel, and
# writes bench/contact_derivatives.md. Usage: bench/contact_derivatives.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench_contact_derivatives -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_contact_derivatives --benchmark_repetitions=20 --benchmark_min_time=0.02 --benchmark_enable_random_interleaving=true --out="$table" "$@" >&2
talos=../shared/models/talos_full_v2.urdf
build_times=$(mktemp)
if [ -f "$talos" ]; then
  work=$(mktemp -d)
  /usr/bin/time -f "%e %M" -o "$work/time" build-bench/generator/rbdgen generate "$talos" --floating-base -o "$work" --kernels rnea \
    --problem contact:left_sole_link,right_sole_link >/dev/null 2>&1
  gen=$(cat "$work/time")
  row=""
  for o in -Os -O2; do
    /usr/bin/time -f "%e %M" -o "$work/time" g++ -std=c++17 $o -c "$work/talos_contact_derivatives.cpp" -I "$work" -o "$work/k.o"
    t=$(cat "$work/time")
    row="$row | $(echo "$t" | awk '{printf "%s s / %.0f MB", $1, $2 / 1024}') / $(size "$work/k.o" | awk 'NR==2{print $1}')"
  done
  {
    echo
    echo "Generation and compile of talos_full_v2's contact_derivatives (both soles in 6D contact; g++ $(g++ -dumpversion), seconds / peak MB / bytes of text as \`size\` counts them): \`rbdgen generate --kernels rnea --problem contact:left_sole_link,right_sole_link\` took $(echo "$gen" | awk '{printf "%s s and %.0f MB", $1, $2 / 1024}') (every kernel of the problem, its analysis included)."
    echo
    echo "| kernel | -Os (rbdgen_add_robot's default) | -O2 |"
    echo "|---|---|---|"
    echo "| contact_derivatives$row |"
  } > "$build_times"
  rm -rf "$work"
fi
{
  echo "# Derivatives of constrained dynamics"
  echo
  echo "Written by \`bench/contact_derivatives.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine), $(g++ --version | head -1)."
  echo
  echo "rbdgen's \`contact_derivatives\` (\`--problem contact:<feet>\`: ∂q̈ and ∂λ along q, q̇ and τ) at the default emission, built \`-O2\` (portable), \`-O2 -march=native\`, and \`-O2 -march=native\` with \`--lanes\`, against what a user without it does, in one process on the same 32 random states, interleaved, the minimum of 20 repetitions: central differences of the emitted \`contact_aba\` (the portable build) on the tangent space (6 NV calls), and ADOL-C $(dpkg-query -W -f='${Version}' libadolc-dev 2>/dev/null)'s forward mode on the reference \`contact_aba\` (Debian's build; a tape made once, then \`fov_forward\` in 3 NV directions a state). In brackets: the peer's time over rbdgen's portable build. Operations per cycle: report.json's operations (add, mul, div; the loops' counted as scalar operations) over the hot time times the clock /proc/cpuinfo states. Cold: one call after writing 64 MiB, mean of 32 calls, minimum of 10 repetitions. Agreement: max |rbdgen − peer| / max(1, max |peer|) at one state, over the columns of q, q̇ and the forces the problem reads."
  echo
  cat "$table"
  cat "$build_times"
} > bench/contact_derivatives.md
rm -f "$table" "$build_times"
echo "wrote bench/contact_derivatives.md"
