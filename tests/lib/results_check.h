/* SPDX-License-Identifier: MIT */
/* Validation of a results document against its schema (docs/results.md, results.h), shared
 * by the check_results tool (end-to-end tests) and the unit tests. */
#ifndef MB_RESULTS_CHECK_H
#define MB_RESULTS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

typedef struct mb_results_check_opts {
    bool require_complete;           /* "complete" must be true */
    const char *const *expect_bench; /* names that must be present and not skipped */
    size_t n_expect_bench;
    int expect_preflight_nodes; /* > 0: a "preflight" section with this many nodes */
    bool require_timings; /* a "timings" section listing every phase of a finished run
                             (MB_RESULTS_CHECK_PHASES), and wall_s on every measured benchmark */
} mb_results_check_opts_t;

/* The phases a finished run's "timings" lists, at least (timings.h, docs/results.md). */
#define MB_RESULTS_CHECK_PHASES "calibration", "preflight", "clock_sync", "benchmarks", "fits", "plots"

typedef struct mb_results_check_counts {
    size_t benchmarks; /* entries of "benchmarks", skipped ones included */
    size_t points;     /* points over all benchmarks, failed ones included */
    size_t failed;     /* failed points over all benchmarks */
} mb_results_check_counts_t;

/* Check root (opts may be NULL: no extra requirements). Returns 0 and fills counts (may be
 * NULL), or -1 with "JSON.path: what is wrong" for the first problem in err, the path written
 * like $.benchmarks[2].points[0].median. */
int mb_results_check(const json_t *root, const mb_results_check_opts_t *opts,
                     mb_results_check_counts_t *counts, char *err, size_t errlen);

#endif
