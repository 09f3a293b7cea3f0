/* SPDX-License-Identifier: MIT */
/* Two-sample statistics for `mbsuite compare`: is run B's time at a point different from
 * run A's beyond the experiments' noise? Distribution-free, as the samples are (timings are
 * skewed, with outliers to the slow side): the Mann-Whitney U rank test and a bootstrap
 * confidence interval of the ratio of medians. */
#ifndef MB_COMPARE_STATS_H
#define MB_COMPARE_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mb_mann_whitney {
    double u_a;     /* U of sample a: pairs (x in a, y in b) with x > y, ties counting 1/2 */
    double z;       /* normal approximation, tie-corrected, with continuity correction */
    double p_value; /* two-sided; 1 when every value is the same */
    double serial;  /* the variance inflation for experiments in runs: 1 when independent */
} mb_mann_whitney_t;

/* The Mann-Whitney U test of a (na values) against b (nb values), na, nb >= 1, each in the
 * order measured; the samples are not changed. Normal approximation with the tie correction
 * of the variance and a continuity correction of 1/2 (as scipy's mannwhitneyu,
 * method="asymptotic"): fine from about 8 values a side, and the harness keeps at least 11.
 * Where a sample's experiments came in runs of one level (mb_stats_serial_factor: fa, fb),
 * U's variance is inflated by (nb fa + na fb) / (na + nb), as its two halves weigh them
 * (Var U ~ na nb (nb fa + na fb) / 12): independent samples keep the plain test. Returns 0,
 * or -1 when a sample is empty, holds a NaN or memory runs out. */
int mb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
                    mb_mann_whitney_t *out);

/* Percentile bootstrap interval, at `level` (e.g. 0.95), of median(b) / median(a): `reps`
 * resamples of each sample with replacement, from a GSL generator seeded with `seed` (the
 * same inputs give the same interval). Value by value, as for independent experiments:
 * `mbsuite compare` draws it only where the test above, which allows for runs, finds a
 * difference (blocks of a run's length could not tell, from one sample that held one level,
 * how often the other would have come). Returns 0 with [lo, hi], or -1 when a sample is
 * empty, a resampled median of a is <= 0 (no ratio), or memory runs out. */
int mb_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
                              unsigned reps, double level, uint64_t seed, double *lo, double *hi);

#endif
