#!/usr/bin/env python3
"""Each kernel knows its own extent (templates/kernel.cpp.in, rbdgen_runtime.hpp): in a linked program,
the linker's __start_/__stop_ symbols of rbdgen_<robot>_<kernel>_code bracket every function the
kernel's object defines, and those of its _tables and _calls sections every table (checked with nm on
the object and on the program); and, where the program ran (PRINTED, the output of a program that
printed `kernel range begin end` for every kernel of extent()), warm() reads exactly those bounds.

Usage: sections.py NM ROBOT PROGRAM PRINTED|- OBJECT...; objects named <robot>_<kernel>.o or
<robot>_<kernel>.cpp.o. Prints one line per kernel; exits 1 on a failure (the first kernel without
bounds at once). One nm a file, read once (a shell loop of an awk a symbol took most of warm.sh's
minute)."""
import os
import subprocess
import sys

PARTS = ("code", "tables", "calls")


def nm(tool, path, *options):
    """(type, name, address) of each symbol nm lists with an address."""
    out = subprocess.run([tool, *options, path], capture_output=True, text=True, check=True).stdout
    return [(f[1], f[2], f[0]) for f in (line.split() for line in out.splitlines()) if len(f) == 3]


def main(tool, robot, program, printed, objects):
    addresses = {}  # name -> every address the program gives it (static helpers: one a kernel)
    for _, name, address in nm(tool, program):
        addresses.setdefault(name, []).append(address)
    first = {name: a[0] for name, a in addresses.items()}
    lines = set(open(printed).read().splitlines()) if printed != "-" else None
    status = 0
    for obj in objects:
        kernel = os.path.basename(obj)
        kernel = kernel[:-2] if kernel.endswith(".o") else kernel
        kernel = kernel[:-4] if kernel.endswith(".cpp") else kernel
        kernel = kernel[len(robot) + 1:] if kernel.startswith(robot + "_") else kernel
        lo = {p: first.get("__start_rbdgen_%s_%s_%s" % (robot, kernel, p)) for p in PARTS}
        hi = {p: first.get("__stop_rbdgen_%s_%s_%s" % (robot, kernel, p)) for p in PARTS}
        if not lo["code"] or not hi["code"]:
            print("FAIL: %s has no __start_/__stop_rbdgen_%s_%s_code" % (program, robot, kernel))
            return 1
        # Every function (t, T) and table (r, R, d, D) the object defines: a copy of it inside the
        # kernel's bounds. A name several objects define (the runtime's static helpers) has a copy each.
        # Left out: weak symbols (W, V: the header's inline functions, one copy for the program) and the
        # assembler's local labels (.LC*: the compiler's pool of constants, in .rodata.cst*).
        checked = 0
        for kind, name, _ in nm(tool, obj, "--defined-only"):
            if name.startswith(".L"):
                continue
            parts = ("code",) if kind in "tT" else ("tables", "calls") if kind in "rRdD" else ()
            if not parts:
                continue
            # nm's addresses have one width: compared as strings
            inside = any(lo[p] and hi[p] and lo[p] <= a < hi[p] for p in parts for a in addresses.get(name, []))
            if not inside:
                print("FAIL: %s %s: %s %s is outside the kernel's sections" % (robot, kernel, kind, name))
                status = 1
            checked += 1
        # What the program read from extent(): the same bounds (0 where the kernel has no such section).
        if lines is not None:
            for r, p in enumerate(PARTS):
                want = "%s %d %x %x" % (kernel, r, int(lo[p] or "0", 16), int(hi[p] or "0", 16))
                if want not in lines:
                    got = [line for line in lines if line.startswith("%s %d " % (kernel, r))]
                    print("FAIL: %s %s: extent() gave '%s', nm '%s'" % (robot, kernel, got[0] if got else "", want))
                    status = 1
        size = {p: int(hi[p] or "0", 16) - int(lo[p] or "0", 16) for p in PARTS}
        print("ok: %s %s: %d symbols in code %d B, tables %d B, calls %d B"
              % (robot, kernel, checked, size["code"], size["tables"], size["calls"]))
    return status


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit("usage: sections.py NM ROBOT PROGRAM PRINTED|- OBJECT...")
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
