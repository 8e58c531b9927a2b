#!/usr/bin/env bash
# Regenerates every folder of generated/ with the command its report.json records (run from the
# project root, as it was) and compares byte for byte. --update writes the new output instead.
# Usage: tests/test_regenerate.sh [--update] [RBDGEN]
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
[ "${1:-}" = "--update" ] && { update=1; shift; }
rbdgen=${1:-build/generator/rbdgen}
status=0
for dir in generated/*/; do
  dir=${dir%/}
  # "command": "rbdgen generate models/arm7.urdf --name arm7 ..."
  cmd=$(sed -n 's/^  "command": "rbdgen generate \(.*\)",$/\1/p' "$dir/report.json")
  [ -n "$cmd" ] || { echo "FAIL: no command in $dir/report.json"; exit 1; }
  if [ $update = 1 ]; then
    # shellcheck disable=SC2086
    "$rbdgen" generate $cmd -o "$dir"
    continue
  fi
  tmp=$(mktemp -d)
  # shellcheck disable=SC2086
  "$rbdgen" generate $cmd -o "$tmp" >/dev/null
  if diff -r "$dir" "$tmp" >/dev/null; then
    echo "ok: $dir is what the generator writes"
  else
    echo "FAIL: $dir differs from a fresh generation ($cmd):"
    diff -r "$dir" "$tmp" | head -20
    status=1
  fi
  rm -rf "$tmp"
done
exit $status
