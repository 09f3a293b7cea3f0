#!/bin/bash
# SPDX-License-Identifier: MIT
# mhz on a loaded machine (issue 17): `mbsuite mhz` under stress-ng --cpu N on every core
# either prints a figure near the quiet readings taken just before and just after, or says
# the system is too busy (exit 1, no figure). A wrong figure fails.
# The clock itself moves with the load on these hosts: on the 2-vCPU development VM quiet
# readings were 3583-3651 MHz and readings under stress-ng --cpu 2 3392-3420 MHz (-7%), and
# a CI run saw the opposite (3392 quiet, 3619 loaded, both with whole cycle counts). So the
# loaded figure is compared with the band of the two quiet readings, widened by 10%, not
# with one reading at the issue's 1%. A figure off by a lost time slice (the failure seen
# was -42%) or by a wrong divisor of 1/2, 2/3 or 3/4 (25% and more: past the 10% and the
# quiet readings' own spread, under 10% here) still fails.
# `make bench` prints the figures for the 1% target.
# Prints "within ..." or "too busy ..." and exits 0; exits 1 on a wrong figure.
# usage: tests/mhz_stress.sh [EXE] [SECONDS]
set -u
EXE=${1:-./mbsuite}
SECONDS_LOADED=${2:-6}
TOL_PCT=${MB_MHZ_TOL_PCT:-10}
# The figure in mhz's output (none when it says too busy).
mhz_figure_in() { sed -nE 's/^mhz: ([0-9.]+) MHz.*/\1/p'; }
mhz_figure() { "$EXE" mhz 2>&1 | mhz_figure_in; }
quiet=$(mhz_figure)
if [ -z "$quiet" ]; then
    echo "too busy already without the stress (no quiet reading to compare with)"
    exit 0
fi
cores=$(nproc)
stress-ng --cpu "$cores" --timeout "${SECONDS_LOADED}s" >/dev/null 2>&1 &
stress=$!
sleep 1
out=$("$EXE" mhz 2>&1)
rc=$?
kill "$stress" 2>/dev/null
wait "$stress" 2>/dev/null
quiet_after=$(mhz_figure)
[ -n "$quiet_after" ] || quiet_after=$quiet
loaded=$(echo "$out" | mhz_figure_in)
if [ $rc -eq 1 ] && echo "$out" | grep -q 'system too busy' && [ -z "$loaded" ]; then
    echo "too busy under stress-ng --cpu $cores (quiet: $quiet MHz): $(echo "$out" | head -1)"
    exit 0
fi
if [ $rc -eq 0 ] && [ -n "$loaded" ] &&
    awk -v a="$loaded" -v q="$quiet" -v r="$quiet_after" -v t="$TOL_PCT" \
        'BEGIN { lo = (q < r ? q : r) * (1 - t / 100); hi = (q > r ? q : r) * (1 + t / 100); exit !(a >= lo && a <= hi) }'; then
    awk -v a="$loaded" -v q="$quiet" -v r="$quiet_after" -v c="$cores" \
        'BEGIN { printf "within %+.2f%% / %+.2f%% of the quiet readings: %s MHz under stress-ng --cpu %d, %s MHz quiet before, %s after\n", (a - q) / q * 100, (a - r) / r * 100, a, c, q, r }'
    exit 0
fi
echo "wrong: exit $rc under stress-ng --cpu $cores, quiet $quiet MHz before and $quiet_after after (band widened by $TOL_PCT%):"
echo "$out"
exit 1
