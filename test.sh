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
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The generator and its unit tests again under ASan + UBSan (clang), and each input's fuzzer for 10
# seconds (tests/fuzz/). Left out there, as they run unsanitized above: the same checks on the
# largest robots (talos) and Nori's figures' long chains, which take 1 to 5 minutes each under the
# sanitizers (18 minutes in all), and the Newton-Euler system's and static LU's per-model checks on
# the models of more than 12 joints (humanoid30, baxter, dualarm, allegro, quadruped, solo12: up to
# 36 s each, 5.9 minutes in all), which run there on arm7, panda and ur5, through the same code; and
# the humanoid's contact derivatives (111 s there; the quadruped, arm7, forms_degree and solo12 stay).
scripts/build-sanitized.sh
ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)" \
  -E "talos|NoriFigures|(NewtonEulerSystemTest|StaticLuTest)\..*/(humanoid30|baxter|dualarm|allegro|quadruped|solo12)|ContactDerivatives\..*/humanoid30"
