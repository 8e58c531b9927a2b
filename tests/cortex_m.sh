#!/usr/bin/env bash
# Generated code fits a microcontroller: each kernel of a fixed-base arm (7 DoF) and a floating-base
# quadruped (18 DoF) cross-compiles with Debian's arm-none-eabi-g++ for a Cortex-M4F (single-precision
# FPU; --scalar float) and a Cortex-M7 (double-precision FPU; --scalar double), freestanding, -Werror,
# and links into a bare-metal image with newlib's libm. A kernel may call nothing but the FPU's own
# arithmetic and libm's trig of its own precision: a float kernel that needs the software double
# routines (__aeabi_d*) fails. Prints the machine code (.text bytes) of every kernel at -Os,
# rbdgen_add_robot's default.
# Usage: cortex_m.sh RBDGEN MODELS_DIR. Exit 77 (skipped) without arm-none-eabi-g++.
set -euo pipefail
rbdgen=$1 models=$2
if ! command -v arm-none-eabi-g++ >/dev/null; then
  echo "skipped: arm-none-eabi-g++ is not installed (Debian package gcc-arm-none-eabi; scripts/install-deps.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common="-std=c++17 -ffreestanding -fno-exceptions -fno-rtti -Wall -Wextra -Werror -Os -mthumb -fno-math-errno"
m4f="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
m7="-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard"
status=0
build() {  # LABEL CPU_FLAGS ALLOWED_CALLS URDF [generate flags...]
  local label=$1 cpu=$2 allowed=$3 urdf=$4
  shift 4
  "$rbdgen" generate "$urdf" -o "$work/$label" --name "$label" "$@" >/dev/null
  local objs=() sizes=""
  for src in "$work/$label/${label}"_*.cpp; do
    case $src in *_eval.cpp | *_bench.cpp) continue ;; esac
    local obj=${src%.cpp}.o kernel
    arm-none-eabi-g++ $common $cpu -c "$src" -o "$obj"
    objs+=("$obj")
    kernel=$(basename "$src" .cpp)
    sizes+=" ${kernel#"$label"_}=$(arm-none-eabi-size "$obj" | awk 'NR==2{print $1}')"
    for sym in $(arm-none-eabi-nm --undefined-only "$obj" | awk '{print $2}'); do
      if ! grep -qw -- "$sym" <<<"$allowed"; then
        echo "FAIL: $label ${kernel#"$label"_} calls '$sym' (allowed: $allowed)"
        status=1
      fi
    done
  done
  # Linked by the C driver: the kernels need no C++ library (libstdc++ is not even installed).
  echo 'int main(void) { return 0; }' >"$work/$label/main.c"
  arm-none-eabi-gcc -O2 -mthumb $cpu --specs=nosys.specs "$work/$label/main.c" "${objs[@]}" -Wl,--no-gc-sections -lm -o "$work/$label.elf"
  echo "ok: $label links ($(arm-none-eabi-size "$work/$label.elf" | awk 'NR==2{print $1}') bytes .text in the image); .text per kernel:$sizes"
}
build arm7_m4f "$m4f" "sinf cosf sqrtf" "$models/arm7.urdf" --scalar float
build quadruped_m4f "$m4f" "sinf cosf sqrtf" "$models/quadruped.urdf" --floating-base --scalar float
build arm7_m7 "$m7" "sin cos sqrt" "$models/arm7.urdf"
exit $status
