#!/usr/bin/env bash
# Generated code fits a microcontroller: each kernel cross-compiles with Debian's arm-none-eabi-g++
# for a Cortex-M4F (single-precision FPU; --scalar float) and a Cortex-M7 (double-precision FPU;
# --scalar double), freestanding, -Werror, and links into a bare-metal image with newlib's libm.
# - No heap, no exceptions: the image is linked with malloc, calloc, realloc, free, operator new and
#   delete, and the exception entry points wrapped (-Wl,--wrap=...) to symbols that do not exist, so a
#   kernel that reached any of them would fail the link.
# - Nothing but FPU arithmetic and libm's trig of its own precision (sin, cos, sqrt, atan2): a float kernel that needs the
#   software double routines (__aeabi_d*) fails.
# - warm() compiles to nothing, and the sections of every kernel bracket its functions and tables.
# - A bounded stack: every function's frame from -fstack-usage, static (no VLA, no alloca).
# Prints a markdown table: per kernel, its machine code (.text and its own code section), its data (.rodata, .data and its table sections:
# the tables and constants it reads) and its stack at -Os,
# rbdgen_add_robot's default. A straight-line kernel calls no function but libm's sin/cos/sqrt (and
# atan2, the configuration kernels' quaternion logarithm), so
# its frame plus those leaf routines' is its whole stack; a compact one (--emission) calls its step
# functions one at a time, each a leaf, so its stack is its own frame plus the largest step's.
# Usage: cortex_m.sh RBDGEN MODELS_DIR [all]: arm7 (M4F, M7) and the floating quadruped (M4F), and the
# derivative kernels of both (quadruped M4F, arm7 M7 by the articulated-body method), and the
# quadruped's rnea and aba with --lanes (M7); with
# `all`, every robot of models/ on both, and the floating humanoid's --emission uniform on the M7
# (bench/RESULTS.md's table). Exit 77 (skipped) without arm-none-eabi-g++.
set -euo pipefail
rbdgen=$1 models=$2 which=${3:-ci}
if ! command -v arm-none-eabi-g++ >/dev/null; then
  echo "skipped: arm-none-eabi-g++ is not installed (Debian package gcc-arm-none-eabi; scripts/install-deps.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common="-std=c++17 -ffreestanding -fno-exceptions -fno-rtti -Wall -Wextra -Werror -Os -mthumb -fno-math-errno -fstack-usage"
m4f="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
m7="-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard"
# The heap and the exceptions, under the names the C library and the ARM C++ ABI give them.
forbidden="malloc calloc realloc free _Znwj _Znaj _ZnwjRKSt9nothrow_t _ZnajRKSt9nothrow_t _ZdlPv _ZdaPv _ZdlPvj _ZdaPvj
  __cxa_allocate_exception __cxa_throw __cxa_begin_catch __cxa_rethrow __gxx_personality_v0 _Unwind_Resume"
wrap=$(for s in $forbidden; do printf -- "-Wl,--wrap=%s " "$s"; done)
status=0
# The control: an object that calls malloc must fail that link, or the check proves nothing.
printf '#include <stdlib.h>\nvoid *heap(void) { return malloc(8); }\nint main(void) { return heap() != 0; }\n' >"$work/control.c"
if arm-none-eabi-gcc -O2 -mthumb $m4f --specs=nosys.specs "$work/control.c" $wrap -o "$work/control.elf" 2>/dev/null; then
  echo "FAIL: the control that calls malloc links with the heap wrapped away; the check below would prove nothing"
  exit 1
fi
echo "| build | kernel | code (bytes) | data (bytes) | stack (bytes) |"
echo "|---|---|---:|---:|---:|"
build() {  # LABEL CPU_FLAGS ALLOWED_CALLS URDF [generate flags...]
  local label=$1 cpu=$2 allowed=$3 urdf=$4
  shift 4
  "$rbdgen" generate "$urdf" -o "$work/$label" --name "$label" "$@" >/dev/null
  local objs=()
  for src in "$work/$label/${label}"_*.cpp; do
    case $src in *_eval.cpp | *_bench.cpp) continue ;; esac
    local obj=${src%.cpp}.o kernel text stack
    arm-none-eabi-g++ $common $cpu -c "$src" -o "$obj"
    objs+=("$obj")
    kernel=$(basename "$src" .cpp)
    kernel=${kernel#"$label"_}
    for sym in $(arm-none-eabi-nm --undefined-only "$obj" | awk '{print $2}'); do
      if ! grep -qw -- "$sym" <<<"$allowed"; then
        echo "FAIL: $label $kernel calls '$sym' (allowed: $allowed)"
        status=1
      fi
    done
    # GCC writes NAME.su beside the object: "file:line:col:function<TAB>bytes<TAB>static|dynamic[,bounded]".
    if awk -F'\t' '$3 != "static"' "${obj%.o}.su" | grep -q .; then
      echo "FAIL: $label $kernel has a frame that is not static: $(awk -F'\t' '$3 != "static"' "${obj%.o}.su")"
      status=1
    fi
    stack=$(awk -F'\t' 'BEGIN{m=0; s=0} $1 ~ /_step[0-9]+\(/ {if ($2>s) s=$2; next} $2>m{m=$2} END{print m+s}' "${obj%.o}.su")
    # code: the executable sections; data: the read-only tables and constants, in flash beside it
    text=$(arm-none-eabi-size -A "$obj" | awk '$1 ~ /^(\.text|rbdgen_.*_code$)/ {s += $2} END {print s + 0}')
    data=$(arm-none-eabi-size -A "$obj" | awk '$1 ~ /^(\.(rodata|data)|rbdgen_.*_(tables|calls)$)/ {s += $2} END {print s + 0}')
    echo "| $label | $kernel | $text | $data | $stack |"
  done
  # Linked by the C driver: the kernels need no C++ library (libstdc++ is not even installed). main
  # calls warm_all() (nothing on Cortex-M) and reads every kernel's extent(), so that the linker
  # names the bounds of every kernel's sections.
  cat >"$work/$label/main.cpp" <<MAIN
#include "$label.hpp"
const char* volatile bound;
extern "C" void warm_everything() { $label::warm_all(); }
int main() {
    $label::warm_all();
    for (int k = 0; k < $label::kernel_count; ++k)
        for (const auto& r : $label::extent(static_cast<$label::Kernel>(k)).range) bound = r[0], bound = r[1];
    return 0;
}
MAIN
  arm-none-eabi-g++ $common $cpu -I"$work/$label" -c "$work/$label/main.cpp" -o "$work/$label/main.o"
  # On Cortex-M warm_all() compiles to nothing: its function is one return (bx lr, 2 bytes)
  local warm_size
  warm_size=$(arm-none-eabi-nm -S "$work/$label/main.o" | awk '$4 == "warm_everything" {print $2}')
  if [ "$warm_size" != 00000002 ]; then
    echo "FAIL: $label: warm_all() is $warm_size bytes of code on Cortex-M, not a bare return"
    status=1
  fi
  if ! arm-none-eabi-gcc -O2 -mthumb $cpu --specs=nosys.specs "$work/$label/main.o" "${objs[@]}" -Wl,--no-gc-sections $wrap -lm \
      -o "$work/$label.elf" 2>"$work/$label.link"; then
    echo "FAIL: $label does not link with the heap and exceptions wrapped away:"
    cat "$work/$label.link"
    status=1
  # each kernel's sections bracket its functions and tables in the image (sections.py)
  elif ! sections=$("$(dirname "$0")/sections.py" arm-none-eabi-nm "$label" "$work/$label.elf" - "${objs[@]}"); then
    echo "$sections" | grep FAIL
    status=1
  fi
}
if [ "$which" = all ]; then
  for robot in arm7 dualarm quadruped humanoid30; do
    base=()
    case $robot in quadruped | humanoid30) base=(--floating-base) ;; esac
    build "${robot}_m4f" "$m4f" "sinf cosf sqrtf atan2f" "$models/$robot.urdf" "${base[@]}" --scalar float
    build "${robot}_m7" "$m7" "sin cos sqrt atan2" "$models/$robot.urdf" "${base[@]}"
  done
  build humanoid30_m7_uniform "$m7" "sin cos sqrt atan2" "$models/humanoid30.urdf" --floating-base --emission uniform
else
  build arm7_m4f "$m4f" "sinf cosf sqrtf atan2f" "$models/arm7.urdf" --scalar float
  build quadruped_m4f "$m4f" "sinf cosf sqrtf atan2f" "$models/quadruped.urdf" --floating-base --scalar float
  build arm7_m7 "$m7" "sin cos sqrt atan2" "$models/arm7.urdf"
  # the derivatives, whose dense rows are vector statements on x86-64 and plain arrays here: by LTDL's
  # solves (float) and by the articulated-body method (double)
  build quadruped_m4f_derivatives "$m4f" "sinf cosf sqrtf atan2f" "$models/quadruped.urdf" --floating-base --scalar float \
    --kernels rnea_derivatives,aba_derivatives
  build arm7_m7_articulated "$m7" "sin cos sqrt atan2" "$models/arm7.urdf" --kernels aba_derivatives --method aba_derivatives=articulated-body
  # lane calls, whose vectors are single numbers here (rbdgen_lanes without vector registers)
  build quadruped_m7_lanes "$m7" "sin cos sqrt atan2" "$models/quadruped.urdf" --floating-base --kernels rnea,aba --lanes
fi
[ $status -eq 0 ] && echo "ok: every kernel links with no heap and no exceptions, with static frames only"
exit $status
