/* SPDX-License-Identifier: MIT */
/* The time plot of one benchmark: time per operation (us) against its x axis (message size,
 * ranks or threads), log-log, points with the 95% CI of the median, and, when the benchmark
 * has a model ("model" not null), the fitted model's curves, one per fitted segment. The
 * fits are evaluated with src/model/fit.h's bases, so a basis added there is drawn too. */
#ifndef MB_PLOT_LATENCY_H
#define MB_PLOT_LATENCY_H

#include <jansson.h>

#include "plot_script.h"
#include "plot_series.h"

/* Write NAME.dat and NAME.gp (NAME from the benchmark's name) of bench against x, nothing
 * when no series has two x. Returns 0, or -1 with c->err. */
int mb_plot_latency(mb_plot_ctx_t *c, const json_t *bench, const mb_plot_x_t *x);

#endif
