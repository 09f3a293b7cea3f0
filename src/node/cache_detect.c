/* SPDX-License-Identifier: MIT */
/* Plateau detection. A memory latency curve is a staircase: nearly flat while the working
 * set fits a cache level, then a rise, over one point or over an octave or two (caches
 * indexed by physical address, non-LRU replacement and TLB reach blur the edge), to the
 * next level. With tol the tolerance (default 20%):
 *  1. Segment: walk the curve from the smallest size; a point joins the current segment
 *     while its latency is within a factor 1 + tol of the median of the segment so far
 *     (a median, so that one noisy point neither sets nor breaks a level); otherwise it
 *     starts a new segment.
 *  2. Keep the plateaus: segments of at least min_points points whose latency grows by
 *     less than a factor 1 + tol per doubling of the working set (least-squares slope of
 *     log latency on log size). A rise spread over several points also comes out as
 *     segments, but steep ones; they and lone outliers are dropped.
 *  3. Merge neighbouring plateaus whose medians are within tol of each other: a dropped
 *     outlier had split one plateau in two.
 * Each plateau is a level: its size is its largest working set, its latency the median
 * of its points, and its midpoint where the rise to the next level is half done (in log
 * latency), which for a blurred edge is nearer the capacity than the plateau's end. The
 * last plateau is `open` when it runs to the end of the curve. A flat curve is one open
 * level; a level shorter than min_points points, or less than tol above the one before,
 * goes unseen. */
#include "cache_detect.h"

#include <math.h>
#include <stdlib.h>

typedef struct detect_run {
    size_t first, last;
} detect_run_t;

static int detect_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the latencies in runs[a..b] (gaps between runs are left out); scratch holds
 * one double per point of the curve. */
static double detect_median(const double *lat, const detect_run_t *runs, size_t a, size_t b,
                            double *scratch)
{
    size_t n = 0;
    for (size_t r = a; r <= b; r++)
        for (size_t i = runs[r].first; i <= runs[r].last; i++)
            scratch[n++] = lat[i];
    qsort(scratch, n, sizeof *scratch, detect_cmp);
    return n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
}

static bool detect_within(double x, double ref, double tol)
{
    return x <= ref * (1 + tol) && x >= ref / (1 + tol);
}

/* Least-squares slope of log2(latency) on log2(size) over one run (two points or more). */
static double detect_slope(const uint64_t *sizes, const double *lat, detect_run_t r)
{
    double n = (double)(r.last - r.first + 1), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = r.first; i <= r.last; i++) {
        double x = log2((double)sizes[i]), y = log2(lat[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    double den = n * sxx - sx * sx;
    return den > 0 ? (n * sxy - sx * sy) / den : 0;
}

/* First size after point `from` where the curve reaches the geometric mean of lo and hi,
 * interpolated linearly in log size against log latency; 0 if it never does before `to`. */
static uint64_t detect_midpoint(const uint64_t *sizes, const double *lat, size_t from, size_t to,
                                double lo, double hi)
{
    double target = log2(lo * hi) / 2;
    for (size_t i = from + 1; i <= to; i++) {
        double y0 = log2(lat[i - 1]), y1 = log2(lat[i]);
        if (y1 < target)
            continue;
        double x0 = log2((double)sizes[i - 1]), x1 = log2((double)sizes[i]);
        double f = y1 > y0 ? (target - y0) / (y1 - y0) : 1;
        if (f < 0)
            f = 0;
        return (uint64_t)llround(exp2(x0 + f * (x1 - x0)));
    }
    return 0;
}

int mb_cache_detect(const uint64_t *sizes_bytes, const double *latency_ns, size_t n,
                    const mb_cache_detect_opts_t *opts, mb_cache_level_t *levels, size_t max)
{
    double tol = opts && opts->tolerance > 0 ? opts->tolerance : MB_CACHE_DETECT_TOLERANCE;
    size_t min_points = opts && opts->min_points ? opts->min_points : MB_CACHE_DETECT_MIN_POINTS;
    double max_slope = log2(1 + tol);
    for (size_t i = 0; i < n; i++)
        if (!(latency_ns[i] > 0) || (i > 0 && sizes_bytes[i] <= sizes_bytes[i - 1]))
            return -1;
    if (n == 0 || max == 0)
        return 0;

    int result = -1;
    double *scratch = malloc(n * sizeof *scratch);
    detect_run_t *runs = malloc(n * sizeof *runs);
    if (!scratch || !runs)
        goto done;

    /* 1. Segment. */
    size_t nruns = 1;
    runs[0] = (detect_run_t){0, 0};
    double ref = latency_ns[0];
    for (size_t i = 1; i < n; i++) {
        detect_run_t *cur = &runs[nruns - 1];
        if (detect_within(latency_ns[i], ref, tol)) {
            cur->last = i;
            ref = detect_median(latency_ns, cur, 0, 0, scratch);
        } else {
            runs[nruns++] = (detect_run_t){i, i};
            ref = latency_ns[i];
        }
    }

    /* 2. Keep the plateaus. */
    size_t kept = 0;
    for (size_t r = 0; r < nruns; r++)
        if (runs[r].last - runs[r].first + 1 >= min_points &&
            detect_slope(sizes_bytes, latency_ns, runs[r]) < max_slope)
            runs[kept++] = runs[r];

    /* 3. Merge neighbours on one level: runs[g0..r] make one level. */
    size_t nlev = 0;
    for (size_t g0 = 0, r = 0; r < kept && nlev < max; r++) {
        if (r + 1 < kept && detect_within(detect_median(latency_ns, runs, r + 1, r + 1, scratch),
                                          detect_median(latency_ns, runs, g0, r, scratch), tol))
            continue;
        levels[nlev++] = (mb_cache_level_t){
            .size_bytes = sizes_bytes[runs[r].last],
            .latency_ns = detect_median(latency_ns, runs, g0, r, scratch),
            .first = runs[g0].first,
            .last = runs[r].last,
            .open = runs[r].last == n - 1,
        };
        g0 = r + 1;
    }
    for (size_t l = 0; l + 1 < nlev; l++)
        if (levels[l + 1].latency_ns > levels[l].latency_ns)
            levels[l].midpoint_bytes =
                detect_midpoint(sizes_bytes, latency_ns, levels[l].last, levels[l + 1].first,
                                levels[l].latency_ns, levels[l + 1].latency_ns);
    result = (int)nlev;
done:
    free(scratch);
    free(runs);
    return result;
}
