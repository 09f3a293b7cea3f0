/* SPDX-License-Identifier: MIT */
/* Sharing a time budget out among the benchmarks (budget.h). */
#include "budget.h"

#include <math.h>

#include "measure_opts.h"
#include "point_cost.h"

mb_budget_estimate_t mb_budget_estimate(const mb_context_t *ctx, const mb_bench_t *b,
                                        const mb_point_t *pts, size_t npts)
{
    mb_budget_estimate_t est = {0, 0};
    double first_warmup_extra_s =
        (mb_measure_warmup_ns(ctx->config, 0) - mb_measure_warmup_ns(ctx->config, 1)) / 1e9;
    double first_touch_bytes = 0,
           rate = b->touch_ns_per_byte > 0 ? b->touch_ns_per_byte : MB_BUDGET_TOUCH_NS_PER_BYTE;
    for (size_t i = 0; i < npts; i++) {
        /* Ranks taking turns measure each point once each. */
        double times = mb_point_turns(ctx, b, &pts[i]);
        est.points_s += times * mb_point_cost_s(ctx, b, &pts[i]);
        /* The first point warms up longer than its cost counts (each rank taking turns). */
        if (i == 0)
            est.points_s += times * first_warmup_extra_s;
        if (b->touch_bytes) {
            double bytes = times * (double)b->touch_bytes(ctx, &pts[i]);
            est.touch_s += bytes * rate / 1e9;
            first_touch_bytes = fmax(first_touch_bytes, bytes);
        }
    }
    est.touch_s += first_touch_bytes * MB_BUDGET_FIRST_TOUCH_NS_PER_BYTE / 1e9;
    return est;
}

static double budget_ratio(double spent_s, double estimated_s)
{
    return estimated_s > 0 ? fmin(fmax(spent_s / estimated_s, 0.25), 20) : 1;
}

mb_budget_slowness_t mb_budget_slowness(const mb_budget_t *bg)
{
    return (mb_budget_slowness_t){
        .points = budget_ratio(bg->points_spent_s, bg->estimated.points_s),
        .touch = budget_ratio(bg->touch_spent_s, bg->estimated.touch_s),
    };
}

double mb_budget_share_s(const mb_budget_t *bg, double now_s, mb_budget_estimate_t own,
                         mb_budget_estimate_t rest, double *span_fraction)
{
    *span_fraction = 1;
    double left_s = bg->budget_s * (1 - MB_BUDGET_RESERVE) - (now_s - bg->began_s);
    if (left_s <= 0) {
        *span_fraction = 0;
        return 0;
    }
    mb_budget_slowness_t slow = mb_budget_slowness(bg);
    double own_points_s = slow.points * own.points_s, own_touch_s = slow.touch * own.touch_s;
    double rest_points_s = slow.points * rest.points_s, rest_touch_s = slow.touch * rest.touch_s;
    double rest_s = rest_points_s + rest_touch_s;
    if (own_points_s + own_touch_s + rest_s <= left_s)
        return left_s - rest_s;
    /* Every benchmark's points first; the working sets (there are some, or all would have
     * fit) share what is left over. */
    double points_s = own_points_s + rest_points_s, touch_s = own_touch_s + rest_touch_s;
    if (points_s <= left_s) {
        *span_fraction = (left_s - points_s) / touch_s;
        return own_points_s + (left_s - points_s) * own_touch_s / touch_s;
    }
    /* Not even the points fit: points and working sets are cut alike. Giving the working
     * sets nothing cut every one to the floor: at -np 16 on a 16-core VM the default run
     * measured STREAM on arrays of 2.8 MB, in cache, and the memory benchmarks took 4.5 s
     * of its 80 (15.9 s cut alike, on working sets of 102-137 MiB). */
    *span_fraction = left_s / (points_s + touch_s);
    return *span_fraction * (own_points_s + own_touch_s);
}

double mb_budget_phase_share_s(const mb_budget_t *bg, double now_s, double fraction)
{
    double left_s = bg->budget_s * (1 - MB_BUDGET_RESERVE) - (now_s - bg->began_s);
    return fmax(fmin(fraction * bg->budget_s, left_s), 0);
}

uint64_t mb_budget_span_cap(uint64_t cap_bytes, double span_fraction)
{
    if (span_fraction >= MB_BUDGET_SPAN_KEEP)
        return cap_bytes;
    double cap = span_fraction > 0 ? (double)cap_bytes * span_fraction : 0;
    uint64_t mib = (uint64_t)1 << 20;
    uint64_t scaled = (uint64_t)cap / mib * mib;
    if (scaled < MB_BUDGET_SPAN_FLOOR_BYTES)
        scaled = MB_BUDGET_SPAN_FLOOR_BYTES;
    return scaled < cap_bytes ? scaled : cap_bytes;
}

double mb_budget_expected_s(const mb_budget_t *bg, mb_budget_estimate_t est)
{
    mb_budget_slowness_t slow = mb_budget_slowness(bg);
    return est.points_s * slow.points + est.touch_s * slow.touch;
}

bool mb_budget_coarse_first(const mb_budget_t *bg, mb_budget_estimate_t est, double share_s)
{
    return est.touch_s > 0 && share_s < MB_BUDGET_ORDER_ROOM * mb_budget_expected_s(bg, est);
}

void mb_budget_done(mb_budget_t *bg, mb_budget_estimate_t est, double share_s, double spent_s)
{
    mb_budget_slowness_t slow = mb_budget_slowness(bg);
    double expected_s = mb_budget_expected_s(bg, est);
    if (share_s > 0 && share_s < expected_s && spent_s < expected_s)
        return;
    if (est.touch_s <= 0) {
        bg->estimated.points_s += est.points_s;
        bg->points_spent_s += spent_s;
        return;
    }
    double points_s = est.points_s * slow.points;
    bg->estimated.touch_s += est.touch_s;
    bg->touch_spent_s += fmax(spent_s - points_s, 0);
}
