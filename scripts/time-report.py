#!/usr/bin/env python3
"""Where a build's and its tests' time goes (docs/testing.md, "Where the time goes").

    scripts/time-report.py BUILD_DIR [BUILD_DIR ...]

For each build folder: the CPU seconds of its build steps from ninja's log (.ninja_log: one line a
step, its start and end in ms; each step is one process on one core), summed by kind of step, and
the seconds of its tests from ctest's record (Testing/Temporary/CTestCostData.txt: the tests that ran,
a skipped one not among them), summed by suite. A folder built by make has no log of its steps: only its tests are listed.

    scripts/time-report.py --summary [--phase=NAME|WALL|CPU ...] BUILD_DIR [BUILD_DIR ...]

What ./test.sh prints at its end: each phase's wall and CPU seconds beside its budget (the table
under "## The budget" in docs/testing.md), and the five slowest tests and compile steps of the builds.
A test's time is GoogleTest's (gtest/<ctest name>.json, which each test program writes: a ctest runs a
whole program) or, for a script, ctest's.
"""
import collections
import glob
import json
import os
import re
import sys

# (kind, pattern on the step's output path), first match wins.
STEP_KINDS = [
    ("generator: the two instance files", r"generator/.*/instances/"),
    ("generator: other objects and links", r"^generator/|^rbdgen$|/rbdgen$"),
    ("robots: generation (rbdgen generate)", r"/rbdgen/[^/]+/[^/]+\.(hpp|md|json|cpp)$"),
    ("robots: Python modules (binding objects)", r"_python\.dir/"),
    ("robots: eval and bench drivers", r"_(eval|bench)\.dir/|rbdgen_eval_state"),
    # a kernel file, or a robot's kernel files as one unit (rbdgen_add_robot UNITY)
    ("robots of test_generated: kernel objects", r"CMakeFiles/gen_[^/]+\.dir/(rbdgen/[^/]+/[^/]+\.cpp|Unity/unity_\d+_cxx\.cxx)\.o$"),
    ("robots of the other tests: kernel objects", r"CMakeFiles/[^/]+\.dir/(rbdgen/[^/]+/[^/]+\.cpp|Unity/unity_\d+_cxx\.cxx)\.o$"),
    ("test_generated: the robots' entries", r"entry_[^/]+\.dir/"),
    ("test_generated: test_generated.cpp", r"test_gen[^/]*\.dir/test_generated\.cpp\.o$"),
    ("unit tests: objects", r"tests/CMakeFiles/test_[^/]+\.dir/.*\.o$|rbdgen_reference"),
    ("fuzz targets", r"fuzz"),
    ("precompiled headers", r"cmake_pch\.hxx\.gch$"),
    ("links (archives and programs)", r"\.a$|/test_[^/.]+$|[^/.]+$"),
]


def step_kind(path):
    for kind, pattern in STEP_KINDS:
        if re.search(pattern, path):
            return kind
    return "other"


def read_ninja_log(folder):
    """{step: (kind, seconds)} of the log's last run of each step (ninja appends; a rebuilt step
    repeats), a command that writes several files (rbdgen generate) counted once."""
    path = os.path.join(folder, ".ninja_log")
    if not os.path.exists(path):
        return None
    steps = {}
    prefix = os.path.abspath(folder) + "/"  # a custom command's outputs are logged by absolute path too
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            start, end, _, output, _ = line.rstrip("\n").split("\t")
            output = output[len(prefix):] if output.startswith(prefix) else output
            steps[output] = (int(end) - int(start)) / 1000.0
    # One command that writes several outputs is listed once a file: count it once.
    by_command = {}
    for output, seconds in steps.items():
        kind = step_kind(output)
        m = re.match(r"(.*/rbdgen/[^/]+)/[^/]+$", output)
        key = m.group(1) if m and kind.startswith("robots: generation") else output
        by_command[key] = (kind, max(by_command.get(key, (kind, 0))[1], seconds))
    return by_command


def read_ctest_costs(folder):
    path = os.path.join(folder, "Testing", "Temporary", "CTestCostData.txt")
    if not os.path.exists(path):
        return None
    costs = {}
    with open(path) as f:
        for line in f:
            if line.startswith("---"):
                break
            parts = line.rstrip("\n").rsplit(" ", 2)  # a name may hold spaces (gtest's "# GetParam() = ...")
            if len(parts) == 3 and int(parts[1]) > 0:  # 0: listed, not run (skipped, or another run's name)
                costs[parts[0]] = float(parts[2])
    return costs


def read_gtest_times(folder):
    """{Suite.Test: seconds} from the gtest/*.json files the test programs wrote (rbdgen_add_gtest)."""
    times = {}
    for path in glob.glob(os.path.join(folder, "gtest", "*.json")):
        try:
            with open(path) as f:
                suites = json.load(f).get("testsuites", [])
        except (OSError, ValueError):
            continue
        for suite in suites:
            for test in suite.get("testsuite", []):
                if test.get("result") == "SKIPPED" or test.get("status") == "NOTRUN":
                    continue
                times[f"{suite['name']}.{test['name']}"] = float(str(test.get("time", "0s")).rstrip("s"))
    return times


def read_budget():
    """{phase: (CPU s, wall s)} from the table under "## The budget" in docs/testing.md."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "testing.md")
    budget, inside = {}, False
    with open(path) as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## The budget"
            m = re.match(r"\|\s*([a-z ]+?)\s*\|\s*([\d,]+)\s*\|\s*([\d,]+)\s*\|", line) if inside else None
            if m:
                budget[m.group(1)] = (int(m.group(2).replace(",", "")), int(m.group(3).replace(",", "")))
    return budget


def summary(phases, folders):
    budget = read_budget()
    print("\n== test.sh: where the time went (docs/testing.md, \"The budget\")\n")
    print("| phase | wall s | CPU s | budget: CPU s (Intel Xeon) |\n| --- | ---: | ---: | ---: |")
    wall = cpu = 0
    for p in phases:
        name, w, c = p.split("|")
        wall, cpu = wall + int(w), cpu + int(c)
        b = budget.get(name)
        over = " (over)" if b and int(c) > b[0] else ""
        print(f"| {name} | {w} | {c} | {b[0] if b else '-'}{over} |")
    b = budget.get("all")
    print(f"| all | {wall} | {cpu} | {b[0] if b else '-'} |\n")
    tests, steps = [], []
    for folder in folders:
        for test, seconds in (read_gtest_times(folder) or {}).items():
            tests.append((seconds, f"{folder}: {test}"))
        for test, seconds in (read_ctest_costs(folder) or {}).items():
            if not os.path.exists(os.path.join(folder, "gtest", test + ".json")):  # a script
                tests.append((seconds, f"{folder}: {test}"))
        for output, (_, seconds) in (read_ninja_log(folder) or {}).items():
            steps.append((seconds, f"{folder}: {output}"))
    print("The five slowest tests:")
    for seconds, name in sorted(tests, reverse=True)[:5]:
        print(f"- {seconds:.1f} s {name}")
    print("\nThe five slowest build steps:")
    for seconds, name in sorted(steps, reverse=True)[:5]:
        print(f"- {seconds:.1f} s {name}")


def suite_of(test):
    # a ctest: a test program (rbdgen_add_gtest), a robot of test_generated (gen_<robot>), a script
    if re.match(r"gen_", test):
        return "test_generated (one ctest a robot)"
    return test.split(".")[0]


def report(folder):
    print(f"## {folder}\n")
    steps = read_ninja_log(folder)
    if steps is None:
        print("(no .ninja_log: not a Ninja build)\n")
    else:
        kinds = collections.defaultdict(lambda: [0.0, 0])
        for kind, seconds in steps.values():
            k = kinds[kind]
            k[0] += seconds
            k[1] += 1
        total = sum(s for s, _ in kinds.values())
        print("| build steps | steps | CPU s | share |\n| --- | ---: | ---: | ---: |")
        for kind, (seconds, n) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
            print(f"| {kind} | {n} | {seconds:.0f} | {100 * seconds / total:.0f}% |")
        print(f"| all | {len(steps)} | {total:.0f} | |\n")
        robots = collections.defaultdict(lambda: [0.0, 0.0, 0])  # generation, kernels, kernel files
        for output, (kind, seconds) in steps.items():
            m = re.search(r"/rbdgen/([^/]+)$", output) if kind.startswith("robots: generation") else None
            if m:
                robots[m.group(1)][0] += seconds
            m = re.search(r"CMakeFiles/([^/]+)\.dir/(rbdgen|Unity)/", output) if "kernel objects" in kind else None
            if m:
                robots[m.group(1)][1] += seconds
                robots[m.group(1)][2] += 1
        if robots:
            print("| robot library | generation s | kernel files | their CPU s |\n| --- | ---: | ---: | ---: |")
            for robot, (gen, kernels, n) in sorted(robots.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
                print(f"| {robot} | {gen:.1f} | {n} | {kernels:.1f} |")
            print()
        print("The ten longest steps:\n")
        for output, (_, seconds) in sorted(steps.items(), key=lambda kv: -kv[1][1])[:10]:
            print(f"- {seconds:.1f} s {output}")
        print()
    costs = read_ctest_costs(folder)
    if costs is None:
        print("(no ctest record)\n")
        return
    suites = collections.defaultdict(lambda: [0.0, 0])
    for test, seconds in costs.items():
        s = suites[suite_of(test)]
        s[0] += seconds
        s[1] += 1
    total = sum(s for s, _ in suites.values())
    print("| ctest (a program, a robot, a script) | ctests | s | share |\n| --- | ---: | ---: | ---: |")
    for suite, (seconds, n) in sorted(suites.items(), key=lambda kv: -kv[1][0])[:25]:
        print(f"| {suite} | {n} | {seconds:.0f} | {100 * seconds / total:.0f}% |")
    print(f"| all | {len(costs)} | {total:.0f} | |\n")
    print("The ten longest tests (GoogleTest's times; a script's, ctest's):\n")
    longest = dict(read_gtest_times(folder))
    longest.update({t: c for t, c in costs.items() if not os.path.exists(os.path.join(folder, "gtest", t + ".json"))})
    for test, seconds in sorted(longest.items(), key=lambda kv: -kv[1])[:10]:
        print(f"- {seconds:.1f} s {test}")
    print()


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "--summary":
        phases = [a[len("--phase="):] for a in args[1:] if a.startswith("--phase=")]
        summary(phases, [a for a in args[1:] if not a.startswith("--") and os.path.isdir(a)])
    else:
        for folder in args:
            report(folder)
