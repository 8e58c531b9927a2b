"""The options the README and docs/ name are the options the tools list (README "What it does").

  - every --option of an `rbdgen info|eval|generate|synth` command on a page (its line, and the
    indented or backslash-continued lines after it) is in that command's --help;
  - docs/command.md's synopsis names every option each command's --help lists;
  - every keyword of a `rbdgen_add_robot(` line (outside its comment) is one rbdgen_add_robot parses
    (runtime/cmake/RbdgenAddRobot.cmake), and the build page names every one.

Usage: python3 tests/docs_options.py RBDGEN   (exit status 1 on the first page that disagrees)
"""
import glob
import os
import re
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
rbdgen = sys.argv[1]
COMMANDS = ("info", "eval", "generate", "synth")
helps = {c: subprocess.run([rbdgen, c, "--help"], capture_output=True, text=True, check=True).stdout for c in COMMANDS}
# each option --help lists, with its one-letter form if it has one (-o,--output)
forms = {c: {m[1]: m[0] for m in re.findall(r"^\s+(?:(-\w),)?(--[a-z][a-z0-9-]*)", h, re.M) if m[1] != "--help"} for c, h in helps.items()}
listed = {c: set(f) for c, f in forms.items()}
cmake = open(os.path.join(root, "runtime", "cmake", "RbdgenAddRobot.cmake")).read()
parsed = re.search(r'cmake_parse_arguments\(R "([^"]*)" "([^"]*)" "([^"]*)"', cmake)
keywords = set(";".join(parsed.groups()).split(";"))

failures, checked = [], 0
pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
for page in pages:
    name = os.path.relpath(page, root)
    command, continued = None, False
    for number, line in enumerate(open(page).read().split("\n"), 1):
        m = re.search(r"rbdgen (%s)\b" % "|".join(COMMANDS), line)
        if m:
            command, text = m.group(1), line[m.end():]
        elif command and (continued or re.match(r"\s{4,}", line)):
            text = line
        else:
            command, text = None, ""
        continued = line.rstrip().endswith("\\")
        if command:
            for option in re.findall(r"(?:^|[\s`\[(])(--[a-z][a-z0-9-]*)", text):
                checked += 1
                if option not in listed[command]:
                    failures.append("%s:%d names 'rbdgen %s %s', which 'rbdgen %s --help' does not list" % (name, number, command, option, command))
        if "rbdgen_add_robot(" in line:
            for word in re.findall(r"\b[A-Z][A-Z_]{2,}\b", line.split("rbdgen_add_robot(", 1)[1].split("#")[0]):
                checked += 1
                if word not in keywords:
                    failures.append("%s:%d names rbdgen_add_robot's '%s', which it does not take" % (name, number, word))
# the synopsis of each command: its line and the indented lines after it
synopsis = {c: "" for c in COMMANDS}
command = None
for line in open(os.path.join(root, "docs", "command.md")).read().split("\n"):
    m = re.match(r"rbdgen (%s)\b" % "|".join(COMMANDS), line)
    command = m.group(1) if m else command if line.startswith("    ") else None
    if command:
        synopsis[command] += line + "\n"
for c in COMMANDS:
    for option, short in sorted(forms[c].items()):
        named = "(%s|%s)" % (re.escape(option), re.escape(short)) if short else re.escape(option)
        if not re.search(r"(^|[\s\[])%s\b" % named, synopsis[c]):
            failures.append("docs/command.md: the synopsis of 'rbdgen %s' does not name %s, which its --help lists" % (c, option))
build = open(os.path.join(root, "docs", "build.md")).read()
for word in sorted(keywords):
    if not re.search(r"\b%s\b" % word, build):
        failures.append("docs/build.md does not name rbdgen_add_robot's %s" % word)
print("%d options and keywords named in %d pages checked" % (checked, len(pages)))
for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
