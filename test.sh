#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The generator and its unit tests again under ASan + UBSan (clang), and each input's fuzzer for 30
# seconds (tests/fuzz/). Left out there, as they run unsanitized above: the same checks on the
# largest robots (talos) and Nori's figures' long chains, which take 1 to 5 minutes each under the
# sanitizers (18 minutes in all), and the Newton-Euler system's and static LU's per-model checks on
# the models of more than 12 joints (humanoid30, baxter, dualarm, allegro, quadruped, solo12: up to
# 36 s each, 5.9 minutes in all), which run there on arm7, panda and ur5, through the same code.
scripts/build-sanitized.sh
ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)" \
  -E "talos|NoriFigures|(NewtonEulerSystemTest|StaticLuTest)\..*/(humanoid30|baxter|dualarm|allegro|quadruped|solo12)"
