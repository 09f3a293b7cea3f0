/* SPDX-License-Identifier: MIT */
/* Start-up calibration of the harness, after seed 000 section 6: measure the clock's
 * resolution and the timing overhead, find `enough` (the shortest interval whose timing
 * error is under 1%) with the seed's jiggle test, and measure the loop overhead from loops
 * of one and two instances of an operation. */
#include "timing.h"

#include <math.h>
#include <stdlib.h>

#include "loop_rules.h"
#include "stats.h"

/* Interleaved tries per iteration count in the jiggle test, of which the fastest counts. The
 * test asks whether the clock resolves a 0.5% change of work (seed 000 6.1), an error of the
 * clock; noise (interrupts, steal time, other processes) only ever adds time, so the least
 * disturbed try is the one that shows the clock's error. The median of the tries, used
 * before, moved by 1-50% from one count to the next on the shared 2-core VM (load 16: most
 * tries disturbed), failed every candidate and left enough at the fallback in 13 of 23 MPI
 * runs (issue 15); the minimum there stayed within 0.06% at 50 us. */
#define JIGGLE_TRIES 5
#define JIGGLE_STEPS 4
/* Noise can fail a fine interval but hardly pass a coarse one, so a candidate gets a few
 * attempts before the search moves on to a longer one. */
#define JIGGLE_ATTEMPTS 3
/* The tolerances tried on each candidate before a longer one: the seed asks for under 1%
 * timing error, and a candidate of 1000 clock steps errs by 0.1% at most from the clock;
 * a stricter test first keeps enough long where the machine is quiet enough to tell, and
 * the wider ones keep a noisy start (interrupts, steal time) from pushing enough to the
 * fallback, which would make every experiment hundreds of times longer. */
static const double timing_tolerances[] = {0.001, 0.002, 0.005, 0.01};
/* Scans of the candidates at most (mb_timing_compute_enough). */
#define TIMING_SCANS 3
/* The search makes no further attempt once it has run this long. Noise that fails the
 * shortest candidates fails the longer ones more, not less: with the other vCPU of the
 * 2-core KVM VM busy, 50 us passed 10 of 10 tries at 0.1% and 0.1-10 ms 0-1 of 10 even at
 * 1%; so a search that found nothing short went on through candidates up to enough_max
 * (100 ms) for some 30 s and ended in the fallback anyway, on 1 of 5 default runs there and
 * on 2 of 3 runs at -np 16 of a 16-core VM (issue 15). 3 s reaches the 10 ms candidate;
 * the search stops before an attempt (up to 21 intervals of the candidate), not only before
 * a candidate (6 attempts: a search that reached 20 ms took 6.2 s). */
#define TIMING_SEARCH_NS 3e9
#define LOOP_OVERHEAD_TRIES 11
#define RESOLUTION_BUDGET_NS 20000000.0 /* stop sampling the resolution after 20 ms */
/* The timing overhead's runs of back-to-back reads each span this many clock steps, so that
 * one run's mean read errs by 1% of a step at most (mb_timing_measure_overhead). */
#define TIMING_OVERHEAD_STEPS 100.0

double mb_timing_measure_resolution(const mb_clock_t *clk, int samples)
{
    double best = INFINITY;
    uint64_t began = mb_clock_now_ns(clk);
    for (int i = 0; i < samples; i++) {
        uint64_t t0 = mb_clock_now_ns(clk), t1;
        do
            t1 = mb_clock_now_ns(clk);
        while (t1 == t0);
        if ((double)(t1 - t0) < best)
            best = (double)(t1 - t0);
        /* A coarse clock makes every sample cost a whole tick: a handful is enough. */
        if (i >= 8 && (double)(t1 - began) > RESOLUTION_BUDGET_NS)
            break;
    }
    return best;
}

double mb_timing_measure_overhead(const mb_clock_t *clk, double resolution_ns, int samples)
{
    double *d = malloc((size_t)samples * sizeof *d);
    if (!d)
        return 0.0;
    double span_ns = TIMING_OVERHEAD_STEPS * fmax(resolution_ns, 1.0);
    uint64_t began = mb_clock_now_ns(clk);
    int runs = 0;
    while (runs < samples) {
        /* Eight reads to a check, so that the loop's own cost hardly counts. */
        uint64_t first = mb_clock_now_ns(clk), last;
        uint64_t reads = 0;
        do {
            for (int k = 0; k < 7; k++)
                (void)mb_clock_now_ns(clk);
            last = mb_clock_now_ns(clk);
            reads += 8;
        } while ((double)(last - first) < span_ns);
        d[runs++] = (double)(last - first) / (double)reads;
        /* A coarse clock makes each run long: 11 are enough past the budget. */
        if (runs >= 11 && (double)(last - began) > RESOLUTION_BUDGET_NS)
            break;
    }
    mb_stats_t s;
    mb_stats_summarize(d, (size_t)runs, &s);
    free(d);
    return s.median;
}

/* The measured operation of the calibration loops: an out-of-line call whose result feeds
 * the next, so the compiler can neither drop nor merge the calls. These three functions
 * start on a cache line of their own: where the linker happens to place them otherwise
 * moves the loop overhead by a cycle (0 or 0.24 ns here) from one build to the next. */
__attribute__((noinline, aligned(64))) static uint64_t timing_op(uint64_t acc, uint64_t v)
{
    __asm__ volatile("" : "+r"(acc));
    return acc + v;
}

__attribute__((aligned(64))) void mb_timing_use_int_loop1(void *state, uint64_t iters)
{
    uint64_t acc = 0;
    for (uint64_t i = iters; i > 0; i--)
        acc = timing_op(acc, i);
    *(volatile uint64_t *)state = acc;
}

__attribute__((aligned(64))) void mb_timing_use_int_loop2(void *state, uint64_t iters)
{
    uint64_t acc = 0;
    for (uint64_t i = iters; i > 0; i--) {
        acc = timing_op(acc, i);
        acc = timing_op(acc, i);
    }
    *(volatile uint64_t *)state = acc;
}

static double timing_interval_ns(const mb_clock_t *clk, mb_run_fn run, void *state, uint64_t n)
{
    uint64_t t0 = mb_clock_now_ns(clk);
    run(state, n);
    uint64_t t1 = mb_clock_now_ns(clk);
    return (double)(t1 - t0);
}

bool mb_timing_interval_ok(const mb_clock_t *clk, double resolution_ns, double interval_ns,
                           double tolerance, mb_run_fn run, void *state)
{
    mb_timing_t probe = {.clock = clk, .resolution_ns = resolution_ns, .enough_ns = interval_ns};
    uint64_t n = 1;
    if (mb_loop_experiment(&probe, run, state, &n) < 0)
        return false;

    uint64_t counts[JIGGLE_STEPS];
    double times[JIGGLE_STEPS][JIGGLE_TRIES];
    for (int k = 0; k < JIGGLE_STEPS; k++)
        counts[k] = (uint64_t)llround((double)n * (1.0 + 0.005 * k));
    if (counts[1] == counts[0])
        return false; /* too few iterations to jiggle by 0.5%: the interval is too coarse */
    for (int r = 0; r < JIGGLE_TRIES; r++)
        for (int k = 0; k < JIGGLE_STEPS; k++)
            times[k][r] = timing_interval_ns(clk, run, state, counts[k]);

    double fastest[JIGGLE_STEPS];
    for (int k = 0; k < JIGGLE_STEPS; k++) {
        fastest[k] = times[k][0];
        for (int r = 1; r < JIGGLE_TRIES; r++)
            if (times[k][r] < fastest[k])
                fastest[k] = times[k][r];
    }
    if (fastest[0] <= 0)
        return false;
    for (int k = 1; k < JIGGLE_STEPS; k++) {
        double expected = (double)counts[k] / (double)counts[0];
        double ratio = fastest[k] / fastest[0];
        if (fabs(ratio - expected) > tolerance * expected)
            return false;
    }
    return true;
}

/* Next value of the 1-2-5 sequence at or above x. */
static double timing_round_125(double x)
{
    double decade = pow(10.0, floor(log10(x)));
    for (;;) {
        for (int m = 0; m < 3; m++) {
            double v = decade * (m == 0 ? 1 : m == 1 ? 2 : 5);
            if (v >= x * (1 - 1e-12))
                return v;
        }
        decade *= 10;
    }
}

/* The first candidate of [first, below) that passes the jiggle test (the tolerances and
 * attempts as the header says), with the tolerance it passed in *tol; 0 when none does. */
static double timing_scan(const mb_timing_t *t, double first, double below, uint64_t until_ns,
                          mb_run_fn run, void *state, double *tol)
{
    size_t ntol = sizeof timing_tolerances / sizeof timing_tolerances[0];
    for (double cand = first; cand < below; cand = timing_round_125(cand * 1.5))
        for (size_t k = 0; k < ntol; k++) {
            /* The strictest tolerance gets the attempts; a wider one is a second opinion. */
            int attempts = k == 0 ? JIGGLE_ATTEMPTS : 1;
            for (int attempt = 0; attempt < attempts && mb_clock_now_ns(t->clock) < until_ns;
                 attempt++)
                if (mb_timing_interval_ok(t->clock, t->resolution_ns, cand, timing_tolerances[k],
                                          run, state)) {
                    *tol = timing_tolerances[k];
                    return cand;
                }
        }
    return 0;
}

void mb_timing_compute_enough(mb_timing_t *t, double max_ns, double fallback_ns, mb_run_fn run,
                              void *state)
{
    /* One clock step is 0.1% of an interval 1000 steps long: the shortest candidate. */
    double resolution = t->resolution_ns > 1.0 ? t->resolution_ns : 1.0;
    double first = timing_round_125(1000.0 * resolution), limit = max_ns * (1 + 1e-12);
    double tol = 0, found = 0;
    /* A burst of noise as long as the scan (a neighbour's job starting, seconds at most)
     * fails every short candidate and makes every experiment of the run that much longer
     * (20 ms instead of 20 us, seen at -np 4 on the 2-core VM); a candidate that passes in
     * a later scan has shown the same clock error. So a scan that ends above the first
     * candidate is followed by up to TIMING_SCANS - 1 more over the shorter ones. (Not a
     * scan that passed none: it took some 30 s, and noise that lasted through it is no
     * burst.) */
    t->enough_scans = 0;
    uint64_t until_ns = mb_clock_now_ns(t->clock) + (uint64_t)TIMING_SEARCH_NS;
    for (int scan = 0; scan < TIMING_SCANS && (scan == 0 || found > first); scan++) {
        double tol_here = 0, below = found > 0 ? found : limit;
        double here = timing_scan(t, first, below, until_ns, run, state, &tol_here);
        t->enough_scans = scan + 1;
        if (here > 0) {
            found = here;
            tol = tol_here;
        }
    }
    if (found > 0) {
        t->enough_ns = found;
        t->enough_verified = true;
        t->enough_tolerance = tol;
        t->enough_source = "measured";
        return;
    }
    /* Never shorter than 1000 clock steps, so a coarse clock still errs by 0.1% at most;
     * 0 (auto): the first candidate, those 1000 steps, for a clock fine enough that the
     * noise failed the test, not the clock: the medians of repeated experiments take the
     * noise, as they would of a verified enough. */
    t->enough_ns = fallback_ns > first ? fallback_ns : first;
    t->enough_verified = false;
    t->enough_source = "fallback";
}

double mb_timing_measure_loop_overhead(const mb_timing_t *t)
{
    volatile uint64_t sink = 0;
    double est[LOOP_OVERHEAD_TRIES];
    uint64_t n1 = 1, n2 = 1;
    size_t good = 0;
    for (int i = 0; i < LOOP_OVERHEAD_TRIES; i++) {
        double t1 = mb_loop_experiment(t, mb_timing_use_int_loop1, (void *)&sink, &n1);
        double t2 = mb_loop_experiment(t, mb_timing_use_int_loop2, (void *)&sink, &n2);
        if (t1 > 0 && t2 > 0)
            est[good++] = 2.0 * t1 / (double)n1 - t2 / (double)n2;
    }
    if (good == 0)
        return 0.0;
    mb_stats_t s;
    mb_stats_summarize(est, good, &s);
    return s.median > 0 ? s.median : 0.0;
}

/* lmbench's ENOUGH, TIMING_O and LOOP_O are in microseconds. */
static bool timing_env_us(const char *name, double *ns)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return false;
    char *end;
    double us = strtod(v, &end);
    if (*end != '\0' || !(us >= 0) || !isfinite(us))
        return false;
    *ns = us * 1000.0;
    return true;
}

void mb_timing_calibrate(mb_timing_t *t, const mb_clock_t *clk, uint64_t enough_ns,
                         uint64_t enough_max_ns, uint64_t enough_fallback_ns)
{
    volatile uint64_t sink = 0;
    *t = (mb_timing_t){.clock = clk};
    t->nominal_resolution_ns = clk->nominal_resolution_ns(clk->state);
    t->resolution_ns = mb_timing_measure_resolution(clk, 1000);
    if (!timing_env_us("TIMING_O", &t->overhead_ns))
        t->overhead_ns = mb_timing_measure_overhead(clk, t->resolution_ns, 1001);

    double env_enough;
    if (timing_env_us("ENOUGH", &env_enough) && env_enough > 0) {
        t->enough_ns = env_enough;
        t->enough_source = "environment";
    } else if (enough_ns > 0) {
        t->enough_ns = (double)enough_ns;
        t->enough_source = "config";
    } else {
        mb_timing_compute_enough(t, (double)enough_max_ns, (double)enough_fallback_ns,
                                 mb_timing_use_int_loop1, (void *)&sink);
    }
    if (!timing_env_us("LOOP_O", &t->loop_overhead_ns))
        t->loop_overhead_ns = mb_timing_measure_loop_overhead(t);
}
