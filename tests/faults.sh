#!/bin/bash
# SPDX-License-Identifier: MIT
# What clusters do to a run (issue 17), each a check: a rank killed mid-run (a non-zero rank,
# and rank 0), SIGTERM and SIGINT to mpirun (SIGTERM also while a slow disk holds a write),
# a full disk (a 64 KiB tmpfs; skipped where mount is not permitted), an --out directory
# that exists, and a point that hangs (MBSUITE_INJECT_HANG). After each: the job ended,
# results.json is valid (check_results) and says why it is incomplete, no temporary file
# is left.
# Times are printed, never asserted: `timeout` only guards against a hang (and says so).
# One line per check, "ok   - ...", "FAIL - ..." or "skip - ..."; exits 1 when one failed.
# usage: tests/faults.sh [TRIALS]   (MB_BUILD, MB_EXE as tests/run.sh; TRIALS kill-one-rank
#        trials, default 2; scripts/bench.sh runs 20 and prints the count and the worst time)
set -u
cd "$(dirname "$0")/.."
BUILD=${MB_BUILD:-build}
EXE=${MB_EXE:-./mbsuite}
TRIALS=${1:-2}
# The launcher of the build under test (scripts/launch.sh: Open MPI's mpirun, or MPICH's
# mpiexec with make MPI=mpich); Open MPI's ranks yield while they wait.
export OMPI_MCA_mpi_yield_when_idle=1
MPIRUN=scripts/launch.sh
FLAVOUR=$(scripts/launch.sh --flavour)
# A job still running after this long is hung: the check fails (not a timing target).
HANG_GUARD_S=120
TMP=$(mktemp -d /tmp/mbsuite-faults.XXXXXX)
mounted=""
cleanup() {
    [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
failed=0

ok() { echo "ok   - $1"; }
skip() { echo "skip - $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    if [ -n "${2:-}" ] && [ -f "$2" ]; then sed 's/^/       /' "$2" | tail -n 20; fi
}

# A run of known length: a fixed enough and a CI target never met make each point take its
# max_experiments, so there is time to act after the first benchmark's record is written.
sed -e 's/^time_budget = .*/time_budget = none/' -e 's/^enough = .*/enough = 5ms/' \
    -e 's/^ci_target = .*/ci_target = 0.01%/' -e 's/^max_experiments = .*/max_experiments = 41/' \
    -e 's/^enabled = .*/enabled = no/' config/quick.ini >"$TMP/long.ini"
ONLY='harness.timer,mpi.pingpong,mpi.bcast'
QUICK="$TMP/quick.ini"
sed 's/^time_budget = .*/time_budget = none/' config/quick.ini >"$QUICK"

now_s() { date +%s.%N; }

# start NAME [ENV...]: a run into $TMP/NAME in the background; $launcher is mpirun's pid.
start() {
    local name=$1
    shift
    env "$@" $MPIRUN -np 2 "$EXE" --config "$TMP/long.ini" --only "$ONLY" --out "$TMP/$name" \
        >"$TMP/$name.log" 2>&1 &
    launcher=$!
}

# wait_record NAME BENCH: until results.json holds BENCH's record (at most 60 s).
wait_record() {
    for _ in $(seq 1 600); do
        grep -q "\"name\": \"$2\"" "$TMP/$1/results.json" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# rank_pid NAME RANK: the pid of the run's rank RANK (from its launcher's environment).
rank_pid() {
    local p
    for p in $(pgrep -f -- "--out $TMP/$1\$"); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
            grep -qxE "(OMPI_COMM_WORLD_RANK|PMI_RANK)=$2"; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# finish: wait for the launcher, at most HANG_GUARD_S; sets $ended_s and $status.
finish() {
    local t0=$1 i
    for i in $(seq 1 $((HANG_GUARD_S * 10))); do
        kill -0 "$launcher" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$launcher" 2>/dev/null; then
        kill -KILL "$launcher" 2>/dev/null
        pkill -KILL -f -- "--out $TMP/$2\$" 2>/dev/null
        status=hung
    else
        wait "$launcher"
        status=$?
    fi
    ended_s=$(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.2f", b - a }')
}

# check_incomplete NAME WHAT REASON_REGEX: valid results.json holding harness.timer, marked
# incomplete with a reason matching REASON_REGEX, and no temporary file left.
check_incomplete() {
    local name=$1 what=$2 pattern=$3 json="$TMP/$1/results.json"
    if [ "$status" = hung ]; then
        fail "$what: the job ended (still running after ${HANG_GUARD_S} s: hung)" "$TMP/$name.log"
        return 1
    fi
    if ! "$BUILD/tests/check_results" --expect-bench harness.timer "$json" >"$TMP/$name.check" 2>&1; then
        fail "$what: results.json valid and holds the finished benchmark" "$TMP/$name.check"
        return 1
    fi
    local complete reason
    complete=$(grep -m1 -o '^ "complete": [a-z]*' "$json" | sed 's/.*: //')
    reason=$(grep -m1 '"incomplete_reason"' "$json")
    if [ "$complete" != false ] || ! echo "$reason" | grep -Eq -- "$pattern"; then
        echo "complete: $complete; $reason (want /$pattern/)" >"$TMP/$name.check"
        fail "$what: marked complete: false with the reason" "$TMP/$name.check"
        return 1
    fi
    if [ -n "$(find "$TMP/$name" -name '*.tmp*')" ]; then
        find "$TMP/$name" -name '*.tmp*' -printf '%f %s bytes\n' >"$TMP/$name.check"
        fail "$what: no temporary file left" "$TMP/$name.check"
        return 1
    fi
    ok "$what: ended in $ended_s s (exit $status), results.json valid, incomplete: $(echo "$reason" | sed -E 's/.*: "(.{0,60}).*/\1/')..."
}

# --- a non-zero rank killed (SIGKILL) mid-run: mpirun ends the job, rank 0 records why ---
# Open MPI's mpirun sends the survivors SIGTERM (then SIGKILL a second later), so rank 0
# records why; MPICH's Hydra sends SIGKILL at once, so rank 0 cannot, and the last atomic
# write stands, as when rank 0 itself is killed.
kill1_reason='SIGTERM.*another rank died'
[ "$FLAVOUR" = openmpi ] || kill1_reason='the run did not finish'
worst=0 good=0
for trial in $(seq 1 "$TRIALS"); do
    name="kill1_$trial"
    start "$name"
    if ! wait_record "$name" harness.timer; then
        fail "kill rank 1 (trial $trial): the run got to its first record" "$TMP/$name.log"
        kill -KILL "$launcher" 2>/dev/null
        continue
    fi
    victim=$(rank_pid "$name" 1)
    t0=$(now_s)
    kill -KILL "$victim"
    finish "$t0" "$name"
    if check_incomplete "$name" "kill rank 1 (trial $trial)" "$kill1_reason"; then
        good=$((good + 1))
        worst=$(awk -v a="$worst" -v b="$ended_s" 'BEGIN { print (b > a ? b : a) }')
        # The benchmark measured when the rank died is recorded as far as it went.
        if [ "$FLAVOUR" != openmpi ]; then
            :
        elif grep -q '"interrupted": "interrupted: SIGTERM' "$TMP/$name/results.json"; then
            ok "kill rank 1 (trial $trial): the benchmark in progress is recorded, marked interrupted"
        else
            fail "kill rank 1 (trial $trial): the benchmark in progress is recorded, marked interrupted"
        fi
    fi
done
echo "# kill-one-rank: $good of $TRIALS trials ended with a valid results.json; slowest ${worst} s"

# --- rank 0 killed (SIGKILL): nothing can run, so the last atomic write stands ---
start kill0
if wait_record kill0 harness.timer; then
    victim=$(rank_pid kill0 0)
    t0=$(now_s)
    kill -KILL "$victim"
    finish "$t0" kill0
    check_incomplete kill0 "kill rank 0" 'did not finish: still running, or ended without a chance'
else
    fail "kill rank 0: the run got to its first record" "$TMP/kill0.log"
    kill -KILL "$launcher" 2>/dev/null
fi

# --- SIGTERM and SIGINT to mpirun: the job ends, the point in progress is recorded ---
for sig in TERM INT; do
    name="sig$sig"
    start "$name"
    if wait_record "$name" harness.timer; then
        sleep 0.5
        t0=$(now_s)
        kill -s "$sig" "$launcher"
        finish "$t0" "$name"
        if check_incomplete "$name" "SIG$sig to mpirun" 'interrupted: SIG(TERM|INT)'; then
            # The benchmark in progress: its finished points, and the current one failed
            # with the reason (the last point of its record).
            if grep -q '"interrupted": "interrupted: SIG' "$TMP/$name/results.json" &&
                grep -q '"reason": "interrupted: SIG' "$TMP/$name/results.json"; then
                ok "SIG$sig to mpirun: the point in progress is recorded as failed with the reason"
            else
                fail "SIG$sig to mpirun: the point in progress is recorded as failed with the reason" \
                    "$TMP/$name/results.json"
            fi
        fi
    else
        fail "SIG$sig to mpirun: the run got to its first record" "$TMP/$name.log"
        kill -KILL "$launcher" 2>/dev/null
    fi
done

# --- SIGTERM while a slow disk holds a write: the record still comes first ---
# Each fsync waits 700 ms (tests/slow_disk.c, preloaded), so the write after a benchmark
# (four fsyncs) takes seconds, more than mpirun's second between SIGTERM and SIGKILL; CI's
# busy disk once did the same. SIGTERM goes to mpirun when that write's first temporary
# file appears, after the second benchmark; Open MPI's mpirun sends SIGCONT, waits a
# second (odls_base_sigkill_timeout), and passes SIGTERM on to the ranks, in the middle of
# the write's fsyncs. Each rename waits 300 ms, so rank 0's interrupted record takes that
# long: mpirun's SIGKILL follows the first rank to end, and a rank 1 that ended at once
# cut the record (CI, once; here every time, before signals.c's grace). Preloaded ahead
# of an AddressSanitizer runtime, which would refuse it; the shim allocates nothing.
name=sigTERM_slow_disk
only_before=$ONLY
ONLY='harness.timer,harness.lrand48,mpi.pingpong'
start "$name" LD_PRELOAD="$(realpath "$BUILD/tests/slow_disk.so")" MB_SLOW_FSYNC_MS=700 \
    MB_SLOW_RENAME_MS=300 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
ONLY=$only_before
writing=""
if wait_record "$name" harness.timer; then
    for _ in $(seq 1 6000); do
        writing=$(find "$TMP/$name" -name 'results.json.tmp.*' 2>/dev/null)
        [ -n "$writing" ] && break
        sleep 0.01
    done
fi
if [ -n "$writing" ]; then
    t0=$(now_s)
    kill -s TERM "$launcher"
    finish "$t0" "$name"
    what="SIGTERM to mpirun during a slow disk's write"
    if check_incomplete "$name" "$what" 'interrupted: SIGTERM'; then
        # The benchmark whose write was cut is in the record, finished.
        if grep -q '"name": "harness.lrand48"' "$TMP/$name/results.json"; then
            ok "$what: the benchmark being written is in the record"
        else
            fail "$what: the benchmark being written is in the record" "$TMP/$name/results.json"
        fi
    fi
else
    fail "SIGTERM during a slow disk's write: the run got to its second benchmark's write" "$TMP/$name.log"
    kill -KILL "$launcher" 2>/dev/null
fi

# --- an --out directory that holds files is refused, unless --force ---
mkdir -p "$TMP/exists"
echo "an earlier run" >"$TMP/exists/results.json"
$MPIRUN -np 2 "$EXE" --config "$TMP/long.ini" --only harness.timer --out "$TMP/exists" >"$TMP/exists.log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--out $TMP/exists: the directory exists and holds files" "$TMP/exists.log" &&
    [ "$(cat "$TMP/exists/results.json")" = "an earlier run" ]; then
    ok "an --out directory with files: refused (exit 2, named), its files untouched"
else
    echo "exit $rc" >>"$TMP/exists.log"
    fail "an --out directory with files: refused (exit 2, named), its files untouched" "$TMP/exists.log"
fi
mkdir -p "$TMP/empty"
if $MPIRUN -np 1 "$EXE" --config config/quick.ini --only harness.timer --out "$TMP/empty" >"$TMP/empty.log" 2>&1 &&
    $MPIRUN -np 1 "$EXE" --config config/quick.ini --only harness.timer --out "$TMP/exists" --force >>"$TMP/empty.log" 2>&1 &&
    "$BUILD/tests/check_results" --complete "$TMP/empty/results.json" >/dev/null &&
    "$BUILD/tests/check_results" --complete "$TMP/exists/results.json" >/dev/null; then
    ok "an empty --out directory is used; --force writes into one with files"
else
    fail "an empty --out directory is used; --force writes into one with files" "$TMP/empty.log"
fi

# --- a full disk: a clear error naming the file, exit non-zero, nothing half-written ---
mkdir -p "$TMP/full"
if mount -t tmpfs -o size=64k tmpfs "$TMP/full" 2>"$TMP/mount.log"; then
    mounted="$TMP/full"
    # The harness's records fit in 64 KiB, the pingpong's many points do not.
    $MPIRUN -np 2 "$EXE" --config "$QUICK" --only 'harness.*,mpi.pingpong' --out "$TMP/full/run" >"$TMP/full.log" 2>&1
    rc=$?
    left=$(find "$TMP/full" -name '*.tmp*')
    if [ $rc -ne 0 ] && grep -Eq "error: $TMP/full/run/[a-z.]+: .*No space left on device" "$TMP/full.log" &&
        [ -z "$left" ]; then
        ok "full disk (64 KiB tmpfs): exit $rc, the file and ENOSPC named, no temporary file left"
    else
        echo "exit $rc; left: $left" >>"$TMP/full.log"
        fail "full disk (64 KiB tmpfs): exit non-zero, the file and ENOSPC named, no temporary file left" "$TMP/full.log"
    fi
    # What is there is whole: results.json (if its first write fitted) is valid JSON and
    # says incomplete; points.csv and report.txt are whole files of an earlier write.
    if [ ! -e "$TMP/full/run/results.json" ]; then
        ok "full disk: no results.json at all (its first write did not fit), none half-written"
    elif "$BUILD/tests/check_results" "$TMP/full/run/results.json" >"$TMP/full.check" 2>&1 &&
        grep -q '"complete": false' "$TMP/full/run/results.json"; then
        ok "full disk: results.json is its last whole write, valid, complete: false"
    else
        fail "full disk: results.json is its last whole write, valid, complete: false" "$TMP/full.check"
    fi
    umount "$TMP/full" && mounted=""
else
    skip "full disk: cannot mount a tmpfs here ($(head -1 "$TMP/mount.log"))"
fi

# --- a point that hangs: a peer never arrives (test hook MBSUITE_INJECT_HANG) ---
# enough 1 ms: the watchdog cannot tell a slow experiment from a stuck one, and with the
# machine loaded (load 5 on 2 cores) one 5 ms experiment of pingpong's round trips, each
# wait a sched_yield that hands the core away for milliseconds, took over 6 s: the
# watchdog ended the run at point 0, before the injected hang (3 runs of 3).
sed -e 's/^ci_target = .*/ci_target = 5%/' -e 's/^max_experiments = .*/max_experiments = 15/' \
    -e 's/^enough = .*/enough = 1ms/' \
    -e 's/^\[run\]$/[run]\npoint_timeout = 3s/' "$TMP/long.ini" >"$TMP/hang.ini"
t0=$(now_s)
MBSUITE_INJECT_HANG=mpi.pingpong:2 $MPIRUN -np 2 "$EXE" --config "$TMP/hang.ini" --only "$ONLY" \
    --out "$TMP/hang" >"$TMP/hang.log" 2>&1 &
launcher=$!
finish "$t0" hang
# point_timeout 3 s: the watchdog fires at 6 s. Shorter, a point that is merely slow on a
# machine loaded many times over (load 25 on 2 cores seen) could outlast it.
if check_incomplete hang "hung point (peer never arrives)" 'hung: mpi\.pingpong size_bytes=2 pair=intra still unfinished after 6 s'; then
    # The pingpong's record: its points 0 and 1 (ok, or failed by the 3 s point_timeout on
    # a loaded machine), and point 2 failed as hung.
    if grep -q '"reason": "hung: mpi\.pingpong ' "$TMP/hang/results.json" &&
        grep -q '"interrupted": "hung: ' "$TMP/hang/results.json" &&
        [ "$(sed -n '/"name": "mpi.pingpong"/,/"interrupted"/p' "$TMP/hang/results.json" | grep -c '"status": ')" -ge 3 ]; then
        ok "hung point: recorded as a failed point with the reason; the points before it kept"
    else
        fail "hung point: recorded as a failed point with the reason; the points before it kept" \
            "$TMP/hang/results.json"
    fi
fi

[ "$failed" -eq 0 ]
