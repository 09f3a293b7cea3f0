/* SPDX-License-Identifier: MIT */
/* Plots of the pre-flight (preflight.h): the perturbation test's percentiles per rank
 * (perturb), and each node's clock speed and noise, flagged nodes marked (nodes). */
#ifndef MB_PLOT_PREFLIGHT_H
#define MB_PLOT_PREFLIGHT_H

#include <jansson.h>

#include "plot_script.h"

/* Write perturb.dat and perturb.gp from preflight's per-rank figures, nothing when there
 * are none. Returns 0, or -1 with c->err. */
int mb_plot_perturb(mb_plot_ctx_t *c, const json_t *preflight);

/* Write nodes.dat and nodes.gp from preflight's nodes, nothing when there are none.
 * Returns 0, or -1 with c->err. */
int mb_plot_nodes(mb_plot_ctx_t *c, const json_t *preflight);

#endif
