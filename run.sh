#!/usr/bin/env bash
# Installs what is missing, builds rbdgen, and shows the main job end to end on a bundled robot:
#  1. the model (`rbdgen info`),
#  2. a user's project (examples/arm_controller) that finds the installed rbdgen and builds the arm's
#     generated library, its eval driver and its benchmark,
#  3. the generated kernels' results for a sample state beside the reference implementation's,
#  4. the kernels' timings,
#  5. from Python: a trajectory of a robot through its kernels, plotted (examples/python/trajectory.py).
# It builds only what it shows: the generator (target rbdgen), then the example project against the
# installed generator. ./test.sh builds and runs everything (tests/run_sh_targets.sh checks this).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/configure.sh
cmake --build build -j"$(nproc)" --target rbdgen
rbdgen=build/generator/rbdgen
cmake --install build --prefix build/install >/dev/null

echo "== rbdgen info models/arm7.urdf"
$rbdgen info models/arm7.urdf
echo
echo "== building examples/arm_controller against the installed rbdgen (generates the arm's library)"
cmake -S examples/arm_controller -B build/arm_controller -DCMAKE_PREFIX_PATH="$PWD/build/install" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/arm_controller -j"$(nproc)" >/dev/null
echo "generated sources and report: build/arm_controller/rbdgen/arm/"
sed -n '/| kernel/,/^$/p' build/arm_controller/rbdgen/arm/report.md
echo "== generated kernels (arm_eval) beside the reference (rbdgen eval), state models/arm7_state.json"
build/arm_controller/arm_eval < models/arm7_state.json > build/arm_generated.json
$rbdgen eval models/arm7.urdf --state models/arm7_state.json > build/arm_reference.json
paste build/arm_generated.json build/arm_reference.json | sed -n '/"rnea"/,/"gravity"/p' |
  awk -F'\t' '{printf "  %-44s | %s\n", $1, $2}'
echo
echo "== the controller example"
build/arm_controller/controller
echo
echo "== kernel timings (arm_bench, hot loop; kernels at -Os, rbdgen_add_robot's default)"
build/arm_controller/arm_bench
echo
echo "== Python: a smooth motion of every joint through the generated kernels (examples/python/trajectory.py)"
urdf=../shared/models/panda.urdf
[ -f "$urdf" ] || urdf=models/arm7.urdf
RBDGEN="$PWD/$rbdgen" RBDGEN_CACHE="$PWD/build/python_cache" /usr/bin/python3 examples/python/trajectory.py "$urdf" "$PWD/build/trajectory.png"
