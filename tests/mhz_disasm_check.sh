#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves on the compiled object that no mhz expression loop was optimised away (seed 000
# 5.2): each of mb_mhz_expr_1..9 must hold at least 100 instructions (the 100 copies of its
# expression), and on x86-64 at least 100 of the instruction that carries the expression
# (e.g. 100 shifts for a>>=b), so a loop folded, vectorised or strength-reduced fails.
# Usage: tests/mhz_disasm_check.sh build/src/node/mhz_expr.o
set -eu

obj=${1:?usage: $0 OBJECT}
OBJDUMP=${OBJDUMP:-objdump}
[ -r "$obj" ] || { echo "mhz_disasm_check: cannot read $obj" >&2; exit 2; }

dis=$("$OBJDUMP" -d --no-show-raw-insn "$obj")
x86=0
"$OBJDUMP" -f "$obj" | grep -q 'x86-64' && x86=1

# Expression k, then the mnemonic regex (extended, matched against the instruction text)
# that must occur >= 100 times on x86-64.
key() {
    case $1 in
    1) echo '^mov[a-z]* +\(%' ;;           # p=*p;        a load through p
    2 | 3 | 7 | 9) echo '^xor' ;;           # a^=...;
    4 | 5) echo '^(shr|sar|shrx|sarx)' ;;   # a>>=...;
    6) echo '^(shl|sal|shlx)' ;;            # a^=a<<b;     (its xor is counted too)
    8) echo '^and' ;;                       # a+=(a+b)&07;
    esac
}

fail=0
printf '%-14s %6s %6s  %s\n' function insns key pattern
for k in 1 2 3 4 5 6 7 8 9; do
    fn=mb_mhz_expr_$k
    body=$(printf '%s\n' "$dis" | awk -v fn="<$fn>:" '
        $2 == fn { on = 1; next }
        on && /^$/ { exit }
        on && /^ *[0-9a-f]+:/ { sub(/^ *[0-9a-f]+:[ \t]*/, ""); print }')
    total=$(printf '%s\n' "$body" | grep -c . || true)
    if [ "$x86" = 1 ]; then
        re=$(key "$k")
        hits=$(printf '%s\n' "$body" | grep -Ec "$re" || true)
        if [ "$k" = 6 ]; then
            xors=$(printf '%s\n' "$body" | grep -Ec '^xor' || true)
            [ "$xors" -lt "$hits" ] && hits=$xors
        fi
    else
        re='(not x86-64: total only)'
        hits=$total
    fi
    status=ok
    if [ "$total" -lt 100 ] || [ "$hits" -lt 100 ]; then
        status=FAIL
        fail=1
    fi
    printf '%-14s %6d %6d  %s  %s\n' "$fn" "$total" "$hits" "$re" "$status"
done
[ "$fail" = 0 ] && echo "mhz_disasm_check: all nine loops keep their 100 copies"
exit "$fail"
