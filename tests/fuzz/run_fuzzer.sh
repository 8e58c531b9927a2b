#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time (a ctest of the sanitized build, tests/fuzz/CMakeLists.txt).
# New inputs go to CORPUS (in the build folder); the seeds and the kept regressions are read only.
# On a finding, libFuzzer leaves the input in ARTIFACTS; keep it in tests/fuzz/regressions/TARGET/
# (FuzzRegressions in test_bad_input.cpp then runs it on every build) and fix what it found.
# Usage: run_fuzzer.sh FUZZER SECONDS CORPUS ARTIFACTS [DICT|-] SEED_DIR...
set -euo pipefail
fuzzer=$1 seconds=$2 corpus=$3 artifacts=$4 dict=$5
shift 5
mkdir -p "$corpus" "$artifacts"
seeds=()
for d in "$@"; do
  if [ -d "$d" ]; then seeds+=("$d"); else echo "note: seed folder $d is absent; fuzzing without it"; fi
done
# A short run (./test.sh's 10 s) leaves out the seeds over 32 KB: libFuzzer runs every seed whole before
# it mutates any, and talos' two URDFs took 37 s each under the sanitizers (baxter's 48 KB 27 s on a
# loaded machine), so that Fuzz.urdf ran 221 s of its 10 (2026-11-27). ./test.sh --fuzz (600 s) reads
# them all; the regressions are all small.
if [ "$seconds" -lt 60 ] && [ ${#seeds[@]} -gt 0 ]; then
  small="$corpus.seeds"
  rm -rf "$small" && mkdir -p "$small"
  i=0 left_out=0
  for d in "${seeds[@]}"; do
    for f in "$(cd "$d" && pwd)"/*; do
      [ -f "$f" ] || continue
      if [ "$(stat -c %s "$f")" -gt 32768 ]; then left_out=$((left_out + 1)); continue; fi
      i=$((i + 1))
      ln -s "$f" "$small/$i-$(basename "$f")"
    done
  done
  [ "$left_out" -eq 0 ] || echo "note: $left_out seeds over 32 KB left out of this ${seconds}-second run"
  seeds=("$small")
fi
# -timeout: an input that runs longer is a hang. The largest seeds (robonaut.sdf, talos_full_v2.urdf),
# generated whole under ASan and UBSan, took 37 s on a 2.5 GHz Intel Xeon (2026-11-27), over the 30 s
# this was before.
options=(-max_total_time="$seconds" -timeout=120 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/")
[ "$dict" = "-" ] || options+=(-dict="$dict")
if ! "$fuzzer" "${options[@]}" "$corpus" "${seeds[@]}" 2>"$artifacts/log.txt"; then
  tail -n 60 "$artifacts/log.txt"
  echo "FAIL: $(basename "$fuzzer") found an input that crashes, hangs or trips a sanitizer: $(ls "$artifacts" | grep -v log.txt | tr '\n' ' ')"
  exit 1
fi
grep -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb|^Done" "$artifacts/log.txt" || true
echo "ok: no crash, hang or sanitizer report in $seconds s"
