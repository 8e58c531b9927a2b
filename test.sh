#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite (docs/testing.md).
#   ./test.sh          everything: the build and its tests, then the sanitized build and its tests,
#                      each input's fuzzer for 10 s among them
#   ./test.sh --quick  the generator, its unit tests and a handful of robots (ctest label quick), in
#                      build/: a change to an algorithm or a template re-checked in minutes. What it
#                      leaves out: docs/testing.md, "Quick"
#   ./test.sh --fuzz   the sanitized build and its five fuzzers, 600 s each (RBDGEN_FUZZ_SECONDS); an
#                      input they find goes into tests/fuzz/regressions/, which every build runs
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-all}
case "$mode" in
  all | --quick | --fuzz) ;;
  *) echo "test.sh: unknown option '$mode'; use ./test.sh, ./test.sh --quick or ./test.sh --fuzz" >&2; exit 2 ;;
esac
scripts/install-deps.sh
if [ "$mode" = --quick ]; then
  scripts/configure.sh
  cmake --build build --target quick -j"$(nproc)"
  ctest --test-dir build -L quick --output-on-failure -j"$(nproc)"
  exit
fi
if [ "$mode" = --fuzz ]; then
  RBDGEN_FUZZ_SECONDS=${RBDGEN_FUZZ_SECONDS:-600} scripts/build-sanitized.sh
  ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)" -R '^Fuzz\.'
  exit
fi
# Each phase's wall and CPU seconds (its processes' user + system time) and, at the end, whatever the
# outcome, the phases beside their budget in docs/testing.md and the five slowest tests and compile
# steps (scripts/time-report.py --summary), so that a change that makes the suite slower is seen in
# the run that makes it so.
phases=()
times_file=$(mktemp)
children_cpu() {  # cpu: the user + system seconds of this shell's finished children (bash's `times`)
  times >"$times_file"
  cpu=$(awk 'END { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$times_file")
}
phase() {  # NAME COMMAND...: runs COMMAND, records its seconds
  local name=$1 start=$SECONDS cpu0 status=0
  shift
  children_cpu
  cpu0=$cpu
  "$@" || status=$?
  children_cpu
  phases+=("$name|$((SECONDS - start))|$((cpu - cpu0))")
  return $status
}
summary() {
  local status=$?
  rm -f "$times_file"
  scripts/time-report.py --summary "${phases[@]/#/--phase=}" build build-sanitized || true
  exit $status
}
trap summary EXIT
phase "main build" scripts/build.sh
phase "main tests" ctest --test-dir build --output-on-failure -j"$(nproc)"
# The generator and its unit tests again under ASan + UBSan (clang) on one model a shape, generated
# robots of every emission form, and each input's fuzzer for 10 seconds (tests/fuzz/). What that
# build leaves out, as it runs unsanitized above: docs/testing.md, "The sanitized build".
phase "sanitized build" scripts/build-sanitized.sh
phase "sanitized tests" ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)"
