#!/usr/bin/env bash
# Machine code of each emission: generates every bench robot three times, --emission straight, the
# default (auto: compact above 2000 operations) and uniform, each with --measure c++ (every kernel compiled at
# -Os, freestanding, x86-64 here), and writes bench/emission.md: each kernel's machine code and
# worst stack frame each way. Usage: bench/emission.sh [path/to/rbdgen] (default build/generator/rbdgen)
set -euo pipefail
cd "$(dirname "$0")/.."
rbdgen=${1:-build/generator/rbdgen}
shared=../shared/models
robots=("arm7|models/arm7.urdf|" "quadruped_fb|models/quadruped.urdf|--floating-base" "humanoid30_fb|models/humanoid30.urdf|--floating-base")
[ -f "$shared/ur5.urdf" ] && robots+=("ur5|$shared/ur5.urdf|" "talos_full_fb|$shared/talos_full_v2.urdf|--floating-base")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "# Machine code per emission"
  echo
  echo "Written by \`bench/emission.sh\` on $(date -u +%Y-%m-%d) with $(c++ --version | head -1): each kernel compiled alone at \`-Os -ffreestanding\` (x86-64, \`rbdgen generate --measure c++\`), machine code (bytes of executable sections: the kernel, its step functions and the runtime's sin/cos it inlines), after it \`+\` its data (read-only tables and constants: the compact and uniform kernels' tables of slots and constants, a straight-line kernel's literals; a microcontroller keeps them in flash beside the code, a desktop core reads them through its data cache), and the stack (the worst frame, plus a compact kernel's largest step function's). *straight*: \`--emission straight\`; *default*: \`--emission auto\`, compact for kernels of more than 2000 operations in steps of 12 or more on average (the steps, distinct functions and slots of the compact ones in brackets), LTDL and its solve as loops in compact \`ltdl\`, \`ltdl_solve\` and \`fd_crba_ltdl\`; *uniform*: \`--emission uniform\`, every kernel compact with the placements and inertias as table values (its operations and functions in brackets). Goal (issue 15): no kernel above 32 KB; a 49-DoF humanoid's kernels together under 256 KB."
  for entry in "${robots[@]}"; do
    IFS='|' read -r label urdf flags <<<"$entry"
    for emission in straight auto uniform; do
      # shellcheck disable=SC2086
      "$rbdgen" generate "$urdf" $flags --name "$label" --emission "$emission" --measure c++ -o "$work/$label-$emission" >/dev/null
    done
    python3 - "$work/$label-straight/report.json" "$work/$label-auto/report.json" "$work/$label-uniform/report.json" "$label" <<'PY'
import json, sys
s, a, u, label = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4]
print(f"\n### {label} (NV {a['nv']}{', floating base' if a['floating_base'] else ''})\n")
print("| kernel | operations (default) | straight: code + data | stack | default: emission | code + data | stack | uniform: code + data (operations, functions) | stack |")
print("|---|---|---|---|---|---|---|---|---|")
ts = ta = tu = ds = da = du = 0
kb = lambda h: f"{h['text_bytes']/1024:.1f} + {h['data_bytes']/1024:.1f} KB"
total = lambda e: sum(e["ops"][x] for x in ("add", "mul", "div", "sqrt", "sin", "cos"))
for k, e in a["kernels"].items():
    hs, ha, hu = s["host_build"]["kernels"][k], a["host_build"]["kernels"][k], u["host_build"]["kernels"][k]
    ts += hs["text_bytes"]; ta += ha["text_bytes"]; tu += hu["text_bytes"]
    ds += hs["data_bytes"]; da += ha["data_bytes"]; du += hu["data_bytes"]
    ops = total(e)
    eu = u["kernels"][k]
    fu = f", {eu['compact']['functions']} functions" if "compact" in eu else ""
    em = e["emission"]
    if "compact" in e:
        c = e["compact"]; em += f" ({c['steps']} steps, {c['functions']} functions, {c['slots']} slots)"
    if e.get("ltdl_loops"):
        em += ", LTDL as loops"
    print(f"| {k} | {ops} | {kb(hs)} | {hs['stack_bytes']} B | {em} | {kb(ha)} | {ha['stack_bytes']} B "
          f"| {kb(hu)} ({total(eu)}{fu}) | {hu['stack_bytes']} B |")
print(f"| all {len(a['kernels'])} | | {ts/1024:.0f} + {ds/1024:.0f} KB | | | {ta/1024:.0f} + {da/1024:.0f} KB | | {tu/1024:.0f} + {du/1024:.0f} KB | |")
PY
  done
} > bench/emission.md
echo "wrote bench/emission.md"
