/* SPDX-License-Identifier: MIT */
/* shm.latency: load latency against working-set size (seed 004 III.B.1, Fig. 2). One
 * operation is one dependent load (p = *p) of a pointer chase through every 64-byte line of
 * the set, in three orders: "line" (successive lines: prefetchers help), "page" (4 KiB pages in
 * sequence, lines in random order within each: one TLB miss per 64 loads at most) and "random"
 * (one random cycle: neither helps), whose plateaus derive reports as cache levels. The page
 * order's buffer asks for transparent huge pages: 2 MiB physically contiguous, its pages fill
 * a physically indexed cache's sets evenly, so the rise comes at the capacity (with 4 KiB
 * pages scattered at random, set conflicts began the L2's rise at half its size and moved
 * its half-way point by 1.6x from run to run, issue 15); where the kernel gives none, the
 * curve is the 4 KiB one. Setup touches
 * the buffer and walks one lap, so neither page faults nor the build's leftovers in cache are
 * timed, and beyond half the L2 (line and random orders) walks on for LATENCY_WARM_NS (below):
 * a point's experiments cover less than a lap there, and the first laps after the build are
 * not the chase's steady state. Each point reports the median over experiments with its 95%
 * CI; the minimum is used only to find the cache sizes (seed 000's appendix: "the median
 * result would usually be used because of the variance added by caching effects. However,
 * when determining the cache size, the minimum result might be used"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cache_detect.h"
#include "clock.h"
#include "pointer_chase.h"
#include "sysinfo.h"
#include "workset.h"

#define LATENCY_LINE_BYTES 64
#define LATENCY_PAGE_BYTES 4096
#define LATENCY_HUGE_BYTES ((size_t)2 << 20)
/* Largest working set when [shm] latency_max is auto and hwloc knows no cache. */
#define LATENCY_MAX_UNKNOWN_LLC ((uint64_t)128 << 20)
#define LATENCY_SEED 0x6d62737569746531u
#define LATENCY_MAX_LEVELS 16
/* How long setup walks a set larger than half the L2 (where the random chase's rise from the
 * L2 began here, at 0.7 of it) before it is timed, in the line and random orders. A point's
 * experiments (at least 11 of 20 us) cover less than one lap of such a set, so without it
 * they read the laps right after the build, which are not the chase's steady state. On the
 * 2-vCPU VM (AMD family 26, 2026-11-28), a random chase over 2 MiB read 11.9 ns a load after
 * one lap in default runs, 9.8-10.0 after 10 ms of laps (25 laps) and 9.8-10.3 after 20 ms;
 * at one point per octave, as `make bench` runs it, 10.7-12.5 after one lap, 10.6-11.1 after
 * 10 ms and 9.9-10.4 after 100 ms (4 MiB: 12.6-12.9, and 11.8-12.4 after 100 ms). Four
 * alternated runs, over the reference chase run after each (bench/ref_chase.c, lmbench's
 * way: it walks for some 200 ms before it times): 4 MiB 1.00-1.08 before, 0.97-1.03 after;
 * 2 MiB 1.07-1.17 and 1.03-1.12. Sets within the L2 did not move. Why the first laps are
 * slower is not established (the L3 may keep a line that came back over one that came once).
 * Not a sleep: after 100 ms asleep instead, the 2 MiB chase read 96-100 ns, memory's latency,
 * as if the host had given the idle core's caches to other work. Not the page order, whose
 * minima find the cache sizes: warmed, its rise past the L3 spread over 16-40 MiB, and 2 of
 * 15 runs of `make bench`'s level check found no memory level (none of 15 before). The cost,
 * alternated: shm.latency 3.56-3.60 s -> 3.97-4.04 s of the shm group (4.0-4.4 s in default
 * runs with the page order warmed too). */
#define LATENCY_WARM_NS 10e6
/* Loads a warm-up step walks between reads of the clock (at most some 0.6 ms in memory). */
#define LATENCY_WARM_STEP_LOADS 4096

enum { LATENCY_LINE, LATENCY_PAGE, LATENCY_RANDOM, LATENCY_NSTRIDES };
static const char *const latency_stride_labels[] = {"line", "page", "random", NULL};
static const mb_chase_order_t latency_orders[] = {MB_CHASE_SEQUENTIAL, MB_CHASE_PAGE,
                                                  MB_CHASE_RANDOM};
static const mb_dim_t latency_dims[] = {
    {.name = "size_bytes", .role = MB_ROLE_WORKING_SET},
    {.name = "stride", .labels = latency_stride_labels},
};

typedef struct latency_state {
    void *buf;
    void **cursor; /* where the chase stands; kept between runs */
} latency_state_t;

/* A set within half the L2 is walked LATENCY_WARM_NS too when the point before it walked a
 * larger one (or none, the benchmark's first point: what ran before it is not known): the
 * core's clock, not the cache, is then not in its steady state. On the 2-vCPU KVM VM (Intel
 * family 6 model 167, 2026-12-02) the host lowers a core's clock while it waits on memory
 * and raises it again over some 7 ms of work in cache: a 4 KiB chase timed in 16000-load
 * loops right after 200 ms of a 256 MiB one read 1.392 ns a load (5 cycles at 3.59 GHz) for
 * 2.5-5 ms, then 1.285 (3.89 GHz), and 1.193-1.222 (4.19-4.09 GHz) from 6.5-7.5 ms on; after
 * 200 ms asleep or in cache, 1.193 from the first loop. So each order's first points, which
 * follow the last order's largest, read 1.39 ns where the rest of the L1 plateau read 1.19,
 * and `make bench`'s L1 figure at 16 KiB, one point per octave, was 1.13x the reference chase
 * (which walks some 200 ms before it times). The set the last point's setup walked, UINT64_MAX
 * before any: a benchmark's points are set up one after the other, on one thread. */
static uint64_t latency_previous_bytes = UINT64_MAX;

/* The working sets, ascending, deduplicated: min x 2^(k / per_octave), each rounded to a
 * whole number of lines, up to max, and max itself. Returns how many, or -1 with err set. */
static int latency_sizes(const mb_context_t *ctx, uint64_t *sizes, size_t cap, char *err,
                         size_t errlen)
{
    const mb_config_t *cfg = ctx->config;
    uint64_t min = cfg->shm_latency_min, max = cfg->shm_latency_max;
    uint64_t per_octave = cfg->shm_latency_points_per_octave;
    const char *max_from = "";
    if (max == 0) {
        max = mb_sysinfo_memory_span_bytes(ctx->llc_bytes, LATENCY_MAX_UNKNOWN_LLC);
        max_from = ctx->llc_bytes ? " (auto: 4 x the last-level cache, at most 256 MiB)"
                                  : " (auto, the last-level cache being unknown)";
    }
    if (per_octave == 0) {
        snprintf(err, errlen, "[shm] latency_points_per_octave: must be at least 1");
        return -1;
    }
    if (min < LATENCY_LINE_BYTES || min > max) {
        snprintf(err, errlen,
                 "[shm] latency_min: %llu bytes must be at least %d bytes (one line) and at most "
                 "latency_max, %llu bytes%s",
                 (unsigned long long)min, LATENCY_LINE_BYTES, (unsigned long long)max, max_from);
        return -1;
    }
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    if (memory && max > memory / 2) {
        snprintf(err, errlen,
                 "[shm] latency_max: a working set of %llu bytes%s is more than half this node's "
                 "memory (%llu bytes)",
                 (unsigned long long)max, max_from, (unsigned long long)memory);
        return -1;
    }
    max -= max % LATENCY_LINE_BYTES;
    size_t n = 0;
    for (uint64_t k = 0;; k++) {
        double exact = (double)min * exp2((double)k / (double)per_octave);
        uint64_t size = (uint64_t)llround(exact / LATENCY_LINE_BYTES) * LATENCY_LINE_BYTES;
        if (size > max)
            size = max;
        if (n == 0 || size > sizes[n - 1]) {
            if (n == cap) {
                snprintf(err, errlen,
                         "[shm] latency_points_per_octave: %llu points per octave from %llu to "
                         "%llu bytes are more than the %zu points a benchmark may have",
                         (unsigned long long)per_octave, (unsigned long long)min,
                         (unsigned long long)max, cap);
                return -1;
            }
            sizes[n++] = size;
        }
        if (size == max)
            return (int)n;
    }
}

static int latency_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    size_t cap = max / LATENCY_NSTRIDES;
    uint64_t *sizes = malloc((cap ? cap : 1) * sizeof *sizes);
    if (!sizes) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = latency_sizes(ctx, sizes, cap, err, errlen);
    size_t npts = 0;
    for (int64_t stride = 0; stride < LATENCY_NSTRIDES; stride++)
        for (int i = 0; i < n; i++)
            pts[npts++] = (mb_point_t){.v = {(int64_t)sizes[i], stride}};
    free(sizes);
    return n < 0 ? -1 : (int)npts;
}

/* Half the L2's size (hwloc's largest data or unified L2), 0 where hwloc knows none: sets
 * larger than this are walked LATENCY_WARM_NS before they are timed (every set, where 0). */
static uint64_t latency_warm_above_bytes(hwloc_topology_t topo)
{
    uint64_t l2 = 0;
    hwloc_obj_t obj = NULL;
    while (topo && (obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_L2CACHE, obj)) != NULL)
        if (obj->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION && obj->attr->cache.size > l2)
            l2 = obj->attr->cache.size;
    return l2 / 2;
}

static void latency_teardown(void *state)
{
    latency_state_t *s = state;
    if (!s)
        return;
    mb_workset_free(s->buf);
    free(s);
}

/* The loop counter runs beside the chain of loads, not after it: no loop overhead to
 * subtract (the L1 plateau is the load-to-use latency, 4 cycles on Zen 3). */
static void latency_run(void *state, uint64_t iters)
{
    latency_state_t *s = state;
    void **p = s->cursor;
    for (uint64_t i = iters; i > 0; i--)
        p = (void **)*p;
    s->cursor = p;
    mb_use_pointer(p);
}

static int latency_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    size_t bytes = (size_t)pt->v[0];
    bool huge = pt->v[1] == LATENCY_PAGE; /* the curve that finds the sizes: see the top */
    size_t align = huge ? LATENCY_HUGE_BYTES : LATENCY_PAGE_BYTES;
    size_t alloc = (bytes + align - 1) / align * align;
    latency_state_t *s = calloc(1, sizeof *s);
    /* huge: a request; without huge pages the chase is the 4 KiB one. */
    if (!s || !(s->buf = mb_workset_alloc(alloc, align, huge))) {
        snprintf(err, errlen, "cannot allocate %zu bytes", alloc);
        latency_teardown(s);
        return -1;
    }
    memset(s->buf, 0, alloc); /* page faults now, not while timing */
    if (mb_chase_build(s->buf, bytes, LATENCY_LINE_BYTES, latency_orders[pt->v[1]],
                       LATENCY_SEED ^ bytes) != 0) {
        snprintf(err, errlen, "cannot build a chase over %zu bytes", bytes);
        latency_teardown(s);
        return -1;
    }
    /* One lap proves the chase is one cycle through every line and leaves a set within the L2
     * as every later lap finds it; a larger one takes LATENCY_WARM_NS of laps (above). */
    uint64_t lines = bytes / LATENCY_LINE_BYTES;
    if (mb_chase_walk(s->buf, lines + 1) != lines) {
        snprintf(err, errlen, "the chase over %zu bytes is not one cycle of %llu lines", bytes,
                 (unsigned long long)lines);
        latency_teardown(s);
        return -1;
    }
    s->cursor = s->buf;
    uint64_t warm_above = latency_warm_above_bytes(ctx->topology);
    bool warm = !huge && bytes > warm_above; /* not the page order: above */
    bool settle = bytes <= warm_above && latency_previous_bytes > warm_above; /* the clock */
    latency_previous_bytes = bytes;
    if (warm || settle) {
        double began_s = mb_clock_elapsed_s();
        while ((mb_clock_elapsed_s() - began_s) * 1e9 < LATENCY_WARM_NS)
            latency_run(s, LATENCY_WARM_STEP_LOADS);
    }
    *state = s;
    return 0;
}

/* Median of the random curve's minima at sizes lo..hi (its own points there), 0 if none. */
static double latency_random_median(const mb_point_t *pts, const mb_measurement_t *ms, size_t n,
                                    uint64_t lo, uint64_t hi, double *scratch)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].v[1] == LATENCY_RANDOM && ms[i].n > 0 && (uint64_t)pts[i].v[0] >= lo &&
            (uint64_t)pts[i].v[0] <= hi)
            scratch[m++] = ms[i].stats.min;
    if (m == 0)
        return 0;
    for (size_t i = 1; i < m; i++) /* insertion sort: a level has tens of points */
        for (size_t j = i; j > 0 && scratch[j - 1] > scratch[j]; j--) {
            double t = scratch[j];
            scratch[j] = scratch[j - 1];
            scratch[j - 1] = t;
        }
    return m % 2 ? scratch[m / 2] : 0.5 * (scratch[m / 2 - 1] + scratch[m / 2]);
}

/* Cache levels (cache_detect.h) on the minima of the page curve, or of the random or line curve
 * when that one shows none, with the medians to tell a steady plateau from a run of lucky
 * minima: {"levels_from": stride, "levels": [{"size_bytes" (where the plateau ends),
 * "latency_ns" (on that curve), "random_latency_ns" (the random curve's over the same sizes:
 * the load-to-use latency), "open" (runs to the end of the curve: memory, or a curve cut
 * short), "midpoint_bytes" (half-way up the rise to the next level)}]}. The page order finds
 * the sizes: it misses the TLB once per 64 loads at most, so the TLB's reach and page walks,
 * which grow with the working set past a few MiB and made the random curve's memory plateau
 * rise in steps (spurious levels between L3 and memory, issue 15), leave it flat; its latencies
 * are lower than the random order's where the prefetchers help within a page, hence
 * random_latency_ns. The sizes hwloc reports are in the node description, for the report to set
 * beside these. */
static json_t *latency_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    static const int preference[] = {LATENCY_PAGE, LATENCY_RANDOM, LATENCY_LINE};
    uint64_t *sizes = malloc((n ? n : 1) * sizeof *sizes);
    double *lat = malloc((n ? n : 1) * sizeof *lat);
    double *median = malloc((n ? n : 1) * sizeof *median);
    json_t *out = NULL;
    if (!sizes || !lat || !median)
        goto done;
    for (size_t p = 0; p < MB_COUNT(preference) && !out; p++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (pts[i].v[1] != preference[p] || ms[i].n == 0) /* a failed point: no figure */
                continue;
            sizes[m] = (uint64_t)pts[i].v[0];
            median[m] = ms[i].stats.median;
            lat[m++] = ms[i].stats.min;
        }
        mb_cache_level_t lv[LATENCY_MAX_LEVELS];
        int nlev =
            mb_cache_detect_with_medians(sizes, lat, median, m, NULL, lv, LATENCY_MAX_LEVELS);
        if (nlev <= 0)
            continue;
        json_t *levels = json_array();
        for (int l = 0; l < nlev; l++) {
            json_t *level = json_pack("{s:I, s:f, s:b}", "size_bytes", (json_int_t)lv[l].size_bytes,
                                      "latency_ns", lv[l].latency_ns, "open", lv[l].open);
            double rnd = latency_random_median(pts, ms, n, sizes[lv[l].first], sizes[lv[l].last],
                                               lat);
            if (rnd > 0)
                json_object_set_new(level, "random_latency_ns", json_real(rnd));
            if (lv[l].midpoint_bytes)
                json_object_set_new(level, "midpoint_bytes",
                                    json_integer((json_int_t)lv[l].midpoint_bytes));
            json_array_append_new(levels, level);
        }
        out = json_pack("{s:s, s:o}", "levels_from", latency_stride_labels[preference[p]], "levels",
                        levels);
    }
done:
    free(sizes);
    free(lat);
    free(median);
    return out;
}

/* Building the chain and its untimed lap touch every line of the working set. The lap waits
 * on every load: a random chase's over 160 MiB took 0.9 s (5.4 ns/byte), a page-order one
 * 0.24 s, a sequential one 0.01 s; with the build and the write, the three orders' points
 * of a default run cost about 3 ns per byte of their working sets. */
#define LATENCY_TOUCH_NS_PER_BYTE 3.0

static uint64_t latency_touch_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    uint64_t bytes = (uint64_t)pt->v[0];
    /* The warm-up's time, as the bytes that would take it. */
    if (pt->v[1] != LATENCY_PAGE && bytes > latency_warm_above_bytes(ctx->topology))
        bytes += (uint64_t)(LATENCY_WARM_NS / LATENCY_TOUCH_NS_PER_BYTE);
    return bytes;
}

const mb_bench_t mb_bench_shm_latency = {
    .name = "shm.latency",
    .group = "shm",
    .summary = "memory load latency against working-set size, three access orders, with the "
               "cache levels it shows (seed 004 Fig. 2)",
    .measures = "one dependent load (p = *p) of a pointer chase through every 64-byte line of "
                "size_bytes once per lap (successive lines, random within 4 KiB pages "
                "of huge-page memory, or "
                "random over the whole set), after one untimed lap and, beyond half the L2 in "
                "the line and random orders, 10 ms of untimed laps; median over experiments "
                "(the cache levels from the minima)",
    .scope = MB_SCOPE_ONE,
    .single_core = true, /* the node's state moved it by 0.5% (docs/measuring.md, "Drift probe") */
    .dims = latency_dims,
    .ndims = MB_COUNT(latency_dims),
    .points = latency_points,
    .setup = latency_setup,
    .run = latency_run,
    .teardown = latency_teardown,
    .derive = latency_derive,
    .touch_bytes = latency_touch_bytes,
    .touch_ns_per_byte = LATENCY_TOUCH_NS_PER_BYTE,
};
