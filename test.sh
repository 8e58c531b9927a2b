#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The generator and its unit tests again under ASan + UBSan (clang), and each input's fuzzer for a
# minute (tests/fuzz/). Left out there: the same checks on the largest robots (talos) and Nori's
# figures' long chains, which take 1 to 5 minutes each under the sanitizers (18 minutes in all) and
# run unsanitized above.
scripts/build-sanitized.sh
ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)" -E "talos|NoriFigures"
