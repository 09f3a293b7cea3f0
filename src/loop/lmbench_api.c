/* SPDX-License-Identifier: MIT */
/* lmbench 2.0's API (seed 000 Appendix) as a thin layer over the harness: the sizing rule,
 * the repetition rule and the statistics are the harness's own. lmbench's API is defined by
 * process-wide state (get_n() reads what the last BENCH saved), so this file keeps it in
 * one static struct; nothing else in mbsuite does. */
#include "lmbench_api.h"

#include <math.h>

#include "config.h"
#include "timing.h"

#define LM_TRIES 11                  /* lmbench's TRIES */
#define LM_LONGER_US 100000          /* above this, BENCH does one experiment */
#define LM_MAX_EXPERIMENTS 51

static struct {
    bool calibrated;
    mb_timing_t timing;
    uint64_t n;          /* saved by the last experiment or series */
    double usecs;
    bool in_series;
    uint64_t series_iters; /* the series' next starting count */
} lm;

static const mb_timing_t *lm_timing(void)
{
    if (!lm.calibrated) {
        mb_config_t cfg;
        mb_config_defaults(&cfg);
        mb_timing_calibrate(&lm.timing, mb_clock_get(MB_CLOCK_MONOTONIC), 0, cfg.timing_enough_max,
                            cfg.timing_enough_fallback);
        lm.calibrated = true;
    }
    return &lm.timing;
}

void mb_lm_experiment_begin(mb_lm_experiment_t *e, int enough_us)
{
    const mb_timing_t *t = lm_timing();
    double asked = (double)enough_us * 1000.0;
    *e = (mb_lm_experiment_t){.timing = t,
                              .enough_ns = asked > t->enough_ns ? asked : t->enough_ns,
                              .iters = lm.in_series && lm.series_iters ? lm.series_iters : 1};
}

void mb_lm_experiment_start(mb_lm_experiment_t *e) { e->start_ns = mb_clock_now_ns(e->timing->clock); }

void mb_lm_experiment_stop(mb_lm_experiment_t *e)
{
    uint64_t end = mb_clock_now_ns(e->timing->clock);
    mb_timing_t t = *e->timing;
    t.enough_ns = e->enough_ns;
    double elapsed = (double)(end - e->start_ns) - t.overhead_ns;
    uint64_t next = mb_loop_resize(&t, e->iters, elapsed, &e->accepted);
    if (e->accepted) {
        double usecs = (elapsed - (double)e->iters * t.loop_overhead_ns) / 1000.0;
        lm.n = e->iters;
        lm.usecs = usecs > 0 ? usecs : 0;
    } else if (next == 0) {
        e->failed = true;
        lm.n = e->iters;
        lm.usecs = 0;
    } else {
        e->iters = next;
    }
}

void mb_lm_experiment_save(const mb_lm_experiment_t *e)
{
    if (lm.in_series)
        lm.series_iters = e->iters;
}

void mb_lm_series_begin(mb_lm_series_t *s, int enough_us)
{
    bool single = enough_us > LM_LONGER_US;
    *s = (mb_lm_series_t){.opts = {.min_experiments = single ? 1 : LM_TRIES,
                                   .max_experiments = single ? 1 : LM_MAX_EXPERIMENTS,
                                   .ci_target = 0.02,
                                   .ops_per_iter = 1}};
    size_t cap = mb_loop_max_experiments(&s->opts);
    s->m.samples_ns = calloc(cap, sizeof *s->m.samples_ns);
    s->iters = calloc(cap, sizeof *s->iters);
    lm.in_series = true;
    lm.series_iters = 0;
    lm.n = 0;
}

/* Called before each experiment: records the previous one, then asks the harness's rule. */
bool mb_lm_series_more(mb_lm_series_t *s)
{
    if (!s->m.samples_ns || !s->iters)
        return false;
    if (lm.n > 0) {
        s->iters[s->m.n] = lm.n;
        s->m.samples_ns[s->m.n++] = lm.usecs * 1000.0 / (double)lm.n;
        lm.n = 0;
    }
    return mb_loop_want_more(&s->opts, &s->m, 0);
}

/* Save the experiment whose time per iteration is the median, as lmbench's BENCH does. */
void mb_lm_series_end(mb_lm_series_t *s)
{
    lm.in_series = false;
    if (s->m.n > 0) {
        size_t best = 0;
        for (size_t i = 1; i < s->m.n; i++)
            if (fabs(s->m.samples_ns[i] - s->m.stats.median) <
                fabs(s->m.samples_ns[best] - s->m.stats.median))
                best = i;
        lm.n = s->iters[best];
        lm.usecs = s->m.stats.median * (double)lm.n / 1000.0;
    }
    free(s->iters);
    mb_measurement_free(&s->m);
}

uint64 get_n(void) { return lm.n; }
void save_n(uint64 n) { lm.n = n; }
double gettime(void) { return lm.usecs; }
void settime(double usecs) { lm.usecs = usecs; }

void milli(const char *s, uint64 n)
{
    fprintf(stderr, "%s: %.2f milliseconds\n", s, lm.usecs / 1000.0 / (double)(n ? n : 1));
}

void micro(const char *s, uint64 n)
{
    fprintf(stderr, "%s: %.4f microseconds\n", s, lm.usecs / (double)(n ? n : 1));
}

void nano(const char *s, uint64 n)
{
    fprintf(stderr, "%s: %.2f nanoseconds\n", s, lm.usecs * 1000.0 / (double)(n ? n : 1));
}

void mb(uint64 bytes)
{
    double secs = lm.usecs / 1e6;
    fprintf(stderr, "%.2f MB/sec\n", secs > 0 ? (double)bytes / secs / (1024.0 * 1024.0) : 0.0);
}

void kb(uint64 bytes)
{
    double secs = lm.usecs / 1e6;
    fprintf(stderr, "%.0f KB/sec\n", secs > 0 ? (double)bytes / secs / 1024.0 : 0.0);
}
