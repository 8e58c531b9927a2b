#!/usr/bin/env bash
# The derivatives of the dynamics: builds rbdgen_bench_derivatives (rnea_derivatives and aba_derivatives
# of the floating humanoid and talos at the default emission, -O2, against differences of the emitted
# rnea and aba, ADOL-C's forward mode on the reference and MuJoCo's differences, in one process), runs it (interleaved, the
# minimum of the repetitions), times the generation and compile of talos's derivative kernels, and
# writes bench/derivatives.md. Usage: bench/derivatives.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench_derivatives -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_derivatives --benchmark_repetitions=20 --benchmark_min_time=0.02 --benchmark_enable_random_interleaving=true --out="$table" "$@" >&2
# Generation and compile of talos's derivative kernels, as rbdgen_add_robot builds them (-Os, its
# default) and as the benchmark does (-O2): seconds and peak memory, one translation unit at a time.
talos=../shared/models/talos_full_v2.urdf
build_times=$(mktemp)
if [ -f "$talos" ]; then
  work=$(mktemp -d)
  /usr/bin/time -f "%e %M" -o "$work/time" build-bench/generator/rbdgen generate "$talos" --floating-base -o "$work" \
    --kernels rnea_derivatives,aba_derivatives >/dev/null 2>&1
  gen=$(cat "$work/time")
  {
    echo
    echo "Generation and compile of talos_full_v2's derivative kernels (floating, NV 50; g++ $(g++ -dumpversion), one translation unit at a time, seconds / peak MB / bytes of text as \`size\` counts them): \`rbdgen generate --kernels rnea_derivatives,aba_derivatives\` took $(echo "$gen" | awk '{printf "%s s and %.0f MB", $1, $2 / 1024}')."
    echo
    echo "| kernel | -Os (rbdgen_add_robot's default) | -O2 |"
    echo "|---|---|---|"
    for k in rnea_derivatives aba_derivatives; do
      row="| $k"
      for o in -Os -O2; do
        /usr/bin/time -f "%e %M" -o "$work/time" g++ -std=c++17 $o -c "$work/talos_$k.cpp" -I "$work" -o "$work/$k.o"
        t=$(cat "$work/time")
        row="$row | $(echo "$t" | awk '{printf "%s s / %.0f MB", $1, $2 / 1024}') / $(size "$work/$k.o" | awk 'NR==2{print $1}')"
      done
      echo "$row |"
    done
  } > "$build_times"
  rm -rf "$work"
fi
{
  echo "# Derivatives of the dynamics"
  echo
  echo "Written by \`bench/derivatives.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine), $(g++ --version | head -1)."
  echo
  echo "rbdgen's \`rnea_derivatives\` (∂τ/∂q, ∂τ/∂q̇) and \`aba_derivatives\` (∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ) at the default emission, built \`-O2\` (portable), against what a user without them does, in one process on the same 32 random states, interleaved, the minimum of 20 repetitions: differences of the emitted \`rnea\` and \`aba\` of the same build on the tangent space (one-sided: 2 NV + 1 calls of rnea, 3 NV + 1 of aba; central: 4 NV and 6 NV), ADOL-C $(dpkg-query -W -f='${Version}' libadolc-dev 2>/dev/null)'s forward mode on the reference RNEA and ABA (Debian's build; a tape made once, then \`fov_forward\` in 2 NV or 3 NV directions a state, the tangent basis of q included), and MuJoCo $(dpkg-query -W -f='${Version}' libmujoco-dev 2>/dev/null)'s one-sided differences the way \`mjd_transitionFD\` takes them (Debian's build; \`mj_forwardSkip\` for ∂q̈, \`mj_inverseSkip\` for ∂τ, 3 NV + 1 and 2 NV + 1 calls, each skipping the stages its perturbation leaves unchanged, positions moved by \`mj_integratePos\`; contacts, limits and passive forces off; its agreement over the joints' rows and columns, MuJoCo's base coordinates being its own). In brackets: the peer's time over rbdgen's. Operations per cycle: report.json's operations (add, mul, div: what the emitted code executes) over the hot ns times the clock /proc/cpuinfo states. Cold: one call after writing 64 MiB (every cache evicted), mean of 32 calls, minimum of 10 repetitions. Agreement: max |rbdgen − peer| / max(1, max |peer|) at one state."
  echo
  cat "$table"
  cat "$build_times"
} > bench/derivatives.md
rm -f "$table" "$build_times"
echo "wrote bench/derivatives.md"
