# SPDX-License-Identifier: MIT
# mbsuite plot template: the memory latency curve (shm.latency, seed 004 Fig. 2), latency per
# dependent load against working-set size, log-log, one line per access order, with the
# cache levels found on the curve (solid grey lines, labels at the top) and the cache sizes
# hwloc reports for node 0 (dashed, labels at the bottom); also any other benchmark's time
# against a working set (os.ctx), which has no levels.
# `mbsuite plot RESULTS_DIR` (src/output/plot.c) fills the @NAME@ placeholders and writes
# RESULTS_DIR/plots/NAME.gp beside NAME.dat; run `gnuplot NAME.gp` there to redraw.
# Restyle freely; keep the placeholders (comment lines like these are not filled in):
#   @OUTPUT@   the output name without extension (NAME.png and NAME.svg are written)
#   @DATA@     the data file (one block per access order, then the levels and hwloc's caches)
#   @TITLE@ @XLABEL@ @YLABEL@   quoted gnuplot string expressions
#   @XRANGE@ @YRANGE@   [min:max];  @XTICS@ @YTICS@   tic lists: ('label' position, ...)
#   @MARKS@    `set arrow` and `set label` commands for the cache levels; they use line
#              styles 11 (levels found on the curve) and 12 (hwloc)
#   @PLOTS@    the plot clauses; they read `data` and use line styles 1-8
set encoding utf8
data = '@DATA@'
set style line 1 lc rgb '#1f77b4' lw 1.5 pt 7 ps 0.6
set style line 2 lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.6
set style line 3 lc rgb '#d62728' lw 1.5 pt 9 ps 0.7
set style line 4 lc rgb '#9467bd' lw 1.5 pt 11 ps 0.7
set style line 5 lc rgb '#ff7f0e' lw 1.5 pt 13 ps 0.7
set style line 6 lc rgb '#8c564b' lw 1.5 pt 7 ps 0.6
set style line 7 lc rgb '#e377c2' lw 1.5 pt 5 ps 0.6
set style line 8 lc rgb '#17becf' lw 1.5 pt 9 ps 0.7
set style line 11 lc rgb '#555555' lw 1.2 dt 1
set style line 12 lc rgb '#b07000' lw 1.2 dt 2
set title @TITLE@
set xlabel @XLABEL@
set ylabel @YLABEL@
set logscale xy
set xrange @XRANGE@
set xtics @XTICS@
set yrange @YRANGE@
set ytics @YTICS@
set grid xtics ytics mytics lc rgb '#dddddd'
set key top left Left reverse box opaque width 2
@MARKS@
do for [fmt in 'png svg'] {
    if (fmt eq 'png') {
        set terminal pngcairo size 960,640 noenhanced font 'sans,10'
    } else {
        set terminal svg size 960,640 dynamic noenhanced font 'sans,10'
    }
    set output '@OUTPUT@.'.fmt
    plot @PLOTS@
    unset output
}
