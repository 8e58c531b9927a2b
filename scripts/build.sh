#!/usr/bin/env bash
# Configures (scripts/configure.sh) and builds all of rbdgen in build/: the generator and the test tree.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/configure.sh
cmake --build build -j"$(nproc)"
