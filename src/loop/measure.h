/* SPDX-License-Identifier: MIT */
/* Measuring one benchmark: every point through the point loop (point_loop.h), by the ranks
 * its descriptor's scope names, and its record for results.json (docs/results.md). A point
 * that fails is recorded with its reason and the benchmark goes on. */
#ifndef MB_MEASURE_H
#define MB_MEASURE_H

#include <jansson.h>

#include "bench.h"
#include "measure_json.h"
#include "measure_opts.h"
#include "raw_samples.h"

/* Why b cannot run in ctx (e.g. too few ranks, or its skip_reason hook on rank 0), or NULL
 * when it can. Same on every rank; collective over ctx->comm when b has a skip_reason hook. */
const char *mb_measure_skip_reason(const mb_bench_t *b, const mb_context_t *ctx, char *buf,
                                   size_t len);

/* Fill at most max points of b from the configuration (b->points with ctx->arg set to
 * b->arg; one point with no parameters when b has no points function). Returns how many,
 * or -1 with err set. */
int mb_measure_points(const mb_bench_t *b, const mb_context_t *ctx, mb_point_t *pts, size_t max,
                      char *err, size_t errlen);

/* A composite pattern's prediction recipe: b->compose with ctx->arg set to b->arg, at most
 * MB_COMPOSE_MAX terms. Returns how many (0 when b has none). */
size_t mb_measure_compose(const mb_bench_t *b, const mb_context_t *ctx,
                          mb_compose_t terms[MB_COMPOSE_MAX]);

/* The result object of a benchmark that did not run. New reference. */
json_t *mb_measure_skipped_json(const mb_bench_t *b, const char *reason);

/* Without MPI: set up, measure and tear down point pt of b in this process alone (as a
 * node's representative measures an MB_SCOPE_ONE point), for a process that never starts
 * MPI (node_runs.h). time_limit_ns: its repetitions' share of a time budget (0: none; the
 * loop then stops at MB_LOOP_BUDGET_FLOOR experiments once it is spent, m->trimmed).
 * Returns 0 with the headline measurement in m (free it with mb_measurement_free), or -1
 * with reason. */
int mb_measure_point_alone(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pt,
                           double time_limit_ns, mb_measurement_t *m, char *reason,
                           size_t reason_len);

/* A measurement as JSON for another process ({"samples_ns": [...], "iters", "trimmed",
 * "late"}; the statistics are recomputed from the samples). New reference. */
json_t *mb_measure_to_json(const mb_measurement_t *m);

/* Point index of b as the fresh process of reply measured it (ctx->node_process): 0 with m
 * (its statistics recomputed under ctx's configuration; free it with mb_measurement_free),
 * or -1 with the reason (the point failed there, or the process gave no measurement). */
int mb_measure_from_process(const mb_bench_t *b, const mb_context_t *ctx, const json_t *reply,
                            size_t index, mb_measurement_t *m, char *reason, size_t reason_len);

/* Collective over ctx->comm: measure the npts points of b. On rank 0 returns the record
 * (new reference; its "failed_points" counts the points that failed); NULL on the other
 * ranks. Rank 0 reports each point to progress.h; its failed points and points dropped by
 * the budget are messages on stderr, prefixed with `progress` (e.g. "[2/4]").
 * MBSUITE_INJECT_FAILURE=NAME:INDEX (read on rank 0) makes point INDEX (from 0) of the
 * benchmark NAME fail as if its measurement had failed, for tests. raw (rank 0; NULL: none
 * kept) gets every measured point's samples, uncommitted (raw_samples.h). */
/* With ctx->node_process set on the node's first rank, b's MB_SCOPE_ONE points come from
 * that reply (mb_measure_from_process), then combine over the nodes as measured ones do. */
/* probe_before_ns (the same on every rank; NULL: not probed): the drift probe (drift_probe.h)
 * is taken after each point too, and each point's record keeps the readings just before and
 * just after it ("drift_probe"), the first point's before being *probe_before_ns (read on
 * rank 0), the benchmark's own. A state of the node that changes during a benchmark then
 * shows on the points measured in it, which the fits leave out (fit_results.h). */
json_t *mb_measure_bench(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                         size_t npts, const char *progress, mb_raw_t *raw,
                         const double *probe_before_ns);

#endif
