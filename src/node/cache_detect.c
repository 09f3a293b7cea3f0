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
 *     segments, but steep ones; they and lone outliers are dropped. A steep segment's first
 *     points below its median come off first, while more than min_points are left: the
 *     rise's last points, within tol of a plateau's first, join its segment and made it
 *     steep (on a Zen 4 VM a page curve's 4.19 ns at 1.19 MiB before L3's 4.98-6.50: L3 was
 *     lost in 2 of 20 runs).
 *  3. Make levels of the plateaus, smallest sizes first, as a stack: a plateau less than
 *     min_step (default 1.5x) slower than the level on top joins that level (a dropped
 *     outlier had split it, or a TLB's reach or a VM's share of a cache put a small step
 *     into it: the spurious levels between L3 and memory); one faster than the top level
 *     by more than min_step shows that level was a bump (a burst of noise over several
 *     points), which is dropped, and the plateau is tried again on the level below; else
 *     the plateau starts a new level. So every level is at least min_step above the one
 *     before, and the curve's levels rise.
 *  4. Drop a level between two others that no cache makes:
 *     a. where at least two points between the level below and it are within tol of the
 *        level above it, or slower: the curve had already risen to the slower level, and a
 *        cache's plateau comes before that. On the 2-vCPU VM a burst took two points at
 *        11-14 MiB to memory's 35-39 ns before three steady ones at 22-24 ns (a level in 1
 *        of 40 runs of make bench's check, no other of 405 stored curves changed);
 *     b. given each point's median over its experiments beside the minimum the curve is
 *        made of, where it spans less than an octave (a cache holds at least twice the one
 *        below it) and has fewer than min_points steady points (median within tol of the
 *        minimum). Past a cache, an experiment covers part of a lap, and the minimum is the
 *        experiment whose part of the set the cache happened to keep: a plateau of such
 *        minima partway up the rise from L3 to memory made a spurious level in 7 of 248
 *        stored runs of the default curve on the 2-vCPU VMs, its medians rising through it
 *        (minima 24.4, 25.4, 24.0 ns at 32-45 MiB; medians 24.8, 27.9, 37.0), while the
 *        caches' plateaus keep their medians within a few % of their minima. 4b took six of
 *        the seven away and changed no other run's levels.
 * A last level (not open) is dropped while the curve's last point is back below min_step
 * above the level under it: a bump of slow points near the end, as no cache's plateau is
 * left downwards. A level then runs on over any later point, before the next level, within
 * tol of it (an outlier near a plateau's end leaves too few points after it to be a
 * plateau).
 * Each level's size is its largest working set, its latency the median of its points, and
 * its midpoint where the rise to the next level is half done (in log latency), which for a
 * blurred edge is nearer the capacity than the plateau's end. The last level is `open`
 * when it runs to the end of the curve, or is followed only by points that make no
 * plateau and whose median, or the curve's last point, is less than min_step above it, or
 * whose median is no slower than the level's slowest point (noise at the end, not a rise).
 * Points after the last level that make no plateau of step 1 but are flat as a whole (the
 * rise to them left out) and min_step above it are one more, open level (memory scattered
 * by more than tol). A flat curve is one open level; a level shorter than min_points
 * points, or less than min_step above the one before, goes unseen. */
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
 * interpolated linearly in log size against log latency; 0 if it never does up to `to`
 * (the next level's last point: a rise blurred in small steps puts the next level's first
 * points below the half-way mark). */
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

/* Whether at least two points from first to last (indices on the curve) are within a
 * factor 1 + tol of above_ns, or over it (step 4a). */
static bool detect_reached(const double *latency_ns, size_t first, size_t last, double above_ns,
                           double tol)
{
    size_t reached = 0;
    for (size_t i = first; i <= last; i++)
        reached += latency_ns[i] * (1 + tol) >= above_ns;
    return reached >= 2;
}

/* Whether the points in runs[a..b] span less than an octave and fewer than min_points of
 * them are steady: median_ns within a factor 1 + tol of latency_ns (step 4b). */
static bool detect_unsteady(const uint64_t *sizes_bytes, const double *latency_ns,
                            const double *median_ns, const detect_run_t *runs, size_t a, size_t b,
                            double tol, size_t min_points)
{
    if (sizes_bytes[runs[b].last] >= 2 * sizes_bytes[runs[a].first])
        return false;
    size_t steady = 0;
    for (size_t r = a; r <= b; r++)
        for (size_t i = runs[r].first; i <= runs[r].last; i++)
            steady += median_ns[i] <= latency_ns[i] * (1 + tol);
    return steady < min_points;
}

int mb_cache_detect(const uint64_t *sizes_bytes, const double *latency_ns, size_t n,
                    const mb_cache_detect_opts_t *opts, mb_cache_level_t *levels, size_t max)
{
    return mb_cache_detect_with_medians(sizes_bytes, latency_ns, NULL, n, opts, levels, max);
}

int mb_cache_detect_with_medians(const uint64_t *sizes_bytes, const double *latency_ns,
                                 const double *median_ns, size_t n,
                                 const mb_cache_detect_opts_t *opts, mb_cache_level_t *levels,
                                 size_t max)
{
    double tol = opts && opts->tolerance > 0 ? opts->tolerance : MB_CACHE_DETECT_TOLERANCE;
    size_t min_points = opts && opts->min_points ? opts->min_points : MB_CACHE_DETECT_MIN_POINTS;
    double min_step = opts && opts->min_step > 1 ? opts->min_step : MB_CACHE_DETECT_MIN_STEP;
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

    /* 2. Keep the plateaus, a steep segment's rise points off its front first. */
    size_t kept = 0;
    for (size_t r = 0; r < nruns; r++) {
        detect_run_t run = runs[r];
        while (run.last - run.first + 1 > min_points &&
               detect_slope(sizes_bytes, latency_ns, run) >= max_slope &&
               latency_ns[run.first] < detect_median(latency_ns, &run, 0, 0, scratch))
            run.first++;
        if (run.last - run.first + 1 >= min_points &&
            detect_slope(sizes_bytes, latency_ns, run) < max_slope)
            runs[kept++] = run;
    }

    /* 3. Levels as a stack of groups of plateaus: group g is runs[start[g]..end[g]], the
     * groups packed at the front of runs (each kept run adds at most one entry, so the
     * packing never overtakes the scan). A dropped bump leaves its runs out. */
    size_t *start = malloc((kept ? kept : 1) * sizeof *start);
    size_t *end = malloc((kept ? kept : 1) * sizeof *end);
    size_t ngroups = 0;
    if (!start || !end) {
        free(start);
        free(end);
        goto done;
    }
    for (size_t r = 0; r < kept; r++) {
        double lat = detect_median(latency_ns, runs, r, r, scratch);
        while (ngroups > 0 &&
               detect_median(latency_ns, runs, start[ngroups - 1], end[ngroups - 1], scratch) >
                   lat * min_step)
            ngroups--; /* the level on top was a bump: the curve came back below it */
        if (ngroups > 0 &&
            lat < detect_median(latency_ns, runs, start[ngroups - 1], end[ngroups - 1], scratch) *
                      min_step) {
            /* Joins the top level; runs of a dropped bump between them stay out. */
            size_t g = ngroups - 1;
            runs[++end[g]] = runs[r]; /* end[g] < r: the groups are a prefix of runs */
            continue;
        }
        /* A new level; compact its run next to the groups below it. */
        size_t at = ngroups ? end[ngroups - 1] + 1 : 0;
        runs[at] = runs[r];
        start[ngroups] = end[ngroups] = at;
        ngroups++;
    }
    /* 4. Drop a level between two others that no cache makes: the curve reached the level
     * above it before it (a), or its minima are no steady reading (b). */
    size_t kept_groups = 0;
    for (size_t g = 0; g < ngroups; g++) {
        if (g > 0 && g + 1 < ngroups) {
            size_t below_last = runs[end[kept_groups - 1]].last, first = runs[start[g]].first;
            double above = detect_median(latency_ns, runs, start[g + 1], end[g + 1], scratch);
            if ((first > below_last + 1 &&
                 detect_reached(latency_ns, below_last + 1, first - 1, above, tol)) ||
                (median_ns && detect_unsteady(sizes_bytes, latency_ns, median_ns, runs, start[g],
                                              end[g], tol, min_points)))
                continue;
        }
        start[kept_groups] = start[g];
        end[kept_groups++] = end[g];
    }
    ngroups = kept_groups;
    size_t nlev = 0;
    for (size_t g = 0; g < ngroups && nlev < max; g++) {
        levels[nlev++] = (mb_cache_level_t){
            .size_bytes = sizes_bytes[runs[end[g]].last],
            .latency_ns = detect_median(latency_ns, runs, start[g], end[g], scratch),
            .first = runs[start[g]].first,
            .last = runs[end[g]].last,
            .open = runs[end[g]].last == n - 1,
        };
    }
    free(start);
    free(end);
    /* The curve's last point back below min_step above the level under the last one, which
     * ends before it: that last level was a bump, points read in a slower state of the node
     * (a stretch of the page curve's memory points at 110 ns among others at 45 on the 2-vCPU
     * VM), not a cache, whose plateau the curve never leaves downwards; noise only slows a
     * reading. The level under it runs on (below). */
    while (nlev >= 2 && nlev == ngroups && !levels[nlev - 1].open &&
           latency_ns[n - 1] < levels[nlev - 2].latency_ns * min_step)
        ngroups = --nlev;
    /* A level runs on over the points up to the next level that are within tol of it: an
     * outlier near a plateau's end leaves fewer than min_points points after it, which make
     * no plateau of their own, and would end the level early by them. */
    for (size_t l = 0; l < nlev; l++) {
        size_t stop = l + 1 < nlev ? levels[l + 1].first : n;
        for (size_t i = levels[l].last + 1; i < stop; i++)
            if (detect_within(latency_ns[i], levels[l].latency_ns, tol))
                levels[l].last = i;
        levels[l].size_bytes = sizes_bytes[levels[l].last];
        levels[l].open = levels[l].last == n - 1;
    }
    /* Points after the last level that are no plateau, their median less than min_step
     * above it: noise at the curve's end (one slow point), or a memory level whose points
     * scatter by more than tol (on a VM the page curve's memory points moved between 40 and
     * 100 ns from one size to the next, as the kernel gave each buffer more or fewer huge
     * pages), not a rise to a level of its own; the last level still runs to the end. So too
     * where their median is no slower than the slowest point within the level (its own
     * scatter: the Zen 4 VM's page curve read memory at 41-133 ns by the node's state, then
     * 97 ns at its end), or where the curve's last point is back below min_step above it:
     * the points between were a bump (above). */
    if (nlev > 0 && nlev == ngroups && !levels[nlev - 1].open) {
        mb_cache_level_t *top = &levels[nlev - 1];
        detect_run_t tail = {top->last + 1, n - 1};
        double tail_ns = detect_median(latency_ns, &tail, 0, 0, scratch), slowest_ns = 0;
        for (size_t i = top->first; i <= top->last; i++)
            slowest_ns = fmax(slowest_ns, latency_ns[i]);
        if (tail_ns < top->latency_ns * min_step || tail_ns <= slowest_ns ||
            latency_ns[n - 1] < top->latency_ns * min_step) {
            top->last = n - 1;
            top->size_bytes = sizes_bytes[n - 1];
            top->open = true;
        }
    }
    /* Still not open: the points from the first one min_step above the last level to the
     * end, when at least min_points, flat as a whole (the least-squares slope of a plateau)
     * and their median min_step above, are the next level, scattered too much for the
     * segments of step 1 to hold it together (memory, as above). Points of the rise to it,
     * below the rest's median by more than tol, come off the front while the rest is steep
     * and more than min_points (a default run's page curve: 9.0 ns rising from L3's 4.2,
     * then memory between 28 and 51 ns over eleven sizes, steep as a whole from 9.0, flat
     * from 28). A curve cut short in a rise is steep to its end, and keeps its last level
     * closed. */
    if (nlev > 0 && nlev == ngroups && nlev < max && !levels[nlev - 1].open) {
        const mb_cache_level_t *top = &levels[nlev - 1];
        size_t from = top->last + 1;
        while (from < n && latency_ns[from] < top->latency_ns * min_step)
            from++;
        detect_run_t tail = {from, n - 1};
        while (from < n && n - from > min_points &&
               detect_slope(sizes_bytes, latency_ns, tail) >= max_slope &&
               latency_ns[from] * (1 + tol) < detect_median(latency_ns, &tail, 0, 0, scratch))
            tail.first = ++from;
        if (from < n && n - from >= min_points &&
            detect_slope(sizes_bytes, latency_ns, tail) < max_slope) {
            double lat = detect_median(latency_ns, &tail, 0, 0, scratch);
            if (lat >= top->latency_ns * min_step)
                levels[nlev++] = (mb_cache_level_t){
                    .size_bytes = sizes_bytes[n - 1],
                    .latency_ns = lat,
                    .first = from,
                    .last = n - 1,
                    .open = true,
                };
        }
    }
    for (size_t l = 0; l + 1 < nlev; l++)
        if (levels[l + 1].latency_ns > levels[l].latency_ns)
            levels[l].midpoint_bytes =
                detect_midpoint(sizes_bytes, latency_ns, levels[l].last, levels[l + 1].last,
                                levels[l].latency_ns, levels[l + 1].latency_ns);
    result = (int)nlev;
done:
    free(scratch);
    free(runs);
    return result;
}
