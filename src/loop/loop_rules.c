/* SPDX-License-Identifier: MIT */
/* The sizing rule (seed 000 6.4: an interval lasts at least 95% of enough) and the stop
 * rule (6.5: at least min_experiments, then on until the order-statistic 95% CI of the
 * median is within ci_target of it, or max_experiments, or the time budget). */
#include "loop_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this the loop is not doing any work: it has been optimised away or is broken. */
#define LOOP_MAX_ITERS ((uint64_t)1 << 50)

/* Intervals shorter than this many clock steps carry over 1% error: grow by 10x (the seed's
 * 150 us rule, derived from the measured resolution instead of fixed). */
#define LOOP_MEANINGFUL_STEPS 100.0

uint64_t mb_loop_scale(uint64_t n, double factor)
{
    double v = ceil((double)n * factor * (1 - 1e-12)); /* 220.00000000000003 is 220 */
    if (v < 1)
        return 1;
    if (v > (double)LOOP_MAX_ITERS)
        return LOOP_MAX_ITERS;
    return (uint64_t)v;
}

uint64_t mb_loop_resize(const mb_timing_t *t, uint64_t n, double elapsed_ns, bool *accepted)
{
    double meaningless = LOOP_MEANINGFUL_STEPS * (t->resolution_ns > 1 ? t->resolution_ns : 1);
    *accepted = elapsed_ns >= 0.95 * t->enough_ns;
    if (*accepted)
        return n;
    if (n >= LOOP_MAX_ITERS)
        return 0;
    if (elapsed_ns < meaningless)
        return n > LOOP_MAX_ITERS / 10 ? LOOP_MAX_ITERS : n * 10;
    return mb_loop_scale(n, 1.1 * t->enough_ns / elapsed_ns);
}

double mb_loop_experiment(const mb_timing_t *t, mb_run_fn run, void *state, uint64_t *iters)
{
    const mb_clock_t *clk = t->clock;
    uint64_t n = *iters ? *iters : 1;
    for (;;) {
        uint64_t t0 = mb_clock_now_ns(clk);
        run(state, n);
        uint64_t t1 = mb_clock_now_ns(clk);
        double elapsed = (double)(t1 - t0) - t->overhead_ns;
        bool accepted;
        uint64_t next = mb_loop_resize(t, n, elapsed, &accepted);
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

uint64_t mb_loop_max_experiments(const mb_measure_opts_t *opts)
{
    uint64_t min_n = opts->min_experiments ? opts->min_experiments : 1;
    return opts->max_experiments > min_n ? opts->max_experiments : min_n;
}

int mb_loop_summarize(const mb_measure_opts_t *opts, mb_measurement_t *m)
{
    double *sorted = malloc(m->n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, m->samples_ns, m->n * sizeof *sorted);
    int rc = mb_stats_summarize(sorted, m->n, &m->stats);
    /* Experiments back to back are not independent where the node holds a state for several
     * of them (send's 30 and 75 ns levels, in runs of 5-30 experiments): the CI assumed they
     * were, and said +-2% of one level. Widened by the runs test, the rule takes more of them,
     * and the CI says how far the median could move. */
    if (rc == 0)
        mb_stats_median_ci_widen(
            sorted, m->n, mb_stats_serial_factor(m->samples_ns, m->n, m->stats.median), &m->stats);
    if (rc == 0)
        (void)mb_stats_two_levels(sorted, m->n, &m->levels);
    free(sorted);
    m->ci_rel_halfwidth = mb_stats_ci_rel_halfwidth(&m->stats);
    m->ci_target_met = m->stats.ci95_coverage >= 0.95 && m->ci_rel_halfwidth <= opts->ci_target;
    return rc;
}

bool mb_loop_unsettled(const mb_measure_opts_t *opts, mb_measurement_t *m)
{
    if (m->n < (opts->min_experiments ? opts->min_experiments : 1))
        return true;
    if (mb_loop_summarize(opts, m) != 0)
        return false;
    return !m->ci_target_met && m->n < mb_loop_max_experiments(opts);
}

bool mb_loop_budget_spent(const mb_measure_opts_t *opts, size_t n, double elapsed_ns)
{
    return opts->time_limit_ns > 0 && elapsed_ns >= opts->time_limit_ns &&
           n >= MB_LOOP_BUDGET_FLOOR;
}

bool mb_loop_want_more(const mb_measure_opts_t *opts, mb_measurement_t *m, double elapsed_ns)
{
    bool more = mb_loop_unsettled(opts, m);
    bool spent = mb_loop_budget_spent(opts, m->n, elapsed_ns);
    if (spent)
        mb_loop_summarize(opts, m);
    m->trimmed = spent && more;
    return more && !spent;
}
