/* SPDX-License-Identifier: MIT */
/* mhz (seed 000 sections 4, 5 and 7): the clock tick as the GCD of the times of the nine
 * expressions of mhz_expr.c. Data collection, outlier filter, GCD by regression over
 * every valid subset, the mode of those GCDs, and the minimum-vs-next-larger noise check. */
#include "mhz.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>

#include "loop_rules.h"
#include "mhz_expr.h"

/* Figure 2: the shortest expression is assumed to take fewer than this many ticks. */
#define MHZ_MAX_COUNT 6
/* filter_data (seed 000 7): results must lie within this factor of the median. */
#define MHZ_FILTER_FACTOR 4.0
/* classes() (seed 000 7): points are independent when they differ by more than 5%. */
#define MHZ_CLASS_GAP 0.05
/* The mode of real-valued GCDs: values within 1% of the cluster's smallest count as one. */
#define MHZ_MODE_WIDTH 0.01
/* All 2^n subsets up to this many points (9 expressions: 502 valid subsets at most). */
#define MHZ_MAX_SUBSET_POINTS 16
/* A point is set aside as the one that alone asks for a finer clock only when at least
 * this many others remain (mb_mhz_tick). */
#define MHZ_ASIDE_MIN_REST 6
/* Noise check (seed 000 7): the two figures must agree within 1% or 1 MHz. */
#define MHZ_AGREE_REL 0.01
#define MHZ_AGREE_MHZ 1.0

#define MHZ_DEFAULT_MEASUREMENTS 11
#define MHZ_DEFAULT_ATTEMPTS 3
/* Each experiment is a short window, whatever the harness's enough: a window that loses a
 * time slice (another process on the core, the hypervisor running another vCPU) is an
 * outlier the minimum discards, while windows as long as the slices all lose some, and
 * then agree on a wrong figure (issue 17: 1888 MHz for 3244, -42%, with enough-long
 * windows on a busy 2-vCPU VM; the best of 500 windows of 0.1-0.6 ms read right). 100 us
 * is 5000 ticks of a 20 ns clock: 0.02% quantisation. */
#define MHZ_WINDOW_NS 1e5
#define MHZ_WINDOW_RESOLUTIONS 5000.0

static int mhz_cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* construct_dataset (Figure 2): {e_j}, {|e_j - e_i| : i != j} (both orders, as the
 * figure's comment writes it) and the point (0,0) that pulls the line through the origin.
 * y must hold n + n(n-1) + 1 values; returns how many were written. */
static size_t mhz_construct_dataset(const double *e, size_t n, double *y)
{
    size_t size = 0;
    for (size_t j = 0; j < n; ++j)
        y[size++] = e[j];
    for (size_t j = 0; j < n; ++j)
        for (size_t i = 0; i < n; ++i)
            if (i != j)
                y[size++] = fabs(e[j] - e[i]);
    y[size++] = 0.0;
    return size;
}

double mb_mhz_gcd(const double *e, size_t n)
{
    if (n == 0)
        return 0.0;
    double min_e = e[0];
    for (size_t j = 1; j < n; ++j)
        if (e[j] < min_e)
            min_e = e[j];
    if (!(min_e > 0) || !isfinite(min_e))
        return 0.0;

    size_t cap = n + n * (n - 1) + 1;
    double *y = malloc(cap * sizeof *y);
    double *x = malloc(cap * sizeof *x);
    if (!x || !y) {
        free(x);
        free(y);
        return 0.0;
    }
    size_t size = mhz_construct_dataset(e, n, y);

    /* The figure's loop is for (i = 1; i < MAX_COUNT; ++i): guesses i = 1..5, although its
     * text says 1..6; the code is followed. */
    double result = 0.0, min_chi2 = 0.0;
    for (int i = 1; i < MHZ_MAX_COUNT; ++i) {
        double b = min_e / i; /* clock tick guess */
        for (size_t j = 0; j < size; ++j)
            x[j] = floor(y[j] / b + 0.5);

        /* Least squares y = a + b x; sumsq is the chi-squared error. */
        double a, slope, cov00, cov01, cov11, chi2;
        if (gsl_fit_linear(x, 1, y, 1, size, &a, &slope, &cov00, &cov01, &cov11, &chi2) != 0)
            continue;
        /* The i^2 weight keeps an earlier fit against its multiples (seed 000 4.2). */
        if (i == 1 || (double)i * i * chi2 < min_chi2) {
            result = slope;
            min_chi2 = chi2;
        }
    }
    free(x);
    free(y);
    return result;
}

/* classes() (seed 000 7): whether at least two of the points differ by more than 5%,
 * i.e. appear to take different numbers of ticks. */
static bool mhz_has_two_classes(const double *e, size_t n)
{
    if (n < 2)
        return false;
    double lo = e[0], hi = e[0];
    for (size_t j = 1; j < n; ++j) {
        lo = e[j] < lo ? e[j] : lo;
        hi = e[j] > hi ? e[j] : hi;
    }
    return hi > lo * (1.0 + MHZ_CLASS_GAP);
}

/* The mode of real values v (sorted in place): the largest cluster of values that lie
 * within MHZ_MODE_WIDTH (1%) above its smallest member, and the median of that cluster.
 * The seed's lmbench binned by whole MHz, which at GHz rates is finer than the noise; a
 * relative window scales with the clock. Ties go to the first (smallest) cluster. */
static double mhz_mode(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof *v, mhz_cmp_double);
    size_t best_lo = 0, best_n = 0, hi = 0;
    for (size_t lo = 0; lo < n; ++lo) {
        if (hi < lo)
            hi = lo;
        while (hi < n && v[hi] <= v[lo] * (1.0 + MHZ_MODE_WIDTH))
            ++hi;
        if (hi - lo > best_n) {
            best_n = hi - lo;
            best_lo = lo;
        }
    }
    const double *c = v + best_lo;
    return best_n % 2 ? c[best_n / 2] : 0.5 * (c[best_n / 2 - 1] + c[best_n / 2]);
}

/* The mode of the GCDs g[mask] of the valid subsets (g > 0) that leave out point `skip`
 * (n: none). scratch holds nsub values. */
static double mhz_mode_without(const double *g, size_t nsub, size_t skip, double *scratch)
{
    size_t m = 0;
    for (size_t mask = 1; mask < nsub; ++mask)
        if (g[mask] > 0 && !(mask & ((size_t)1 << skip)))
            scratch[m++] = g[mask];
    return mhz_mode(scratch, m);
}

double mb_mhz_tick(const double *e, size_t n, size_t *aside)
{
    if (aside)
        *aside = n;
    if (n < 2)
        return 0.0;
    if (n > MHZ_MAX_SUBSET_POINTS) /* 2^n subsets would take too long: the whole set */
        return mhz_has_two_classes(e, n) ? mb_mhz_gcd(e, n) : 0.0;

    size_t nsub = (size_t)1 << n;
    double *g = calloc(nsub, sizeof *g);
    double *scratch = malloc(nsub * sizeof *scratch);
    double *sub = malloc(n * sizeof *sub);
    if (!g || !scratch || !sub) {
        free(g);
        free(scratch);
        free(sub);
        return 0.0;
    }
    for (size_t mask = 1; mask < nsub; ++mask) {
        size_t m = 0;
        for (size_t j = 0; j < n; ++j)
            if (mask & ((size_t)1 << j))
                sub[m++] = e[j];
        /* Valid subsets: at least two independent points (seed 000 7). */
        if (m < 2 || !mhz_has_two_classes(sub, m))
            continue;
        double gcd = mb_mhz_gcd(sub, m);
        if (gcd > 0 && isfinite(gcd))
            g[mask] = gcd;
    }
    double tick = mhz_mode_without(g, nsub, n, scratch);
    /* One point alone that asks for a finer clock (seed 000 7: the subsets are there "to
     * reduce the impact of any single value"): an expression whose time is not a whole
     * number of the others' ticks is in half of all subsets, which then agree on a fraction
     * of the tick and can outnumber the rest (tests/test_mhz.c: p=*p; at 4.5 ticks read
     * 8248 MHz for 4143). When leaving out exactly one point gives a whole multiple k of
     * the tick, and at least MHZ_ASIDE_MIN_REST others hold that coarser tick, the point is
     * set aside: by chance alone, that many counts would all be multiples of k in 1 of k^6
     * cases or fewer. With fewer points one may hold the clock ({2, 3, 4} ticks). */
    size_t alone = n, count = 0;
    double coarser = 0.0;
    for (size_t j = 0; tick > 0 && n - 1 >= MHZ_ASIDE_MIN_REST && j < n; ++j) {
        double t = mhz_mode_without(g, nsub, j, scratch);
        double k = round(t / tick);
        if (k >= 2 && fabs(t / tick - k) <= MHZ_MODE_WIDTH * k) {
            alone = j;
            coarser = t;
            ++count;
        }
    }
    if (count == 1) {
        tick = coarser;
        if (aside)
            *aside = alone;
    }
    free(g);
    free(scratch);
    free(sub);
    return tick;
}

/* filter_data (seed 000 7): the expressions take a few ticks each, so all results should be
 * within a few multiples of each other; a loop the compiler shortened approaches zero.
 * Kept: finite positive results strictly within a factor MHZ_FILTER_FACTOR (4) of the
 * median of the finite positive results (lmbench used 20; the nine expressions take 1 to
 * 5 ticks on current cores, so 4 is "a few" with room to spare). */
size_t mb_mhz_filter(const double *e, size_t n, bool *keep)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    size_t m = 0;
    for (size_t j = 0; j < n; ++j) {
        keep[j] = false;
        if (d && e[j] > 0 && isfinite(e[j]))
            d[m++] = e[j];
    }
    if (m == 0) {
        free(d);
        return 0;
    }
    qsort(d, m, sizeof *d, mhz_cmp_double);
    double median = m % 2 ? d[m / 2] : 0.5 * (d[m / 2 - 1] + d[m / 2]);
    free(d);

    size_t kept = 0;
    for (size_t j = 0; j < n; ++j) {
        keep[j] = e[j] > median / MHZ_FILTER_FACTOR && e[j] < median * MHZ_FILTER_FACTOR;
        kept += keep[j];
    }
    return kept;
}

/* The tick from the points of e that survive the filter; keep may be NULL. keep[j] false:
 * dropped by the filter, or set aside by mb_mhz_tick. */
static double mhz_tick_filtered(const double *e, bool *keep)
{
    bool k[MB_MHZ_NEXPR];
    double v[MB_MHZ_NEXPR];
    bool *kk = keep ? keep : k;
    mb_mhz_filter(e, MB_MHZ_NEXPR, kk);
    size_t n = 0, index[MB_MHZ_NEXPR];
    for (size_t j = 0; j < MB_MHZ_NEXPR; ++j)
        if (kk[j]) {
            index[n] = j;
            v[n++] = e[j];
        }
    size_t aside;
    double tick = mb_mhz_tick(v, n, &aside);
    if (aside < n)
        kk[index[aside]] = false;
    return tick;
}

void mb_mhz_compute(const double *min_ns, const double *next_ns, mb_mhz_result_t *out)
{
    out->ok = false;
    out->why[0] = '\0';
    out->mhz = out->mhz_next = out->tick_ns = 0.0;

    double tick = mhz_tick_filtered(min_ns, out->expr_used);
    double tick_next = mhz_tick_filtered(next_ns, NULL);
    for (size_t j = 0; j < MB_MHZ_NEXPR; ++j) {
        out->expr_ns[j] = min_ns[j];
        out->expr_cycles[j] = tick > 0 ? min_ns[j] / tick : 0.0;
    }
    out->tick_ns = tick;
    out->mhz = tick > 0 ? 1000.0 / tick : 0.0;
    out->mhz_next = tick_next > 0 ? 1000.0 / tick_next : 0.0;

    if (!(tick > 0) || !(tick_next > 0)) {
        snprintf(out->why, sizeof out->why,
                 "no two valid expressions differ by more than 5%% (seed 000 7 classes())");
        return;
    }
    /* Seed 000 7: accepted when minima and next larger values agree within 1% or 1 MHz. */
    double diff = fabs(out->mhz - out->mhz_next);
    out->ok = diff <= MHZ_AGREE_REL * out->mhz || diff <= MHZ_AGREE_MHZ;
    if (!out->ok)
        snprintf(out->why, sizeof out->why,
                 "%.1f vs %.1f MHz (minima vs next larger values differ by more than 1%% "
                 "and 1 MHz)",
                 out->mhz, out->mhz_next);
}

/* Insert time v into the smallest two seen so far (min <= next). */
static void mhz_keep_two_smallest(double v, double *min, double *next)
{
    if (v < *min) {
        *next = *min;
        *min = v;
    } else if (v < *next) {
        *next = v;
    }
}

/* The minima and next larger values of passes [from, to) of windows; no data gives 0,
 * which the filter drops. */
static void mhz_minima(const double *windows, int from, int to, double *min_ns, double *next_ns)
{
    for (size_t k = 0; k < MB_MHZ_NEXPR; ++k)
        min_ns[k] = next_ns[k] = INFINITY;
    for (int p = from; p < to; ++p)
        for (size_t k = 0; k < MB_MHZ_NEXPR; ++k) {
            double ns = windows[(size_t)p * MB_MHZ_NEXPR + k];
            if (ns > 0 && isfinite(ns))
                mhz_keep_two_smallest(ns, &min_ns[k], &next_ns[k]);
        }
    for (size_t k = 0; k < MB_MHZ_NEXPR; ++k) {
        if (!isfinite(min_ns[k]))
            min_ns[k] = 0.0;
        if (!isfinite(next_ns[k]))
            next_ns[k] = 0.0;
    }
}

static bool mhz_agree(double a, double b)
{
    double diff = fabs(a - b);
    return a > 0 && b > 0 && (diff <= MHZ_AGREE_REL * fmax(a, b) || diff <= MHZ_AGREE_MHZ);
}

void mb_mhz_verdict(const double *windows, int npasses, mb_mhz_result_t *out)
{
    double min_ns[MB_MHZ_NEXPR], next_ns[MB_MHZ_NEXPR];
    mhz_minima(windows, 0, npasses, min_ns, next_ns);
    mb_mhz_compute(min_ns, next_ns, out);
    out->mhz_halves[0] = out->mhz_halves[1] = 0.0;
    /* Two independent figures, from the first and the second half of the span: noise that
     * comes and goes over the span moves one of them. */
    int half = npasses / 2;
    for (int h = 0; h < 2; ++h) {
        mb_mhz_result_t part;
        memset(&part, 0, sizeof part);
        mhz_minima(windows, h ? half : 0, h ? npasses : half, min_ns, next_ns);
        mb_mhz_compute(min_ns, next_ns, &part);
        out->mhz_halves[h] = part.mhz;
    }
    if (!out->ok)
        return;
    if (!mhz_agree(out->mhz_halves[0], out->mhz_halves[1])) {
        out->ok = false;
        snprintf(out->why, sizeof out->why,
                 "%.1f vs %.1f MHz (the first and second halves of the windows differ by more "
                 "than 1%% and 1 MHz)",
                 out->mhz_halves[0], out->mhz_halves[1]);
    }
}

/* One experiment of expression k in a window of t's enough (mhz's window): ns per
 * instance, or -1 when the loop does no work. */
static double mhz_experiment(const mb_timing_t *t, size_t k, mb_mhz_expr_state_t *st,
                             uint64_t *iters)
{
    double elapsed = mb_loop_experiment(t, mb_mhz_expr_fn[k], st, iters);
    if (elapsed <= 0)
        return -1.0;
    double ns = elapsed / ((double)*iters * MB_MHZ_EXPR_REPS);
    /* An interval well past the window (preempted, or overshot) wastes time: start nearer. */
    if (elapsed > 1.2 * t->enough_ns) {
        double n = ceil((double)*iters * 1.1 * t->enough_ns / elapsed);
        *iters = n < 1 ? 1 : (uint64_t)n;
    }
    return ns;
}

int mb_mhz_measure(const mb_timing_t *t, const mb_mhz_opts_t *opts, mb_mhz_result_t *out)
{
    int measurements =
        opts && opts->measurements >= 2 ? opts->measurements : MHZ_DEFAULT_MEASUREMENTS;
    int max_attempts = opts && opts->max_attempts >= 1 ? opts->max_attempts : MHZ_DEFAULT_ATTEMPTS;
    memset(out, 0, sizeof *out);
    if (!t || !t->clock || !(t->enough_ns > 0)) {
        snprintf(out->why, sizeof out->why, "timing harness not calibrated");
        return -1;
    }
    mb_timing_t window = *t;
    window.enough_ns = fmax(MHZ_WINDOW_NS, MHZ_WINDOW_RESOLUTIONS * t->resolution_ns);
    /* Attempt a of the seed's three: twice `measurements` passes (two halves), doubled at
     * each retry, so a busy machine is sampled over a longer span before it is "too busy";
     * a quiet one takes 2 x 11 x 9 windows, about 20 ms. */
    int most = 2 * measurements << (max_attempts - 1);
    double *windows = malloc((size_t)most * MB_MHZ_NEXPR * sizeof *windows);
    if (!windows) {
        snprintf(out->why, sizeof out->why, "out of memory");
        return -1;
    }

    mb_mhz_expr_state_t st;
    mb_mhz_expr_init(&st);
    uint64_t iters[MB_MHZ_NEXPR];
    /* Warm-up pass, discarded: sizes every loop and brings code and p's word into cache. */
    for (size_t k = 0; k < MB_MHZ_NEXPR; ++k) {
        iters[k] = 1;
        mhz_experiment(&window, k, &st, &iters[k]);
    }

    int rc = -1;
    for (int attempt = 1; attempt <= max_attempts; ++attempt) {
        int npasses = 2 * measurements << (attempt - 1);
        /* Seed 000 7: the outer loop over measurements, the inner over expressions, so a
         * burst of other activity spoils one measurement of each, not all of one. */
        for (int m = 0; m < npasses; ++m)
            for (size_t k = 0; k < MB_MHZ_NEXPR; ++k)
                windows[(size_t)m * MB_MHZ_NEXPR + k] = mhz_experiment(&window, k, &st, &iters[k]);
        mb_mhz_verdict(windows, npasses, out);
        out->attempts = attempt;
        if (out->ok) {
            rc = 0;
            goto done;
        }
    }
    char why[sizeof out->why];
    memcpy(why, out->why, sizeof why);
    snprintf(out->why, sizeof out->why, "system too busy: %s after %d attempts", why,
             out->attempts);
done:
    free(windows);
    return rc;
}

/* jansson refuses NaN and infinities. */
static json_t *mhz_real(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

json_t *mb_mhz_json(const mb_mhz_result_t *r)
{
    json_t *cycles = json_object(), *ns = json_object(), *used = json_object();
    for (size_t k = 0; k < MB_MHZ_NEXPR; ++k) {
        json_object_set_new(cycles, mb_mhz_expr_text[k], mhz_real(r->expr_cycles[k]));
        json_object_set_new(ns, mb_mhz_expr_text[k], mhz_real(r->expr_ns[k]));
        json_object_set_new(used, mb_mhz_expr_text[k], json_boolean(r->expr_used[k]));
    }
    return json_pack("{s:o, s:o, s:o, s:[o, o], s:i, s:b, s:s, s:o, s:o, s:o}", "mhz",
                     mhz_real(r->mhz), "tick_ns", mhz_real(r->tick_ns), "mhz_next",
                     mhz_real(r->mhz_next), "mhz_halves", mhz_real(r->mhz_halves[0]),
                     mhz_real(r->mhz_halves[1]), "attempts", r->attempts, "ok", (int)r->ok, "why",
                     r->why, "cycles", cycles, "expr_ns", ns, "used", used);
}

void mb_mhz_print(FILE *f, const mb_mhz_result_t *r)
{
    if (r->ok)
        fprintf(f,
                "mhz: %.1f MHz, %.4f ns clock (next larger values: %.1f MHz; halves: %.1f, "
                "%.1f MHz; attempt %d)\n",
                r->mhz, r->tick_ns, r->mhz_next, r->mhz_halves[0], r->mhz_halves[1], r->attempts);
    else
        fprintf(f, "mhz: no reliable figure: %s\n", r->why);
    fprintf(f, "  %-18s %10s %8s\n", "expression", "ns", "cycles");
    for (size_t k = 0; k < MB_MHZ_NEXPR; ++k)
        fprintf(f, "  %-18s %10.4f %8.2f%s\n", mb_mhz_expr_text[k], r->expr_ns[k],
                r->expr_cycles[k], r->expr_used[k] ? "" : "  (outlier, not used)");
}
