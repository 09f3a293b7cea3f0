#!/bin/bash
# SPDX-License-Identifier: MIT
# Checks a run's report.html: self-contained (nothing to fetch: no script, no style sheet,
# no image or font from elsewhere), one inline <svg> per plot the run has (its
# plots/NAME.gp scripts) and no plot left as a "not drawn" note, and, in headless
# Chromium, that the page loads with no console message and that the DOM the browser
# built still holds every plot. Chromium is required (scripts/deps.sh check installs it):
# without it the check fails rather than skips. First it shows that the console check
# can fail, on a page that logs an error.
# One line per check, "ok   - ..." or "FAIL - ..."; exits 1 when a check failed.
# usage: tests/html_check.sh RESULTS_DIR [SCREENSHOT.png]
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 RESULTS_DIR [SCREENSHOT.png]" >&2
    exit 2
fi
dir=$1
shot=${2:-}
page="$dir/report.html"
failed=0
work=$(mktemp -d /tmp/mbsuite-html-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

ok() { echo "ok   - $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    if [ -n "${2:-}" ]; then sed 's/^/       /' "$2" | tail -n 20; fi
}

if [ ! -s "$page" ]; then
    fail "report.html exists and is not empty ($page)"
    exit 1
fi
ok "report.html exists and is not empty"

# --- without a browser: self-contained, every plot inline ---
if grep -Eino '<script|<link|<iframe|<img|<object|<embed|@import|(src|href)=["'"'"']?(https?:|//|file:)|url\(["'"'"']?(https?:|//|file:)' \
    "$page" >"$work/external"; then
    fail "report.html loads nothing from elsewhere (no script, link, image, remote url)" "$work/external"
else
    ok "report.html loads nothing from elsewhere (no script, link, image, remote url)"
fi
shopt -s nullglob
scripts=("$dir"/plots/*.gp)
nplots=${#scripts[@]}
nsvg=$(grep -o '<svg[ >]' "$page" | wc -l)
nfig=$(grep -o 'data-plot="' "$page" | wc -l)
nmissing=$(grep -o 'data-missing-plot="' "$page" | wc -l)
if [ "$nplots" -gt 0 ] && [ "$nsvg" -eq "$nplots" ] && [ "$nfig" -eq "$nplots" ] && [ "$nmissing" -eq 0 ]; then
    ok "report.html inlines all $nplots plots as SVG"
else
    echo "plots/*.gp: $nplots; <svg> in the page: $nsvg; figures: $nfig; notes of plots not drawn: $nmissing" >"$work/count"
    fail "report.html inlines every plot of the run as SVG" "$work/count"
fi
for gp in "${scripts[@]}"; do
    name=$(basename "$gp" .gp)
    grep -q "data-plot=\"$name\"" "$page" || { echo "$name" >>"$work/absent"; }
done
if [ -s "$work/absent" ]; then fail "every plot is on the page by name" "$work/absent"; else
    ok "every plot is on the page by name"; fi
nsec=$(grep -o '<section id="' "$page" | wc -l)
nlinks=$(sed -n '/<nav id="contents">/,/<\/nav>/p' "$page" | grep -o '<li><a href="#' | wc -l)
if [ "$nsec" -ge 3 ] && [ "$nsec" -eq "$nlinks" ]; then
    ok "the contents list links all $nsec sections"
else
    echo "sections: $nsec, contents links: $nlinks" >"$work/toc"
    fail "the contents list links every section" "$work/toc"
fi

# --- in Chromium ---
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    fail "chromium is installed (Debian package chromium; scripts/deps.sh check installs it)"
    exit 1
fi
# Headless, no GPU, its own profile; as root Chromium needs --no-sandbox. Console messages
# go to stderr as "CONSOLE(line)" lines with --enable-logging=stderr.
browse() {
    local out=$1 err=$2
    shift 2
    timeout 120 "$chromium" --headless=new --disable-gpu --no-sandbox --no-first-run \
        --disable-extensions --user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
        --virtual-time-budget=5000 "$@" >"$out" 2>"$err"
}
# The console check sees what it must: a page that logs an error fails it.
printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("mbsuite-html-check-probe")</script></body></html>\n' >"$work/probe.html"
browse "$work/probe.dom" "$work/probe.err" --dump-dom "file://$work/probe.html"
if grep -q 'CONSOLE.*mbsuite-html-check-probe' "$work/probe.err"; then
    ok "chromium reports a console error of a page that has one"
else
    fail "chromium reports a console error of a page that has one" "$work/probe.err"
fi

abs=$(cd "$dir" && pwd)/report.html
browse "$work/dom" "$work/err" --dump-dom "file://$abs"
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '</html>' "$work/dom"; then
    echo "chromium exit status $rc" >>"$work/err"
    fail "chromium loads report.html" "$work/err"
else
    ok "chromium loads report.html"
fi
if grep -E 'CONSOLE|Uncaught|Refused to' "$work/err" >"$work/console"; then
    fail "report.html loads with no console message" "$work/console"
else
    ok "report.html loads with no console message"
fi
domsvg=$(grep -o '<svg[ >]' "$work/dom" | wc -l)
if [ "$domsvg" -eq "$nplots" ]; then
    ok "the page chromium built holds all $nplots plots"
else
    echo "<svg> in chromium's DOM: $domsvg, plots: $nplots" >"$work/domcount"
    fail "the page chromium built holds every plot" "$work/domcount"
fi
if [ -n "$shot" ]; then
    browse "$work/shot.out" "$work/shot.err" --hide-scrollbars --window-size=1280,2200 \
        --screenshot="$shot" "file://$abs"
    if [ -s "$shot" ]; then ok "screenshot $shot"; else fail "screenshot $shot" "$work/shot.err"; fi
fi
[ "$failed" -eq 0 ]
