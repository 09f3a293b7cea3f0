#!/bin/bash
# SPDX-License-Identifier: MIT
# Checks `mbsuite plot` on a results directory: the command succeeds, every NAME.gp it
# leaves in DIR/plots has its NAME.dat and runs again under gnuplot without error (from
# that directory, as a user would rerun it), and every NAME.png / NAME.svg is a non-empty
# image of its kind. Writes into DIR/plots: give it a copy of a fixture, not the fixture.
# One line per check, "ok   - ..." or "FAIL - ..."; exits 1 when a check failed.
# usage: tests/plot_check.sh RESULTS_DIR     (EXE: the mbsuite executable, default ./mbsuite)
set -u
EXE=${EXE:-${MB_EXE:-./mbsuite}}
if [ $# -ne 1 ]; then
    echo "usage: $0 RESULTS_DIR (EXE=path/to/mbsuite)" >&2
    exit 2
fi
dir=$1
plots="$dir/plots"
failed=0
log=$(mktemp /tmp/mbsuite-plot-check.XXXXXX)
trap 'rm -f "$log"' EXIT

ok() { echo "ok   - $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    if [ -n "${2:-}" ]; then sed 's/^/       /' "$2" | tail -n 20; fi
}

have_gnuplot=yes
command -v gnuplot >/dev/null 2>&1 || have_gnuplot=no

"$EXE" plot "$dir" >"$log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
    fail "mbsuite plot $dir exits 0 (exit $rc)" "$log"
elif [ "$have_gnuplot" = no ] && ! grep -q 'gnuplot not found' "$log"; then
    fail "mbsuite plot $dir says gnuplot is not found" "$log"
else
    ok "mbsuite plot $dir"
fi

shopt -s nullglob
scripts=("$plots"/*.gp)
if [ ${#scripts[@]} -eq 0 ]; then
    fail "$plots holds gnuplot scripts"
fi

for gp in "${scripts[@]}"; do
    name=$(basename "$gp" .gp)
    if [ -s "$plots/$name.dat" ]; then
        ok "$name.dat is there"
    else
        fail "$name.dat is there and not empty"
    fi
    if [ "$have_gnuplot" = no ]; then
        ok "$name.gp under gnuplot # SKIP gnuplot not installed"
        continue
    fi
    rm -f "$plots/$name.png" "$plots/$name.svg"
    if (cd "$plots" && gnuplot "$name.gp") >"$log" 2>&1; then
        ok "$name.gp runs under gnuplot"
    else
        fail "$name.gp runs under gnuplot" "$log"
    fi
    for ext in png svg; do
        [ -e "$plots/$name.$ext" ] || fail "$name.gp writes $name.$ext"
    done
done

for img in "$plots"/*.png "$plots"/*.svg; do
    name=$(basename "$img")
    if [ ! -s "$img" ]; then
        fail "$name is not empty"
    elif [[ $img == *.png ]] && [ "$(head -c 8 "$img" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
        fail "$name is a PNG image"
    elif [[ $img == *.svg ]] && ! grep -q '<svg' "$img"; then
        fail "$name is an SVG image"
    else
        ok "$name is a non-empty image"
    fi
done

exit $((failed > 0))
