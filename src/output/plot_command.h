/* SPDX-License-Identifier: MIT */
/* `mbsuite plot RESULTS_DIR`: the plots of a finished (or half-finished) run, without MPI. */
#ifndef MB_PLOT_COMMAND_H
#define MB_PLOT_COMMAND_H

/* argv[0] is "plot". Prints the images written, one path a line. Returns the exit status:
 * 0 success (also when gnuplot is missing: data and scripts are written, and it says so),
 * 1 a results directory or file that cannot be read or written, or a gnuplot failure,
 * 2 bad arguments. */
int mb_command_plot(int argc, char **argv);

#endif
