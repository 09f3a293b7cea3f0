/* SPDX-License-Identifier: MIT */
/* Series laid out for gnuplot: their data blocks, the ranges and tics of a log-log plot's
 * axes (gnuplot's own log tics label only powers of 10), and the line style of each. */
#ifndef MB_PLOT_AXES_H
#define MB_PLOT_AXES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot_series.h"

/* Where size 0 goes on a size axis: a log axis has no 0. */
#define MB_PLOT_ZERO_X 0.5

/* Where x goes on the plot: size 0 at MB_PLOT_ZERO_X when bytes. */
double mb_plot_axes_x_pos(double x, bool bytes);

/* Write s to f as data block `index`: "x_plot x y lo hi" rows under a comment naming the
 * series and the columns. */
void mb_plot_axes_block(FILE *f, const mb_plot_series_t *s, size_t index, const char *columns,
                        bool bytes);

/* Write the x tic list of set to tics and its "[lo:hi]" range into range: powers of two in
 * binary units when bytes (with "0" at MB_PLOT_ZERO_X when size 0 is there), else the
 * values themselves when there are few (rank or thread counts). */
void mb_plot_axes_x(const mb_plot_set_t *set, bool bytes, FILE *tics, char *range, size_t rlen);

/* Write the log y tic list over set's error bars to tics (1-2-5 per decade when there are
 * few decades, finer within one) and its "[lo:hi]" range into range. */
void mb_plot_axes_y(const mb_plot_set_t *set, FILE *tics, char *range, size_t rlen);

/* Series k's look: "ls N" of the templates' styles 1-8, dashed the second time round. */
void mb_plot_axes_style(size_t k, char *buf, size_t len);

#endif
