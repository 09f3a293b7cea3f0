/* SPDX-License-Identifier: MIT */
/* mhz (seed 000 sections 4, 5 and 7): the processor's clock tick as the greatest common
 * divisor of the execution times of nine interlocked C expressions. */
#ifndef MB_MHZ_H
#define MB_MHZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "timing.h"

#define MB_MHZ_NEXPR 9

/* The expressions as the seed writes them, e.g. "p=*p;", "a^=a+a;". */
extern const char *const mb_mhz_expr_text[MB_MHZ_NEXPR];

typedef struct mb_mhz_opts {
    int measurements;  /* outer-loop passes per half (seed 000 7; two halves); >= 2 */
    int max_attempts;  /* tries before "system too busy" (seed: 3) */
} mb_mhz_opts_t;

typedef struct mb_mhz_result {
    bool ok;                            /* false: no trustworthy figure; see why */
    char why[256];                      /* e.g. "system too busy: 1412.3 vs 1498.0 MHz" */
    int attempts;                       /* tries used */
    double mhz;                         /* 1000 / tick_ns, from the minima */
    double tick_ns;
    double mhz_next;                    /* from the next larger values (the noise check) */
    double mhz_halves[2];               /* from the first and the second half of the windows */
    double expr_ns[MB_MHZ_NEXPR];       /* minimum time of one instance of each expression */
    double expr_cycles[MB_MHZ_NEXPR];   /* expr_ns / tick_ns */
    bool expr_used[MB_MHZ_NEXPR];       /* kept by filter_data, not set aside by mb_mhz_tick */
} mb_mhz_result_t;

/* GCD of the times e[0..n) in ns by the seed's Figure 2: guesses b_i = min(e)/i for
 * i = 1..6, points {c_j, e_j} plus pairwise differences plus (0,0), least-squares
 * regression, the first guess whose i^2-weighted chi-squared beats the minimum. Returns
 * the tick in ns (0 if n == 0). */
double mb_mhz_gcd(const double *e, size_t n);

/* The tick in ns from all valid subsets of e (at least two points that differ by more
 * than 5%, seed 000 7 classes()): the mode of their GCDs, unless one point alone asks for
 * a finer clock than the others' (a whole fraction of it; with at least 6 others): then
 * the mode without that point, and *aside (may be NULL) its index, else n. Returns 0 when
 * no subset is valid. */
double mb_mhz_tick(const double *e, size_t n, size_t *aside);

/* filter_data (seed 000 7): keep[j] = false for outliers far from the median (a loop the
 * optimiser shortened approaches zero ticks). Returns how many are kept. */
size_t mb_mhz_filter(const double *e, size_t n, bool *keep);

/* From per-expression minima and next-larger values (ns): fills tick, mhz, mhz_next,
 * cycles and used, and sets ok when the two agree within 1% or 1 MHz. Pure; for tests. */
void mb_mhz_compute(const double *min_ns, const double *next_ns, mb_mhz_result_t *out);

/* The verdict on windows[p * MB_MHZ_NEXPR + k], the time (ns per instance; <= 0: none) of
 * expression k in window p of npasses (in time order): mb_mhz_compute on every window's
 * minima and next larger values, then two independent figures from the first and the
 * second half of the passes (mhz_halves), which must agree within 1% or 1 MHz too, else
 * ok is false with why. Pure; for tests. */
void mb_mhz_verdict(const double *windows, int npasses, mb_mhz_result_t *out);

/* Measure on this core with the harness clock t, in windows of 100 us (or 5000 clock
 * resolutions), not the harness's enough (seed 000 7: outer loop over passes, inner over
 * expressions, minimum per expression): 2 x measurements passes, judged by
 * mb_mhz_verdict; a retry doubles the passes, up to max_attempts. Returns 0 with out->ok
 * set when trustworthy; -1 with out->why ("system too busy: ...") when not. */
int mb_mhz_measure(const mb_timing_t *t, const mb_mhz_opts_t *opts, mb_mhz_result_t *out);

/* {"mhz", "tick_ns", "mhz_next", "attempts", "ok", "why", "cycles": {"p=*p;": c, ...},
 * "expr_ns": {...}}. New reference. */
json_t *mb_mhz_json(const mb_mhz_result_t *r);

/* Human output: MHz, tick, and each expression's time and cycle count. */
void mb_mhz_print(FILE *f, const mb_mhz_result_t *r);

#endif
