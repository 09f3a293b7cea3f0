# SPDX-License-Identifier: MIT
# mbsuite plot template: bandwidth against size, for every benchmark whose points carry
# bandwidth_bytes_per_s: median bandwidth in GB/s (10^9 bytes/s) with the bandwidth of the
# 95% confidence interval of the median time as error bars; log-log: a message's rate from
# 1 byte to MiBs spans five decades, and on a linear axis the memory benchmarks' hundreds
# of GB/s left the messages' curves flat along the bottom. The key, a line per series (20 and
# more), stands right of the plot, wider than the others for it, so that it hides no curve.
# `mbsuite plot RESULTS_DIR` (src/output/plot.c) fills the @NAME@ placeholders and writes
# RESULTS_DIR/plots/NAME.gp beside NAME.dat; run `gnuplot NAME.gp` there to redraw.
# Restyle freely; keep the placeholders (comment lines like these are not filled in):
#   @OUTPUT@   the output name without extension (NAME.png and NAME.svg are written)
#   @DATA@     the data file (one block per series: benchmark and its other parameters)
#   @TITLE@ @XLABEL@ @YLABEL@   quoted gnuplot string expressions
#   @XRANGE@   [min:max];  @XTICS@  a tic list: ('label' position, ...)
#   @PLOTS@    the plot clauses; they read `data` and use line styles 1-8
set encoding utf8
data = '@DATA@'
set style line 1 lc rgb '#1f77b4' lw 1.5 pt 7 ps 0.8
set style line 2 lc rgb '#d62728' lw 1.5 pt 5 ps 0.8
set style line 3 lc rgb '#2ca02c' lw 1.5 pt 9 ps 0.9
set style line 4 lc rgb '#9467bd' lw 1.5 pt 11 ps 0.9
set style line 5 lc rgb '#ff7f0e' lw 1.5 pt 13 ps 0.9
set style line 6 lc rgb '#8c564b' lw 1.5 pt 7 ps 0.8
set style line 7 lc rgb '#e377c2' lw 1.5 pt 5 ps 0.8
set style line 8 lc rgb '#17becf' lw 1.5 pt 9 ps 0.9
set title @TITLE@
set xlabel @XLABEL@
set ylabel @YLABEL@
set logscale xy
set xrange @XRANGE@
set xtics @XTICS@
set format y '%g'
set grid xtics ytics lc rgb '#dddddd'
set key outside right top Left reverse box width 1
set bars small
do for [fmt in 'png svg'] {
    if (fmt eq 'png') {
        set terminal pngcairo size 1280,640 noenhanced font 'sans,10'
    } else {
        set terminal svg size 1280,640 dynamic noenhanced font 'sans,10'
    }
    set output '@OUTPUT@.'.fmt
    plot @PLOTS@
    unset output
}
