/* SPDX-License-Identifier: MIT */
/* Summary statistics of repeated experiments: robust (median, order-statistic
 * confidence interval of the median) and classic (mean, stddev), via GSL. */
#ifndef MB_STATS_H
#define MB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mb_stats {
    uint64_t n;
    double min, median, mean, max;
    double stddev;           /* sample standard deviation (n-1); 0 when n == 1 */
    double p90, p99;         /* quantiles, linear interpolation between order statistics */
    double ci95_lo, ci95_hi; /* distribution-free 95% CI of the median (order statistics) */
    double ci95_coverage;    /* actual coverage of [ci95_lo, ci95_hi]; below 0.95 only when n < 6
                              * (or n / serial_factor < 6) */
    double serial_factor;    /* how much serial dependence widened the CI's variance: 1 for
                              * independent samples (mb_stats_serial_factor) */
} mb_stats_t;

/* Summarise n > 0 samples; sorts `samples` in place. Returns 0, or -1 when n == 0 or a
 * sample is NaN (out is then untouched). */
int mb_stats_summarize(double *samples, size_t n, mb_stats_t *out);

/* 1-based ranks [lo, hi] of the order statistics that bound the median with at least
 * `level` confidence (binomial(n, 1/2), symmetric, narrowest such); when n is too small
 * for `level`, lo = 1 and hi = n. `coverage` (may be NULL) gets the exact coverage.
 * n == 0 gives lo = hi = 0 and coverage 0. */
void mb_stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage);

/* Serial dependence of samples in time order: the Wald-Wolfowitz runs test on which side of
 * `median` each lies (those equal to it left out). Too few runs at one-sided 5% (z < -1.645)
 * say that a sample tends to lie on the side of the one before, as when a node holds one
 * state for several experiments; the factor is then the variance inflation of such a
 * two-state chain, (1 + rho) / (1 - rho), with rho = 1 - 2 (runs - 1) / (m - 1), at most m.
 * Otherwise (independent, or too few samples on a side to tell) 1. */
double mb_stats_serial_factor(const double *in_order, size_t n, double median);

/* Widens s's CI of the median (from mb_stats_summarize over the same n samples, `sorted`)
 * for serially dependent samples: the ranks that n / factor independent samples would give,
 * scaled back to n (sqrt(factor) times as wide), and their coverage. factor <= 1 changes
 * nothing. Sets s->serial_factor. */
void mb_stats_median_ci_widen(const double *sorted, size_t n, double factor, mb_stats_t *s);

/* Relative half-width of the median's CI: max(median - lo, hi - median) / median.
 * Returns INFINITY when the median is 0 or negative. */
double mb_stats_ci_rel_halfwidth(const mb_stats_t *s);

/* The mean of v[0..n) and its standard error, the sample (n - 1) standard deviation /
 * sqrt(n), as over independent runs (seed 003's "mean ± error"); NaN where undefined (no
 * value; one value for the error). */
void mb_stats_mean_stderr(const double *v, size_t n, double *mean, double *stderr_out);

/* Two levels in a point's experiments (a node that changed state during the point, a
 * channel that changed regime: os/README.md): the samples, sorted ascending, split where one
 * is at least MB_STATS_LEVEL_GAP times the one below it with at least MB_STATS_LEVEL_SHARE
 * of them, and 2, on each side; of several such splits, the widest gap. The share keeps a
 * few slow experiments out (one preempted in a dozen is an outlier, not a level); the gap
 * is below the factors seen between such levels on the 2-vCPU VMs (a 0-byte pingpong at 105
 * or 350 ns, a 64 KiB AF_UNIX read at 6-11 or 150-170 us). docs/measuring.md, "Two levels
 * in a point", gives what the two flag on stored runs. */
#define MB_STATS_LEVEL_GAP 2.0
#define MB_STATS_LEVEL_SHARE 0.2
typedef struct mb_stats_levels {
    size_t low_n, high_n; /* high_n 0: one level */
    double low_min, low_max, high_min, high_max;
} mb_stats_levels_t;

/* Fill out from n samples sorted ascending; whether they form two levels (out zeroed when
 * not). A split is judged only above a sample > 0: a ratio needs one. */
bool mb_stats_two_levels(const double *sorted, size_t n, mb_stats_levels_t *out);

#endif
