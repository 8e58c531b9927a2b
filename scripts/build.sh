#!/usr/bin/env bash
# Configures and builds rbdgen in build/ (Release, portable flags).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
