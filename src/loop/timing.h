/* SPDX-License-Identifier: MIT */
/* Start-up calibration of the timing harness (seed 000 section 6): the clock's resolution,
 * the timing overhead, the `enough` interval, and the loop overhead. */
#ifndef MB_TIMING_H
#define MB_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

/* A measured loop: runs `iters` iterations of some operation on `state`. */
typedef void (*mb_run_fn)(void *state, uint64_t iters);

typedef struct mb_timing {
    const mb_clock_t *clock;
    double nominal_resolution_ns; /* what the OS claims (clock_getres) */
    double resolution_ns;         /* measured: smallest step between distinct readings */
    double overhead_ns;           /* timing overhead: a clock read, seed 000 6.2 */
    double enough_ns;             /* experiment duration with <1% timing error, seed 000 6.1 */
    bool enough_verified;         /* true: enough passed the jiggle test; false: a fixed or fallback value */
    double enough_tolerance;      /* the jiggle test's tolerance it passed (0.001 .. 0.01) */
    const char *enough_source;    /* "measured", "config", "environment" or "fallback" */
    int enough_scans;             /* scans of the candidates it took; 0: not measured */
    double loop_overhead_ns;      /* per loop iteration, seed 000 6.3 */
} mb_timing_t;

/* Smallest positive step between successive distinct readings of clk, in ns (min over
 * `samples` steps). */
double mb_timing_measure_resolution(const mb_clock_t *clk, int samples);

/* Timing overhead in ns (seed 000 6.2): what a timed interval t1 - t0 takes in beyond the
 * operation, the exit of the first read plus the entry of the second, i.e. one read. The
 * median over `samples` runs of back-to-back reads, each spanning 100 clock steps
 * (resolution_ns), of the run's mean interval. One interval alone is a whole number of
 * steps: their median, used before, was 20 ns or 30 ns on the 2-vCPU VMs for reads of
 * 21-23 ns (20 ns steps), which moved every per-call figure by 10 ns from run to run
 * (mpi.irecv1 at 0 B: 2.2 ns in one default run, 11-13 ns in eleven others); a run's mean
 * averages over the steps. */
double mb_timing_measure_overhead(const mb_clock_t *clk, double resolution_ns, int samples);

/* Jiggle test (seed 000 6.1): with n iterations of run lasting about `interval_ns`, time n,
 * 1.005n, 1.01n and 1.015n iterations (the fastest of a few interleaved tries each: noise
 * only adds time, the clock's error is what is tested) and accept when every time is within
 * +-tolerance (0.001 = 0.1%) of its expected ratio to the first. */
bool mb_timing_interval_ok(const mb_clock_t *clk, double resolution_ns, double interval_ns,
                           double tolerance, mb_run_fn run, void *state);

/* Shortest interval that passes the jiggle test: candidates in a 1-2-5 sequence from 1000 x
 * resolution (a clock step is then 0.1% of it) up to max_ns, each tried at +-0.1% (3
 * attempts), then +-0.2%, 0.5% and 1% (the seed's bound) before the next candidate, no
 * further attempt once the search has run 3 s on t->clock; when none passes, fallback_ns,
 * or the first candidate if longer or fallback_ns is 0 (auto) (seed 000 6.1: 1 s after
 * 100 ms, for a coarse clock). A scan that passes above the first candidate is followed by
 * up to two more over the shorter candidates, the shortest passing one kept: noise that
 * lasts a scan fails short candidates, not the clock. Sets t->enough_ns, enough_verified,
 * enough_tolerance, enough_source and enough_scans. */
void mb_timing_compute_enough(mb_timing_t *t, double max_ns, double fallback_ns,
                              mb_run_fn run, void *state);

/* Loop overhead per iteration (seed 000 6.3): loops with one and two instances of an
 * operation give T1 = N1(l + o) and T2 = N2(l + 2o), so l = 2 T1/N1 - T2/N2; the median of
 * 11 such estimates, clamped at 0. Needs t->enough_ns. */
double mb_timing_measure_loop_overhead(const mb_timing_t *t);

/* The operation used for the loop-overhead and enough measurements: `iters` calls of an
 * out-of-line function that the compiler cannot remove (seed 000 Appendix, use_int). */
void mb_timing_use_int_loop1(void *state, uint64_t iters);
void mb_timing_use_int_loop2(void *state, uint64_t iters);

/* Full start-up calibration on clock clk. enough_ns > 0 fixes enough (source "config");
 * otherwise it is searched up to enough_max_ns with fallback enough_fallback_ns. The
 * environment variables ENOUGH (us), TIMING_O and LOOP_O (us) override, as in lmbench. */
void mb_timing_calibrate(mb_timing_t *t, const mb_clock_t *clk, uint64_t enough_ns,
                         uint64_t enough_max_ns, uint64_t enough_fallback_ns);

#endif
