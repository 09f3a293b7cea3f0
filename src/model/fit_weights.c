/* SPDX-License-Identifier: MIT */
/* Point weights that reflect the scatter actually seen: a point's confidence interval says
 * how well its own experiments agree, not how far it would move in another run (a clock
 * step, a page placement, the machine's other tenants). The points' roughness along their
 * axis shows that: on a smooth curve each point lies close to the line through its two
 * neighbours (in log t against log d, or log p), and the typical distance there is the
 * scatter. Typical over a few neighbours, since small messages often scatter more than
 * large ones. */
#include "fit.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Too few neighbour triples give no trustworthy scale. */
#define FIT_WEIGHTS_MIN_TRIPLES 5
/* A point's own scatter is the median over the triples centred within this many places. */
#define FIT_WEIGHTS_REACH 5
/* The whole series' scale counts as this many triples beside a point's own. */
#define FIT_WEIGHTS_POOL 10.0
/* Normal consistency factor of the median absolute deviation. */
#define FIT_WEIGHTS_MAD_SIGMA 1.4826
/* A spike lies this many scatters off its neighbours' line... */
#define FIT_WEIGHTS_SPIKE 4.0
/* ...and each neighbour off its own line the other way, by between these parts of that: a
 * lone point's excess moves the lines through each of its neighbours by 0.4-0.6 of it
 * (their weights on it, at 1.5x and 1.33x spacing), while a step between two points moves
 * the two alike and leaves the points beyond them where they were. */
#define FIT_WEIGHTS_SPIKE_NEIGHBOUR_MIN 0.25
#define FIT_WEIGHTS_SPIKE_NEIGHBOUR_MAX 0.75

typedef struct fit_weights_key {
    double along, across, t;
    size_t index; /* in pts */
    double dev;   /* the triple centred here: log t off its neighbours' line, scaled; NAN: none */
    double off;   /* the same, unscaled: t / (the line's t) = exp(off) */
} fit_weights_key_t;

static int fit_weights_cmp(const void *a, const void *b)
{
    const fit_weights_key_t *x = a, *y = b;
    if (x->across != y->across)
        return x->across < y->across ? -1 : 1;
    return (x->along > y->along) - (x->along < y->along);
}

/* b's log t off the line through a's and c's, into b->off and, scaled, b->dev (NAN when the
 * three are not consecutive points of one series at distinct positive coordinates). */
static void fit_weights_dev(const fit_weights_key_t *a, fit_weights_key_t *b,
                            const fit_weights_key_t *c)
{
    b->dev = b->off = NAN;
    if (a->across != b->across || c->across != b->across || !(a->along > 0) ||
        !(a->along < b->along) || !(b->along < c->along))
        return;
    double xa = log(a->along), xb = log(b->along), xc = log(c->along);
    double w = (xc - xb) / (xc - xa);
    b->off = log(b->t) - (w * log(a->t) + (1 - w) * log(c->t));
    /* For independent scatter s in each log t, off has variance s^2 (1 + w^2 + (1-w)^2). */
    b->dev = b->off / sqrt(1 + w * w + (1 - w) * (1 - w));
}

/* Whether k[i] is a spike (FIT_WEIGHTS_SPIKE) where the scatter is rel. */
static bool fit_weights_spike(const fit_weights_key_t *k, size_t i, size_t n, double rel)
{
    if (i == 0 || i + 1 >= n || !isfinite(k[i].dev) || !isfinite(k[i - 1].dev) ||
        !isfinite(k[i + 1].dev))
        return false;
    double dev = k[i].dev, lo = FIT_WEIGHTS_SPIKE_NEIGHBOUR_MIN * fabs(dev),
           hi = FIT_WEIGHTS_SPIKE_NEIGHBOUR_MAX * fabs(dev);
    if (!(fabs(dev) > FIT_WEIGHTS_SPIKE * log1p(rel)))
        return false;
    for (size_t j = i - 1; j <= i + 1; j += 2)
        if (!(k[j].dev * dev < 0 && fabs(k[j].dev) > lo && fabs(k[j].dev) < hi))
            return false;
    return true;
}

/* The scatter (a fraction of t) from the finite devs among k[lo..hi], or NAN with fewer
 * than `least` of them; *count gets how many there were. */
static double fit_weights_scale(const fit_weights_key_t *k, size_t lo, size_t hi, size_t least,
                                double *buf, size_t *count)
{
    size_t m = 0;
    for (size_t i = lo; i <= hi; i++)
        if (isfinite(k[i].dev) && k[i].across == k[lo].across)
            buf[m++] = fabs(k[i].dev);
    *count = m;
    if (m < least)
        return NAN;
    gsl_sort(buf, 1, m);
    return expm1(FIT_WEIGHTS_MAD_SIGMA * gsl_stats_median_from_sorted_data(buf, 1, m));
}

double mb_fit_scatter_weights(mb_fit_point_t *pts, size_t n, double min_rel)
{
    for (size_t i = 0; i < n; i++)
        pts[i].sd_ns = fmax(pts[i].sd_ns, min_rel * pts[i].t_ns);
    /* Along d when d varies, else along p. */
    bool by_d = false;
    for (size_t i = 1; i < n && !by_d; i++)
        by_d = pts[i].d != pts[0].d;
    fit_weights_key_t *k = malloc((n ? n : 1) * sizeof *k);
    double *buf = malloc((n ? n : 1) * sizeof *buf),
           *applied = malloc((n ? n : 1) * sizeof *applied);
    double result = 0;
    if (!k || !buf || !applied)
        goto out;
    for (size_t i = 0; i < n; i++)
        k[i] = (fit_weights_key_t){.along = by_d ? pts[i].d : pts[i].p,
                                   .across = by_d ? pts[i].p : pts[i].d,
                                   .t = pts[i].t_ns,
                                   .index = i,
                                   .dev = NAN,
                                   .off = NAN};
    qsort(k, n, sizeof *k, fit_weights_cmp);
    for (size_t i = 1; i + 1 < n; i++)
        fit_weights_dev(&k[i - 1], &k[i], &k[i + 1]);
    size_t nglobal = 0, nlocal = 0;
    double global =
        n ? fit_weights_scale(k, 0, n - 1, FIT_WEIGHTS_MIN_TRIPLES, buf, &nglobal) : NAN;
    if (!isfinite(global))
        goto out; /* too few to tell: the errors stay as stated */
    for (size_t i = 0; i < n; i++) {
        size_t lo = i > FIT_WEIGHTS_REACH ? i - FIT_WEIGHTS_REACH : 0;
        size_t hi = i + FIT_WEIGHTS_REACH < n ? i + FIT_WEIGHTS_REACH : n - 1;
        while (k[lo].across != k[i].across)
            lo++;
        while (k[hi].across != k[i].across)
            hi--;
        double local = fit_weights_scale(k, lo, hi, 1, buf, &nlocal);
        /* The few triples near a point give a noisy scale: pooled with the whole series',
         * weighted as FIT_WEIGHTS_POOL triples, so that a noisy stretch still stands out. */
        double var = global * global;
        if (isfinite(local))
            var = (nlocal * local * local + FIT_WEIGHTS_POOL * var) / (nlocal + FIT_WEIGHTS_POOL);
        double rel = fmax(sqrt(var), min_rel);
        applied[i] = rel;
        mb_fit_point_t *p = &pts[k[i].index];
        p->sd_ns = fmax(p->sd_ns, rel * p->t_ns);
        if (fit_weights_spike(k, i, n, rel)) {
            p->spike = true;
            p->sd_ns = fmax(p->sd_ns, fabs(p->t_ns - p->t_ns * exp(-k[i].off)));
        }
    }
    gsl_sort(applied, 1, n);
    result = gsl_stats_median_from_sorted_data(applied, 1, n);
out:
    free(applied);
    free(buf);
    free(k);
    return result;
}
