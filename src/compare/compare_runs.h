/* SPDX-License-Identifier: MIT */
/* Two runs side by side (`mbsuite compare`): what differs in their system, MPI and
 * configuration, then every point both measured, with the relative change of its median
 * (B against A) and a verdict: slower or faster beyond the experiments' noise, or
 * unchanged. The verdict comes from the raw samples (compare_stats.h) where both runs kept
 * them, else from results.json's 95% CIs of the medians, and the result says which. */
#ifndef MB_COMPARE_RUNS_H
#define MB_COMPARE_RUNS_H

#include <jansson.h>

#include "raw_read.h"

#define MB_COMPARE_SCHEMA "mbsuite-compare/1"

/* One run to compare: its directory, its results.json, its raw samples (NULL: none, with
 * raw_note saying why). */
typedef struct mb_compare_run {
    const char *dir;
    const json_t *root;
    const mb_raw_data_t *raw;
    const char *raw_note;
} mb_compare_run_t;

typedef struct mb_compare_opts {
    double alpha;      /* the rank test's two-sided significance level, e.g. 0.01 */
    double min_change; /* a change under this fraction of A's median is "unchanged" */
    unsigned reps;     /* bootstrap resamples */
} mb_compare_opts_t;

/* The comparison as a JSON document (schema MB_COMPARE_SCHEMA, docs/results.md): "a", "b",
 * "method", "differences", "summary", "points", "only_a", "only_b", "drift_by_benchmark".
 * New reference, or NULL when out of memory. */
json_t *mb_compare_runs(const mb_compare_run_t *a, const mb_compare_run_t *b,
                        const mb_compare_opts_t *opts);

/* The summary in one line, e.g. "12 points slower beyond noise, largest: mpi.pingpong
 * size_bytes=65536 +31%; ...". */
void mb_compare_summary_text(const json_t *cmp, char *buf, size_t len);

#endif
