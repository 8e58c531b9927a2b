#!/usr/bin/env bash
# Each kernel knows its own extent (templates/kernel.cpp.in, rbdgen_runtime.hpp): in a linked program,
# the linker's __start_/__stop_ symbols of rbdgen_<robot>_<kernel>_code bracket every function the
# kernel's object defines, and those of its _tables and _calls sections every table (checked with nm
# on the object and on the program); and, where the program ran (PRINTED, the output of a program
# that printed `kernel range begin end` for every kernel of extent()), warm() reads exactly those
# bounds. Usage: sections.sh NM ROBOT PROGRAM PRINTED|- OBJECT...; objects named <robot>_<kernel>.o
# or <robot>_<kernel>.cpp.o. Prints one line per kernel; exits 1 on the first failure.
set -euo pipefail
nm=$1 robot=$2 program=$3 printed=$4
shift 4
symbols=$(mktemp)
trap 'rm -f "$symbols"' EXIT
"$nm" "$program" | awk 'NF == 3 {print $3, $1}' >"$symbols"
address() { awk -v s="$1" '$1 == s {print $2; exit}' "$symbols"; }
status=0
for object in "$@"; do
  kernel=$(basename "$object")
  kernel=${kernel%.o}
  kernel=${kernel%.cpp}
  kernel=${kernel#"${robot}"_}
  declare -A lo=() hi=()
  for part in code tables calls; do
    lo[$part]=$(address "__start_rbdgen_${robot}_${kernel}_${part}")
    hi[$part]=$(address "__stop_rbdgen_${robot}_${kernel}_${part}")
  done
  if [ -z "${lo[code]}" ] || [ -z "${hi[code]}" ]; then
    echo "FAIL: $program has no __start_/__stop_rbdgen_${robot}_${kernel}_code"
    exit 1
  fi
  # Every function (t, T) and table (r, R, d, D) the object defines: a copy of it inside the
  # kernel's bounds. A name several objects define (the runtime's static helpers) has a copy each.
  # Left out: weak symbols (W, V: the header's inline functions, one copy for the program) and the
  # assembler's local labels (.LC*: the compiler's pool of constants, in .rodata.cst*).
  checked=0
  while read -r type name; do
    case $name in .L*) continue ;; esac
    case $type in t | T) parts="code" ;; r | R | d | D) parts="tables calls" ;; *) continue ;; esac
    inside=no
    for part in $parts; do
      [ -n "${lo[$part]}" ] || continue
      # nm's addresses have one width: compared as strings (awk's numbers would round 64-bit ones)
      if awk -v s="$name" -v lo="${lo[$part]}" -v hi="${hi[$part]}" '
           $1 == s && ($2 "") >= (lo "") && ($2 "") < (hi "") {found = 1} END {exit !found}' "$symbols"; then
        inside=yes
      fi
    done
    if [ $inside = no ]; then
      echo "FAIL: $robot $kernel: $type $name is outside the kernel's sections"
      status=1
    fi
    checked=$((checked + 1))
  done < <("$nm" --defined-only "$object" | awk 'NF == 3 {print $2, $3}')
  # What the program read from extent(): the same bounds (0 where the kernel has no such section).
  if [ "$printed" != - ]; then
    r=0
    for part in code tables calls; do
      want="$kernel $r $(printf '%x %x' "0x${lo[$part]:-0}" "0x${hi[$part]:-0}")"
      if ! grep -qx "$want" "$printed"; then
        echo "FAIL: $robot $kernel: extent() gave '$(grep "^$kernel $r " "$printed" || true)', nm '$want'"
        status=1
      fi
      r=$((r + 1))
    done
  fi
  echo "ok: $robot $kernel: $checked symbols in code $((0x${hi[code]} - 0x${lo[code]})) B, tables $(( 0x${hi[tables]:-0} - 0x${lo[tables]:-0} )) B, calls $(( 0x${hi[calls]:-0} - 0x${lo[calls]:-0} )) B"
  unset lo hi
done
exit $status
