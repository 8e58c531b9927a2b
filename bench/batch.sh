#!/usr/bin/env bash
# The batched kernels' throughput: builds rbdgen_bench_batch (every robot of bench/CMakeLists.txt's
# batch_robots with BATCH 2, 4 and 8 at -O2 -mavx2 -mfma), runs it (interleaved, minimum of the
# repetitions) and writes bench/batch.md. Needs an AVX2 machine. Usage: bench/batch.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
grep -qw avx2 /proc/cpuinfo || { echo "bench/batch.sh: this machine has no AVX2" >&2; exit 1; }
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench_batch -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_batch --benchmark_repetitions=20 --benchmark_min_time=0.02 --benchmark_enable_random_interleaving=true --out="$table" "$@" >&2
{
  echo "# Batched kernels: states per second"
  echo
  echo "Written by \`bench/batch.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine), $(g++ --version | head -1)."
  echo
  echo "\`rbdgen generate --batch W\` against the single-state kernel of the same build, in one process, interleaved: each side cycles through the same 32 random states (one a call, or W a call); ns per state is the fastest of 20 repetitions divided by W; in brackets how many more states a second than one state a call. Everything at \`-O2 -mavx2 -mfma\`: 4 doubles fill an AVX2 register, 8 take two."
  echo
  cat "$table"
} > bench/batch.md
rm -f "$table"
echo "wrote bench/batch.md"
