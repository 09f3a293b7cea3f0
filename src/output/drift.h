/* SPDX-License-Identifier: MIT */
/* The drift probes' readings (drift_probe.h) read back from results.json: each benchmark's,
 * the run's median, and the benchmarks measured while the probe read far from it. */
#ifndef MB_DRIFT_H
#define MB_DRIFT_H

#include <stdbool.h>

#include <jansson.h>

/* A benchmark whose two probe readings average this many times the run's median, or 1 /
 * this, was measured in another state of the node: the VMs' two states differ 2.5-3x, so
 * a change of state during a benchmark still averages 1.9x, while one reading in a quiet
 * state strayed to 1.31x (README, "How it measures"). */
#define MB_DRIFT_FLAG_RATIO 1.3

/* The mean of bench's two probe readings (drift_probe), or false without them. */
bool mb_drift_record_ns(const json_t *bench, double *ns);

/* results.json's "drift" section for the document root: the method and the pair probed
 * ("intra" or "inter"; NULL: not said), the run's median probe reading, the ratio, and each
 * benchmark whose two readings' mean was off the median by more than the ratio, with its
 * readings. NULL when no benchmark was probed (the run had no pair). New reference. */
json_t *mb_drift_summary(const json_t *root, const char *method, const char *pair);

#endif
