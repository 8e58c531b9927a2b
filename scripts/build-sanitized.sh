#!/usr/bin/env bash
# Configures and builds the sanitized build in build-sanitized/: the generator and its unit tests
# under AddressSanitizer + UndefinedBehaviorSanitizer, and the libFuzzer targets (clang, -O1 -g).
# Every source of the generator is compiled alone here (no unity build), so that a missing include or
# a clash of two files' local names fails. ./test.sh runs its tests after the main build's.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitized -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="-O1" \
  -DRBDGEN_SANITIZE=ON -DRBDGEN_FUZZ=ON -DRBDGEN_UNITY_BUILD=OFF >/dev/null
cmake --build build-sanitized -j"$(nproc)"
