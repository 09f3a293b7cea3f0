#!/bin/bash
# SPDX-License-Identifier: MIT
# make fuzz: run each libFuzzer harness (built by `make fuzz` into $MB_FUZZ_BUILD/fuzz/) on its
# seed corpus (tests/fuzz/corpus/NAME, read only) and its working corpus
# ($MB_FUZZ_BUILD/corpus/NAME, which keeps what it found for the next run), with its
# dictionary where there is one, until it has executed RUNS inputs or for SECONDS, whichever
# comes first (RUNS 0: for SECONDS). Prints one line per harness: executions, seconds, the
# executions per second, and whether it fell short of RUNS. A crash, leak, sanitizer report
# or timeout stops that harness, leaves the input in $MB_FUZZ_BUILD/artifacts/NAME/, and
# makes this script fail: copy the input to tests/fuzz/regressions/NAME/ once fixed, and
# make check replays it.
# usage: tests/fuzz/run.sh SECONDS RUNS NAME...
set -u
cd "$(dirname "$0")/../.."
BUILD=${MB_FUZZ_BUILD:-build-fuzz}
seconds=${1:?usage: run.sh SECONDS RUNS NAME...}
runs_target=${2:?usage: run.sh SECONDS RUNS NAME...}
shift 2
case "$seconds" in '' | *[!0-9]*)
    echo "tests/fuzz/run.sh: FUZZ_SECONDS '$seconds' is not a whole number of seconds" >&2
    exit 2 ;;
esac
case "$runs_target" in '' | *[!0-9]*)
    echo "tests/fuzz/run.sh: FUZZ_RUNS '$runs_target' is not a whole number of executions" >&2
    exit 2 ;;
esac
# libFuzzer's -runs: -1 is no limit.
runs_flag=$runs_target
[ "$runs_target" -eq 0 ] && runs_flag=-1
failed=0
for name in "$@"; do
    bin="$BUILD/fuzz/fuzz_$name"
    work="$BUILD/corpus/$name"
    artifacts="$BUILD/artifacts/$name"
    log="$BUILD/fuzz_$name.log"
    mkdir -p "$work" "$artifacts"
    flags=()
    dict="tests/fuzz/$name.dict"
    # compare reads a results.json too: the same dictionary.
    [ "$name" = compare ] && dict=tests/fuzz/results.dict
    [ -f "$dict" ] && flags=(-dict="$dict")
    # A results.json's cost grows with its points (the fitter, the plots, the comparisons):
    # mutating the 45 KB fixtures runs ~10 times slower than the small seeds (the large
    # ones are replayed by make check, and cut to 8 KiB here).
    case "$name" in results | compare) flags+=(-max_len=8192) ;; esac
    seeds=(tests/fuzz/corpus/"$name")
    [ -d "tests/fuzz/regressions/$name" ] && seeds+=(tests/fuzz/regressions/"$name")
    # -close_fd_mask=3: the commands' messages on stdout and stderr would cost more than
    # the parsing (libFuzzer's own report still reaches the log).
    start=$(date +%s.%N)
    "$bin" -max_total_time="$seconds" -runs="$runs_flag" -timeout=30 -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "${flags[@]}" "$work" "${seeds[@]}" >"$log" 2>&1
    rc=$?
    end=$(date +%s.%N)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
    if [ "$rc" -ne 0 ]; then
        failed=1
        echo "fuzz_$name: FAILED (exit $rc) after ${runs:-?} executions; input in $artifacts/:"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 20 | sed 's/^/    /'
        echo "    full log: $log"
    else
        rate=$(awk -v n="${runs:-0}" -v s="$wall" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
        short=""
        [ "${runs:-0}" -lt "$runs_target" ] &&
            short=" (short of $runs_target: stopped at the $seconds s limit)"
        echo "fuzz_$name: ${runs:-?} executions in ${wall} s (${rate}/s)$short, no crash, leak or UB report"
    fi
done
exit "$failed"
