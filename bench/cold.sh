#!/usr/bin/env bash
# Cold calls: builds rbdgen_bench_cold (the floating humanoid and talos, rnea, crba, aba and
# fd_crba_ltdl at the default emission and rbdgen_add_robot's default -Os, plain, through their _cold
# entries and warmed ahead, against MuJoCo and DART, in one process after every cache and TLB is evicted), runs
# it and writes bench/cold.md with each kernel's warm() bytes and cache lines from report.json
# (MEASURE). Usage: bench/cold.sh [--rounds=N] [--gap-ns=NS]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake -S . -B build-bench -DRBDGEN_BUILD_BENCH=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target rbdgen_bench_cold -j"$(nproc)"
table=$(mktemp)
build-bench/bench/rbdgen_bench_cold --out="$table" "$@" 2>/dev/null >&2
{
  echo "# Cold calls"
  echo
  echo "Written by \`bench/cold.sh\` on $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores (a shared virtual machine), $(g++ --version | head -1); the kernels at rbdgen_add_robot's default (-Os, portable), MuJoCo $(dpkg-query -W -f='${Version}' libmujoco-dev 2>/dev/null) and DART $(dpkg-query -W -f='${Version}' libdart-dev 2>/dev/null) Debian's builds."
  echo
  cat "$table"
  echo
  echo "What warm() reads (report.json \`host_build\`, \`--measure\` at -Os): each kernel's own sections and their cache lines of 64 bytes; the rest of its data is the compiler's pool of constants (.rodata.cst*), which warm() does not read."
  echo
  echo "| robot | kernel | code (bytes) | tables (bytes) | cache lines | constants outside (bytes) |"
  echo "|---|---|---|---|---|---|"
  for r in humanoid30_fb talos_full_fb; do
    report=build-bench/bench/rbdgen/cold_$r/report.json
    [ -f "$report" ] || continue
    for k in rnea crba aba fd_crba_ltdl; do
      jq -r --arg r "$r" --arg k "$k" '.host_build.kernels[$k] | "| \($r) | \($k) | \(.warm.code_bytes) | \(.warm.table_bytes) | \(.warm.cache_lines) | \(.data_bytes - .warm.table_bytes) |"' "$report"
    done
  done
} > bench/cold.md
rm -f "$table"
echo "wrote bench/cold.md"
