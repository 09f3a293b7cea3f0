/* SPDX-License-Identifier: MIT */
/* Weighted least squares over small sets of bases (GSL's truncated SVD, which also tells
 * the rank), model choice by BIC, prediction with its standard error. Breaks in d:
 * fit_segments.c. */
#include "fit.h"
#include "fit_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Singular values below this fraction of the largest (columns scaled to max |x| = 1)
 * count as zero: the subset is collinear on the data and is refused. */
#define FIT_RANK_TOL 1e-10
/* 1 - cos^2 below this: two bases are proportional on the data. */
#define FIT_PROPORTIONAL_TOL 1e-12
/* BIC values closer than this (relative) are a tie, won by the earlier (fewer terms). */
#define FIT_TIE_TOL 1e-9
/* Q counts no point as more than this many standard errors off: a shared machine's
 * medians have heavier tails than a Gaussian (one interrupted point lies 10 sd off), and
 * one such point would make Q condemn a model every other point agrees with. For Gaussian
 * scatter the capped chi2 is 0.7% below the plain one on average: Q stays honest. */
#define FIT_Q_CLIP_SD 3.0

static const char *const fit_basis_names[MB_FIT_NBASES] = {
    "1",           "p",   "log2(p)",         "p^2",     "d",         "p*d", "log2(p)*d",
    "p^2*d",       "ceil(log2(p))", "(p-1)", "ceil(log2(p))*d", "(p-1)*d", "(p-1)/p*d",
};

/* Rounds of a binomial tree over p ranks: the least k with 2^k >= p (log2 of a power of
 * two is exact; the tolerance only absorbs rounding elsewhere). */
static double fit_ceil_log2(double p)
{
    return ceil(log2(p) - 1e-9);
}

const char *mb_fit_basis_name(mb_fit_basis_t b)
{
    return (unsigned)b < MB_FIT_NBASES ? fit_basis_names[b] : "?";
}

int mb_fit_basis_parse(const char *name)
{
    for (int b = 0; name && b < MB_FIT_NBASES; b++)
        if (strcmp(name, fit_basis_names[b]) == 0)
            return b;
    return -1;
}

double mb_fit_basis_eval(mb_fit_basis_t b, double p, double d)
{
    switch (b) {
    case MB_FIT_ONE: return 1.0;
    case MB_FIT_P: return p;
    case MB_FIT_LOG2P: return log2(p);
    case MB_FIT_P2: return p * p;
    case MB_FIT_D: return d;
    case MB_FIT_PD: return p * d;
    case MB_FIT_LOG2PD: return log2(p) * d;
    case MB_FIT_P2D: return p * p * d;
    case MB_FIT_CLOG2P: return fit_ceil_log2(p);
    case MB_FIT_PM1: return p - 1;
    case MB_FIT_CLOG2PD: return fit_ceil_log2(p) * d;
    case MB_FIT_PM1D: return (p - 1) * d;
    case MB_FIT_PFRACD: return (p - 1) / p * d;
    default: return NAN;
    }
}

int mb_fit_check_points(const mb_fit_point_t *pts, size_t n, char *err, size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "no points");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const mb_fit_point_t *q = &pts[i];
        if (!(isfinite(q->p) && q->p >= 1 && isfinite(q->d) && q->d >= 0 && isfinite(q->t_ns) &&
              isfinite(q->sd_ns) && q->sd_ns > 0)) {
            snprintf(err, errlen, "point %zu (p=%g, d=%g, t=%g ns, sd=%g ns) is not usable", i,
                     q->p, q->d, q->t_ns, q->sd_ns);
            return -1;
        }
    }
    return 0;
}

static void fit_range_of(const mb_fit_point_t *pts, size_t n, mb_fit_model_t *m)
{
    m->p_min = m->d_min = INFINITY;
    m->p_max = m->d_max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        m->p_min = fmin(m->p_min, pts[i].p);
        m->p_max = fmax(m->p_max, pts[i].p);
        m->d_min = fmin(m->d_min, pts[i].d);
        m->d_max = fmax(m->d_max, pts[i].d);
    }
}

/* Every basis evaluated on every point once (col[b * n + i]), with each column's largest
 * |value| for scaling, and GSL buffers sized for up to three terms, reused across fits. */
typedef struct fit_design {
    const mb_fit_point_t *pts;
    size_t n;
    double *col;
    double colmax[MB_FIT_NBASES];
    gsl_matrix *x, *cov;
    gsl_vector *w, *y, *c;
    gsl_multifit_linear_workspace *work;
} fit_design_t;

static void fit_design_free(fit_design_t *ds)
{
    gsl_multifit_linear_free(ds->work);
    gsl_vector_free(ds->c);
    gsl_vector_free(ds->y);
    gsl_vector_free(ds->w);
    gsl_matrix_free(ds->cov);
    gsl_matrix_free(ds->x);
    free(ds->col);
    memset(ds, 0, sizeof *ds);
}

/* n >= 1 valid points. */
static int fit_design_init(fit_design_t *ds, const mb_fit_point_t *pts, size_t n, char *err,
                           size_t errlen)
{
    memset(ds, 0, sizeof *ds);
    ds->pts = pts;
    ds->n = n;
    ds->col = malloc(MB_FIT_NBASES * n * sizeof *ds->col);
    ds->x = gsl_matrix_alloc(n, MB_FIT_MAX_TERMS);
    ds->cov = gsl_matrix_alloc(MB_FIT_MAX_TERMS, MB_FIT_MAX_TERMS);
    ds->w = gsl_vector_alloc(n);
    ds->y = gsl_vector_alloc(n);
    ds->c = gsl_vector_alloc(MB_FIT_MAX_TERMS);
    ds->work = gsl_multifit_linear_alloc(n, MB_FIT_MAX_TERMS);
    if (!ds->col || !ds->x || !ds->cov || !ds->w || !ds->y || !ds->c || !ds->work) {
        fit_design_free(ds);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int b = 0; b < MB_FIT_NBASES; b++) {
        ds->colmax[b] = 0;
        for (size_t i = 0; i < n; i++) {
            double v = mb_fit_basis_eval(b, pts[i].p, pts[i].d);
            ds->col[b * n + i] = v;
            ds->colmax[b] = fmax(ds->colmax[b], fabs(v));
        }
    }
    for (size_t i = 0; i < n; i++) {
        gsl_vector_set(ds->y, i, pts[i].t_ns);
        gsl_vector_set(ds->w, i, 1.0 / (pts[i].sd_ns * pts[i].sd_ns));
    }
    return 0;
}

/* See mb_fit_usable_bases. */
static unsigned fit_design_usable(const fit_design_t *ds, unsigned allowed)
{
    unsigned kept = 0;
    size_t n = ds->n;
    for (int b = 0; b < MB_FIT_NBASES; b++) {
        if (!(allowed & MB_FIT_BIT(b)) || !(ds->colmax[b] > 0))
            continue;
        /* compare scaled columns so that 1 - cos^2 is not lost in huge magnitudes */
        const double *x = ds->col + (size_t)b * n;
        double bb = 0;
        for (size_t i = 0; i < n; i++)
            bb += (x[i] / ds->colmax[b]) * (x[i] / ds->colmax[b]);
        bool redundant = false;
        for (int c = 0; c < b && !redundant; c++) {
            if (!(kept & MB_FIT_BIT(c)))
                continue;
            const double *y = ds->col + (size_t)c * n;
            double cc = 0, bc = 0;
            for (size_t i = 0; i < n; i++) {
                double u = x[i] / ds->colmax[b], v = y[i] / ds->colmax[c];
                cc += v * v;
                bc += u * v;
            }
            redundant = 1.0 - bc * bc / (bb * cc) < FIT_PROPORTIONAL_TOL;
        }
        if (!redundant)
            kept |= MB_FIT_BIT(b);
    }
    return kept;
}

unsigned mb_fit_usable_bases(const mb_fit_point_t *pts, size_t n, unsigned allowed)
{
    fit_design_t ds;
    char err[64];
    if (n == 0 || fit_design_init(&ds, pts, n, err, sizeof err) != 0)
        return 0;
    unsigned kept = fit_design_usable(&ds, allowed);
    fit_design_free(&ds);
    return kept;
}

static int fit_design_solve(fit_design_t *ds, const mb_fit_basis_t *basis, size_t k,
                            mb_fit_model_t *out, char *err, size_t errlen)
{
    size_t n = ds->n;
    if (k == 0 || k > MB_FIT_MAX_TERMS) {
        snprintf(err, errlen, "a model has 1 to %d terms, not %zu", MB_FIT_MAX_TERMS, k);
        return -1;
    }
    if (n <= k) {
        snprintf(err, errlen, "%zu points cannot fit %zu terms with a degree of freedom left", n,
                 k);
        return -1;
    }
    /* Columns scaled to max |x| = 1: d reaches 1e6 and p^2*d 1e10, and the rank tolerance
     * is relative. */
    double scale[MB_FIT_MAX_TERMS];
    gsl_matrix_view x = gsl_matrix_submatrix(ds->x, 0, 0, n, k);
    gsl_matrix_view cov = gsl_matrix_submatrix(ds->cov, 0, 0, k, k);
    gsl_vector_view c = gsl_vector_subvector(ds->c, 0, k);
    for (size_t j = 0; j < k; j++) {
        scale[j] = ds->colmax[basis[j]];
        if (!(scale[j] > 0) || !isfinite(scale[j])) {
            snprintf(err, errlen, "basis %s is zero on the points", mb_fit_basis_name(basis[j]));
            return -1;
        }
        const double *col = ds->col + (size_t)basis[j] * n;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(&x.matrix, i, j, col[i] / scale[j]);
    }
    double chi2 = 0;
    size_t rank = 0;
    gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
    int rc = gsl_multifit_wlinear_tsvd(&x.matrix, ds->w, ds->y, FIT_RANK_TOL, &c.vector,
                                       &cov.matrix, &chi2, &rank, ds->work);
    gsl_set_error_handler(old_handler);
    if (rc != GSL_SUCCESS) {
        snprintf(err, errlen, "least squares failed: %s", gsl_strerror(rc));
        return -1;
    }
    if (rank < k) {
        snprintf(err, errlen, "the %zu bases are collinear on the points (rank %zu)", k, rank);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->k = k;
    out->n = n;
    out->chi2 = chi2;
    out->dof = n - k;
    double chi2_capped = 0;
    for (size_t i = 0; i < n; i++) {
        double r = gsl_vector_get(ds->y, i);
        for (size_t j = 0; j < k; j++)
            r -= gsl_matrix_get(&x.matrix, i, j) * gsl_vector_get(&c.vector, j);
        chi2_capped += fmin(r * r * gsl_vector_get(ds->w, i), FIT_Q_CLIP_SD * FIT_Q_CLIP_SD);
    }
    out->q = gsl_cdf_chisq_Q(chi2_capped, (double)out->dof);
    out->bic = chi2 + (double)k * log((double)n);
    /* The covariance assumes the weights are the true variances. When chi2/dof > 1 the
     * model misses real structure, so stretch the error bars to the scatter actually
     * seen (the usual reduced-chi2 scaling); se_raw keeps the unscaled value. */
    double inflate = fmax(1.0, chi2 / (double)out->dof);
    for (size_t j = 0; j < k; j++) {
        out->basis[j] = basis[j];
        out->coef[j] = gsl_vector_get(&c.vector, j) / scale[j];
        for (size_t l = 0; l < k; l++)
            out->cov[j][l] = inflate * gsl_matrix_get(&cov.matrix, j, l) / (scale[j] * scale[l]);
        out->se_raw[j] = sqrt(gsl_matrix_get(&cov.matrix, j, j)) / scale[j];
        out->se[j] = sqrt(out->cov[j][j]);
    }
    fit_range_of(ds->pts, n, out);
    return 0;
}

int mb_fit_model(const mb_fit_point_t *pts, size_t n, const mb_fit_basis_t *basis, size_t k,
                 mb_fit_model_t *out, char *err, size_t errlen)
{
    if (n <= k) {
        snprintf(err, errlen, "%zu points cannot fit %zu terms with a degree of freedom left", n,
                 k);
        return -1;
    }
    fit_design_t ds;
    if (mb_fit_check_points(pts, n, err, errlen) != 0 ||
        fit_design_init(&ds, pts, n, err, errlen) != 0)
        return -1;
    int rc = fit_design_solve(&ds, basis, k, out, err, errlen);
    fit_design_free(&ds);
    return rc;
}

/* A time is a sum of costs: a model with a negative term is not a candidate (the subsets
 * without that term are), so the choice is a non-negative least squares over at most
 * MB_FIT_MAX_TERMS terms. */
static bool fit_nonnegative(const mb_fit_model_t *m, char *err, size_t errlen)
{
    for (size_t j = 0; j < m->k; j++)
        if (m->coef[j] < 0) {
            snprintf(err, errlen, "the fit of %s has a negative coefficient",
                     mb_fit_basis_name(m->basis[j]));
            return false;
        }
    return true;
}

/* Best subset with BIC = chi2 + k * penalty. */
int mb_fit_select_penalty(const mb_fit_point_t *pts, size_t n, unsigned allowed, double penalty,
                          mb_fit_model_t *out, char *err, size_t errlen)
{
    fit_design_t ds;
    if (mb_fit_check_points(pts, n, err, errlen) != 0 ||
        fit_design_init(&ds, pts, n, err, errlen) != 0)
        return -1;
    unsigned usable = fit_design_usable(&ds, allowed);
    mb_fit_basis_t list[MB_FIT_NBASES];
    size_t nb = 0;
    for (int b = 0; b < MB_FIT_NBASES; b++)
        if (usable & MB_FIT_BIT(b))
            list[nb++] = (mb_fit_basis_t)b;

    int found = 0;
    char last_err[256] = "no usable basis";
    /* Fewer terms first, so that a tie keeps the smaller model. */
    for (size_t k = 1; k <= MB_FIT_MAX_TERMS && k < n; k++) {
        size_t idx[MB_FIT_MAX_TERMS];
        for (size_t j = 0; j < k; j++)
            idx[j] = j;
        while (k <= nb) {
            mb_fit_basis_t sub[MB_FIT_MAX_TERMS];
            for (size_t j = 0; j < k; j++)
                sub[j] = list[idx[j]];
            mb_fit_model_t m;
            if (fit_design_solve(&ds, sub, k, &m, last_err, sizeof last_err) == 0 &&
                fit_nonnegative(&m, last_err, sizeof last_err)) {
                m.bic = m.chi2 + (double)k * penalty;
                if (!found || m.bic < out->bic - FIT_TIE_TOL * fmax(1.0, fabs(out->bic))) {
                    *out = m;
                    found = 1;
                }
            }
            /* next k-combination of 0..nb-1 */
            size_t j = k;
            while (j > 0 && idx[j - 1] == nb - k + j - 1)
                j--;
            if (j == 0)
                break;
            idx[j - 1]++;
            for (size_t l = j; l < k; l++)
                idx[l] = idx[l - 1] + 1;
        }
    }
    fit_design_free(&ds);
    if (!found) {
        snprintf(err, errlen, "no model fits %zu points: %s", n, last_err);
        return -1;
    }
    return 0;
}

int mb_fit_select(const mb_fit_point_t *pts, size_t n, unsigned allowed, mb_fit_model_t *out,
                  char *err, size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "no points");
        return -1;
    }
    return mb_fit_select_penalty(pts, n, allowed, log((double)n), out, err, errlen);
}

int mb_fit_one_size(const mb_fit_point_t *pts, size_t n, unsigned allowed, mb_fit_model_t *out,
                    char *err, size_t errlen)
{
    if (mb_fit_check_points(pts, n, err, errlen) != 0)
        return -1;
    for (size_t i = 1; i < n; i++)
        if (pts[i].d != pts[0].d) {
            snprintf(err, errlen, "one size's model given points at d = %g and %g", pts[0].d,
                     pts[i].d);
            return -1;
        }
    /* Two or more: the best model over p (only the constant when p does not vary, as the
     * d bases are zero or proportional to it on them). */
    if (n >= 2)
        return mb_fit_select(pts, n, allowed | MB_FIT_BIT(MB_FIT_ONE), out, err, errlen);
    /* One point: its time, with nothing left to test it. */
    memset(out, 0, sizeof *out);
    out->k = 1;
    out->basis[0] = MB_FIT_ONE;
    out->coef[0] = pts[0].t_ns;
    out->se[0] = out->se_raw[0] = pts[0].sd_ns;
    out->cov[0][0] = pts[0].sd_ns * pts[0].sd_ns;
    out->n = 1;
    out->q = NAN;
    fit_range_of(pts, n, out);
    return 0;
}

double mb_fit_predict(const mb_fit_model_t *m, double p, double d, double *se_ns, bool *outside)
{
    double f[MB_FIT_MAX_TERMS], t = 0, var = 0;
    for (size_t j = 0; j < m->k; j++) {
        f[j] = mb_fit_basis_eval(m->basis[j], p, d);
        t += m->coef[j] * f[j];
    }
    for (size_t j = 0; j < m->k; j++)
        for (size_t l = 0; l < m->k; l++)
            var += f[j] * m->cov[j][l] * f[l];
    if (se_ns)
        *se_ns = sqrt(fmax(var, 0.0));
    if (outside)
        *outside = p < m->p_min || p > m->p_max || d < m->d_min || d > m->d_max;
    return t;
}
