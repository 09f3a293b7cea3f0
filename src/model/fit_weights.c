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
/* A point's own scatter is the median over the triples centred within this many places
 * (seven: some three octaves of d on the default grid), and the whole series' scale counts
 * as this many triples beside them. Wider (5 places and 10), the scatter of sizes far off
 * inflated the large messages' errors: refitting 113 stored -np 2 runs, 80.5% of the
 * segments had Q in [0.01, 0.99], with these 84.1%, with fewer fits over their held-out
 * targets and the same Q on synthetic data. With the series as 1 triple, a first size off
 * its line inflates its neighbours' scale and is no longer its own case
 * (test_first_size_case). */
#define FIT_WEIGHTS_REACH 3
#define FIT_WEIGHTS_POOL 3.0
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
/* Two neighbouring points off together (mpi.allgather at 3 and 4 B: 240 and 209 ns between
 * 165-176 in one default run, which made a segment [1, 4] B of 15.8 ns per byte) are spikes
 * too, when the points beside them each lie within this part of the pair's smaller
 * distance of a line over the pair (summed over up to two each side, fit_weights_spike_pair).
 * Evenly spaced in log d, a step of S just before the pair leaves the pair 2S/3 and S/3 off
 * and those points S/4, S/5, S/4 and S/5 (0.68 of S/3 each), a knee about the same; a pair
 * alone off leaves them where they were. */
#define FIT_WEIGHTS_PAIR_OUTER 0.25
/* ...and each of the pair more than this many scatters (the series' own) off: a pair is the
 * larger claim. */
#define FIT_WEIGHTS_PAIR_SPIKE 6.0

enum { FIT_WEIGHTS_LONE = 1, FIT_WEIGHTS_PAIR = 2 };

typedef struct fit_weights_key {
    double along, across, t;
    size_t index; /* in pts */
    double dev;   /* the triple centred here: log t off its neighbours' line, scaled; NAN: none */
    double off;   /* the same, unscaled: t / (the line's t) = exp(off) */
    bool moved;   /* the triple runs through a spike: left out of the scatter (fit_weights_scale) */
} fit_weights_key_t;

static int fit_weights_cmp(const void *a, const void *b)
{
    const fit_weights_key_t *x = a, *y = b;
    if (x->across != y->across)
        return x->across < y->across ? -1 : 1;
    return (x->along > y->along) - (x->along < y->along);
}

/* log t of point b off the line through a's and c's in log t against log along, and into
 * *w the line's weight on a's (its on c's is 1 - w): NAN when the three are not
 * consecutive points of one series at distinct positive coordinates. */
static double fit_weights_off(const fit_weights_key_t *a, const fit_weights_key_t *b,
                              const fit_weights_key_t *c, double *w)
{
    if (a->across != b->across || c->across != b->across || !(a->along > 0) ||
        !(a->along < b->along) || !(b->along < c->along))
        return NAN;
    double xa = log(a->along), xb = log(b->along), xc = log(c->along);
    *w = (xc - xb) / (xc - xa);
    return log(b->t) - (*w * log(a->t) + (1 - *w) * log(c->t));
}

/* b's log t off the line through a's and c's, into b->off and, scaled, b->dev (NAN when the
 * three are not consecutive points of one series at distinct positive coordinates). */
static void fit_weights_dev(const fit_weights_key_t *a, fit_weights_key_t *b,
                            const fit_weights_key_t *c)
{
    double w = 0;
    b->off = fit_weights_off(a, b, c, &w);
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

/* Whether k[i] and k[i + 1] are a pair of spikes where the scatter is rel: both off the line
 * through the points either side of them (k[i - 1], k[i + 2]) the same way, by more than
 * FIT_WEIGHTS_PAIR_SPIKE times it, while the two points on each side lie near lines that
 * pass over the pair (k[i - 1] on k[i - 2]..k[i + 2]'s, k[i - 2] on k[i - 3]..k[i + 2]'s,
 * and so after it): their distances, those that exist, sum to less than
 * FIT_WEIGHTS_PAIR_OUTER times the pair's smaller distance each. off[0..1] get the pair's
 * distances. */
static bool fit_weights_spike_pair(const fit_weights_key_t *k, size_t i, size_t n, double rel,
                                   double off[2])
{
    if (i < 2 || i + 3 >= n)
        return false;
    double limit = FIT_WEIGHTS_PAIR_SPIKE * log1p(rel), w;
    off[0] = fit_weights_off(&k[i - 1], &k[i], &k[i + 2], &w);
    off[1] = fit_weights_off(&k[i - 1], &k[i + 1], &k[i + 2], &w);
    if (!(fabs(off[0]) > limit && fabs(off[1]) > limit && off[0] * off[1] > 0))
        return false;
    double outer[4] = {fit_weights_off(&k[i - 2], &k[i - 1], &k[i + 2], &w),
                       fit_weights_off(&k[i - 1], &k[i + 2], &k[i + 3], &w), NAN, NAN};
    if (i >= 3)
        outer[2] = fit_weights_off(&k[i - 3], &k[i - 2], &k[i + 2], &w);
    if (i + 4 < n)
        outer[3] = fit_weights_off(&k[i - 1], &k[i + 3], &k[i + 4], &w);
    double sum = 0;
    int count = 0;
    for (int j = 0; j < 4; j++)
        if (isfinite(outer[j]) || j < 2) {
            sum += fabs(outer[j]); /* the first two must exist: NAN fails the test */
            count++;
        }
    return sum < FIT_WEIGHTS_PAIR_OUTER * count * fmin(fabs(off[0]), fabs(off[1]));
}

/* A spike: its error is at least its distance off (in log t) the line it was judged by. */
static void fit_weights_mark_spike(mb_fit_point_t *p, double off)
{
    p->spike = true;
    p->sd_ns = fmax(p->sd_ns, fabs(p->t_ns - p->t_ns * exp(-off)));
}

/* The scatter (a fraction of t) from the finite devs among k[lo..hi], or NAN with fewer
 * than `least` of them; *count gets how many there were. */
static double fit_weights_scale(const fit_weights_key_t *k, size_t lo, size_t hi, size_t least,
                                double *buf, size_t *count)
{
    size_t m = 0;
    for (size_t i = lo; i <= hi; i++)
        if (isfinite(k[i].dev) && !k[i].moved && k[i].across == k[lo].across)
            buf[m++] = fabs(k[i].dev);
    *count = m;
    if (m < least)
        return NAN;
    gsl_sort(buf, 1, m);
    return expm1(FIT_WEIGHTS_MAD_SIGMA * gsl_stats_median_from_sorted_data(buf, 1, m));
}

/* Which triples run through a spike of spike[] (a lone one's own and its neighbours'; a
 * pair's two and their neighbours'), into k[].moved. */
static void fit_weights_mark_moved(fit_weights_key_t *k, size_t n, const unsigned char *spike)
{
    for (size_t i = 0; i < n; i++)
        k[i].moved = false;
    for (size_t i = 0; i < n; i++) {
        if (!spike[i])
            continue;
        size_t last = i + 1 + ((spike[i] & FIT_WEIGHTS_PAIR) != 0);
        for (size_t j = i > 0 ? i - 1 : i; j <= last && j < n; j++)
            k[j].moved = true;
    }
}

/* The scatter near k[i] (a fraction of t): the local scale over the triples centred within
 * FIT_WEIGHTS_REACH places, pooled with the whole series' (global), at least min_rel. */
static double fit_weights_near(const fit_weights_key_t *k, size_t i, size_t n, double global,
                               double min_rel, double *buf)
{
    size_t lo = i > FIT_WEIGHTS_REACH ? i - FIT_WEIGHTS_REACH : 0;
    size_t hi = i + FIT_WEIGHTS_REACH < n ? i + FIT_WEIGHTS_REACH : n - 1, nlocal = 0;
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
    return fmax(sqrt(var), min_rel);
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
           *applied = malloc((n ? n : 1) * sizeof *applied),
           (*off)[2] = malloc((n ? n : 1) * sizeof *off);
    /* At each sorted place: FIT_WEIGHTS_LONE, a spike alone; FIT_WEIGHTS_PAIR, the first of a
     * pair of spikes (fit_weights_spike_pair's distances in off). */
    unsigned char *spike = calloc(n ? n : 1, 1);
    double result = 0;
    if (!k || !buf || !applied || !off || !spike)
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
    size_t nglobal = 0;
    double global =
        n ? fit_weights_scale(k, 0, n - 1, FIT_WEIGHTS_MIN_TRIPLES, buf, &nglobal) : NAN;
    if (!isfinite(global))
        goto out; /* too few to tell: the errors stay as stated */
    /* A spike moves three triples (its own and its neighbours', whose lines run through it),
     * and two spikes within reach of each other six, which made the scatter near them as
     * large as their distance: in a noisy run two mpi.bcast points of 8 ms among 0.2 us
     * ones (4 and 16 B) were not found, set the scatter of every point up to 32 B at 120-1100
     * times their times, and the 0-byte case's standard error at 1.7 us on 5 ns. So the
     * candidates against the whole series' scatter first, then each confirmed against the
     * scatter near it without the triples any candidate moved, and the weights from the
     * scatter without those the confirmed ones moved. */
    for (size_t i = 0; i < n; i++)
        if (fit_weights_spike(k, i, n, fmax(global, min_rel)))
            spike[i] |= FIT_WEIGHTS_LONE;
    for (size_t i = 0; i + 1 < n; i++)
        if (fit_weights_spike_pair(k, i, n, fmax(global, min_rel), off[i]))
            spike[i] |= FIT_WEIGHTS_PAIR;
    fit_weights_mark_moved(k, n, spike);
    for (size_t i = 0; i < n; i++)
        if ((spike[i] & FIT_WEIGHTS_LONE) &&
            !fit_weights_spike(k, i, n, fit_weights_near(k, i, n, global, min_rel, buf)))
            spike[i] &= (unsigned char)~FIT_WEIGHTS_LONE;
    fit_weights_mark_moved(k, n, spike);
    for (size_t i = 0; i < n; i++) {
        double rel = fit_weights_near(k, i, n, global, min_rel, buf);
        applied[i] = rel;
        mb_fit_point_t *p = &pts[k[i].index];
        p->sd_ns = fmax(p->sd_ns, rel * p->t_ns);
    }
    for (size_t i = 0; i < n; i++) {
        if (spike[i] & FIT_WEIGHTS_LONE)
            fit_weights_mark_spike(&pts[k[i].index], k[i].off);
        for (size_t j = 0; (spike[i] & FIT_WEIGHTS_PAIR) && j < 2; j++)
            fit_weights_mark_spike(&pts[k[i + j].index], off[i][j]);
    }
    gsl_sort(applied, 1, n);
    result = gsl_stats_median_from_sorted_data(applied, 1, n);
out:
    free(spike);
    free(off);
    free(applied);
    free(buf);
    free(k);
    return result;
}
