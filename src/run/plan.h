/* SPDX-License-Identifier: MIT */
/* The run's plan as the driver (driver.c) and the drift re-measure (remeasure.c) share it:
 * each selected benchmark with its points, how one is measured, and how its record is
 * committed to the results (plan.c). */
#ifndef MB_PLAN_H
#define MB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>
#include <mpi.h>

#include "bench.h"
#include "raw_samples.h"
#include "results.h"
#include "timings.h"

/* One benchmark of the run, with its points (driver.c builds the plan). */
typedef struct mb_plan_entry {
    const mb_bench_t *bench;
    const char *skip_reason; /* NULL: runs */
    char skip_buf[256];
    mb_point_t *points;
    size_t npoints;
} mb_plan_entry_t;

/* Each composite pattern of the plan (a descriptor with a recipe, bench.h's compose) moved
 * to just after the last of its recipe's benchmarks that the plan holds, so that it is
 * measured seconds after what predicts it and both meet the node in one state: in a
 * default run at -np 2 the patterns, 8 s after mpi.sendrecv, met the 2-vCPU VM's other
 * state and read 121-204% off their predictions. A pattern whose recipe names nothing in
 * the plan keeps its place; the others keep their order. ctx: as for compose. */
void mb_plan_order_patterns(const mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan);

/* Collective over comm: whether rank 0's ok holds, as every rank learns it. */
bool mb_plan_root_ok(MPI_Comm comm, bool ok);

/* Measure plan entry p (not skipped) and return its record on rank 0 (NULL elsewhere), with
 * its node's noise and, where probed (an mpi or shm benchmark, not by_process: one the os
 * phase measured in a fresh process), the drift probe's readings just before and after it.
 * measurement: 0 the first, k the k-th drift re-measure (remeasure.h). Collective. */
json_t *mb_plan_measure(mb_context_t *ctx, const mb_plan_entry_t *p, bool by_process,
                        const json_t *preflight, const char *progress, mb_raw_t *raw,
                        int measurement);

/* Rank 0 (results != NULL): the timings so far into results.json, written now or, for
 * bookkeeping at every benchmark, with the next write. Only a warning when it fails: the
 * figures do not depend on it, and a failing disk fails the next write of results anyway. */
void mb_plan_record_timings(const mb_timings_t *timings, mb_results_t *results, bool now);

/* Rank 0: a benchmark's record (stolen) into the results, added or, measured again,
 * replacing its first (again), with the run's timings so far; its raw samples on disk
 * first, before the record that counts them. 0, or -1 with the error on stderr. */
int mb_plan_commit_record(const mb_timings_t *timings, mb_results_t *results, mb_raw_t *raw,
                          json_t *record, bool again);

#endif
