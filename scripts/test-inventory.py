#!/usr/bin/env python3
"""What a build's tests are: a table of its test programs (docs/testing.md, "The tests").

    scripts/test-inventory.py BUILD_DIR

For each program ctest runs (a ctest runs a whole GoogleTest program, or a robot's part of
test_generated: its tests are those --gtest_list_tests lists under its filter): its number of tests, how many are labelled quick (./test.sh --quick),
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


def gtest_names(command):
    """The GoogleTest tests a ctest runs (rbdgen_add_gtest: a program, with a --gtest_filter or not)."""
    listed = subprocess.run(command + ["--gtest_list_tests"], capture_output=True, text=True)
    names, suite = [], ""
    for line in listed.stdout.splitlines():
        if not line.startswith(" ") and line.endswith("."):
            suite = line
        elif line.startswith("  ") and suite:
            names.append(suite + line.strip().split("  #")[0])
    return names


def main(build):
    listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], capture_output=True, text=True, check=True)
    tests = json.loads(listing.stdout)["tests"]
    programs = collections.OrderedDict()
    total = 0
    for t in tests:
        command = t.get("command") or ["?"]
        program = command[0]
        if os.path.basename(program) in ("python3", "cmake", "bash"):  # a script: name it by the script
            program = next((c for c in command[1:] if c.endswith((".py", ".sh"))), command[-1])
        p = programs.setdefault(program, {"tests": 0, "quick": 0, "models": set()})
        is_gtest = any(a.startswith("--gtest_output") for a in command)
        names = gtest_names([c for c in command if not c.startswith("--gtest_output")]) if is_gtest else [t["name"]]
        labels = [v for prop in t.get("properties", []) if prop["name"] == "LABELS" for v in prop["value"]]
        p["tests"] += len(names)
        p["quick"] += len(names) if "quick" in labels else 0
        total += len(names)
        for name in names:
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
    print(f"| all | {total} | {sum(p['quick'] for p in programs.values())} | | |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
