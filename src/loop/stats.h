/* SPDX-License-Identifier: MIT */
/* Summary statistics of repeated experiments: robust (median, order-statistic
 * confidence interval of the median) and classic (mean, stddev), via GSL. */
#ifndef MB_STATS_H
#define MB_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mb_stats {
    uint64_t n;
    double min, median, mean, max;
    double stddev;           /* sample standard deviation (n-1); 0 when n == 1 */
    double p90, p99;         /* quantiles, linear interpolation between order statistics */
    double ci95_lo, ci95_hi; /* distribution-free 95% CI of the median (order statistics) */
    double ci95_coverage;    /* actual coverage of [ci95_lo, ci95_hi]; below 0.95 only when n < 6 */
} mb_stats_t;

/* Summarise n > 0 samples; sorts `samples` in place. Returns 0, or -1 when n == 0 or a
 * sample is NaN (out is then untouched). */
int mb_stats_summarize(double *samples, size_t n, mb_stats_t *out);

/* 1-based ranks [lo, hi] of the order statistics that bound the median with at least
 * `level` confidence (binomial(n, 1/2), symmetric, narrowest such); when n is too small
 * for `level`, lo = 1 and hi = n. `coverage` (may be NULL) gets the exact coverage.
 * n == 0 gives lo = hi = 0 and coverage 0. */
void mb_stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage);

/* Relative half-width of the median's CI: max(median - lo, hi - median) / median.
 * Returns INFINITY when the median is 0 or negative. */
double mb_stats_ci_rel_halfwidth(const mb_stats_t *s);

/* The mean of v[0..n) and its standard error, the sample (n - 1) standard deviation /
 * sqrt(n), as over independent runs (seed 003's "mean ± error"); NaN where undefined (no
 * value; one value for the error). */
void mb_stats_mean_stderr(const double *v, size_t n, double *mean, double *stderr_out);

#endif
