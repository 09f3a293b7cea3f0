/* SPDX-License-Identifier: MIT */
/* How a collective's time grows with p: the step counts its algorithm implies, chosen on
 * held-out p (issue 13). A generic basis set over three p values fits anything and
 * extrapolates nothing; an algorithm's family (a binomial tree's ceil(log2 p) rounds of d
 * bytes, a ring's p - 1 steps moving (p - 1)/p of d ...) is what a model should carry to
 * p beyond the run, so the family is chosen by how well it predicts the largest p measured
 * from the smaller ones, and only then fitted on all of them (Thakur, Rabenseifner and
 * Gropp, "Optimization of collective communication operations in MPICH", 2005, give the
 * costs these families come from). */
#include "fit.h"
#include "fit_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Held-out errors closer than this (percentage points) are a tie, won by the earlier family:
 * two families that predict alike are not told apart by rounding. */
#define FIT_FAMILY_TIE_PCT 0.05

/* In order of preference on a tie: the simplest and most common algorithms first.
 * Recursive doubling with the fold of a p that is not a power of two (floor(log2 p) + 2
 * steps, Thakur et al.) was tried: on four -np 16 runs of a 16-core VM it predicted p = 16
 * worse than these for every collective (allreduce 17-27% against 11-15%), as Open MPI's
 * p = 5..7 took no longer than p = 8 there. */
const mb_fit_family_t mb_fit_families[MB_FIT_NFAMILIES] = {
    /* bcast, reduce: rounds of the whole message */
    {"binomial tree", MB_FIT_CLOG2P, MB_FIT_CLOG2PD},
    /* allreduce, barrier on powers of two */
    {"recursive doubling", MB_FIT_LOG2P, MB_FIT_LOG2PD},
    /* gather, scatter, allgather: log rounds, every block passes once */
    /* the generic law; before the ring's, which predict alike where it fits */
    {"linear in p", MB_FIT_P, MB_FIT_PD},
    {"binomial gather", MB_FIT_CLOG2P, MB_FIT_PM1D},
    /* large allreduce, bcast: reduce-scatter + allgather */
    {"Rabenseifner", MB_FIT_CLOG2P, MB_FIT_PFRACD},
    /* ring allreduce */
    {"ring (segmented)", MB_FIT_PM1, MB_FIT_PFRACD},
    /* ring allgather, pairwise alltoall, linear gather */
    {"ring / pairwise", MB_FIT_PM1, MB_FIT_PM1D},
    /* contention that grows with the pairs (alltoall on a shared bus) */
    {"quadratic in p", MB_FIT_P2, MB_FIT_P2D},
};

unsigned mb_fit_family_bases(const mb_fit_family_t *f)
{
    return MB_FIT_BIT(MB_FIT_ONE) | MB_FIT_BIT(MB_FIT_D) | MB_FIT_BIT(f->latency) |
           MB_FIT_BIT(f->bandwidth);
}

/* The median absolute percentage error of the family's fit on train at the held points. */
static double fit_family_error(const mb_fit_family_t *f, const mb_fit_point_t *train,
                               size_t ntrain, const mb_fit_point_t *held, size_t nheld,
                               double margin, double *ape)
{
    mb_fit_segments_t segs;
    char ignore[256];
    if (mb_fit_segments(train, ntrain, mb_fit_family_bases(f), margin, &segs, ignore,
                        sizeof ignore) != 0)
        return INFINITY;
    for (size_t i = 0; i < nheld; i++) {
        const mb_fit_model_t *m = &segs.seg[mb_fit_segments_pick(&segs, held[i].d)];
        double t = mb_fit_predict(m, held[i].p, held[i].d, NULL, NULL);
        ape[i] = 100.0 * fabs(t - held[i].t_ns) / held[i].t_ns;
    }
    gsl_sort(ape, 1, nheld);
    return gsl_stats_median_from_sorted_data(ape, 1, nheld);
}

int mb_fit_family_select(const mb_fit_point_t *pts, size_t n, double margin,
                         double error_pct[MB_FIT_NFAMILIES], double *largest_p, char *err,
                         size_t errlen)
{
    if (mb_fit_check_points(pts, n, err, errlen) != 0)
        return -1;
    double p_max = -INFINITY;
    for (size_t i = 0; i < n; i++)
        p_max = fmax(p_max, pts[i].p);
    /* Three distinct p at least: two to fit a p-dependence on, one to test it. */
    double p_seen[2] = {NAN, NAN};
    size_t np = 0;
    for (size_t i = 0; i < n && np < 2; i++)
        if (pts[i].p != p_max && pts[i].p != p_seen[0])
            p_seen[np++] = pts[i].p;
    if (np < 2) {
        snprintf(err, errlen, "fewer than 3 process counts: no p to hold out");
        return -1;
    }
    mb_fit_point_t *train = malloc(n * sizeof *train), *held = malloc(n * sizeof *held);
    double *ape = malloc(n * sizeof *ape);
    int best = -1;
    if (!train || !held || !ape) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    size_t ntrain = 0, nheld = 0;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p == p_max)
            held[nheld++] = pts[i];
        else
            train[ntrain++] = pts[i];
    }
    for (int f = 0; f < MB_FIT_NFAMILIES; f++) {
        error_pct[f] =
            fit_family_error(&mb_fit_families[f], train, ntrain, held, nheld, margin, ape);
        if (isfinite(error_pct[f]) &&
            (best < 0 || error_pct[f] < error_pct[best] - FIT_FAMILY_TIE_PCT))
            best = f;
    }
    *largest_p = p_max;
    if (best < 0)
        snprintf(err, errlen, "no family could be fitted on the %zu points below p = %g",
                 ntrain, p_max);
out:
    free(ape);
    free(held);
    free(train);
    return best;
}
