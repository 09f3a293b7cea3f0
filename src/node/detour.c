/* SPDX-License-Identifier: MIT */
/* The detour test (detour.h): Beckman et al., "The influence of operating systems on the
 * performance of collective operations at extreme scale" (2006), whose "selfish detour"
 * loop reads the clock back to back and records each step far above the loop's own. */
#include "detour.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* The loop's own step: the fastest of this many batches of reads, so that a detour during
 * the calibration does not raise it. */
#define DETOUR_CAL_BATCHES 10
#define DETOUR_CAL_READS 1000

void mb_detour_init(mb_detour_t *d, double step_ns, double resolution_ns)
{
    d->step_ns = step_ns;
    d->threshold_ns =
        fmax(fmax(MB_DETOUR_MIN_THRESHOLD_NS, MB_DETOUR_STEP_FACTOR * step_ns), 2 * resolution_ns);
    d->span_ns = d->lost_ns = d->max_ns = 0;
    d->count = 0;
    d->kept = 0;
}

void mb_detour_step(mb_detour_t *d, double step_ns)
{
    d->span_ns += step_ns;
    if (step_ns <= d->threshold_ns)
        return;
    d->count++;
    d->lost_ns += step_ns - d->step_ns;
    if (step_ns > d->max_ns)
        d->max_ns = step_ns;
    if (d->kept < MB_DETOUR_KEPT)
        d->kept_ns[d->kept++] = step_ns;
}

void mb_detour_summarize(mb_detour_t *d, mb_detour_result_t *out)
{
    *out = (mb_detour_result_t){.span_ns = d->span_ns,
                                .step_ns = d->step_ns,
                                .threshold_ns = d->threshold_ns,
                                .count = d->count,
                                .max_ns = d->max_ns};
    if (d->span_ns > 0) {
        out->per_s = (double)d->count / (d->span_ns / 1e9);
        out->lost_pct = 100.0 * d->lost_ns / d->span_ns;
    }
    if (d->kept > 0) {
        gsl_sort(d->kept_ns, 1, d->kept);
        out->median_ns = gsl_stats_median_from_sorted_data(d->kept_ns, 1, d->kept);
        out->p90_ns = gsl_stats_quantile_from_sorted_data(d->kept_ns, 1, d->kept, 0.9);
    }
}

int mb_detour_run(const mb_clock_t *clk, double resolution_ns, double duration_ns,
                  mb_detour_result_t *out)
{
    if (!(duration_ns > 0))
        return -1;
    mb_detour_t *d = malloc(sizeof *d);
    if (!d)
        return -1;
    double step = INFINITY;
    for (int b = 0; b < DETOUR_CAL_BATCHES; b++) {
        uint64_t t0 = mb_clock_now_ns(clk), t = t0;
        for (int i = 0; i < DETOUR_CAL_READS; i++)
            t = mb_clock_now_ns(clk);
        step = fmin(step, (double)(t - t0) / DETOUR_CAL_READS);
    }
    mb_detour_init(d, step > 0 ? step : 1.0, resolution_ns);
    uint64_t prev = mb_clock_now_ns(clk);
    const uint64_t end = prev + (uint64_t)duration_ns;
    while (prev < end) {
        uint64_t t = mb_clock_now_ns(clk);
        mb_detour_step(d, (double)(t - prev));
        prev = t;
    }
    mb_detour_summarize(d, out);
    free(d);
    return 0;
}

json_t *mb_detour_json(const mb_detour_result_t *r)
{
    return json_pack("{s:f, s:f, s:f, s:I, s:f, s:f, s:f, s:f, s:f}", "span_ms", r->span_ns / 1e6,
                     "step_ns", r->step_ns, "threshold_ns", r->threshold_ns, "count",
                     (json_int_t)r->count, "per_s", r->per_s, "lost_pct", r->lost_pct, "median_us",
                     r->median_ns / 1e3, "p90_us", r->p90_ns / 1e3, "max_us", r->max_ns / 1e3);
}
