/* SPDX-License-Identifier: MIT */
/* The harness's experiment loop (seed 000 6.4 and 6.5): auto-size the iteration count so
 * an interval lasts at least 95% of enough, subtract the timing overhead (and the loop
 * overhead where asked), and repeat: after a discarded warm-up, at least min_experiments, then on until the
 * order-statistic 95% CI of the median is within ci_target of it or max_experiments. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this the loop is not doing any work: it has been optimised away or is broken. */
#define HARNESS_MAX_ITERS ((uint64_t)1 << 50)

/* Intervals shorter than this many clock steps carry over 1% error: grow by 10x (the seed's
 * 150 us rule, derived from the measured resolution instead of fixed). */
#define HARNESS_MEANINGFUL_STEPS 100.0

static uint64_t harness_scale(uint64_t n, double factor)
{
    double v = ceil((double)n * factor * (1 - 1e-12)); /* 220.00000000000003 is 220 */
    if (v < 1)
        return 1;
    if (v > (double)HARNESS_MAX_ITERS)
        return HARNESS_MAX_ITERS;
    return (uint64_t)v;
}

uint64_t mb_harness_resize(const mb_timing_t *t, uint64_t n, double elapsed_ns, bool *accepted)
{
    double meaningless = HARNESS_MEANINGFUL_STEPS * (t->resolution_ns > 1 ? t->resolution_ns : 1);
    *accepted = elapsed_ns >= 0.95 * t->enough_ns;
    if (*accepted)
        return n;
    if (n >= HARNESS_MAX_ITERS)
        return 0;
    if (elapsed_ns < meaningless)
        return n > HARNESS_MAX_ITERS / 10 ? HARNESS_MAX_ITERS : n * 10;
    return harness_scale(n, 1.1 * t->enough_ns / elapsed_ns);
}

double mb_harness_experiment(const mb_timing_t *t, mb_run_fn run, void *state, uint64_t *iters)
{
    const mb_clock_t *clk = t->clock;
    uint64_t n = *iters ? *iters : 1;
    for (;;) {
        uint64_t t0 = mb_clock_now_ns(clk);
        run(state, n);
        uint64_t t1 = mb_clock_now_ns(clk);
        double elapsed = (double)(t1 - t0) - t->overhead_ns;
        bool accepted;
        uint64_t next = mb_harness_resize(t, n, elapsed, &accepted);
        if (accepted) {
            *iters = n;
            return elapsed;
        }
        if (next == 0)
            return -1.0;
        n = next;
    }
}

void mb_measurement_free(mb_measurement_t *m)
{
    free(m->samples_ns);
    memset(m, 0, sizeof *m);
}

uint64_t mb_harness_max_experiments(const mb_measure_opts_t *opts)
{
    uint64_t min_n = opts->min_experiments ? opts->min_experiments : 1;
    return opts->max_experiments > min_n ? opts->max_experiments : min_n;
}

int mb_harness_summarize(const mb_measure_opts_t *opts, mb_measurement_t *m)
{
    double *sorted = malloc(m->n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, m->samples_ns, m->n * sizeof *sorted);
    int rc = mb_stats_summarize(sorted, m->n, &m->stats);
    free(sorted);
    m->ci_rel_halfwidth = mb_stats_ci_rel_halfwidth(&m->stats);
    m->ci_target_met = m->stats.ci95_coverage >= 0.95 && m->ci_rel_halfwidth <= opts->ci_target;
    return rc;
}

bool mb_harness_want_more(const mb_measure_opts_t *opts, mb_measurement_t *m, double elapsed_ns)
{
    bool budget_spent = opts->time_limit_ns > 0 && elapsed_ns >= opts->time_limit_ns &&
                        m->n >= MB_HARNESS_BUDGET_FLOOR;
    if (m->n < (opts->min_experiments ? opts->min_experiments : 1) && !budget_spent)
        return true;
    if (mb_harness_summarize(opts, m) != 0)
        return false;
    bool more = !m->ci_target_met && m->n < mb_harness_max_experiments(opts);
    m->trimmed = budget_spent && (more || m->n < opts->min_experiments);
    return more && !budget_spent;
}

int mb_harness_measure(const mb_timing_t *t, const mb_measure_opts_t *opts, mb_run_fn run,
                       void *state, mb_measurement_t *out)
{
    uint64_t cap = mb_harness_max_experiments(opts);
    double ops = opts->ops_per_iter > 0 ? opts->ops_per_iter : 1.0;

    memset(out, 0, sizeof *out);
    out->samples_ns = malloc(cap * sizeof *out->samples_ns);
    if (!out->samples_ns)
        return -1;

    uint64_t iters = 1;
    /* The first experiments find caches cold and the core perhaps not yet at speed. */
    uint64_t began = mb_clock_now_ns(t->clock);
    do {
        if (mb_harness_experiment(t, run, state, &iters) < 0)
            goto fail;
    } while ((double)(mb_clock_now_ns(t->clock) - began) < opts->warmup_ns);
    began = mb_clock_now_ns(t->clock);

    for (;;) {
        double elapsed = mb_harness_experiment(t, run, state, &iters);
        if (elapsed < 0)
            goto fail;
        double per_iter = elapsed / (double)iters;
        if (opts->subtract_loop_overhead)
            per_iter -= t->loop_overhead_ns;
        out->samples_ns[out->n++] = per_iter / ops;
        out->iters = iters;
        /* An interval well past enough wastes time: start the next one nearer to it. */
        if (elapsed > 1.2 * t->enough_ns)
            iters = harness_scale(iters, 1.1 * t->enough_ns / elapsed);
        if (!mb_harness_want_more(opts, out, (double)(mb_clock_now_ns(t->clock) - began)))
            break;
    }
    return 0;
fail:
    mb_measurement_free(out);
    return -1;
}
