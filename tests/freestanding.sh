#!/usr/bin/env bash
# Generated code is fit for firmware: every kernel of a few robots (double and float, hostile names
# included) compiles with -std=c++17 -ffreestanding -fno-exceptions -fno-rtti -Wall -Wextra -Werror,
# and the kernels link into a shared object with no library but libm, needing nothing but libm's
# functions; every symbol they define is in the robot's namespace. Usage: freestanding.sh RBDGEN MODELS_DIR DATA_DIR
set -euo pipefail
rbdgen=$1 models=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-std=c++17 -ffreestanding -fno-exceptions -fno-rtti -Wall -Wextra -Werror -O2 -fPIC"
build() {  # NAME URDF [generate flags...]
  local name=$1 urdf=$2
  shift 2
  "$rbdgen" generate "$urdf" -o "$work/$name" --name "$name" "$@" >/dev/null
  local objs=()
  for src in "$work/$name/${name}"_*.cpp; do
    case $src in *_eval.cpp | *_bench.cpp) continue ;; esac
    g++ $flags -c "$src" -o "${src%.cpp}.o"
    objs+=("${src%.cpp}.o")
  done
  # Every symbol the objects give the linker is the robot's own: the runtime header's helpers have
  # internal linkage, so another robot's objects, built with other flags (-march=native, float),
  # cannot replace them at link time.
  local foreign
  foreign=$(nm -C -g --defined-only "${objs[@]}" | awk 'NF >= 3 {$1 = $2 = ""; print substr($0, 3)}' | grep -v "^$name::" || true)
  if [ -n "$foreign" ]; then
    echo "FAIL: $name's objects define symbols outside namespace $name:"
    echo "$foreign"
    exit 1
  fi
  # No default libraries: libstdc++, libgcc and libc are all left out; only libm is given.
  gcc -shared -nostdlib -o "$work/lib$name.so" "${objs[@]}" -lm
  local undefined
  undefined=$(nm -D --undefined-only "$work/lib$name.so" | awk '{print $2}' | sed 's/@.*//' | sort -u)
  for sym in $undefined; do
    case $sym in
      sin | cos | sincos | sqrt | atan2 | nan | sinf | cosf | sincosf | sqrtf | atan2f | nanf) ;;
      *) echo "FAIL: $name needs '$sym', which is not in libm"; exit 1 ;;
    esac
  done
  echo "ok: $name ($(echo $undefined | wc -w) libm symbols: $(echo $undefined))"
}
build arm7 "$models/arm7.urdf"
build quadruped_float "$models/quadruped.urdf" --floating-base --scalar float
build nasty "$data/nasty_names.urdf"
