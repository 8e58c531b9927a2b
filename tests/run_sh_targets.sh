#!/usr/bin/env bash
# run.sh builds only what it shows: every `cmake --build` of the project's own build folder names
# --target rbdgen, and it does not call scripts/build.sh (which builds the whole test tree). The
# example project's builds (another folder) are free. Usage: tests/run_sh_targets.sh [RUN_SH]
set -euo pipefail
run_sh=${1:-$(dirname "$0")/../run.sh}
status=0
if grep -nE '^[^#]*scripts/build\.sh' "$run_sh"; then
  echo "FAIL: run.sh calls scripts/build.sh, which builds the test tree"
  status=1
fi
while IFS= read -r line; do
  # the folder after --build: build/ itself, not build/<example>
  dir=$(sed -E 's/.*cmake --build +([^ ]+).*/\1/' <<<"${line#*:}")
  if [ "$dir" = build ] || [ "$dir" = build/ ]; then
    if ! grep -qE -- '--target +rbdgen( |$)' <<<"$line"; then
      echo "FAIL: run.sh line ${line%%:*} builds more than the generator: ${line#*:}"
      status=1
    fi
  fi
done < <(grep -nE '^[^#]*cmake --build' "$run_sh")
[ $status = 0 ] && echo "ok: run.sh builds the generator and the example project only"
exit $status
