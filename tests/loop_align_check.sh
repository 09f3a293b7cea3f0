#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves on the compiled code that the timed loops start on a 64-byte boundary (the
# Makefile's -falign-loops=64): on an AMD Zen 4 a short loop across one ran at half its rate
# (shm.bandwidth's copy loop in cache, lmbench's mmap reread; os/README.md), so a figure
# moved with unrelated code. For each FILE:FUNCTION, every innermost loop of the function
# (a backward jump within it, holding no other) must begin at a multiple of 64; in an object
# file the addresses are its section's, whose alignment the linker keeps.
# Usage: tests/loop_align_check.sh FILE:FUNCTION...
set -eu

OBJDUMP=${OBJDUMP:-objdump}
[ $# -gt 0 ] || { echo "usage: $0 FILE:FUNCTION..." >&2; exit 2; }

fail=0
for spec in "$@"; do
    file=${spec%%:*}
    fn=${spec#*:}
    [ -r "$file" ] || { echo "loop_align_check: cannot read $file" >&2; exit 2; }
    # "HEAD END" (addresses) of each innermost loop: a backward jump within the function,
    # END its address, with no return between (a jump back to a shared `ret` is no loop) and
    # no other such jump inside.
    loops=$("$OBJDUMP" -d --no-show-raw-insn "$file" | awk -v fn="<$fn>:" '
        function hex(s,    v, i) {
            v = 0
            for (i = 1; i <= length(s); i++)
                v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v
        }
        $2 == fn { on = 1; next }
        on && /^$/ { exit }
        on && /^ *[0-9a-f]+:/ {
            at = $1; sub(/:$/, "", at)
            n++; addr[n] = hex(at); op[n] = $2
            target[n] = $3 ~ /^[0-9a-f]+$/ ? hex($3) : -1
        }
        END {
            for (i = 1; i <= n; i++) {
                if (op[i] !~ /^j/ || target[i] < 0 || target[i] >= addr[i])
                    continue
                for (k = 1; k <= n; k++)
                    if (op[k] ~ /^ret/ && addr[k] >= target[i] && addr[k] < addr[i])
                        break
                if (k > n) { m++; head[m] = target[i]; end[m] = addr[i] }
            }
            for (i = 1; i <= m; i++) {
                for (k = 1; k <= m; k++)
                    if (k != i && head[k] >= head[i] && end[k] <= end[i])
                        break
                if (k > m)
                    printf "%d %d\n", head[i], end[i]
            }
        }')
    found=0
    for pair in $(printf '%s\n' "$loops" | tr ' ' ':'); do
        head=${pair%%:*}
        end=${pair#*:}
        found=1
        status=ok
        if [ $((head % 64)) -ne 0 ]; then
            status=FAIL
            fail=1
        fi
        printf '%-24s loop at %#x, %d bytes to its jump: %s\n' "$fn" "$head" $((end - head)) "$status"
    done
    if [ "$found" = 0 ]; then
        echo "$fn in $file: no loop found"
        fail=1
    fi
done
[ "$fail" = 0 ] && echo "loop_align_check: every timed loop starts on a 64-byte boundary"
exit "$fail"
