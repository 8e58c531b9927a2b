#!/usr/bin/env bash
# What whole-body controllers compute every cycle (issue 43): builds rbdgen_bench_whole_body (com,
# com_jacobian, centroidal, centroidal_momentum_rate, energy, jacobians_dot, minv and coriolis, and
# (issue 46) centroidal_derivatives, integrate, difference and their Jacobians of the arm, the floating
# humanoid and talos, -O2 -march=native, against MuJoCo and DART where they have the
# quantity, in one process), runs it (interleaved, the minimum of the repetitions) and writes
# bench/whole_body.md. Usage: bench/whole_body.sh [Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench_whole_body -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_whole_body --benchmark_repetitions=20 --benchmark_min_time=0.02 --benchmark_enable_random_interleaving=true --out="$table" "$@" >&2
{
  echo "# Centre of mass, centroidal momentum, energy, Jacobian rates, H⁻¹ and C"
  echo
  echo "Written by \`bench/whole_body.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine), $(g++ --version | head -1)."
  echo
  echo "The generated kernels built \`-O2 -march=native\` (this CPU: $(grep -o -w 'avx2\|fma\|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')) against MuJoCo $(dpkg-query -W -f='${Version}' libmujoco-dev 2>/dev/null) (Debian's build; the calls a user makes for each quantity: \`mj_kinematics\` and \`mj_comPos\`, then \`mj_jacSubtreeCom\`; \`mj_crb\`, \`mj_factorM\` and \`mj_solveM\` on the identity for H⁻¹; \`mj_crb\`, \`mj_energyPos\` and \`mj_energyVel\`) and DART $(dpkg-query -W -f='${Version}' libdart-dev 2>/dev/null) (\`getCOM\`, \`getCOMLinearJacobian\`, \`getInvMassMatrix\`, \`computeKineticEnergy\` + \`computePotentialEnergy\`, each after \`setPositions\`/\`setVelocities\`), in one process on the same 32 random states, interleaved, the minimum of 20 repetitions; in brackets the peer's time over rbdgen's. MuJoCo and DART have no centroidal momentum matrix, Coriolis matrix or Jacobian rate, nor the centroidal derivatives or the Jacobians of q ⊕ v and q₁ ⊖ q₀; \`centroidal_derivatives\` is timed against central differences of the generated \`centroidal_momentum_rate\` along q's tangent directions (by the generated \`integrate\`), q̇ and q̈, and \`integrate\`, \`difference\` against MuJoCo's \`mj_integratePos\`, \`mj_differentiatePos\` (whose free joint moves in world axes, not along SE(3)'s exponential). Cold: one call after writing 64 MiB (every cache evicted), mean of 32 calls, minimum of 10 repetitions. The last column is the figure issue 43 (46 for the derivatives and the manifold) quotes for Pinocchio 3.7 (an Intel Xeon, -O3 -march=native, hot, median, a 7-DoF arm and a 36-DoF floating humanoid; Pinocchio is not in Debian and was not run here): beside arm7 and humanoid30_fb (NV 30) for scale only."
  echo
  cat "$table"
} > bench/whole_body.md
rm -f "$table"
echo "wrote bench/whole_body.md"
