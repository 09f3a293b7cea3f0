# SPDX-License-Identifier: MIT
# mbsuite plot template: the pre-flight perturbation test (seed 002, p1bench) on every rank:
# how much slower than its fastest run each rank's p50, p90, p99 and slowest runs were, as
# clustered bars, with the noise threshold a node's p99 is flagged above. results.json keeps
# these percentiles per rank, not each run's time, so this stands in for the histogram.
# `mbsuite plot RESULTS_DIR` (src/output/plot.c) fills the @NAME@ placeholders and writes
# RESULTS_DIR/plots/NAME.gp beside NAME.dat; run `gnuplot NAME.gp` there to redraw.
# Restyle freely; keep the placeholders (comment lines like these are not filled in):
#   @OUTPUT@   the output name without extension (NAME.png and NAME.svg are written)
#   @DATA@     the data file: label p50_pct p90_pct p99_pct max_pct, one row per rank
#   @TITLE@    a quoted gnuplot string expression
#   @YRANGE@   [0:max]
#   @MARKS@    `set arrow` and `set label` commands for the threshold (line style 11)
set encoding utf8
data = '@DATA@'
set datafile missing '?'
set style line 1 lc rgb '#9ecae1'
set style line 2 lc rgb '#4292c6'
set style line 3 lc rgb '#08519c'
set style line 4 lc rgb '#d62728'
set style line 11 lc rgb '#d62728' lw 1.5 dt 2
set title @TITLE@
set ylabel 'slower than the rank''s fastest run (%)'
set xlabel 'host/rank (cpus)'
set yrange @YRANGE@
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set xtics rotate by -30 nomirror
set grid ytics lc rgb '#dddddd'
set key top left Left reverse box opaque width 2
@MARKS@
do for [fmt in 'png svg'] {
    if (fmt eq 'png') {
        set terminal pngcairo size 960,640 noenhanced font 'sans,10'
    } else {
        set terminal svg size 960,640 dynamic noenhanced font 'sans,10'
    }
    set output '@OUTPUT@.'.fmt
    plot data using 2:xtic(1) ls 1 title 'p50', \
         '' using 3 ls 2 title 'p90', \
         '' using 4 ls 3 title 'p99', \
         '' using 5 ls 4 title 'slowest'
    unset output
}
