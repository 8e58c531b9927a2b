#!/usr/bin/env bash
# Installs the Debian packages rbdgen builds and tests with, if any is missing. When another package
# installation holds the package manager's lock (unattended upgrades, a second terminal), it waits
# for it with a message, up to RBDGEN_APT_LOCK_TIMEOUT seconds (default 900), instead of failing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev liburdfdom-dev libtinyxml-dev libfmt-dev nlohmann-json3-dev libcli11-dev libsuitesparse-dev libyaml-cpp-dev libsdformat-dev
  libgtest-dev libbenchmark-dev lld
  liborocos-kdl-dev libadolc-dev libmujoco-dev libmujoco-samples
  clang libclang-rt-dev
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib
  gcc-arm-none-eabi libstdc++-arm-none-eabi-dev libstdc++-arm-none-eabi-newlib libnewlib-arm-none-eabi libnewlib-dev
)
# --bench: also what only bench/ needs (DART, a general library peer for branched and floating robots;
# its and KDL's Python bindings, bench/python_bench.py's peers).
[ "${1:-}" = "--bench" ] && packages+=(libdart-dev libdart-utils-urdf-dev jq python3-dartpy python3-pykdl)
timeout=${RBDGEN_APT_LOCK_TIMEOUT:-900}
locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)

# The process holding one of the package manager's locks (dpkg and apt take fcntl locks, which
# /proc/locks lists by device and inode), or nothing.
lock_holder() {
  local lock inode
  for lock in "${locks[@]}"; do
    [ -e "$lock" ] || continue
    inode=$(stat -c %i "$lock")
    awk -v inode="$inode" '{ split($6, id, ":"); if (id[3] == inode) { print $5; exit } }' /proc/locks
  done | head -n 1
}

wait_for_package_manager() {
  local waited=0 holder
  while holder=$(lock_holder) && [ -n "$holder" ]; do
    if [ $waited -eq 0 ] || [ $((waited % 30)) -eq 0 ]; then
      echo "install-deps: another package installation holds the package manager's lock" \
        "(process $holder: $(cat /proc/"$holder"/comm 2>/dev/null || echo gone)); waiting for it to finish" \
        "($waited of $timeout s)"
    fi
    if [ $waited -ge "$timeout" ]; then
      echo "install-deps: error: the package manager is still locked by process $holder after $timeout s;" \
        "let that installation finish (or stop it) and run again, or set RBDGEN_APT_LOCK_TIMEOUT" >&2
      exit 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  [ $waited -eq 0 ] || echo "install-deps: the package manager is free again after $waited s"
}

# An installation under way may be installing our packages right now: check after it is done.
wait_for_package_manager
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# apt waits too, for a lock taken between our check and its start.
apt=($sudo apt-get -o "DPkg::Lock::Timeout=$timeout")
"${apt[@]}" install -y --no-install-recommends "${missing[@]}" ||
  { "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; }
