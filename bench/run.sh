#!/usr/bin/env bash
# Builds and runs the benchmarks (generated kernels vs the reference implementation vs KDL, in one
# process) and writes bench/RESULTS.md: machine, flags, ns per call and ratios, op counts beside
# Featherstone's, code size per kernel. Usage: bench/run.sh [extra Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench rbdgen_bench_lu -j"$(nproc)"
# The sections other scripts and runs keep in RESULTS.md (from Nori's Fig. 1 on) stay as they are.
kept=$(mktemp)
sed -n '/^## Nori.s Fig. 1/,$p' bench/RESULTS.md > "$kept" 2>/dev/null || true
tables=$(mktemp)
tables_lu=$(mktemp)
build-bench/bench/rbdgen_bench --benchmark_repetitions=30 --benchmark_min_time=0.03 --benchmark_enable_random_interleaving=true --out="$tables" "$@" >&2
build-bench/bench/rbdgen_bench_lu --benchmark_repetitions=30 --benchmark_min_time=0.03 --benchmark_enable_random_interleaving=true --out="$tables_lu" "$@" >&2
{
  echo "# Benchmark results"
  echo
  echo "Written by \`bench/run.sh\` on $(date -u +%Y-%m-%d)."
  echo
  echo "Against Pinocchio 3.7, measured in one process (every kernel family, six robots, four builds): [pinocchio.md](pinocchio.md), written by \`bench/pinocchio.sh\`. The Pinocchio figures further down this file that say \"issue\" were copied from issue texts (another machine, in places another robot) and are not measurements."
  echo
  echo "- Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine: timings vary by 20% or more from run to run; all peers of a row ran in the same process, interleaved by Google Benchmark)"
  echo "- Compiler: $(g++ --version | head -1)"
  echo "- Flags: everything at \`-O2\`, portable (no \`-march=native\`): the generated kernels (\`COMPILE_OPTIONS -O2\`, the peers' flags; rbdgen_add_robot's own default is \`-Os\`), the reference implementation (Eigen, templated algorithms in double), and Debian's prebuilt KDL $(dpkg-query -W -f='${Version}' liborocos-kdl-dev 2>/dev/null) and DART $(dpkg-query -W -f='${Version}' libdart-dev 2>/dev/null). The \`-march=native\` column is the same generated kernels built with \`-O2 -march=native\` (this CPU: $(grep -o -w 'avx2\|fma\|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')), called from the same process; KDL's and DART's sides keep Debian's flags (only plain arrays cross)."
  echo "- Each hot-loop time is the minimum of 30 short repetitions (each the mean over its iterations, about 30 ms), in ns per call, every call at the next of 32 random states (cycled, so that neither the sine and cosine's argument reduction nor the data caches see one state over and over); the repetitions of all benchmarks run in one random interleaved order, so that a slow spell of this shared machine (the same binary timed the same kernel at 299 and 593 ns minutes apart, KDL at 1765 and 3088 ns) cannot cover all thirty: other guests only ever add time, so the minimum is the steadiest estimate for every peer alike. The two eviction tables time every peer's single calls after writing 1 MiB (L1 and L2 of a core evicted) or 64 MiB (every cache), as a controller sees them when other work runs between its calls: the mean of 64 such calls at the 32 states, minimum over 10 repetitions."
  cat "$tables"
  cat "$tables_lu"
  echo
  echo "Machine code per kernel (bytes of .text, \`size\`, -O2):"
  echo
  echo "| robot | kernel | bytes |"
  echo "|---|---|---|"
  for o in build-bench/bench/CMakeFiles/bench_*.dir/rbdgen/*/*.cpp.o; do
    robot=$(basename "$(dirname "$o")"); kernel=$(basename "$o" .cpp.o); kernel=${kernel#"$robot"_}
    case $robot in *_native) continue ;; esac
    echo "| ${robot#bench_} | $kernel | $(size "$o" | awk 'NR==2{print $1}') |"
  done
  if [ -s "$kept" ]; then echo; cat "$kept"; fi
} > bench/RESULTS.md.new
mv bench/RESULTS.md.new bench/RESULTS.md
rm -f "$tables" "$tables_lu" "$kept"
echo "wrote bench/RESULTS.md"
