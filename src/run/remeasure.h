/* SPDX-License-Identifier: MIT */
/* The drift re-measure: flagged benchmarks measured again at the run's end, in the node's
 * usual state (README, "Drift probe"; drift.h). */
#ifndef MB_REMEASURE_H
#define MB_REMEASURE_H

#include <stddef.h>

#include <jansson.h>

#include "bench.h"
#include "plan.h"
#include "raw_samples.h"
#include "results.h"
#include "timings.h"

/* The drift re-measure ([run] drift_remeasure): once every benchmark is measured, each mpi
 * or shm benchmark whose drift probe readings were off the run's usual state (drift.h) is
 * measured once more, in the order measured, when the probe reads the usual state again
 * (waiting 30 s at most) and the time budget still holds its first measurement's wall time;
 * then, in a second pass, once more each whose readings were off the usual state around
 * that too. Its record is replaced and keeps its first readings (drift_remeasure), and
 * raw.csv.gz gets its samples again (a reader keeps the last: raw_read.h). A flagged
 * benchmark not measured again says why, also where [run] drift_remeasure is off (then
 * nothing is measured again). budget_s: the run's budget from began_s (0: none).
 * Collective. Returns 0, or -1 on a write error (rank 0's, shared). */
int mb_remeasure_run(mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan,
                     const json_t *preflight, mb_results_t *results, mb_raw_t *raw, double budget_s,
                     double began_s, const mb_timings_t *timings);

#endif
