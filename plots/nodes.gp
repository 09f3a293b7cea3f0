# SPDX-License-Identifier: MIT
# mbsuite plot template: the pre-flight per node, two panels: the clock speed mhz measured
# (seed 000) with the cluster median and the tolerance band, and the perturbation test's
# p99 (the node's noisiest rank; seed 002) with the noise threshold. Flagged nodes are red.
# `mbsuite plot RESULTS_DIR` (src/output/plot.c) fills the @NAME@ placeholders and writes
# RESULTS_DIR/plots/NAME.gp beside NAME.dat; run `gnuplot NAME.gp` there to redraw.
# Restyle freely; keep the placeholders (comment lines like these are not filled in):
#   @OUTPUT@   the output name without extension (NAME.png and NAME.svg are written)
#   @DATA@     the data file: index host mhz p50_pct p99_pct flagged, one row per node
#   @TITLE@    a quoted gnuplot string expression
#   @XRANGE@   [min:max] over the node indices
#   @MHZ_YRANGE@, @NOISE_YRANGE@   [min:max] of each panel
#   @MHZ_MARKS@, @NOISE_MARKS@     `set arrow`/`set label` commands for each panel's
#              reference lines (line style 11)
set encoding utf8
data = '@DATA@'
set datafile missing '?'
ok_rgb = 0x1f77b4
flagged_rgb = 0xd62728
set style line 11 lc rgb '#555555' lw 1.2 dt 2
set xrange @XRANGE@
set xtics rotate by -30 nomirror
set grid ytics lc rgb '#dddddd'
set key top left Left reverse box opaque width 2
set style fill solid 0.8 border -1
do for [fmt in 'png svg'] {
    if (fmt eq 'png') {
        set terminal pngcairo size 960,720 noenhanced font 'sans,10'
    } else {
        set terminal svg size 960,720 dynamic noenhanced font 'sans,10'
    }
    set output '@OUTPUT@.'.fmt
    set multiplot layout 2,1 title @TITLE@
    unset arrow
    unset label
    set ylabel 'clock (MHz)'
    set yrange @MHZ_YRANGE@
    set format y '%.0f'
    @MHZ_MARKS@
    plot data using 1:3:(column(6) != 0 ? flagged_rgb : ok_rgb):xtic(2) with points pt 7 ps 1.6 lc rgb variable \
         title 'MHz (mhz, seed 000)'
    unset arrow
    unset label
    set ylabel 'p99 slower than fastest (%)'
    set yrange @NOISE_YRANGE@
    set format y '%g'
    @NOISE_MARKS@
    plot data using 1:5:(0.6):(column(6) != 0 ? flagged_rgb : ok_rgb):xtic(2) with boxes lc rgb variable \
         title 'p99 of the noisiest rank', \
         '' using 1:4 with points pt 7 ps 1.2 lc rgb '#000000' title 'p50'
    unset multiplot
    unset output
}
