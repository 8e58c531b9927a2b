#!/usr/bin/env bash
# Writes the models the project ships, with `rbdgen synth` (general geometry, random valid inertias,
# fixed seeds so that the files are reproducible). Usage: models/make_models.sh [path/to/rbdgen]
# planar.urdf (two planar joints) is written by hand: synth writes only revolute joints.
set -euo pipefail
cd "$(dirname "$0")"
rbdgen=${1:-../build/generator/rbdgen}
"$rbdgen" synth arm 7 --seed 7 -o arm7.urdf                # 7-DoF serial arm
"$rbdgen" synth dualarm 15 --seed 15 -o dualarm.urdf       # torso joint + two 7-DoF arms (branched, fixed base)
"$rbdgen" synth quadruped 12 --seed 12 -o quadruped.urdf   # 4 x 3-DoF legs; load with --floating-base
"$rbdgen" synth humanoid 30 --seed 30 -o humanoid30.urdf   # Featherstone Fig. 6; load with --floating-base
