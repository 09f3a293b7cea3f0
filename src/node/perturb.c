/* SPDX-License-Identifier: MIT */
/* The perturbation test after p1bench (seed 002): calibrate a spin loop (or a memory read
 * loop) to last target_ms, time it count times, and report how much slower than a reference
 * run (the 10th percentile; p1bench's is the fastest: perturb.h) each run was, in a
 * histogram whose bins are 0.1% wide below 1%, 1% up to 20% and 10% above. Each run is one interval of the clock: the run is the measurement. */
#include "perturb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define PERTURB_LINE_WORDS (MB_PERTURB_LINE_BYTES / sizeof(uint64_t))
#define PERTURB_CAL_MIN_NS 10e6      /* a calibration trial this long measures well */
#define PERTURB_CAL_START 1000u      /* first trial's iterations */
#define PERTURB_CAL_MAX (UINT64_C(1) << 62)
#define PERTURB_CAL_RUNS 3           /* p1bench fine-tunes on the fastest of several runs */
#define PERTURB_BAR_WIDTH 50         /* asterisks of the fullest bin (seed 002 screenshots) */

/* What one run executes: the spin loop when mem is NULL, else the read loop over lines
 * cache lines of mem. */
typedef struct perturb_work {
    const uint64_t *mem;
    uint64_t lines;
} perturb_work_t;

/* p1bench's CPU test: a loop that does nothing, n times. The empty asm makes i opaque to
 * the compiler, so the loop can neither be removed nor collapsed. */
static void perturb_spin(uint64_t n)
{
    for (uint64_t i = n; i > 0; i--)
        __asm__ volatile("" : "+r"(i));
}

/* p1bench's memory test: read one word per cache line, n lines, wrapping around the
 * working set from its start. The memory clobber before each pass makes every pass read
 * memory again, rather than let the compiler reuse an earlier pass's sum. */
static uint64_t perturb_mem(const uint64_t *mem, uint64_t lines, uint64_t n)
{
    uint64_t sum = 0;

    while (n > 0) {
        uint64_t chunk = n < lines ? n : lines;
        __asm__ volatile("" : "+r"(sum) : : "memory");
        for (uint64_t i = 0; i < chunk; i++)
            sum += mem[i * PERTURB_LINE_WORDS];
        n -= chunk;
    }
    return sum;
}

/* One run of n iterations, timed as a single clock interval, in ns. */
static double perturb_time(const mb_clock_t *clk, const perturb_work_t *w, uint64_t n)
{
    uint64_t sum = 0, t0, t1;

    t0 = mb_clock_now_ns(clk);
    if (w->mem)
        sum = perturb_mem(w->mem, w->lines, n);
    else
        perturb_spin(n);
    __asm__ volatile("" : "+r"(sum) : : "memory"); /* the reads finish inside the interval */
    t1 = mb_clock_now_ns(clk);
    return (double)(t1 - t0);
}

/* Iterations for one run of target_ns. Grow a trial until it lasts min(target, 10 ms), then
 * take the fastest of a few runs at that count (p1bench's fine tuning) and scale it to the
 * target. */
static uint64_t perturb_calibrate(const mb_clock_t *clk, const perturb_work_t *w,
                                  double target_ns)
{
    double min_ns = fmin(target_ns, PERTURB_CAL_MIN_NS);
    uint64_t n = PERTURB_CAL_START;
    double t, iters;

    for (;;) {
        double grow;
        t = perturb_time(clk, w, n);
        if (t >= min_ns || n >= PERTURB_CAL_MAX / 100)
            break;
        /* Aim a little past min_ns, but at least double and at most 100x a step. */
        grow = t > 0.0 ? 1.25 * min_ns / t : 100.0;
        grow = fmin(fmax(grow, 2.0), 100.0);
        n = (uint64_t)((double)n * grow);
    }
    for (int k = 0; k < PERTURB_CAL_RUNS; k++)
        t = fmin(t, perturb_time(clk, w, n));
    iters = t > 0.0 ? round((double)n * target_ns / t) : (double)n;
    if (iters < 1.0)
        return 1;
    if (iters >= (double)PERTURB_CAL_MAX)
        return PERTURB_CAL_MAX;
    return (uint64_t)iters;
}

static double perturb_tv_ms(const struct timeval *a, const struct timeval *b)
{
    return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_usec - a->tv_usec) / 1e3;
}

/* p1bench -v: one line per run of time, user and system CPU time, involuntary context
 * switches and the difference from the previous run. RUSAGE_THREAD, as MPI may run threads
 * of its own. */
static void perturb_verbose(FILE *f, uint64_t i, double run_ns, const struct rusage *u0,
                            const struct rusage *u1, double diff_pct)
{
    if (i == 0)
        fprintf(f, "run time(ms) usr_time(ms) sys_time(ms) involuntary_csw diff%%\n");
    fprintf(f, "%llu %.2f %.1f %.1f %ld ", (unsigned long long)i + 1, run_ns / 1e6,
            perturb_tv_ms(&u0->ru_utime, &u1->ru_utime),
            perturb_tv_ms(&u0->ru_stime, &u1->ru_stime), u1->ru_nivcsw - u0->ru_nivcsw);
    if (i == 0)
        fprintf(f, "-\n");
    else
        fprintf(f, "%.1f\n", diff_pct);
}

int mb_perturb_run(const mb_clock_t *clk, const mb_perturb_opts_t *opts, FILE *progress,
                   mb_perturb_result_t *out)
{
    perturb_work_t w = {NULL, 0};
    uint64_t *mem = NULL;
    double target_ns, diff_pct = 0.0;
    bool tty = progress && isatty(fileno(progress));
    uint64_t i;

    memset(out, 0, sizeof *out);
    if (!clk || !opts || !(opts->target_ms > 0.0) || !isfinite(opts->target_ms) ||
        opts->count == 0)
        return -1;
    target_ns = opts->target_ms * 1e6;
    out->run_ns = calloc(opts->count, sizeof *out->run_ns);
    if (!out->run_ns)
        return -1;

    if (opts->mem_bytes > 0) {
        /* Allocate and write every line first, so no page fault lands in a timed run. */
        uint64_t lines = (opts->mem_bytes + MB_PERTURB_LINE_BYTES - 1) / MB_PERTURB_LINE_BYTES;
        if (progress) {
            fprintf(progress, "Allocating %g Mbytes...\n", (double)opts->mem_bytes / 1048576.0);
            fflush(progress);
        }
        if (lines > SIZE_MAX / MB_PERTURB_LINE_BYTES ||
            posix_memalign((void **)&mem, MB_PERTURB_LINE_BYTES,
                           (size_t)(lines * MB_PERTURB_LINE_BYTES)) != 0) {
            mb_perturb_free(out);
            return -1;
        }
        memset(mem, 'A', (size_t)(lines * MB_PERTURB_LINE_BYTES));
        w.mem = mem;
        w.lines = lines;
    }

    if (progress) {
        fprintf(progress, "Calibrating for %g ms...", opts->target_ms);
        fflush(progress);
    }
    out->iterations = perturb_calibrate(clk, &w, target_ns);
    if (progress)
        fprintf(progress, " (target iteration count: %llu)\n",
                (unsigned long long)out->iterations);

    for (i = 0; i < opts->count; i++) {
        struct rusage u0, u1;
        if (opts->verbose)
            getrusage(RUSAGE_THREAD, &u0);
        out->run_ns[i] = perturb_time(clk, &w, out->iterations);
        if (opts->verbose)
            getrusage(RUSAGE_THREAD, &u1);
        if (i > 0 && out->run_ns[i - 1] > 0.0)
            diff_pct = 100.0 * (out->run_ns[i] / out->run_ns[i - 1] - 1.0);
        if (progress && opts->verbose) {
            perturb_verbose(progress, i, out->run_ns[i], &u0, &u1, diff_pct);
        } else if (tty) {
            fprintf(progress, "\rRun %llu/%llu, Ctrl-C to stop (%.2f%% diff)  ",
                    (unsigned long long)i + 1, (unsigned long long)opts->count, diff_pct);
            fflush(progress);
        }
        if (opts->stop && *opts->stop) {
            i++;
            break;
        }
    }
    out->count = i;
    /* Not a terminal: the last status line only, to keep logs small. */
    if (progress && !opts->verbose)
        fprintf(progress, "%sRun %llu/%llu, Ctrl-C to stop (%.2f%% diff)\n", tty ? "\r" : "",
                (unsigned long long)out->count, (unsigned long long)opts->count, diff_pct);
    free(mem);

    mb_perturb_summarize(out);
    return 0;
}

/* Nearest-rank percentile of x[0..n-1], sorted: x[ceil(p n / 100) - 1], in integers so that
 * no rounding moves the rank. p1bench indexes x[floor(p n / 100) - 1]; the two agree when
 * p n / 100 is whole (its default 100 runs), and this one is defined for every n >= 1. */
double mb_perturb_percentile(const double *x, size_t n, unsigned p)
{
    size_t k = (n * p + 99) / 100;
    return x[(k ? k : 1) - 1];
}

/* Slower% of a run of t ns against the reference, multiplied first so that whole-ns inputs
 * round once (1001 against 1000 gives exactly the double 0.1). */
static double perturb_slower_pct(double t, double reference)
{
    return 100.0 * (t - reference) / reference;
}

void mb_perturb_summarize(mb_perturb_result_t *r)
{
    size_t n = (size_t)r->count;
    double *sorted;

    r->fastest_ns = r->p50_ns = r->mean_ns = r->slowest_ns = r->reference_ns = NAN;
    r->p50_pct = r->p90_pct = r->p99_pct = r->max_pct = r->fastest_pct = NAN;
    if (n == 0 || !r->run_ns)
        return;
    gsl_stats_minmax(&r->fastest_ns, &r->slowest_ns, r->run_ns, 1, n);
    r->mean_ns = gsl_stats_mean(r->run_ns, 1, n);

    /* run_ns stays in run order: sort a copy. */
    sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return;
    memcpy(sorted, r->run_ns, n * sizeof *sorted);
    gsl_sort(sorted, 1, n);
    double ref = r->reference_ns = mb_perturb_percentile(sorted, n, MB_PERTURB_REFERENCE_PCT);
    r->p50_ns = mb_perturb_percentile(sorted, n, 50);
    r->p50_pct = perturb_slower_pct(r->p50_ns, ref);
    r->p90_pct = perturb_slower_pct(mb_perturb_percentile(sorted, n, 90), ref);
    r->p99_pct = perturb_slower_pct(mb_perturb_percentile(sorted, n, 99), ref);
    r->max_pct = perturb_slower_pct(r->slowest_ns, ref);
    r->fastest_pct = perturb_slower_pct(r->fastest_ns, ref);
    free(sorted);
}

/* Lower edge of bin idx (seed 002): 0.1% steps for bins 0-9, 1% steps for 10-28 (1%-19%),
 * 10% steps from 29 (20%) on. */
static double perturb_bin_lo(size_t idx)
{
    if (idx < 10)
        return (double)idx / 10.0;
    if (idx < 29)
        return (double)(idx - 10) + 1.0;
    return (double)(idx - 29) * 10.0 + 20.0;
}

/* The bin of v, lo(idx) <= v < lo(idx + 1), clamped to [0, max - 1]. The estimate from
 * the bin widths is checked against the edges themselves, so that a value at an edge (0.3,
 * whose double times 10 is just above 3) lands where the printed labels say. */
static size_t perturb_bin_idx(double v, size_t max)
{
    double est;
    size_t idx;

    if (!(v > 0.0))
        return 0;
    if (v < 1.0)
        est = floor(v * 10.0);
    else if (v < 20.0)
        est = 10.0 + floor(v - 1.0);
    else
        est = 29.0 + floor((v - 20.0) / 10.0);
    idx = est >= (double)max ? max : (size_t)est;
    if (idx >= max)
        return max - 1;
    if (idx > 0 && v < perturb_bin_lo(idx))
        idx--;
    else if (idx + 1 < max && v >= perturb_bin_lo(idx + 1))
        idx++;
    return idx;
}

static void perturb_bins_init(mb_perturb_bin_t *bins, size_t max)
{
    for (size_t i = 0; i < max; i++) {
        bins[i].lo_pct = perturb_bin_lo(i);
        bins[i].count = 0;
    }
}

size_t mb_perturb_histogram(const double *slower_pct, size_t n, mb_perturb_bin_t *bins, size_t max)
{
    size_t used = 0;

    if (max == 0)
        return 0;
    perturb_bins_init(bins, max);
    for (size_t i = 0; i < n; i++) {
        size_t idx;
        if (isnan(slower_pct[i]))
            continue;
        idx = perturb_bin_idx(slower_pct[i], max);
        bins[idx].count++;
        if (idx + 1 > used)
            used = idx + 1;
    }
    return used;
}

/* The histogram of r's runs in MB_PERTURB_HIST_BINS bins, without an array of slower%. */
static size_t perturb_hist_runs(const mb_perturb_result_t *r, mb_perturb_bin_t *bins)
{
    size_t used = 0;

    perturb_bins_init(bins, MB_PERTURB_HIST_BINS);
    for (uint64_t i = 0; i < r->count; i++) {
        size_t idx = perturb_bin_idx(perturb_slower_pct(r->run_ns[i], r->reference_ns),
                                     MB_PERTURB_HIST_BINS);
        bins[idx].count++;
        if (idx + 1 > used)
            used = idx + 1;
    }
    return used;
}

/* iterations per second at a run of t ns (0 for a run of no time). */
static double perturb_rate(uint64_t iterations, double t_ns)
{
    return t_ns > 0.0 ? (double)iterations * 1e9 / t_ns : 0.0;
}

void mb_perturb_print(FILE *f, const mb_perturb_opts_t *opts, const mb_perturb_result_t *r)
{
    mb_perturb_bin_t bins[MB_PERTURB_HIST_BINS];
    uint64_t n = r->count, top = 0;
    size_t used;

    fprintf(f, "\nPerturbation percent by count for %g ms runs:\n", opts->target_ms);
    if (n == 0 || !r->run_ns || isnan(r->reference_ns)) {
        fprintf(f, "(no runs)\n");
        return;
    }
    /* Which run slower% is against, before any figure that depends on it. */
    fprintf(f, "Slower%% is against the reference run, the %s of the run times (%.3f ms), not the "
               "fastest run as in p1bench;\nruns faster than the reference count in the 0.0%% "
               "bin (the fastest: %.3f%%).\n",
            MB_PERTURB_REFERENCE_NAME, r->reference_ns / 1e6, r->fastest_pct);
    used = perturb_hist_runs(r, bins);
    for (size_t i = 0; i < used; i++)
        if (bins[i].count > top)
            top = bins[i].count;

    /* Layout and bar rounding (up) as p1bench's output in the seed's screenshots. */
    fprintf(f, "%9s  %6s %7s %s\n", "Slower%", "Count", "Count%", "Histogram");
    for (size_t i = 0; i < used; i++) {
        uint64_t c = bins[i].count;
        uint64_t bar = top ? (PERTURB_BAR_WIDTH * c + top - 1) / top : 0;
        fprintf(f, "%8.1f%%%s %6llu %6.2f%% ", bins[i].lo_pct,
                i == MB_PERTURB_HIST_BINS - 1 ? "+" : ":", (unsigned long long)c,
                100.0 * (double)c / (double)n);
        for (uint64_t j = 0; j < bar; j++)
            fputc('*', f);
        fputc('\n', f);
    }

    fprintf(f, "\nPercentiles (slower%% than the %s run):", MB_PERTURB_REFERENCE_NAME);
    if (n >= 3)
        fprintf(f, " 50th: %.3f%%", r->p50_pct);
    if (n >= 10)
        fprintf(f, ", 90th: %.3f%%", r->p90_pct);
    if (n >= 100)
        fprintf(f, ", 99th: %.3f%%", r->p99_pct);
    fprintf(f, "%s 100th: %.3f%%\n", n >= 3 ? "," : "", r->max_pct);
    fprintf(f, "Fastest: %.3f ms, 50th: %.3f ms, mean: %.3f ms, slowest: %.3f ms\n",
            r->fastest_ns / 1e6, r->p50_ns / 1e6, r->mean_ns / 1e6, r->slowest_ns / 1e6);
    fprintf(f, "Fastest rate: %.0f/s, 50th: %.0f/s, mean: %.0f/s, slowest: %.0f/s\n",
            perturb_rate(r->iterations, r->fastest_ns), perturb_rate(r->iterations, r->p50_ns),
            perturb_rate(r->iterations, r->mean_ns), perturb_rate(r->iterations, r->slowest_ns));
}

/* A number, or null for NaN (which JSON cannot hold). */
static json_t *perturb_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *mb_perturb_json(const mb_perturb_opts_t *opts, const mb_perturb_result_t *r)
{
    mb_perturb_bin_t bins[MB_PERTURB_HIST_BINS];
    size_t used = r->count && r->run_ns ? perturb_hist_runs(r, bins) : 0;
    json_t *o = json_object(), *hist = json_array();
    int err = !o || !hist;

    for (size_t i = 0; !err && i < used; i++) {
        json_t *b = json_object();
        err |= !b;
        err |= json_object_set_new(b, "lo_pct", json_real(bins[i].lo_pct));
        err |= json_object_set_new(b, "count", json_integer((json_int_t)bins[i].count));
        err |= json_array_append_new(hist, b);
    }
    err |= json_object_set_new(o, "target_ms", json_real(opts->target_ms));
    err |= json_object_set_new(o, "count", json_integer((json_int_t)r->count));
    err |= json_object_set_new(o, "iterations", json_integer((json_int_t)r->iterations));
    err |= json_object_set_new(o, "mode", json_string(opts->mem_bytes ? "memory" : "cpu"));
    err |= json_object_set_new(o, "mem_bytes", json_integer((json_int_t)opts->mem_bytes));
    err |= json_object_set_new(o, "fastest_ns", perturb_json_real(r->fastest_ns));
    err |= json_object_set_new(o, "p50_ns", perturb_json_real(r->p50_ns));
    err |= json_object_set_new(o, "mean_ns", perturb_json_real(r->mean_ns));
    err |= json_object_set_new(o, "slowest_ns", perturb_json_real(r->slowest_ns));
    err |= json_object_set_new(o, "reference", json_string(MB_PERTURB_REFERENCE_NAME));
    err |= json_object_set_new(o, "reference_ns", perturb_json_real(r->reference_ns));
    err |= json_object_set_new(o, "fastest_pct", perturb_json_real(r->fastest_pct));
    err |= json_object_set_new(o, "p50_pct", perturb_json_real(r->p50_pct));
    err |= json_object_set_new(o, "p90_pct", perturb_json_real(r->p90_pct));
    err |= json_object_set_new(o, "p99_pct", perturb_json_real(r->p99_pct));
    err |= json_object_set_new(o, "max_pct", perturb_json_real(r->max_pct));
    err |= json_object_set_new(o, "histogram", hist);
    if (err) {
        json_decref(o);
        return NULL;
    }
    return o;
}

void mb_perturb_free(mb_perturb_result_t *r)
{
    if (!r)
        return;
    free(r->run_ns);
    r->run_ns = NULL;
    r->count = 0;
}
