#!/usr/bin/env bash
# Installs what is missing, builds, and shows the main job on a bundled model: its structure and
# the reference dynamics at a sample state.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
rbdgen=build/generator/rbdgen
echo "== rbdgen info models/humanoid30.urdf --floating-base"
$rbdgen info models/humanoid30.urdf --floating-base
echo
echo "== rbdgen eval models/arm7.urdf --state models/arm7_state.json"
$rbdgen eval models/arm7.urdf --state models/arm7_state.json
