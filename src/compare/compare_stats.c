/* SPDX-License-Identifier: MIT */
#include "compare_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

/* v's serial factor about its own median (mb_stats_serial_factor), or -1 when memory runs
 * out. */
static double stats_serial_factor(const double *v, size_t n)
{
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, v, n * sizeof *sorted);
    gsl_sort(sorted, 1, n);
    double f = mb_stats_serial_factor(v, n, gsl_stats_median_from_sorted_data(sorted, 1, n));
    free(sorted);
    return f;
}

/* One value of the pooled sample and which sample it came from. */
typedef struct stats_item {
    double v;
    int from_a;
} stats_item_t;

static int stats_item_cmp(const void *x, const void *y)
{
    double a = ((const stats_item_t *)x)->v, b = ((const stats_item_t *)y)->v;
    return (a > b) - (a < b);
}

int mb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
                    mb_mann_whitney_t *out)
{
    if (na == 0 || nb == 0)
        return -1;
    size_t n = na + nb;
    stats_item_t *all = malloc(n * sizeof *all);
    if (!all)
        return -1;
    for (size_t i = 0; i < n; i++) {
        all[i] = i < na ? (stats_item_t){a[i], 1} : (stats_item_t){b[i - na], 0};
        if (isnan(all[i].v)) {
            free(all);
            return -1;
        }
    }
    qsort(all, n, sizeof *all, stats_item_cmp);
    /* Ranks from 1, each run of ties given its mean rank; the runs' sizes t give the
     * variance's correction sum(t^3 - t). */
    double rank_sum_a = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && all[j + 1].v == all[i].v)
            j++;
        double mean_rank = (double)(i + j) / 2 + 1, t = (double)(j - i + 1);
        for (size_t k = i; k <= j; k++)
            if (all[k].from_a)
                rank_sum_a += mean_rank;
        ties += t * t * t - t;
        i = j + 1;
    }
    free(all);
    double fa = stats_serial_factor(a, na), fb = stats_serial_factor(b, nb);
    if (fa < 0 || fb < 0)
        return -1;
    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    out->u_a = rank_sum_a - dna * (dna + 1) / 2;
    out->serial = (dnb * fa + dna * fb) / dn;
    double mean = dna * dnb / 2;
    double var = dna * dnb / 12 * ((dn + 1) - (n > 1 ? ties / (dn * (dn - 1)) : 0)) * out->serial;
    if (!(var > 0)) { /* every value the same: no evidence of a difference */
        out->z = 0;
        out->p_value = 1;
        return 0;
    }
    double d = fabs(out->u_a - mean) - 0.5;
    out->z = (d > 0 ? d : 0) / sqrt(var) * (out->u_a < mean ? -1 : 1);
    double p = 2 * gsl_cdf_ugaussian_Q(fabs(out->z));
    out->p_value = p > 1 ? 1 : p;
    return 0;
}

/* The median of n values drawn with replacement from v (scratch: n doubles); GSL's
 * quickselect, several times quicker than sorting each resample. */
static double stats_resampled_median(const gsl_rng *rng, const double *v, size_t n,
                                     double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[gsl_rng_uniform_int(rng, n)];
    return gsl_stats_median(scratch, 1, n);
}

int mb_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
                              unsigned reps, double level, uint64_t seed, double *lo, double *hi)
{
    if (na == 0 || nb == 0 || reps < 2 || !(level > 0 && level < 1))
        return -1;
    int rc = -1;
    double *ratios = malloc(reps * sizeof *ratios);
    double *scratch = malloc((na > nb ? na : nb) * sizeof *scratch);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!ratios || !scratch || !rng)
        goto out;
    gsl_rng_set(rng, (unsigned long)seed);
    for (unsigned r = 0; r < reps; r++) {
        double ma = stats_resampled_median(rng, a, na, scratch);
        double mb = stats_resampled_median(rng, b, nb, scratch);
        if (!(ma > 0))
            goto out;
        ratios[r] = mb / ma;
    }
    gsl_sort(ratios, 1, reps);
    *lo = gsl_stats_quantile_from_sorted_data(ratios, 1, reps, (1 - level) / 2);
    *hi = gsl_stats_quantile_from_sorted_data(ratios, 1, reps, 1 - (1 - level) / 2);
    rc = 0;
out:
    if (rng)
        gsl_rng_free(rng);
    free(scratch);
    free(ratios);
    return rc;
}
