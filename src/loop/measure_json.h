/* SPDX-License-Identifier: MIT */
/* A benchmark's record in results.json (docs/results.md): its header (axes and their roles,
 * model, statistic), each point's statistics or its failure, and the figures over ranks. */
#ifndef MB_MEASURE_JSON_H
#define MB_MEASURE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "bench.h"

/* The record of b with no points yet ("points": [], "failed_points": 0). cfg may be NULL
 * (then no "scheme"). New reference. */
json_t *mb_measure_json_header(const mb_bench_t *b, const mb_config_t *cfg);

/* A prediction recipe's n terms (mb_measure_compose) as "composed_of": [{"benchmark",
 * "times", "series"?} or {"constant_ns", "what"}] (docs/results.md), or NULL when n is 0.
 * New reference. */
json_t *mb_measure_json_composed(const mb_compose_t *terms, size_t n);

/* Which ranks measure in scope, in words (results.json's "measured_by"). */
const char *mb_measure_scope_text(mb_scope_t scope);

/* The point's parameters as {"dim": value}, labels as strings. New reference. */
json_t *mb_measure_params_json(const mb_bench_t *b, const mb_point_t *pt);

/* The point's parameters as "dim=value dim=value" for progress lines and reasons. */
void mb_measure_params_text(const mb_bench_t *b, const mb_point_t *pt, char *buf, size_t len);

/* A measured point: its statistics, bandwidth where b moves bytes. New reference. */
json_t *mb_measure_json_point(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pt,
                              const mb_measurement_t *m);

/* A point that failed: params, "status": "failed" and the reason. New reference. */
json_t *mb_measure_json_failed(const mb_bench_t *b, const mb_point_t *pt, const char *reason);

/* Collective over comm: the measuring ranks' medians combined by reductions (their count,
 * mean, the slowest and its world rank: Howell's "avg" and "max" columns, seed 001; with
 * bytes_per_op > 0 the sum of their rates, "aggregate_bytes_per_s": what the ranks move
 * at once), and each rank's median when comm is small.
 * The object on comm's rank 0 (new reference), NULL elsewhere. */
json_t *mb_measure_json_over_ranks(MPI_Comm comm, int world_rank, bool measured,
                                   const mb_measurement_t *m, double bytes_per_op);

#endif
