#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The generator and its unit tests again under ASan + UBSan (clang), and each input's fuzzer for a
# minute (tests/fuzz/).
scripts/build-sanitized.sh
ctest --test-dir build-sanitized --output-on-failure -j"$(nproc)"
