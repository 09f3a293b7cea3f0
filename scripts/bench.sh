#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench: speed and accuracy figures, printed with their targets, never asserted
# (machines are shared and noisy). Run from the repository root after a build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${MB_BUILD:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --bind-to none"
GET="$BUILD/tests/results_get"
TMP=$(mktemp -d /tmp/mbsuite-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

echo "== harness (issue: foundation) =="
t0=$(now)
$MPIRUN -np 2 ./mbsuite --config config/quick.ini --only 'harness.*' --out "$TMP/quick" >/dev/null 2>"$TMP/quick.log"
t1=$(now)
r="$TMP/quick/results.json"
echo "clock: $($GET "$r" system.clock name), resolution $($GET "$r" system.clock resolution_ns) ns" \
     "(nominal $($GET "$r" system.clock nominal_resolution_ns) ns)," \
     "timing overhead $($GET "$r" system.clock overhead_ns) ns," \
     "enough $(calc '%.3f' "$($GET "$r" system.clock enough_ns) / 1e6") ms ($($GET "$r" system.clock enough_source))," \
     "loop overhead $($GET "$r" system.clock loop_overhead_ns) ns"
echo "harness.timer: clock read $(calc '%.2f' "$($GET "$r" harness.timer median quantity=read)") ns," \
     "observed step $(calc '%.2f' "$($GET "$r" harness.timer median quantity=tick)") ns"
echo "harness.* with quick.ini at -np 2: $(calc '%.2f' "$t1 - $t0") s wall (target < 5 s)"

# Five runs of harness.lrand48 under mpirun (a launcher-less run shares its core with the
# orted that Open MPI forks for it: see README), each interleaved with a run of the lmbench example as a
# control: when both vary, the machine does, not the harness.
spread() { printf '%s\n' "$@" | awk 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { printf "%.2f", (hi - lo) / lo * 100 }'; }
medians=() control=()
for i in 1 2 3 4 5; do
    $MPIRUN -np 1 ./mbsuite --config config/default.ini --only harness.lrand48 --out "$TMP/rep$i" >/dev/null 2>&1
    medians+=("$($GET "$TMP/rep$i/results.json" harness.lrand48 median)")
    control+=("$("$BUILD/examples/lrand48" 2>&1 | awk '{ print $2 * 1000 }')")
done
echo "repeatability: harness.lrand48 medians over 5 runs (ns): ${medians[*]}"
echo "repeatability: spread (max - min) / min = $(spread "${medians[@]}")% (target < 1% on a quiet machine)"
echo "control: lmbench-API example between them (ns, 2 digits): ${control[*]};" \
     "spread $(spread "${control[@]}")%"

example=$("$BUILD/examples/lrand48" 2>&1 | awk '{ print $2 * 1000 }')
echo "lmbench API example lrand48: $example ns per call; suite's harness.lrand48: ${medians[0]} ns;" \
     "ratio $(calc '%.3f' "$example / ${medians[0]}")"
echo "lmbench API example bcopy (warm 1 MB): $("$BUILD/examples/bcopy" 2>&1);" \
     "cold: $("$BUILD/examples/bcopy_cold" 2>&1)"

echo
echo "== pre-flight (issue: per-node pre-flight) =="
ref=$("$BUILD/tests/mhz_reference" 2>&1 | awk '/^reference MHz:/ { print $3 }')
mhz_line=$(./mbsuite mhz 2>&1 | head -1)
mhz=$(echo "$mhz_line" | awk '/^mhz:/ { print $2 }')
echo "mbsuite mhz: $mhz_line"
echo "reference (dependent add chain, tests/mhz_reference): ${ref:-n/a} MHz"
if [ -n "$mhz" ] && [ -n "$ref" ]; then
    echo "mhz / reference = $(calc '%.4f' "$mhz / $ref") (target within 1%: |ratio - 1| < 0.01)"
fi
t0=$(now)
$MPIRUN -np 2 ./mbsuite --config config/default.ini --only harness.timer --out "$TMP/pre" >/dev/null 2>&1
t1=$(now)
echo "default pre-flight at -np 2 (one node): $(calc '%.2f' "$($GET "$TMP/pre/results.json" preflight elapsed_s)") s" \
     "(target <= 10 s per node); whole run with harness.timer $(calc '%.2f' "$t1 - $t0") s"
echo "pre-flight verdict: median $($GET "$TMP/pre/results.json" preflight median_mhz) MHz," \
     "$($GET "$TMP/pre/results.json" preflight flagged_nodes) node(s) flagged (see the report's table)"

echo
echo "== shared memory (issue: shm) =="
sed 's/^enabled = yes/enabled = no/' config/default.ini >"$TMP/shm.ini"
t0=$(now)
$MPIRUN -np 2 ./mbsuite --config "$TMP/shm.ini" --only 'shm.*' --out "$TMP/shm" >/dev/null 2>"$TMP/shm.log"
t1=$(now)
r="$TMP/shm/results.json"
echo "shm group, default config, -np 2: $(calc '%.1f' "$t1 - $t0") s wall (target < 60 s)"
l1=$($GET "$r" shm.latency min size_bytes=1024 stride=random)
echo "L1 latency (shm.latency, 1 KiB, random, min): $(calc '%.3f' "$l1") ns = $(calc '%.2f' "$l1 * ${mhz:-0} / 1000") cycles at the mhz clock (expected 4-5 on current x86)"
one=$($GET "$r" shm.bandwidth bandwidth.median op=read where=memory ranks=one)
echo "memory read bandwidth, one rank: $(calc '%.0f' "$one / 1e6") MB/s"
if command -v likwid-bench >/dev/null 2>&1; then
    ref1=$(likwid-bench -t load -w S0:512MB:1 2>/dev/null | awk '/^MByte\/s:/ { print $2 }')
    refn=$(likwid-bench -t load -w S0:512MB:2 2>/dev/null | awk '/^MByte\/s:/ { print $2 }')
    echo "likwid-bench -t load -w S0:512MB:1: ${ref1:-n/a} MB/s; ratio mbsuite / likwid = $(calc '%.3f' "$one / 1e6 / ${ref1:-1}")"
    echo "likwid-bench -t load -w S0:512MB:2: ${refn:-n/a} MB/s (2 threads, the node's aggregate)"
else
    echo "likwid-bench not installed (apt-get install likwid): no independent bandwidth figure"
fi
echo "(all-ranks aggregate read bandwidth is in $TMP/shm's report; this temporary copy is removed)"
grep -A3 '^shm.bandwidth' "$TMP/shm/report.txt" >/dev/null && \
    awk '/^shm.bandwidth/ { f = 1 } f && /read +memory +all/ { print "all ranks, read, memory: " $0; exit }' "$TMP/shm/report.txt"
