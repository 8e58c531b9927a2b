#!/usr/bin/env python3
"""What a build's tests are: a table of its test programs (docs/testing.md, "The tests").

    scripts/test-inventory.py BUILD_DIR

For each program ctest runs: its number of tests, how many are labelled quick (./test.sh --quick),
the generated robot libraries it links (ninja's record of its inputs, in a Ninja build) and the
models its parameterized tests name (the part after the last '/' of a gtest name, or the robot of a
test_generated test, <robot>.Generated.<test>).
"""
import collections
import json
import os
import re
import subprocess
import sys

NOT_ROBOTS = {"rbdgen_core", "rbdgen_state", "rbdgen_reference", "rbdgen_eval_state", "gtest", "gtest_main"}


def robot_libraries(build, program):
    """The robot libraries (lib<robot>.a of the tests' folders) among the program's inputs."""
    if not os.path.exists(os.path.join(build, "build.ninja")):
        return []
    rel = os.path.relpath(program, build)
    out = subprocess.run(["ninja", "-C", build, "-t", "query", rel], capture_output=True, text=True).stdout
    libs = re.findall(r"tests/(?:generated/)?lib([A-Za-z0-9_]+)\.a", out)
    return sorted(set(libs) - NOT_ROBOTS)


def main(build):
    listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], capture_output=True, text=True, check=True)
    tests = json.loads(listing.stdout)["tests"]
    programs = collections.OrderedDict()
    for t in tests:
        command = t.get("command") or ["?"]
        program = command[0]
        if os.path.basename(program) in ("python3", "cmake", "bash"):  # a script: name it by the script
            program = next((c for c in command[1:] if c.endswith((".py", ".sh"))), command[-1])
        p = programs.setdefault(program, {"tests": 0, "quick": 0, "models": set()})
        p["tests"] += 1
        labels = [v for prop in t.get("properties", []) if prop["name"] == "LABELS" for v in prop["value"]]
        p["quick"] += "quick" in labels
        name = t["name"].split("  #")[0]
        m = re.match(r"([^.]+)\.Generated\.", name)
        if m:
            p["models"].add(m.group(1))
        elif "/" in name.split(".")[-1]:
            p["models"].add(name.rsplit("/", 1)[1])
    print("| program | tests | quick | robot libraries it links | models its parameterized tests name |")
    print("| --- | ---: | ---: | --- | --- |")
    for program, p in programs.items():
        libs = robot_libraries(build, program) if os.path.isabs(program) else []
        if os.path.basename(program).startswith("test_generated"):
            libs, models = [], sorted(p["models"])  # the robots are the models
            robots = ", ".join(models)
            print(f"| {os.path.basename(program)} | {p['tests']} | {p['quick']} | {robots} | |")
            continue
        models = sorted(p["models"])
        named = ", ".join(models) if len(models) <= 20 else f"{len(models)} cases"
        print(f"| {os.path.basename(program)} | {p['tests']} | {p['quick']} | {', '.join(libs)} | {named} |")
    print(f"| all | {len(tests)} | {sum(p['quick'] for p in programs.values())} | | |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
