#!/usr/bin/env bash
# Installs the Debian packages rbdgen builds and tests with, if any is missing.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libeigen3-dev liburdfdom-dev libfmt-dev nlohmann-json3-dev libsuitesparse-dev
  libgtest-dev libbenchmark-dev
  liborocos-kdl-dev
  gcc-arm-none-eabi libstdc++-arm-none-eabi-dev libnewlib-arm-none-eabi libnewlib-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends "${missing[@]}" ||
  { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
