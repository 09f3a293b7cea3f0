#!/bin/sh
# SPDX-License-Identifier: MIT
# Make sure mbsuite's Debian packages are installed. Idempotent and quick when they are:
# as root it installs what is missing; otherwise it prints the exact apt-get line and fails.
# `deps.sh bench` adds the independent tools `make bench` compares with; `deps.sh check`
# the tests' headless browser.
# `deps.sh fuzz` adds clang and its libFuzzer and sanitizer runtimes for `make fuzz`.
set -eu

# Keep in step with README.md's dependency table.
PACKAGES="make gcc pkg-config openmpi-bin libopenmpi-dev libhwloc-dev hwloc libgsl-dev \
gnuplot-nox libjansson-dev libinih-dev libcmocka-dev libsimgrid-dev zlib1g-dev \
mpich libmpich-dev stress-ng dmidecode"
# `deps.sh check` adds what only the tests need: Chromium renders report.html headless.
if [ "${1:-}" = check ]; then
    PACKAGES="$PACKAGES chromium"
fi
if [ "${1:-}" = bench ]; then
    PACKAGES="$PACKAGES netpipe-openmpi likwid"
fi
if [ "${1:-}" = fuzz ]; then
    PACKAGES="$PACKAGES clang libclang-rt-14-dev libomp-dev"
fi

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "mbsuite: missing Debian packages:$missing" >&2
    echo "mbsuite: install them with:  sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "mbsuite: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing
