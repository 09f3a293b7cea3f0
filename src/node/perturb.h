/* SPDX-License-Identifier: MIT */
/* The perturbation test (seed 002, p1bench): time a calibrated spin loop (or a memory read
 * loop) many times and show how much slower than a reference run (the 10th percentile, not
 * p1bench's fastest: see MB_PERTURB_REFERENCE_PCT) each run was. */
#ifndef MB_PERTURB_H
#define MB_PERTURB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "clock.h"

/* Memory mode reads one 8-byte word per cache line of this size (p1bench's stride, seed 002);
 * an "iteration" there is one such line read, so its rates are lines read per second. In CPU
 * mode an iteration is one turn of the spin loop. */
#define MB_PERTURB_LINE_BYTES 64u

/* Bins mb_perturb_print and mb_perturb_json use (p1bench's 200): 10 of 0.1%, 19 of 1%, then
 * 10% bins up to [1720%, 1730%); the last one also counts everything above (printed "+"). */
#define MB_PERTURB_HIST_BINS 200u

typedef struct mb_perturb_opts {
    double target_ms;   /* duration of one run (p1bench default 100) */
    uint64_t count;     /* runs (p1bench default 100) */
    uint64_t mem_bytes; /* 0: CPU spin loop; else a read loop over this working set (-m) */
    bool verbose;       /* per-run details, as p1bench -v */
    const volatile sig_atomic_t *stop; /* may be NULL; when it reads nonzero (say, set by the
                                          caller's SIGINT handler: p1bench's Ctrl-C), the runs
                                          end after the current one and count says how many */
} mb_perturb_opts_t;

/* The reference run times are compared with: the nearest-rank 10th percentile of the runs
 * (the 10th fastest of 100, the 2nd of 20, the fastest below 10 runs). p1bench compares with
 * the fastest run, so one run that the machine happened to speed up (a turbo burst, a
 * neighbour going idle) inflates every percentile; a low percentile is what an undisturbed
 * run takes, and is robust to a few such runs (issue 15: one run at twice the usual speed
 * turned 11/27/38% into 39/59/72%). */
#define MB_PERTURB_REFERENCE_PCT 10u
#define MB_PERTURB_REFERENCE_NAME "p10"

/* Percentiles are nearest-rank: the p-th is the ceil(p n / 100)-th smallest run, the same run
 * p1bench picks when p n / 100 is whole (as with its 100 runs). slower% = 100 (t - reference)
 * / reference, reference = the MB_PERTURB_REFERENCE_PCT-th percentile run; runs faster than
 * it have a negative slower%. Fields are NaN when count is 0 (or, for the percentiles and
 * the reference, when memory ran out). */
typedef struct mb_perturb_result {
    uint64_t iterations; /* per run, from the calibration */
    uint64_t count;      /* runs done (fewer than asked only when opts->stop was set) */
    double *run_ns;      /* count run durations, in run order (owned) */
    double fastest_ns, p50_ns, mean_ns, slowest_ns;
    double reference_ns; /* the MB_PERTURB_REFERENCE_PCT-th percentile run */
    double p50_pct, p90_pct, p99_pct, max_pct; /* "slower%" than the reference */
    double fastest_pct;  /* the fastest run's slower% (0 or negative) */
} mb_perturb_result_t;

/* Nearest-rank p-th percentile (1 <= p <= 100) of x[0..n-1], n >= 1, sorted ascending:
 * x[ceil(p n / 100) - 1]. Pure. */
double mb_perturb_percentile(const double *sorted, size_t n, unsigned p);

/* One histogram bin of slower%: [lo_pct, lo_pct + width). Bins are 0.1% wide below 1%,
 * 1% wide up to 20%, 10% wide above (seed 002). */
typedef struct mb_perturb_bin {
    double lo_pct;
    uint64_t count;
} mb_perturb_bin_t;

/* Calibrate and run on this core with clock clk. progress (may be NULL) gets p1bench's
 * "Calibrating..." and "Run i/N" lines. Returns 0, or -1 (out of memory, bad options). */
int mb_perturb_run(const mb_clock_t *clk, const mb_perturb_opts_t *opts, FILE *progress,
                   mb_perturb_result_t *out);

/* Fill the summary fields of r from r->run_ns (pure; for tests). */
void mb_perturb_summarize(mb_perturb_result_t *r);

/* Histogram of slower% values: writes up to max bins (up to and including the last
 * non-empty one) and returns how many. A value past bin max - 1 is counted there, as in
 * p1bench; a negative value (a run faster than the reference) counts in bin 0; NaN is
 * skipped. Pure. */
size_t mb_perturb_histogram(const double *slower_pct, size_t n, mb_perturb_bin_t *bins, size_t max);

/* p1bench's report: histogram with asterisks (the fullest bin gets 50), percentiles,
 * fastest/50th/mean/slowest times and rates. As p1bench, the Percentiles line leaves out the
 * 50th below 3 runs, the 90th below 10 and the 99th below 100, where they would be the
 * slowest run or close to it; the JSON always has them. */
void mb_perturb_print(FILE *f, const mb_perturb_opts_t *opts, const mb_perturb_result_t *r);

/* {"target_ms", "count", "iterations", "mode": "cpu"|"memory", "mem_bytes", "fastest_ns",
 * "p50_ns", "mean_ns", "slowest_ns", "reference": "p10", "reference_ns", "p50_pct",
 * "p90_pct", "p99_pct", "max_pct" (slower% than the reference), "fastest_pct",
 * "histogram": [{"lo_pct", "count"}]}. New reference. */
json_t *mb_perturb_json(const mb_perturb_opts_t *opts, const mb_perturb_result_t *r);

void mb_perturb_free(mb_perturb_result_t *r);

#endif
