/* SPDX-License-Identifier: MIT */
/* Performance models of measured times (seed 001's "Time (us)" and "Goodness of fit (Q)"
 * columns): t(p, d) = sum of at most three terms c_i * f_i(p, d), p the process count and d
 * the message size in bytes, fitted by weighted least squares (weights 1 / sd^2, GSL).
 * The subset of bases is chosen by BIC = chi2 + k ln n (k terms, n points; ties go to fewer
 * terms), among the subsets whose coefficients are all >= 0: a time is a sum of costs, so a
 * model with a negative term (a time falling with d, a negative start-up) is not a
 * candidate. Protocol switches show as breaks in d (segments).
 * No MPI and no JSON here: see fit_results.h for applying it to a results document. */
#ifndef MB_FIT_H
#define MB_FIT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum mb_fit_basis {
    MB_FIT_ONE,    /* "1" */
    MB_FIT_P,      /* "p" */
    MB_FIT_LOG2P,  /* "log2(p)" */
    MB_FIT_P2,     /* "p^2" */
    MB_FIT_D,      /* "d" */
    MB_FIT_PD,     /* "p*d" */
    MB_FIT_LOG2PD, /* "log2(p)*d" */
    MB_FIT_P2D,    /* "p^2*d" */
    /* The step counts of collective algorithms (fit_family.c): a binomial tree's rounds,
     * a ring's or a pairwise exchange's steps, and the share of d a reduce-scatter or an
     * allgather phase moves. */
    MB_FIT_CLOG2P,  /* "ceil(log2(p))" */
    MB_FIT_PM1,     /* "(p-1)" */
    MB_FIT_CLOG2PD, /* "ceil(log2(p))*d" */
    MB_FIT_PM1D,    /* "(p-1)*d" */
    MB_FIT_PFRACD,  /* "(p-1)/p*d" */
    MB_FIT_NBASES
} mb_fit_basis_t;

#define MB_FIT_BIT(b) (1u << (b))
/* The generic bases (the first eight): what a series with fewer than 3 process counts is
 * fitted with, as no held-out p can choose an algorithm's family there. */
#define MB_FIT_GENERIC ((1u << (MB_FIT_P2D + 1)) - 1u)
#define MB_FIT_MAX_TERMS 3
/* The breaks BIC may buy: Open MPI over shared memory alone switches protocol three times
 * (inline, eager, single-copy rendezvous) and the copies change pace as a message outgrows
 * L1, L2 and the LLC. With 4, 38 of the 110 fits of five -np 2 runs stopped at the limit
 * and 17 of them buy a fifth break when allowed (mpi.pingpong 4 KiB..512 KiB: Q 6e-5 in one
 * line, 0.58 with a break at 48 KiB); with 6, 3 of the 110 reach it. */
#define MB_FIT_MAX_BREAKS 6
#define MB_FIT_MAX_SEGMENTS (MB_FIT_MAX_BREAKS + 1)
#define MB_FIT_SEGMENT_MIN_SIZES 4 /* distinct d values a segment needs, spanning an octave */
#define MB_FIT_BREAK_MARGIN 10.0   /* BIC a break must save, beyond its own ln N */

typedef struct mb_fit_point {
    double p;     /* process count, >= 1 */
    double d;     /* message size, bytes, >= 0 */
    double t_ns;  /* measured time (the median) */
    double sd_ns; /* its standard error, > 0 */
    bool spike;   /* mb_fit_scatter_weights: alone off its neighbours' line, its sd that far */
    bool imprecise; /* its own CI far wider than its series' usual: never a size's own case */
} mb_fit_point_t;

typedef struct mb_fit_model {
    size_t k; /* terms */
    mb_fit_basis_t basis[MB_FIT_MAX_TERMS];
    double coef[MB_FIT_MAX_TERMS];   /* ns per unit of the basis */
    double se[MB_FIT_MAX_TERMS];     /* standard error, scaled by sqrt(chi2/dof) when that is > 1 */
    double se_raw[MB_FIT_MAX_TERMS]; /* from the weights alone (unscaled covariance) */
    double cov[MB_FIT_MAX_TERMS][MB_FIT_MAX_TERMS]; /* covariance, scaled like se */
    double chi2;
    size_t dof; /* n - k, >= 1 (0 for a 0-byte constant from one point) */
    double q;   /* P(chi2' >= chi2) for chi2' ~ chi-squared(dof), each point's share of chi2
                 * capped at 3^2 (one outlier does not condemn a model the rest agree with):
                 * near 0 means a poor model */
    double bic; /* chi2 + k * penalty (ln n unless said otherwise) */
    size_t n;   /* points fitted */
    double p_min, p_max, d_min, d_max; /* range of the fitted points */
} mb_fit_model_t;

typedef struct mb_fit_segments {
    size_t count; /* 1 .. MB_FIT_MAX_SEGMENTS, in increasing d */
    mb_fit_model_t seg[MB_FIT_MAX_SEGMENTS];
    double bic;        /* sum of chi2 / dispersion + k ln N over segments, + ln N per break */
    double dispersion; /* the most detailed candidate's, at least 1; see mb_fit_segments */
} mb_fit_segments_t;

/* The basis's name: "1", "p", "log2(p)", "p^2", "d", "p*d", "log2(p)*d", "p^2*d". */
const char *mb_fit_basis_name(mb_fit_basis_t b);

/* The basis with that name, or -1 when there is none. */
int mb_fit_basis_parse(const char *name);

/* f_b(p, d). */
double mb_fit_basis_eval(mb_fit_basis_t b, double p, double d);

/* The bases of `allowed` (a mask of MB_FIT_BIT) that are identifiable on these points: a
 * basis that is zero on every point, or proportional to one kept before it (in enum
 * order), is dropped; e.g. p fixed leaves only {1, d}, one d value only the p-bases. */
unsigned mb_fit_usable_bases(const mb_fit_point_t *pts, size_t n, unsigned allowed);

/* Fit exactly these k bases. Returns 0, or -1 with err when n <= k, a point is invalid
 * or the bases are collinear on the points. */
int mb_fit_model(const mb_fit_point_t *pts, size_t n, const mb_fit_basis_t *basis, size_t k,
                 mb_fit_model_t *out, char *err, size_t errlen);

/* The best model by BIC over all subsets of 1..3 usable bases of `allowed` that leave
 * dof >= 1 and whose coefficients are all >= 0. Returns 0, or -1 with err when none can be
 * fitted. */
int mb_fit_select(const mb_fit_point_t *pts, size_t n, unsigned allowed, mb_fit_model_t *out,
                  char *err, size_t errlen);

/* Piecewise models over d (protocol switches), each segment >= MB_FIT_SEGMENT_MIN_SIZES
 * distinct d spanning an octave (its largest d at least twice its smallest positive one),
 * with its own mb_fit_select model (penalty ln N, N all points). Candidates: the whole,
 * then each candidate with the single cut of one of its segments that lowers the summed
 * BIC most (binary segmentation, at most MB_FIT_MAX_BREAKS breaks), each break then moved
 * to the best cut between its neighbours until none moves. A candidate is kept when
 * its total BIC, chi2 / c + (terms + breaks) ln N, is more than `margin` below the
 * simpler one's; c, the most detailed candidate's median squared standardised residual
 * over chi-squared(1)'s median (times n / (n - terms)), at least 1, discounts scatter beyond
 * the stated errors (quasi-likelihood BIC; c = 1 for honest error bars) and, unlike chi2/dof,
 * is not set by one stretch that no line fits. The whole series keeps the segments' rule
 * where it has any d > 0 (one at 0 bytes alone is a model over p).
 * The smallest size may instead be its own case (mb_fit_one_size) before segments of the
 * rest, as 0 bytes are: an MPI may send its smallest messages by another algorithm (Open
 * MPI 4.1's tuned MPI_Gather on fewer than 4 ranks synchronises below 2 bytes: its 1-byte
 * gather read 1.26-1.71 times its 2- and 4-byte ones in eight default runs at -np 2), and
 * no segment of 4 sizes can hold one size apart. It is, when its size is above 0, none of
 * its points is imprecise, the rest keep the segments' rule, and the case with the rest's
 * best candidate (one more break) lowers the total BIC by more than `margin` (same c).
 * Returns 0, or -1 with err. */
int mb_fit_segments(const mb_fit_point_t *pts, size_t n, unsigned allowed, double margin,
                    mb_fit_segments_t *out, char *err, size_t errlen);

/* The segment used for size d: the last one whose d_min <= d (the first below its range). */
size_t mb_fit_segments_pick(const mb_fit_segments_t *s, double d);

/* Where the MPI library says its messages change protocol (its eager limits, in bytes,
 * system.mpi.protocol_limits): NULL or n = 0 for none known. */
typedef struct mb_fit_limits {
    const double *bytes;
    size_t n;
} mb_fit_limits_t;

/* A break between two measured sizes, the last of one segment (d_a) and the first of the
 * next (d_b), with exactly one limit L such that d_a < L < d_b: the next segment starts at
 * L (its d_min), not at d_b, so that a size in between is given the protocol the library
 * sends it by (mb_fit_segments_pick). Open MPI's shared memory sends 4096 B and more by
 * rendezvous (btl_vader_eager_limit 4096, the header included); fitted without a 4096-byte
 * point, the segment above began at the next size measured, 6144, and 4096 was predicted
 * from the eager line, 85% under. */
void mb_fit_segments_place_breaks(mb_fit_segments_t *s, const mb_fit_limits_t *limits);

/* Holdout check, by 4-fold cross-validation over the sizes: the distinct sizes, in order,
 * go to MB_FIT_HOLDOUT_FOLDS folds of every fourth size (indices 0, 4, 8, ...; 1, 5, 9, ...;
 * ...); for each fold, mb_fit_segments is fitted on the points left after holding out the
 * fold's sizes and, with >= 3 distinct p, the largest p, and predicts the fold's points.
 * *mape_pct gets the median absolute percentage error over all the folds' predictions
 * (every point predicted once, by a fit that never saw it) and *n_held their count. One
 * fold alone (every fourth size from index 3, as before) judged a quarter of the points:
 * refitting fourteen stored runs of the 2-vCPU VM, its count of point-to-point fits over 5%
 * differed from the four folds' by -4 to +3 from run to run. With min_rel > 0 the points
 * carry their errors as measured and the training points' are raised by
 * mb_fit_scatter_weights(training points, min_rel): the weights are part of the fit, so the
 * held-out points have no say in them (with 0 the errors are used as given). The training
 * fits' breaks are placed at limits as the whole fit's are (mb_fit_segments_place_breaks).
 * Returns 0, or -1 with err (fewer sizes than folds, or no fit). */
#define MB_FIT_HOLDOUT_FOLDS 4
int mb_fit_holdout(const mb_fit_point_t *pts, size_t n, unsigned allowed, double margin,
                   double min_rel, const mb_fit_limits_t *limits, double *mape_pct, size_t *n_held,
                   char *err, size_t errlen);

/* Raise each point's sd to the scatter its neighbours show, so that chi2 measures the
 * model's misfit, not the machine's run-to-run noise, and Q can tell a right model from a
 * wrong one (fit_weights.c). The scatter near a point is 1.4826 x the median, over the
 * triples of consecutive points centred within 5 places of it (along d at each p, or along
 * p when d does not vary), of the middle point's distance in log t from its neighbours'
 * line, corrected for the neighbours' own scatter, pooled with the whole series' (as 10
 * triples more): robust to a protocol step or a knee, which move few triples, and blind to
 * smooth curvature, which a wrong model leaves in its residuals. Every sd is at least
 * min_rel x t. A spike, a point off its neighbours' line by more than 4 times that scatter
 * while each neighbour lies off its own line the other way by 1/4 to 3/4 of its distance
 * (what one point measured in a burst of the host's noise does to them; a step moves the
 * two points beside it alike and not those beyond), is marked and gets its distance from
 * that line as its sd: it no longer pulls the fit, nor counts as the model's misfit. So
 * are two neighbouring points off together that line through the points either side of
 * them by more than 6 times the series' scatter, the same way, while the points beside them
 * lie on lines over the pair (fit_weights_spike_pair). A spike moves the triples through it,
 * so spikes are looked for against the whole series' scatter, each then confirmed against
 * the scatter near it without the triples any of them moved, and the weights leave out
 * those the confirmed ones moved: two spikes within reach of each other no longer hide each
 * other nor swell their neighbours' errors.
 * Returns the median relative floor applied, or 0 (only min_rel applied, no spike marked)
 * with fewer than 5 triples in all. */
double mb_fit_scatter_weights(mb_fit_point_t *pts, size_t n, double min_rel);

/* One size's own model, a case apart from the segments: the 0-byte points (an MPI may
 * short-cut an empty message, so d = 0 is no point of the segments' lines) or the smallest
 * size's (mb_fit_segments). mb_fit_select of `allowed` over two or more (over p where p
 * varies, else a constant), a single point's time as a constant with dof 0 and Q NaN. All
 * points must have the same d. Returns 0, or -1 with err. */
int mb_fit_one_size(const mb_fit_point_t *pts, size_t n, unsigned allowed, mb_fit_model_t *out,
                    char *err, size_t errlen);

/* A collective algorithm's family of p-dependence: t = c0 + c_lat * f_lat(p) + c_bw *
 * f_bw(p) * d (+ c_d * d), the terms any of which BIC may drop (fit_family.c). */
typedef struct mb_fit_family {
    const char *name;       /* "binomial tree", "ring", ... */
    mb_fit_basis_t latency; /* f_lat(p): rounds of start-up cost */
    mb_fit_basis_t bandwidth; /* f_bw(p) * d: bytes each rank moves in sequence */
} mb_fit_family_t;

#define MB_FIT_NFAMILIES 8
extern const mb_fit_family_t mb_fit_families[MB_FIT_NFAMILIES];

/* The mask a family's fit chooses from: 1, its two bases, and d. */
unsigned mb_fit_family_bases(const mb_fit_family_t *f);

/* The family chosen on held-out p: with at least 3 distinct p (among points with d > 0),
 * each family's mb_fit_segments on the points with p below the largest predicts the points
 * at the largest p, and the family with the smallest median absolute percentage error of
 * those predictions wins (ties go to the earlier one). error_pct[f] gets each family's
 * error (INFINITY when it could not be fitted), *largest_p the p held out. Returns the
 * winner's index, or -1 with err (fewer than 3 p, or no family fitted). */
int mb_fit_family_select(const mb_fit_point_t *pts, size_t n, double margin,
                         double error_pct[MB_FIT_NFAMILIES], double *largest_p, char *err,
                         size_t errlen);

/* The model's prediction at (p, d); *se_ns (may be NULL) its standard error from the
 * covariance; *outside (may be NULL) whether (p, d) lies outside the fitted range. */
double mb_fit_predict(const mb_fit_model_t *m, double p, double d, double *se_ns, bool *outside);

#endif
