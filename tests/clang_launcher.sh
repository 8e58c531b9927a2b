#!/bin/sh
# clang_launcher.sh CLANG COMPILER ARGUMENTS...: the compiler launcher (CMake's CXX_COMPILER_LAUNCHER)
# of the test tree (tests/CMakeLists.txt): compiles with CLANG in place of the project's COMPILER, the
# same arguments. A precompiled header (-x c++-header -o X.gch) is built after removing X.gch: clang,
# unlike GCC, reads an existing X.gch through the -include of the header it is building.
clang=$1
shift 2
header=false
previous=
for argument in "$@"; do
  [ "$previous" = -x ] && [ "$argument" = c++-header ] && header=true
  [ "$previous" = -o ] && output=$argument
  previous=$argument
done
if $header; then
  rm -f "$output"
fi
exec "$clang" "$@"
