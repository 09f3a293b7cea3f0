/* SPDX-License-Identifier: MIT */
/* The rules of the point loop (seed 000 section 6), apart from the loop itself (point_loop.h):
 * how an experiment's iteration count is sized (6.4), when a series of experiments has
 * enough (6.5: minimum, CI target, cap, time budget), and its summary. Calibration (timing.h,
 * mhz.h) sizes its intervals with the same rule. */
#ifndef MB_LOOP_RULES_H
#define MB_LOOP_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "timing.h"

typedef enum mb_summary_kind {
    MB_SUMMARY_MEDIAN = 0, /* the default: robust against noise (seed 000 6.5) */
    MB_SUMMARY_MIN,        /* for constant features disturbed only upward (mhz, cache sizes) */
} mb_summary_kind_t;

typedef struct mb_measure_opts {
    uint64_t min_experiments;    /* at least this many experiments (seed default 11) */
    uint64_t max_experiments;    /* at most this many while the CI target is not met */
    double ci_target;            /* target relative half-width of the median's 95% CI */
    double warmup_ns;            /* discard experiments for this long before the first kept one */
    double ops_per_iter;         /* instances of the operation in one loop iteration (>= 1) */
    bool subtract_loop_overhead; /* subtract t->loop_overhead_ns per iteration */
    double time_limit_ns;        /* the point's share of --time-budget; 0: no limit */
    double timeout_ns;           /* a point still unfinished after this long fails; 0: never */
} mb_measure_opts_t;

/* Fewest experiments a time budget may leave a point with: a median of three. */
#define MB_LOOP_BUDGET_FLOOR 3

typedef struct mb_measurement {
    double *samples_ns;      /* per operation, one per experiment (owned; free with mb_measurement_free) */
    size_t n;
    uint64_t iters;          /* loop iterations in the last experiment */
    mb_stats_t stats;        /* over samples_ns */
    double ci_rel_halfwidth; /* of the median */
    bool ci_target_met;
    bool trimmed;            /* stopped by the time budget before the minimum or the CI target */
    uint64_t late;           /* experiments discarded: a rank started late (loop_start.h) */
    mb_stats_levels_t levels; /* two levels in samples_ns, if any (mb_stats_two_levels) */
} mb_measurement_t;

/* The auto-sizing rule (seed 000 6.4) for an interval of elapsed_ns over n iterations:
 * sets *accepted when it lasts >= 95% of enough; otherwise returns the count to try next
 * (x10 while the interval is under 100 clock steps, else n x 1.1 x enough / elapsed), or
 * 0 when that would exceed 2^50 iterations (the loop does no work). */
/* n scaled by factor, rounded up, within [1, 2^50]. */
uint64_t mb_loop_scale(uint64_t n, double factor);

uint64_t mb_loop_resize(const mb_timing_t *t, uint64_t n, double elapsed_ns, bool *accepted);

/* One auto-sized experiment (seed 000 6.4). Starts from *iters (>= 1), multiplies it by 10
 * while the interval is meaningless (under 100 clock steps), else scales it by
 * 1.1 x enough / measured, until an interval lasts >= 95% of enough; *iters keeps the
 * count for the next experiment. Returns the accepted interval in ns with the timing
 * overhead subtracted, or -1 when the count would exceed 2^50 (the loop does no work). */
double mb_loop_experiment(const mb_timing_t *t, mb_run_fn run, void *state, uint64_t *iters);

/* The most experiments opts allows: max(min_experiments, max_experiments). */
uint64_t mb_loop_max_experiments(const mb_measure_opts_t *opts);

/* Fill m->stats, ci_rel_halfwidth, ci_target_met and levels from m->samples_ns (n > 0).
 * Returns 0, or -1 when out of memory or a sample is NaN. */
int mb_loop_summarize(const mb_measure_opts_t *opts, mb_measurement_t *m);

/* The stop rule without the budget: whether the series still needs an experiment (fewer
 * than min_experiments, or the median's CI not within ci_target and fewer than
 * max_experiments). Fills m->stats, ci_rel_halfwidth and ci_target_met when n >= min. */
bool mb_loop_unsettled(const mb_measure_opts_t *opts, mb_measurement_t *m);

/* Whether the time budget stops a series of n experiments after elapsed_ns: the point's
 * share is spent and MB_LOOP_BUDGET_FLOOR experiments exist. */
bool mb_loop_budget_spent(const mb_measure_opts_t *opts, size_t n, double elapsed_ns);

/* Whether a series of per-operation samples needs another experiment after elapsed_ns
 * spent on the point: fewer than min_experiments, or the median's CI not yet within
 * ci_target and fewer than max_experiments; but no more once opts->time_limit_ns is spent
 * and MB_LOOP_BUDGET_FLOOR exist (m->trimmed tells). Fills m->stats, ci_rel_halfwidth
 * and ci_target_met from m->samples_ns whenever it answers no. */
bool mb_loop_want_more(const mb_measure_opts_t *opts, mb_measurement_t *m, double elapsed_ns);

void mb_measurement_free(mb_measurement_t *m);

/* Keep a value or the memory behind a pointer alive, so the compiler cannot drop the work
 * that produced it (lmbench's use_int/use_pointer); costs no instruction. */
static inline void mb_use_int(uint64_t v) { __asm__ volatile("" : : "r"(v) : "memory"); }
static inline void mb_use_pointer(const void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

#endif
