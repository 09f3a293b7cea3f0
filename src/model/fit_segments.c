/* SPDX-License-Identifier: MIT */
/* Breaks in d (eager to rendezvous): a search over split points with each contiguous d
 * range fitted once (mb_fit_select), the smallest size's own case, and the holdout check of
 * the result. */
#include "fit.h"
#include "fit_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* The median of chi-squared with one degree of freedom (a squared standard normal's). */
#define FIT_CHISQ1_MEDIAN 0.454936423119573

static int fit_cmp_d(const void *a, const void *b)
{
    const mb_fit_point_t *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

/* The best model of each contiguous range [a, b] of distinct d values, fitted on demand. */
typedef struct fit_cache {
    const mb_fit_point_t *pts; /* sorted by d */
    const size_t *start;       /* start[i]: first point with the i-th distinct d; start[m] = n */
    size_t m;
    unsigned allowed;
    double penalty;
    signed char *state; /* m*m: 0 not tried, 1 fitted, -1 failed */
    mb_fit_model_t *model;
} fit_cache_t;

static const mb_fit_model_t *fit_cache_get(fit_cache_t *c, size_t a, size_t b, char *err,
                                           size_t errlen)
{
    size_t at = a * c->m + b;
    if (c->state[at] == 0) {
        size_t lo = c->start[a], hi = c->start[b + 1];
        c->state[at] = mb_fit_select_penalty(c->pts + lo, hi - lo, c->allowed, c->penalty,
                                             &c->model[at], err, errlen) == 0
                           ? 1
                           : -1;
    }
    return c->state[at] == 1 ? &c->model[at] : NULL;
}

/* A piecewise structure: ranges [a[s], b[s]] of distinct-d indices. */
typedef struct fit_split {
    size_t count;
    size_t a[MB_FIT_MAX_SEGMENTS], b[MB_FIT_MAX_SEGMENTS];
} fit_split_t;

/* Whether distinct sizes a..b may form a segment of their own: enough of them, over an
 * octave (a slope over 0, 1 and 2 bytes says nothing of bytes). */
static bool fit_segment_ok(const fit_cache_t *c, size_t a, size_t b)
{
    if (b - a + 1 < MB_FIT_SEGMENT_MIN_SIZES)
        return false;
    double lo = c->pts[c->start[a]].d;
    if (lo <= 0)
        lo = c->pts[c->start[a + 1]].d;
    return c->pts[c->start[b]].d >= 2 * lo;
}

/* The best cut of [a, b] into [a, i] and [i + 1, b] by summed BIC; false when none fits. */
static bool fit_best_cut(fit_cache_t *c, size_t a, size_t b, size_t *cut, double *bic)
{
    const size_t min = MB_FIT_SEGMENT_MIN_SIZES;
    char ignore[256];
    bool found = false;
    for (size_t i = a + min - 1; i + min <= b; i++) {
        if (!fit_segment_ok(c, a, i) || !fit_segment_ok(c, i + 1, b))
            continue;
        const mb_fit_model_t *l = fit_cache_get(c, a, i, ignore, sizeof ignore);
        const mb_fit_model_t *r = l ? fit_cache_get(c, i + 1, b, ignore, sizeof ignore) : NULL;
        if (r && (!found || l->bic + r->bic < *bic)) {
            *bic = l->bic + r->bic;
            *cut = i;
            found = true;
        }
    }
    return found;
}

/* Each break of sp moved to the best cut of the two segments around it, the others held,
 * until none moves (at most 8 sweeps). Binary segmentation alone places a break where it
 * best splits what is left, which with more breaks to come is often not where a break
 * belongs, and later buys an extra segment to repair it: over six stretches with 1% noise
 * (tests/test_fit.c) it found seven segments in 208 of 300 series, with this refinement
 * six in all 300. An exact search (dynamic programming over every split) also found six
 * in all 300, but took 1.2 s for a -np 4 run's fits and 14 s for a synthetic sweep over 16
 * process counts, against 0.4 s and 4.2 s with this (0.34 s and 3.0 s without it). */
static void fit_split_refine(fit_cache_t *c, fit_split_t *sp)
{
    char ignore[256];
    for (int sweep = 0; sweep < 8; sweep++) {
        bool moved = false;
        for (size_t j = 0; j + 1 < sp->count; j++) {
            size_t lo = sp->a[j], hi = sp->b[j + 1], cut = 0;
            double bic = INFINITY;
            const mb_fit_model_t *l = fit_cache_get(c, lo, sp->b[j], ignore, sizeof ignore);
            const mb_fit_model_t *r = fit_cache_get(c, sp->a[j + 1], hi, ignore, sizeof ignore);
            if (l && r && fit_best_cut(c, lo, hi, &cut, &bic) && cut != sp->b[j] &&
                bic < l->bic + r->bic - 1e-9 * fabs(l->bic + r->bic)) {
                sp->b[j] = cut;
                sp->a[j + 1] = cut + 1;
                moved = true;
            }
        }
        if (!moved)
            break;
    }
}

/* Sum of chi2, dof and terms over the split's segments (all in the cache). */
static void fit_split_totals(fit_cache_t *c, const fit_split_t *sp, double *chi2, double *dof,
                             double *terms)
{
    char ignore[256];
    *chi2 = *dof = *terms = 0;
    for (size_t s = 0; s < sp->count; s++) {
        const mb_fit_model_t *m = fit_cache_get(c, sp->a[s], sp->b[s], ignore, sizeof ignore);
        *chi2 += m->chi2;
        *dof += (double)m->dof;
        *terms += (double)m->k;
    }
}

/* The split's overdispersion, robustly: the median over its points of the squared
 * standardised residual against chi-squared(1)'s median, times n / (n - terms) for the
 * fitted coefficients; NAN when no degree of freedom is left. */
static double fit_split_dispersion(fit_cache_t *c, const fit_split_t *sp)
{
    char ignore[256];
    size_t n = c->start[c->m], k = 0, terms = 0;
    double *r2 = malloc(n * sizeof *r2);
    if (!r2)
        return NAN;
    for (size_t s = 0; s < sp->count; s++) {
        const mb_fit_model_t *m = fit_cache_get(c, sp->a[s], sp->b[s], ignore, sizeof ignore);
        terms += m->k;
        for (size_t i = c->start[sp->a[s]]; i < c->start[sp->b[s] + 1]; i++) {
            const mb_fit_point_t *q = &c->pts[i];
            double r = (q->t_ns - mb_fit_predict(m, q->p, q->d, NULL, NULL)) / q->sd_ns;
            r2[k++] = r * r;
        }
    }
    double disp = NAN;
    if (k > terms) {
        gsl_sort(r2, 1, k);
        disp = gsl_stats_median_from_sorted_data(r2, 1, k) / FIT_CHISQ1_MEDIAN * (double)k /
               (double)(k - terms);
    }
    free(r2);
    return disp;
}

/* The fitted models of split sp's segments into seg (from the cache); returns their count. */
static size_t fit_split_models(fit_cache_t *c, const fit_split_t *sp, mb_fit_model_t *seg)
{
    char ignore[256];
    for (size_t s = 0; s < sp->count; s++)
        seg[s] = *fit_cache_get(c, sp->a[s], sp->b[s], ignore, sizeof ignore);
    return sp->count;
}

/* The candidates over sizes lo..m-1 into cand, at most max_segments segments: the whole,
 * then each candidate with the one cut of one of its segments that lowers the summed BIC
 * most (each cut tries every boundary between consecutive distinct d), its breaks then
 * refined. Candidate k has k breaks. Returns how many; 0 when the whole does not fit. */
static size_t fit_candidates(fit_cache_t *c, size_t lo, size_t max_segments, fit_split_t *cand,
                             char *err, size_t errlen)
{
    if (!fit_cache_get(c, lo, c->m - 1, err, errlen))
        return 0;
    cand[0] = (fit_split_t){.count = 1, .a = {lo}, .b = {c->m - 1}};
    size_t ncand = 1;
    while (ncand < max_segments) {
        const fit_split_t *last = &cand[ncand - 1];
        double best = INFINITY;
        size_t best_s = 0, best_cut = 0;
        for (size_t s = 0; s < last->count; s++) {
            char ignore[256];
            size_t cut = 0;
            double bic = INFINITY,
                   part = fit_cache_get(c, last->a[s], last->b[s], ignore, sizeof ignore)->bic;
            if (fit_best_cut(c, last->a[s], last->b[s], &cut, &bic) && bic - part < best) {
                best = bic - part;
                best_s = s;
                best_cut = cut;
            }
        }
        if (!isfinite(best))
            break;
        fit_split_t *next = &cand[ncand++];
        *next = (fit_split_t){.count = 0};
        for (size_t s = 0; s < last->count; s++) {
            next->a[next->count] = last->a[s];
            if (s == best_s) {
                next->b[next->count++] = best_cut;
                next->a[next->count] = best_cut + 1;
            }
            next->b[next->count++] = last->b[s];
        }
        fit_split_refine(c, next);
    }
    return ncand;
}

/* The candidate kept: each one more detailed is kept when its quasi-likelihood BIC is more
 * than margin below the one kept so far; that BIC into *qbic. */
static size_t fit_candidate_pick(fit_cache_t *c, const fit_split_t *cand, size_t ncand, double disp,
                                 double margin, double *qbic)
{
    size_t pick = 0;
    for (size_t k = 0; k < ncand; k++) {
        double chi2, dof, terms;
        fit_split_totals(c, &cand[k], &chi2, &dof, &terms);
        double q = chi2 / disp + (terms + (double)k) * c->penalty;
        if (k == 0 || q < *qbic - margin) {
            pick = k;
            *qbic = q;
        }
    }
    return pick;
}

/* Whether the smallest size may be a case of its own (see the header): above 0 bytes,
 * measured as precisely as its series' other points, and the rest a series of segments. */
static bool fit_first_size_may_stand_alone(const fit_cache_t *c)
{
    if (c->m < 1 + MB_FIT_SEGMENT_MIN_SIZES || !(c->pts[0].d > 0) ||
        !fit_segment_ok(c, 1, c->m - 1))
        return false;
    for (size_t i = 0; i < c->start[1]; i++)
        if (c->pts[i].imprecise)
            return false;
    return true;
}

int mb_fit_segments(const mb_fit_point_t *pts, size_t n, unsigned allowed, double margin,
                    mb_fit_segments_t *out, char *err, size_t errlen)
{
    if (mb_fit_check_points(pts, n, err, errlen) != 0)
        return -1;
    int ret = -1;
    mb_fit_point_t *sorted = malloc(n * sizeof *sorted);
    size_t *start = malloc((n + 1) * sizeof *start);
    fit_cache_t c = {0};
    if (!sorted || !start) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    memcpy(sorted, pts, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, fit_cmp_d);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || sorted[i].d != sorted[i - 1].d)
            start[m++] = i;
    start[m] = n;
    c = (fit_cache_t){
        .pts = sorted, .start = start, .m = m, .allowed = allowed, .penalty = log((double)n)};
    /* The whole is a segment too: a series over sizes needs what each of its segments does
     * (one over p alone, at d = 0, does not). With a time budget that dropped all but 1 MiB,
     * mpi.reduce_scatter at -np 16 on 2 cores got "92720 x p^2" from 2 points. */
    if (sorted[n - 1].d > 0 && !fit_segment_ok(&c, 0, m - 1)) {
        snprintf(err, errlen,
                 "%zu distinct message size%s (%.0f to %.0f B): a model over d needs %d "
                 "spanning an octave",
                 m, m == 1 ? "" : "s", sorted[0].d, sorted[n - 1].d, MB_FIT_SEGMENT_MIN_SIZES);
        goto out;
    }
    c.state = calloc(m * m, 1);
    c.model = malloc(m * m * sizeof *c.model);
    if (!c.state || !c.model) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    fit_split_t cand[MB_FIT_MAX_SEGMENTS];
    size_t ncand = fit_candidates(&c, 0, MB_FIT_MAX_SEGMENTS, cand, err, errlen);
    if (ncand == 0)
        goto out;
    /* Measured times often scatter more than their standard errors say (chi2/dof >> 1 even
     * for the right curve); raw chi2 would then buy a break for every wiggle. So the
     * breaks are judged by the quasi-likelihood BIC, chi2 / c + (terms + breaks) ln N, with
     * c the overdispersion of the most detailed candidate (QAIC's factor), at least 1; with
     * honest error bars c = 1 and this is the plain BIC. c is the median point's (the
     * median squared standardised residual against chi-squared(1)'s), not chi2/dof: a
     * stretch no line fits and too short to cut (a cache step inside the last 4 sizes)
     * made chi2/dof 6.7 in a held-out check of mpi.ssend at -np 2, and every other break
     * then saved too little: one line, chi2/dof 10.7, held-out error 7.7-11% at the small
     * sizes (the median point's c there: 1). */
    double disp = fit_split_dispersion(&c, &cand[ncand - 1]), qbic = INFINITY;
    disp = isfinite(disp) ? fmax(1.0, disp) : 1.0;
    size_t pick = fit_candidate_pick(&c, cand, ncand, disp, margin, &qbic);
    out->count = fit_split_models(&c, &cand[pick], out->seg);
    /* The smallest size as its own case, before the rest's best candidate: one break and
     * its model's terms more, judged with the same c. */
    mb_fit_model_t own;
    char ignore[256];
    fit_split_t rest[MB_FIT_MAX_SEGMENTS - 1];
    size_t nrest = fit_first_size_may_stand_alone(&c)
                       ? fit_candidates(&c, 1, MB_FIT_MAX_SEGMENTS - 1, rest, ignore, sizeof ignore)
                       : 0;
    if (nrest > 0 && mb_fit_one_size(sorted, start[1], allowed, &own, ignore, sizeof ignore) == 0) {
        double rest_qbic = INFINITY;
        size_t r = fit_candidate_pick(&c, rest, nrest, disp, margin, &rest_qbic);
        double alone = rest_qbic + own.chi2 / disp + ((double)own.k + 1) * c.penalty;
        if (alone < qbic - margin) {
            qbic = alone;
            out->seg[0] = own;
            out->count = 1 + fit_split_models(&c, &rest[r], out->seg + 1);
        }
    }
    out->bic = qbic;
    out->dispersion = disp;
    ret = 0;
out:
    free(c.model);
    free(c.state);
    free(start);
    free(sorted);
    return ret;
}

size_t mb_fit_segments_pick(const mb_fit_segments_t *s, double d)
{
    size_t i = 0;
    while (i + 1 < s->count && s->seg[i + 1].d_min <= d)
        i++;
    return i;
}

void mb_fit_segments_place_breaks(mb_fit_segments_t *s, const mb_fit_limits_t *limits)
{
    for (size_t i = 1; limits && i < s->count; i++) {
        double below = s->seg[i - 1].d_max, above = s->seg[i].d_min, at = 0;
        size_t inside = 0;
        for (size_t k = 0; k < limits->n; k++)
            if (limits->bytes[k] > below && limits->bytes[k] < above && limits->bytes[k] != at) {
                at = limits->bytes[k];
                inside++;
            }
        if (inside == 1)
            s->seg[i].d_min = at;
    }
}

/* One fold of mb_fit_holdout: the points whose size index di has di % MB_FIT_HOLDOUT_FOLDS ==
 * fold and, with pmax > 0, those at p = pmax are held out; the rest are fitted, and the
 * absolute percentage error of each held-out point of the fold's sizes is appended to
 * ape[*k] (a point at pmax counts in its own size's fold). Returns 0, or -1 with err. */
static int fit_holdout_fold(const mb_fit_point_t *pts, size_t n, const size_t *di, size_t fold,
                            double pmax, unsigned allowed, double margin, double min_rel,
                            const mb_fit_limits_t *limits, mb_fit_point_t *train, double *ape,
                            size_t *k, char *err, size_t errlen)
{
    size_t ntrain = 0;
    for (size_t i = 0; i < n; i++)
        if (di[i] % MB_FIT_HOLDOUT_FOLDS != fold && !(pmax > 0 && pts[i].p == pmax))
            train[ntrain++] = pts[i];
    /* The scatter weights from the training points alone: computed over all points, a
     * held-out point would be a neighbour of the training points around it and set their
     * weights, and the check would not be of a fit that never saw it. */
    if (min_rel > 0 && ntrain > 0)
        mb_fit_scatter_weights(train, ntrain, min_rel);
    mb_fit_segments_t segs;
    char why[256];
    if (ntrain == 0 ||
        mb_fit_segments(train, ntrain, allowed, margin, &segs, why, sizeof why) != 0) {
        snprintf(err, errlen, "no fit on the %zu training points: %s", ntrain,
                 ntrain ? why : "none left");
        return -1;
    }
    mb_fit_segments_place_breaks(&segs, limits);
    for (size_t i = 0; i < n; i++) {
        if (di[i] % MB_FIT_HOLDOUT_FOLDS != fold)
            continue;
        const mb_fit_model_t *mod = &segs.seg[mb_fit_segments_pick(&segs, pts[i].d)];
        double t = mb_fit_predict(mod, pts[i].p, pts[i].d, NULL, NULL);
        ape[(*k)++] = 100.0 * fabs(t - pts[i].t_ns) / fabs(pts[i].t_ns);
    }
    return 0;
}

int mb_fit_holdout(const mb_fit_point_t *pts, size_t n, unsigned allowed, double margin,
                   double min_rel, const mb_fit_limits_t *limits, double *mape_pct, size_t *n_held,
                   char *err, size_t errlen)
{
    if (mb_fit_check_points(pts, n, err, errlen) != 0)
        return -1;
    int ret = -1;
    double *ds = malloc(n * sizeof *ds), *ps = malloc(n * sizeof *ps),
           *ape = malloc(n * sizeof *ape);
    mb_fit_point_t *train = malloc(n * sizeof *train);
    size_t *di = malloc(n * sizeof *di);
    if (!ds || !ps || !ape || !train || !di) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    size_t nd = 0, np = 0;
    for (size_t i = 0; i < n; i++) {
        ds[i] = pts[i].d;
        ps[i] = pts[i].p;
    }
    gsl_sort(ds, 1, n);
    gsl_sort(ps, 1, n);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || ds[i] != ds[nd - 1])
            ds[nd++] = ds[i];
        if (i == 0 || ps[i] != ps[np - 1])
            ps[np++] = ps[i];
    }
    for (size_t i = 0; i < n; i++)
        for (di[i] = 0; ds[di[i]] != pts[i].d;)
            di[i]++;
    /* A segment spans 4 sizes at least (mb_fit_segments): fewer leave no fit to check. */
    if (nd < MB_FIT_HOLDOUT_FOLDS) {
        snprintf(err, errlen,
                 "nothing to hold out: %zu distinct sizes (folds of every fourth size need %d)", nd,
                 MB_FIT_HOLDOUT_FOLDS);
        goto out;
    }
    double pmax = np >= 3 ? ps[np - 1] : 0;
    size_t k = 0;
    for (size_t f = 0; f < MB_FIT_HOLDOUT_FOLDS; f++)
        if (fit_holdout_fold(pts, n, di, f, pmax, allowed, margin, min_rel, limits, train, ape, &k,
                             err, errlen) != 0)
            goto out;
    gsl_sort(ape, 1, k);
    *mape_pct = gsl_stats_median_from_sorted_data(ape, 1, k);
    if (n_held)
        *n_held = k;
    ret = 0;
out:
    free(di);
    free(train);
    free(ape);
    free(ps);
    free(ds);
    return ret;
}
