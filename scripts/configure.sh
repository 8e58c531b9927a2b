#!/usr/bin/env bash
# Configures build/, the folder run.sh and scripts/build.sh share: Release, portable flags, and Ninja
# for a new folder (it schedules every object of the project at once, where make waits for each
# library before the next; docs/testing.md "The build"). A folder configured
# before keeps its generator; CMAKE_GENERATOR chooses another for a new one.
set -euo pipefail
cd "$(dirname "$0")/.."
CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja} cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
