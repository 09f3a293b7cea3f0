/* SPDX-License-Identifier: MIT */
#include "stats.h"

#include <limits.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* 2 P(B <= l - 1) for B ~ Binomial(n, 1/2): the probability that the median lies outside
 * [x_(l), x_(n+1-l)]. */
static double median_ci_miss(size_t n, size_t l)
{
    return 2.0 * gsl_cdf_binomial_P((unsigned int)(l - 1), 0.5, (unsigned int)n);
}

void mb_stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage)
{
    size_t l = 0;

    if (n == 0) {
        *lo = *hi = 0;
        if (coverage)
            *coverage = 0.0;
        return;
    }
    /* The miss probability grows with l, so binary-search the largest l that keeps it
     * within 1 - level; l never passes the middle rank so that lo <= hi. gsl_cdf takes
     * unsigned int: more samples than that would not fit in memory as doubles anyway. */
    if (level > 0.0 && level < 1.0 && n <= UINT_MAX) {
        size_t a = 1, b = (n + 1) / 2;
        if (median_ci_miss(n, 1) <= 1.0 - level) {
            while (a < b) {
                size_t mid = a + (b - a + 1) / 2;
                if (median_ci_miss(n, mid) <= 1.0 - level)
                    a = mid;
                else
                    b = mid - 1;
            }
            l = a;
        }
    } else if (level <= 0.0) {
        l = (n + 1) / 2; /* any interval will do: the narrowest */
    }
    if (l == 0) {
        /* Too few samples for `level`: [min, max] is the best there is. */
        *lo = 1;
        *hi = n;
        if (coverage)
            *coverage = 1.0 - 2.0 * pow(0.5, (double)n);
        return;
    }
    *lo = l;
    *hi = n + 1 - l;
    if (coverage)
        *coverage = 1.0 - median_ci_miss(n, l);
}

int mb_stats_summarize(double *samples, size_t n, mb_stats_t *out)
{
    size_t lo, hi;

    if (n == 0)
        return -1;
    /* A NaN has no place in the order the statistics below depend on. */
    for (size_t i = 0; i < n; i++)
        if (isnan(samples[i]))
            return -1;

    gsl_sort(samples, 1, n);
    out->n = n;
    out->min = samples[0];
    out->max = samples[n - 1];
    out->median = gsl_stats_median_from_sorted_data(samples, 1, n);
    out->mean = gsl_stats_mean(samples, 1, n);
    out->stddev = n > 1 ? gsl_stats_sd(samples, 1, n) : 0.0; /* gsl divides by n - 1 */
    out->p90 = gsl_stats_quantile_from_sorted_data(samples, 1, n, 0.90);
    out->p99 = gsl_stats_quantile_from_sorted_data(samples, 1, n, 0.99);
    mb_stats_median_ci_ranks(n, 0.95, &lo, &hi, &out->ci95_coverage);
    out->ci95_lo = samples[lo - 1];
    out->ci95_hi = samples[hi - 1];
    out->serial_factor = 1.0;
    return 0;
}

/* One-sided 5% of the standard normal: the runs test's critical value. */
#define STATS_RUNS_Z_CRIT 1.6448536269514722

double mb_stats_serial_factor(const double *in_order, size_t n, double median)
{
    size_t above = 0, below = 0, runs = 0;
    int last = 0;
    for (size_t i = 0; i < n; i++) {
        int side = in_order[i] > median ? 1 : in_order[i] < median ? -1 : 0;
        if (side == 0)
            continue;
        if (side != last)
            runs++;
        last = side;
        if (side > 0)
            above++;
        else
            below++;
    }
    double m = (double)(above + below), a = (double)above, b = (double)below;
    if (above < 2 || below < 2)
        return 1.0;
    /* The runs' mean and variance for independent samples with a above and b below. */
    double mean = 1.0 + 2.0 * a * b / m;
    double var = 2.0 * a * b * (2.0 * a * b - m) / (m * m * (m - 1.0));
    if (!(var > 0.0) || ((double)runs - mean) / sqrt(var) >= -STATS_RUNS_Z_CRIT)
        return 1.0;
    /* A symmetric two-state chain that switches with probability q each step: (runs - 1)
     * switches in m - 1 steps, rho = 1 - 2q; below 1, as runs >= 2 with both sides there. */
    double rho = 1.0 - 2.0 * ((double)runs - 1.0) / (m - 1.0);
    return rho > 0.0 ? fmin((1.0 + rho) / (1.0 - rho), m) : 1.0;
}

void mb_stats_median_ci_widen(const double *sorted, size_t n, double factor, mb_stats_t *s)
{
    if (!(factor > 1.0) || n == 0)
        return;
    s->serial_factor = factor;
    size_t n_eff = (size_t)floor((double)n / factor);
    if (n_eff < 1)
        n_eff = 1;
    size_t lo_eff, hi_eff;
    mb_stats_median_ci_ranks(n_eff, 0.95, &lo_eff, &hi_eff, &s->ci95_coverage);
    /* Half the interval in ranks about the middle, (n + 1) / 2, scaled by n / n_eff. */
    double half = ((double)hi_eff - (double)lo_eff) / 2.0 * (double)n / (double)n_eff;
    double mid = ((double)n + 1.0) / 2.0;
    double lo = floor(mid - half), hi = ceil(mid + half);
    if (lo_eff == 1 && hi_eff == n_eff) /* too few for 95%: the whole range, as there */
        lo = 1, hi = (double)n;
    s->ci95_lo = sorted[lo < 1 ? 0 : (size_t)lo - 1];
    s->ci95_hi = sorted[hi > (double)n ? n - 1 : (size_t)hi - 1];
}

double mb_stats_ci_rel_halfwidth(const mb_stats_t *s)
{
    if (!(s->median > 0.0))
        return INFINITY;
    return fmax(s->median - s->ci95_lo, s->ci95_hi - s->median) / s->median;
}

void mb_stats_mean_stderr(const double *v, size_t n, double *mean, double *stderr_out)
{
    *mean = n ? gsl_stats_mean(v, 1, n) : NAN;
    *stderr_out = n >= 2 ? gsl_stats_sd(v, 1, n) / sqrt((double)n) : NAN;
}

bool mb_stats_two_levels(const double *sorted, size_t n, mb_stats_levels_t *out)
{
    *out = (mb_stats_levels_t){0};
    size_t least = (size_t)ceil(MB_STATS_LEVEL_SHARE * (double)n);
    if (least < 2)
        least = 2;
    double widest = 0;
    size_t split = 0; /* low_n of the widest gap */
    for (size_t low = least; low + least <= n; low++) {
        double below = sorted[low - 1], above = sorted[low];
        if (below > 0 && above / below >= MB_STATS_LEVEL_GAP && above / below > widest) {
            widest = above / below;
            split = low;
        }
    }
    if (split == 0)
        return false;
    *out = (mb_stats_levels_t){.low_n = split,
                               .high_n = n - split,
                               .low_min = sorted[0],
                               .low_max = sorted[split - 1],
                               .high_min = sorted[split],
                               .high_max = sorted[n - 1]};
    return true;
}
