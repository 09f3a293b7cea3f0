/* SPDX-License-Identifier: MIT */
/* Measuring one benchmark: every point through the harness, in the benchmark's scope, and
 * its result as the JSON object of results.h. */
#ifndef MB_MEASURE_H
#define MB_MEASURE_H

#include <jansson.h>

#include "bench.h"

/* Why b cannot run in ctx (e.g. too few ranks), or NULL when it can. Same on every rank. */
const char *mb_measure_skip_reason(const mb_bench_t *b, const mb_context_t *ctx, char *buf, size_t len);

/* The result object of a benchmark that did not run. New reference. */
json_t *mb_measure_skipped_json(const mb_bench_t *b, const char *reason);

/* Collective over ctx->comm: measure the npts points of b. On rank 0 returns the result
 * object (new reference); NULL on the other ranks. Progress goes to stderr from rank 0,
 * prefixed with `progress` (e.g. "[2/4]"). A point whose setup fails makes the whole
 * benchmark skipped with that reason. */
json_t *mb_measure_bench(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                         size_t npts, const char *progress);

/* The point's parameters as {"dim": value}, labels as strings. New reference. */
json_t *mb_measure_params_json(const mb_bench_t *b, const mb_point_t *pt);

#endif
