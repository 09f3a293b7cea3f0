/* SPDX-License-Identifier: MIT */
/* Plots of memory and bandwidth, chosen by axis role and by the points' fields:
 *   - a memory curve for a benchmark whose x axis is a working_set axis: time per operation
 *     (ns) against working set, one line per series, with the cache levels the benchmark
 *     derived from its curve ("derived": {"levels": [..]}) and node 0's caches from hwloc;
 *   - one bandwidth plot of every benchmark whose points carry bandwidth_bytes_per_s: GB/s
 *     against its message_size or working_set axis. */
#ifndef MB_PLOT_MEMORY_H
#define MB_PLOT_MEMORY_H

#include <jansson.h>

#include "plot_script.h"
#include "plot_series.h"

/* Write file.dat and file.gp: bench's memory curve against x (a working_set axis), nothing
 * when no series has two x. Returns 0, or -1 with c->err. */
int mb_plot_memory_curve(mb_plot_ctx_t *c, const json_t *bench, const mb_plot_x_t *x,
                         const char *file);

/* Write bandwidth.dat and bandwidth.gp from every benchmark of c->root that ran, nothing
 * when none has bandwidth figures. Returns 0, or -1 with c->err. */
int mb_plot_bandwidth(mb_plot_ctx_t *c);

#endif
