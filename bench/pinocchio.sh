#!/usr/bin/env bash
# Every kernel family against Pinocchio 3.7 in one process (bench_pinocchio.cpp), written to
# bench/pinocchio.md with the CPU named. Builds Pinocchio first where it is not built yet
# (../shared/peers/pinocchio/build.sh: its release's own sources, portable, about 5 minutes on 2
# cores, once per machine; PINOCCHIO_PREFIX: a Pinocchio 3.7 installed elsewhere). Without it the bench
# says that it skipped Pinocchio and times rbdgen alone.
# Usage: bench/pinocchio.sh [Google Benchmark flags, such as --benchmark_filter=humanoid]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
peers=$(cd .. && pwd)/shared/peers
prefix=${PINOCCHIO_PREFIX:-}
if [ -z "$prefix" ] && [ -x "$peers/pinocchio/build.sh" ]; then
  prefix=$("$peers/pinocchio/build.sh")
fi
[ -n "$prefix" ] || echo "bench/pinocchio.sh: no Pinocchio ($peers/pinocchio/build.sh is absent and PINOCCHIO_PREFIX unset): rbdgen is timed alone" >&2
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build-bench --target rbdgen_bench_pinocchio -j"$(nproc)"
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
build-bench/bench/rbdgen_bench_pinocchio --benchmark_repetitions=20 --benchmark_min_time=0.02 \
  --benchmark_enable_random_interleaving=true --out="$tables" "$@" >&2
{
  echo "# rbdgen against Pinocchio 3.7, in one process"
  echo
  echo "Written by \`bench/pinocchio.sh\` on $(date -u +%Y-%m-%d); every number below is from that one run."
  echo
  echo "- CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores ($(grep -o -w 'avx2\|fma\|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')), a shared virtual machine."
  echo "- Compiler: $(g++ --version | head -1). Pinocchio 3.7.0 ($prefix) at \`-O3 -march=native\` in its own translation unit, as its users build it; its library portable (../shared/peers/pinocchio/build.sh)."
  echo "- rbdgen: each robot's kernels in four builds: rbdgen_add_robot's default (\`-Os\`, portable), \`-O2\` portable, \`-O2 -march=native\`, and \`--lanes\` at \`-O2 -march=native\`. Best native: the faster of the last two."
  echo "- Both sides at the same 32 random states (q in [-1, 1], a unit quaternion for a floating base, q̇ in [-1, 1], q̈ or τ in [-5, 5], gravity (0, 0, -9.81)), cycled; each pair's outputs compared at all 32 first, through the mappings of pinocchio.hpp (free-flyer [linear; angular] to [angular; linear], centroidal rows, joint order, Pinocchio's upper triangles made symmetric): agreement is the worst max |Δ| / max(1, max |x|) over the four builds, and a pair beyond 1e-9 is not timed."
  echo "- Hot: the minimum over 20 repetitions (each the mean of about 20 ms of calls) in ns per call, all benchmarks in one random interleaved order (Google Benchmark), so that a slow spell of the shared machine cannot cover every repetition of one side. Each side is called through a function pointer (rbdgen) or a virtual call and a switch (Pinocchio): a few ns, in both."
  echo "- integrate_jacobians and difference_jacobians are not the same work on both sides: rbdgen writes both whole NV × NV Jacobians (its contract), Pinocchio's dIntegrate and dDifference only each joint's diagonal block into a matrix the caller zeroed once (here, once before the run); the times are what each user gets."
  echo "- Goals: at most 1/2 of Pinocchio's time at the default flags, at most 1/3 at \`-march=native\`. Operations a cycle: add + mul + div of report.json over ns × the clock /proc/cpuinfo states."
  cat "$tables"
} > bench/pinocchio.md.new
mv bench/pinocchio.md.new bench/pinocchio.md
echo "wrote bench/pinocchio.md"
