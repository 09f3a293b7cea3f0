/* SPDX-License-Identifier: MIT */
/* The sections of results.json beside the benchmarks, written by rank 0 as the run reaches
 * them: "preflight", "clock_sync", "time_budget", "fits" and "loggp". */
#ifndef MB_SECTIONS_H
#define MB_SECTIONS_H

#include <stddef.h>

#include <jansson.h>

#include "config.h"
#include "results.h"

/* Record the pre-flight (preflight is not stolen) and name each flagged node on stderr.
 * Returns 0 to go on, or -1 with the reason in err: writing failed, or a node is flagged
 * and [preflight] on_noisy = abort. */
int mb_sections_add_preflight(mb_results_t *results, const mb_config_t *cfg, json_t *preflight,
                              char *err, size_t errlen);

/* Record how the clocks were synchronised: the largest offset to world rank 0 and the
 * largest uncertainty over the ranks, in ns. Returns 0, or -1 with the reason in err. */
int mb_sections_add_clock_sync(mb_results_t *results, double max_abs_offset_ns,
                               double max_uncertainty_ns, char *err, size_t errlen);

/* Summarise --time-budget (budget_s; the run began at mb_clock_elapsed_s() == began_s) on
 * stderr and in results.json: points trimmed out of all; os_share_s > 0: the os phase's
 * share (mb_budget_os_share_s). Returns 0, or -1 with err set. */
int mb_sections_add_budget(mb_results_t *results, double budget_s, double began_s,
                           double os_share_s, char *err, size_t errlen);

/* Summarise the drift probes (drift_probe.h) in results.json and name on stderr each
 * benchmark measured while the probe read far from the run's median. Nothing when no
 * benchmark was probed. Returns 0, or -1 with the reason in err. */
int mb_sections_add_drift(mb_results_t *results, const char *method, const char *pair, char *err,
                          size_t errlen);

/* Fit the models (seed 001's table) and LogGP parameters to the results so far, record them
 * and write dir/fits.csv. Returns 0, or -1 with the reason in err. */
int mb_sections_add_fits(mb_results_t *results, const char *dir, char *err, size_t errlen);

#endif
