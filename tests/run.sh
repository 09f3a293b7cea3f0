#!/bin/bash
# SPDX-License-Identifier: MIT
# mbsuite's test run (make check): the unit tests (cmocka, counted per test case), then
# end-to-end cases of the real program under mpirun. Ends with "N passed, N failed".
# Timings are never asserted here; `make bench` prints them.
set -u
cd "$(dirname "$0")/.."
BUILD=${MB_BUILD:-build}
EXE=${MB_EXE:-./mbsuite}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Oversubscribed ranks must yield their core while they wait, or they starve each other.
export OMPI_MCA_mpi_yield_when_idle=1
MPIRUN="mpirun --oversubscribe --bind-to none"
TMP=$(mktemp -d /tmp/mbsuite-tests.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && sed 's/^/       /' "$2" | tail -n 20; }

# expect NAME STATUS GREP -- COMMAND...: COMMAND exits with STATUS and its output
# (stdout and stderr) matches the extended regex GREP ('' for anything).
expect() {
    local name=$1 status=$2 pattern=$3
    shift 4
    local out="$TMP/out.$passed.$failed"
    "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" -ne "$status" ]; then
        echo "       exit status $rc, expected $status" >>"$out"
        fail "$name" "$out"
    elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$out"; then
        echo "       output does not match /$pattern/" >>"$out"
        fail "$name" "$out"
    else
        pass "$name"
    fi
}

# --- unit tests: one line per cmocka test case (TAP) ---
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    log="$TMP/$(basename "$t").tap"
    CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$log" 2>&1
    rc=$?
    while read -r line; do
        case "$line" in
            "ok "*) pass "$(basename "$t"): ${line#ok * - }" ;;
            "not ok "*) fail "$(basename "$t"): ${line#not ok * - }" "$log" ;;
        esac
    done <"$log"
    if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$log"; then
        fail "$(basename "$t") exited $rc" "$log"
    fi
done

# Under `make asan`, from here on: Open MPI's plugins allocate at start-up and are unloaded
# before exit, so their leak reports have no symbols to suppress; the unit tests above
# keep leak checking, the address and UB checks stay on everywhere.
export ASAN_OPTIONS=detect_leaks=0

# --- the registry lists every descriptor defined in the tree ---
# The descriptors the library defines, from its symbol table (a macro may define several).
defined=$(nm -g --defined-only "$BUILD/libmbsuite.a" | awk '$2 ~ /^[DR]$/ && $3 ~ /^mb_bench_/ { sub(/^mb_bench_/, "", $3); print $3 }' | sort)
listed=$(grep -oE '^MB_BENCH\([a-z0-9_]+\)' src/bench_list.def | sed -E 's/MB_BENCH\((.*)\)/\1/' | sort)
if [ "$defined" = "$listed" ]; then pass "bench_list.def lists every descriptor"; else
    echo "defined: $defined" >"$TMP/reg"; echo "listed: $listed" >>"$TMP/reg"
    fail "bench_list.def lists every descriptor" "$TMP/reg"; fi

# --- command line ---
expect "--help prints usage" 0 '^usage: mpirun -np N mbsuite' -- "$EXE" --help
expect "--version prints the version" 0 '^mbsuite [0-9]+\.[0-9]+\.[0-9]+$' -- "$EXE" --version
for b in $(grep -oE '^MB_BENCH\([a-z0-9_]+\)' src/bench_list.def | sed -E 's/MB_BENCH\(([a-z0-9]+)_(.*)\)/\1.\2/'); do
    expect "--list shows $b" 0 "^$b " -- "$EXE" --list
done
expect "an unknown option is refused" 2 "unknown option '--bogus'" -- "$EXE" --bogus
expect "a missing option value is refused" 2 "option '--config' needs a value" -- "$EXE" --config
expect "a stray argument is refused" 2 "unexpected argument 'extra'" -- "$EXE" extra

# --- bad input leaves no result directory ---
printf '[run]\nmin_experiments = 11\nbogus_key = 1\n' >"$TMP/unknown_key.ini"
printf '[run]\nci_target = 2%%\n[harness]\nbcopy_sizes = 4X\n' >"$TMP/bad_unit.ini"
printf '[nosuch]\n' >"$TMP/unknown_section.ini"
expect "unknown key: file and line named, exit 2" 2 "unknown_key.ini:3: .*bogus_key" -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/unknown_key.ini" --out "$TMP/r1"
[ ! -e "$TMP/r1" ] && pass "unknown key: no result directory" || fail "unknown key: no result directory"
expect "bad unit: file and line named, exit 2" 2 "bad_unit.ini:4: .*4X" -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/bad_unit.ini" --out "$TMP/r2"
[ ! -e "$TMP/r2" ] && pass "bad unit: no result directory" || fail "bad unit: no result directory"
expect "unknown section: file and line named, exit 2" 2 "unknown_section.ini:1: .*nosuch" -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/unknown_section.ini" --out "$TMP/r3"
expect "missing config file: named, exit 2" 2 "$TMP/none.ini: cannot read" -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/none.ini" --out "$TMP/r4"
expect "--only matching nothing: exit 2" 2 "'zzz\\*' matches no benchmark" -- \
    $MPIRUN -np 2 "$EXE" --config config/quick.ini --only 'zzz*' --out "$TMP/r5"
[ ! -e "$TMP/r4" ] && [ ! -e "$TMP/r5" ] && pass "no result directory after config errors" ||
    fail "no result directory after config errors"

# --- a full quick run at -np 2 ---
expect "quick run at -np 2 succeeds and names its report" 0 "report: +$TMP/quick/report.txt" -- \
    $MPIRUN -np 2 "$EXE" --config config/quick.ini --out "$TMP/quick"
expect_benches=""
for b in $(grep -oE '^MB_BENCH\([a-z0-9_]+\)' src/bench_list.def | sed -E 's/MB_BENCH\(([a-z0-9]+)_(.*)\)/\1.\2/'); do
    expect_benches="$expect_benches --expect-bench $b"
done
# shellcheck disable=SC2086
expect "quick run: results.json valid and complete" 0 ': ok' -- \
    "$BUILD/tests/check_results" --complete $expect_benches "$TMP/quick/results.json"
expect "quick run: report.txt has the bcopy table" 0 'harness\.bcopy' -- cat "$TMP/quick/report.txt"
[ -z "$(find "$TMP/quick" -name '*.tmp*')" ] && pass "quick run: no temporary files left" ||
    fail "quick run: no temporary files left"

# --- shared memory (seed 001 Howell's table, seed 004 latency curve) ---
for row in "empty loop" "timer()" barrier read_localcache allread_localcache read_local \
           allread_local read_neighbour allread_neighbour write_localcache allwrite_localcache \
           write_local allwrite_local write_neighbour allwrite_neighbour; do
    expect "quick run: Howell's row $row has positive avg and max" 0 \
        "^  $(printf '%s' "$row" | sed 's/[()]/\\&/g') +[0-9][0-9.e+-]* +[0-9][0-9.e+-]*" -- cat "$TMP/quick/report.txt"
done
expect "quick run: shm.latency derives cache levels" 0 '"levels_from": "random"' -- cat "$TMP/quick/results.json"
printf '[shm]\nlatency_max = 64G\n' >"$TMP/huge.ini"
expect "a latency curve larger than memory is refused" 2 'more than half this node.s memory' -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/huge.ini" --out "$TMP/huge"
[ ! -e "$TMP/huge" ] && pass "refused sizes: no result directory" || fail "refused sizes: no result directory"
expect "one rank: Howell's neighbour rows say why they are missing" 0 'read_neighbour +\(needs 2 ranks on a node\)' -- \
    sh -c "\"$EXE\" --config config/quick.ini --only 'shm.read' --out \"$TMP/onerank\" >/dev/null 2>&1 && cat \"$TMP/onerank/report.txt\""

# --- message passing ---
# 0 bytes, then powers of two and midpoints up to quick.ini's 64K: 1, 2, 3, 4, 6, ..., 49152, 65536.
expect "quick run: pingpong sweeps 33 sizes on the intra-node pair" 0 '^33$' -- \
    sh -c "grep -cE '^ +[0-9]+  intra ' \"$TMP/quick/report.txt\""
expect "2 pseudo-nodes: pingpong has an inter-node pair too" 0 '^33$' -- \
    sh -c "MB_PSEUDO_NODES=2 $MPIRUN -np 4 \"$EXE\" --config config/quick.ini --only mpi.pingpong --out \"$TMP/pp\" >/dev/null 2>&1 && grep -cE '^ +[0-9]+  inter ' \"$TMP/pp/report.txt\""
expect "one rank: pingpong is skipped with the reason" 0 '"skipped": "needs at least 2 ranks, the run has 1"' -- \
    sh -c "\"$EXE\" --config config/quick.ini --only mpi.pingpong --out \"$TMP/pp1\" >/dev/null 2>&1; cat \"$TMP/pp1/results.json\""

# --- one process without mpirun (singleton MPI) ---
expect "singleton run of one benchmark" 0 'report:' -- \
    "$EXE" --config config/quick.ini --only harness.timer --out "$TMP/single"
expect "singleton run: results valid" 0 ': ok' -- \
    "$BUILD/tests/check_results" --complete --expect-bench harness.timer "$TMP/single/results.json"

# --- a run killed half-way leaves valid files holding what finished ---
# A fixed enough and a CI target never met make a run of known length (several seconds
# after harness.timer), whatever the enough search would find on this machine.
sed -e 's/^enough = .*/enough = 5ms/' -e 's/^ci_target = .*/ci_target = 0.01%/' \
    -e 's/^max_experiments = .*/max_experiments = 41/' config/quick.ini >"$TMP/killed.ini"
$MPIRUN -np 2 "$EXE" --config "$TMP/killed.ini" --out "$TMP/killed" >"$TMP/killed.log" 2>&1 &
launcher=$!
for _ in $(seq 1 600); do
    if [ -f "$TMP/killed/results.json" ] && grep -q '"harness.timer"' "$TMP/killed/results.json" 2>/dev/null; then
        break
    fi
    sleep 0.1
done
pkill -KILL -f "^$EXE --config $TMP/killed.ini --out $TMP/killed" 2>/dev/null
wait "$launcher" 2>/dev/null
expect "killed run: results.json still valid" 0 ': ok' -- \
    "$BUILD/tests/check_results" --expect-bench harness.timer "$TMP/killed/results.json"
expect "killed run: marked incomplete" 0 '"complete": false' -- cat "$TMP/killed/results.json"

# --- pre-flight (seed 000 mhz, seed 002 perturbation test) ---
expect "mhz loops keep their 100 copies (disassembly)" 0 'all nine loops keep their 100 copies' -- \
    tests/mhz_disasm_check.sh "$BUILD/src/mhz_expr.o"
# mhz prints a figure it trusts, or says the system is too busy and exits 1: never a number
# it does not trust.
"$EXE" mhz >"$TMP/mhz.out" 2>&1
rc=$?
if { [ $rc -eq 0 ] && grep -Eq '^mhz: [0-9]+\.[0-9] MHz, [0-9.]+ ns clock' "$TMP/mhz.out" &&
     [ "$(grep -cE '^  [a-z+^=<>&*;()0-7 ]+ +[0-9.]+ +[0-9]+\.[0-9]{2}$' "$TMP/mhz.out")" -eq 9 ]; } ||
   { [ $rc -eq 1 ] && grep -q 'system too busy' "$TMP/mhz.out" && ! grep -q 'MHz,' "$TMP/mhz.out"; }; then
    pass "mbsuite mhz: a figure with nine cycle counts, or 'too busy'"
else fail "mbsuite mhz: a figure with nine cycle counts, or 'too busy'" "$TMP/mhz.out"; fi
expect "mbsuite perturb: p1bench's histogram" 0 '^Perturbation percent by count for 2 ms runs:' -- "$EXE" perturb 2 20
expect "mbsuite perturb: percentiles" 0 '^Percentiles: 50th: [0-9.]+%, 90th: [0-9.]+%, 100th: [0-9.]+%$' -- "$EXE" perturb 2 20
expect "mbsuite perturb: rates" 0 '^Fastest rate: [0-9]+/s, 50th: [0-9]+/s' -- "$EXE" perturb 2 20
expect "mbsuite perturb -m: memory mode" 0 'Allocating 1 Mbytes' -- "$EXE" perturb -m 1 2 10
expect "mbsuite perturb: bad count refused" 2 "count '0' is not a number" -- "$EXE" perturb 2 0
expect "mbsuite perturb: bad option refused" 2 "unknown option '-x'" -- "$EXE" perturb -x
expect "quick run: pre-flight table for 1 node, every result carries its noise" 0 ': ok' -- \
    "$BUILD/tests/check_results" --expect-preflight-nodes 1 "$TMP/quick/results.json"
expect "quick run: report has the pre-flight table" 0 '^  node  host +MHz +tick ns cores ranks' -- cat "$TMP/quick/report.txt"
MB_PSEUDO_NODES=2 expect "4 ranks as 2 pseudo-nodes: run succeeds" 0 'report:' -- \
    $MPIRUN -np 4 "$EXE" --config config/quick.ini --only harness.timer --out "$TMP/pseudo"
expect "4 ranks as 2 pseudo-nodes: pre-flight gathers 2 nodes" 0 ': ok' -- \
    "$BUILD/tests/check_results" --complete --expect-preflight-nodes 2 "$TMP/pseudo/results.json"
expect "4 ranks as 2 pseudo-nodes: both hosts named" 0 '"host": "[^"]+#1"' -- cat "$TMP/pseudo/results.json"
MB_PSEUDO_NODES=x expect "a bad MB_PSEUDO_NODES is refused" 2 'MB_PSEUDO_NODES="x"' -- \
    $MPIRUN -np 2 "$EXE" --config config/quick.ini --out "$TMP/badpseudo"
# A zero noise threshold flags any node whose runs are not all identical: on_noisy = abort
# must stop before the suite, with the pre-flight on record.
sed -e 's/^noise_threshold = .*/noise_threshold = 0%/' -e 's/^on_noisy = .*/on_noisy = abort/' \
    config/quick.ini >"$TMP/abort.ini"
expect "on_noisy = abort stops before the suite" 1 'stopping before the suite as \[preflight\] on_noisy = abort' -- \
    $MPIRUN -np 2 "$EXE" --config "$TMP/abort.ini" --out "$TMP/abort"
expect "on_noisy = abort: results hold the pre-flight, incomplete" 0 ': ok \(0 benchmarks' -- \
    "$BUILD/tests/check_results" --expect-preflight-nodes 1 "$TMP/abort/results.json"

# --- the lmbench 2.0 examples (seed 000 Appendix) build and print plausible figures ---
expect "example lrand48 prints microseconds" 0 '^lrand48\(\): 0\.[0-9]{4} microseconds$' -- "$BUILD/examples/lrand48"
expect "example bcopy prints MB/sec" 0 '^[1-9][0-9]*\.[0-9]{2} MB/sec$' -- "$BUILD/examples/bcopy"
expect "example bcopy_cold prints MB/sec" 0 '^[1-9][0-9]*\.[0-9]{2} MB/sec$' -- "$BUILD/examples/bcopy_cold"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
