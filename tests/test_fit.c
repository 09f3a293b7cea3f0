/* SPDX-License-Identifier: MIT */
/* The fitter against synthetic data with known coefficients: Gaussian noise of the stated
 * standard error from a fixed-seed GSL generator, so every run sees the same numbers.
 * The fitter applied to results documents is test_fit_results.c's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>

#include "fit.h"

#define MAXPTS 512
#define SEED 20261121UL

/* The sweep mpi.pingpong uses: 0, then powers of two and their midpoints up to top. */
static size_t sizes(double *out, double top)
{
    size_t n = 0;
    out[n++] = 0;
    for (double p = 1; p <= top; p *= 2) {
        out[n++] = p;
        if (p >= 2 && p * 1.5 <= top)
            out[n++] = p * 1.5;
    }
    return n;
}

typedef struct truth {
    size_t k;
    mb_fit_basis_t basis[MB_FIT_MAX_TERMS];
    double coef[MB_FIT_MAX_TERMS];
} truth_t;

static double truth_eval(const truth_t *t, double p, double d)
{
    double v = 0;
    for (size_t j = 0; j < t->k; j++)
        v += t->coef[j] * mb_fit_basis_eval(t->basis[j], p, d);
    return v;
}

/* Points on the grid ps x ds, sd = rel * t, noise of that sd (none when r is NULL). */
static size_t make_points(mb_fit_point_t *pts, const truth_t *t, const double *ps, size_t np,
                          const double *ds, size_t nd, double rel, gsl_rng *r)
{
    size_t n = 0;
    for (size_t i = 0; i < np; i++)
        for (size_t j = 0; j < nd; j++) {
            double v = truth_eval(t, ps[i], ds[j]), sd = rel * v;
            pts[n++] = (mb_fit_point_t){ps[i], ds[j], v + (r ? gsl_ran_gaussian(r, sd) : 0), sd};
        }
    return n;
}

static unsigned mask_of(const mb_fit_basis_t *b, size_t k)
{
    unsigned m = 0;
    for (size_t j = 0; j < k; j++)
        m |= MB_FIT_BIT(b[j]);
    return m;
}

static void check_recovered(const truth_t *t, const mb_fit_model_t *m, const char *what)
{
    if (mask_of(m->basis, m->k) != mask_of(t->basis, t->k)) {
        char got[128] = "";
        for (size_t j = 0; j < m->k; j++)
            snprintf(got + strlen(got), sizeof got - strlen(got), " %s",
                     mb_fit_basis_name(m->basis[j]));
        fail_msg("%s: chose{%s } (chi2 %g, dof %zu)", what, got, m->chi2, m->dof);
    }
    for (size_t j = 0; j < m->k; j++)
        for (size_t l = 0; l < t->k; l++)
            if (m->basis[j] == t->basis[l] && fabs(m->coef[j] - t->coef[l]) > 3 * m->se[j])
                fail_msg("%s: %s coef %g, true %g, stderr %g", what, mb_fit_basis_name(m->basis[j]),
                         m->coef[j], t->coef[l], m->se[j]);
}

static void test_basis_names(void **state)
{
    (void)state;
    static const char *const names[] = {"1", "p",   "log2(p)",   "p^2",
                                        "d", "p*d", "log2(p)*d", "p^2*d"};
    for (int b = 0; b < MB_FIT_NBASES; b++) {
        assert_string_equal(mb_fit_basis_name(b), names[b]);
        assert_int_equal(mb_fit_basis_parse(names[b]), b);
    }
    assert_int_equal(mb_fit_basis_parse("p^3"), -1);
    assert_true(fabs(mb_fit_basis_eval(MB_FIT_LOG2PD, 8, 10) - 30) < 1e-12);
    assert_true(fabs(mb_fit_basis_eval(MB_FIT_P2D, 3, 10) - 90) < 1e-12);
}

static void test_usable_bases(void **state)
{
    (void)state;
    mb_fit_point_t pts[MAXPTS];
    double ds[64], ps[] = {2, 3, 4, 8, 16};
    size_t nd = sizes(ds, 65536);
    truth_t t = {2, {MB_FIT_ONE, MB_FIT_D}, {500, 0.1}};
    /* point-to-point: p fixed */
    size_t n = make_points(pts, &t, ps, 1, ds, nd, 0.01, NULL);
    assert_int_equal(mb_fit_usable_bases(pts, n, MB_FIT_ALL),
                     MB_FIT_BIT(MB_FIT_ONE) | MB_FIT_BIT(MB_FIT_D));
    /* one nonzero size: the p-bases */
    double d1[] = {1024};
    n = make_points(pts, &t, ps, 5, d1, 1, 0.01, NULL);
    assert_int_equal(mb_fit_usable_bases(pts, n, MB_FIT_ALL), 0xfu);
    /* size 0 only (barrier): the same */
    double d0[] = {0};
    n = make_points(pts, &t, ps, 5, d0, 1, 0.01, NULL);
    assert_int_equal(mb_fit_usable_bases(pts, n, MB_FIT_ALL), 0xfu);
    /* two p values: p and log2(p) proportional on {2, 4} */
    double p24[] = {2, 4};
    n = make_points(pts, &t, p24, 2, ds, nd, 0.01, NULL);
    unsigned u = mb_fit_usable_bases(pts, n, MB_FIT_ALL);
    assert_true(u & MB_FIT_BIT(MB_FIT_P));
    assert_false(u & MB_FIT_BIT(MB_FIT_LOG2P));
    /* the caller's set is respected */
    n = make_points(pts, &t, ps, 5, ds, nd, 0.01, NULL);
    assert_int_equal(mb_fit_usable_bases(pts, n, MB_FIT_BIT(MB_FIT_D) | MB_FIT_BIT(MB_FIT_P2)),
                     MB_FIT_BIT(MB_FIT_D) | MB_FIT_BIT(MB_FIT_P2));
}

/* Several true models; the fitter must pick the true bases and land within 3 stderr. */
static void test_recover_models(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, SEED);
    mb_fit_point_t pts[MAXPTS];
    double ds[64], dcoll[] = {0, 1024, 16384, 262144}, dsq[] = {0, 4096, 65536, 1048576};
    double p2[] = {2}, plog[] = {2, 4, 8, 16, 32, 64}, psq[] = {2, 4, 6, 8, 10, 12, 14, 16},
           d0[] = {0}, pall[63];
    for (size_t i = 0; i < 63; i++)
        pall[i] = (double)(i + 2);
    size_t nd = sizes(ds, 1 << 20);
    const struct {
        const char *what;
        truth_t t;
        const double *ps, *ds;
        size_t np, nd;
    } cases[] = {
        {"a + b*d", {2, {MB_FIT_ONE, MB_FIT_D}, {500, 0.1}}, p2, ds, 1, nd},
        {"a + b*p", {2, {MB_FIT_ONE, MB_FIT_P}, {1000, 300}}, pall, d0, 63, 1},
        {"a + b*log2(p) + c*d",
         {3, {MB_FIT_ONE, MB_FIT_LOG2P, MB_FIT_D}, {2000, 5000, 0.3}},
         plog,
         dcoll,
         6,
         4},
        {"a*p^2 + b*d", {2, {MB_FIT_P2, MB_FIT_D}, {400, 2}}, psq, dsq, 8, 4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = make_points(pts, &cases[c].t, cases[c].ps, cases[c].np, cases[c].ds, cases[c].nd,
                               0.01, r);
        mb_fit_model_t m;
        char err[256];
        if (mb_fit_select(pts, n, MB_FIT_ALL, &m, err, sizeof err) != 0)
            fail_msg("%s: %s", cases[c].what, err);
        check_recovered(&cases[c].t, &m, cases[c].what);
        assert_true(m.q > 0.001); /* the true model fits noise of the stated size */
        assert_int_equal(m.dof, n - m.k);
    }
    gsl_rng_free(r);
}

/* Over many noisy replicates BIC picks the true model most of the time; a spurious extra
 * term wins only when noise happens to favour it (chi2 falls by more than ln n). */
static void test_selection_rate(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, SEED + 1);
    mb_fit_point_t pts[MAXPTS];
    double ps[] = {2, 4, 8, 16, 32}, ds[] = {0, 1024, 8192, 65536, 524288};
    truth_t t = {3, {MB_FIT_ONE, MB_FIT_P, MB_FIT_D}, {1000, 2000, 0.5}};
    int right = 0;
    for (int rep = 0; rep < 50; rep++) {
        size_t n = make_points(pts, &t, ps, 5, ds, 5, 0.01, r);
        mb_fit_model_t m;
        char err[256];
        assert_int_equal(mb_fit_select(pts, n, MB_FIT_ALL, &m, err, sizeof err), 0);
        right += mask_of(m.basis, m.k) == mask_of(t.basis, t.k);
    }
    if (right < 40)
        fail_msg("true model chosen in %d of 50 replicates", right);
    gsl_rng_free(r);
}

static void test_q_exact_and_wrong(void **state)
{
    (void)state;
    mb_fit_point_t pts[MAXPTS];
    double ps[] = {2, 4, 8, 16, 32, 64}, ds[] = {0, 4096, 65536};
    truth_t t = {3, {MB_FIT_ONE, MB_FIT_P2, MB_FIT_D}, {100, 4000, 20}};
    size_t n = make_points(pts, &t, ps, 6, ds, 3, 0.01, NULL);
    mb_fit_model_t m;
    char err[256];
    assert_int_equal(mb_fit_model(pts, n, t.basis, 3, &m, err, sizeof err), 0);
    assert_true(m.q > 0.99);
    assert_true(m.chi2 < 1e-6);
    for (size_t j = 0; j < 3; j++)
        assert_true(fabs(m.coef[j] - t.coef[j]) < 1e-6 * fabs(t.coef[j]));
    /* p^2 data fitted as linear in p: far off, and the error bars are stretched */
    mb_fit_basis_t wrong[] = {MB_FIT_ONE, MB_FIT_P, MB_FIT_D};
    assert_int_equal(mb_fit_model(pts, n, wrong, 3, &m, err, sizeof err), 0);
    assert_true(m.q < 0.01);
    assert_true(m.chi2 / (double)m.dof > 1);
    assert_true(fabs(m.se[1] / m.se_raw[1] - sqrt(m.chi2 / (double)m.dof)) <
                1e-9 * m.se[1] / m.se_raw[1]);
    /* collinear bases and too few points are refused */
    mb_fit_basis_t collinear[] = {MB_FIT_ONE, MB_FIT_D, MB_FIT_PD};
    double p2[] = {2}, ds4[] = {0, 4096, 65536, 1048576};
    n = make_points(pts, &t, p2, 1, ds4, 4, 0.01, NULL);
    assert_int_equal(mb_fit_model(pts, n, collinear, 3, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "collinear"));
    assert_int_equal(mb_fit_model(pts, 2, wrong, 2, &m, err, sizeof err), -1);
    pts[0].sd_ns = 0;
    assert_int_equal(mb_fit_model(pts, n, wrong, 1, &m, err, sizeof err), -1);
}

/* Eager up to 4096 B, rendezvous from 6144 B with a 2 us jump: the break is found within
 * one size step, and a clean line is left whole. */
static void test_segments_break(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, SEED + 2);
    mb_fit_point_t pts[MAXPTS];
    double ds[64];
    size_t nd = sizes(ds, 1 << 20), n = 0;
    for (size_t j = 0; j < nd; j++) {
        double t = ds[j] <= 4096 ? 400 + 0.1 * ds[j] : 2400 + 0.08 * ds[j], sd = 0.01 * t;
        pts[n++] = (mb_fit_point_t){2, ds[j], t + gsl_ran_gaussian(r, sd), sd};
    }
    mb_fit_segments_t s;
    char err[256];
    assert_int_equal(mb_fit_segments(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &s, err, sizeof err),
                     0);
    assert_int_equal(s.count, 2);
    if (s.seg[0].d_max < 3072 || s.seg[0].d_max > 6144)
        fail_msg("break after %g B, expected 4096 within one size step", s.seg[0].d_max);
    assert_true(s.seg[1].d_min > s.seg[0].d_max);
    assert_true(s.seg[1].d_max == 1 << 20);
    assert_int_equal(mb_fit_segments_pick(&s, 100), 0);
    assert_int_equal(mb_fit_segments_pick(&s, s.seg[1].d_min), 1);
    assert_int_equal(mb_fit_segments_pick(&s, 1e9), 1);
    truth_t late = {2, {MB_FIT_ONE, MB_FIT_D}, {2400, 0.08}};
    check_recovered(&late, &s.seg[1], "rendezvous segment");

    /* three protocols: inline to 256 B, eager to 16 KiB, rendezvous */
    n = 0;
    for (size_t j = 0; j < nd; j++) {
        double d = ds[j];
        double t = d <= 256     ? 300 + 0.5 * d
                   : d <= 16384 ? 900 + 0.2 * d
                                : 5000 + 0.08 * d,
               sd = 0.01 * t;
        pts[n++] = (mb_fit_point_t){2, d, t + gsl_ran_gaussian(r, sd), sd};
    }
    assert_int_equal(mb_fit_segments(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &s, err, sizeof err),
                     0);
    assert_int_equal(s.count, 3);
    assert_true(s.seg[0].d_max >= 192 && s.seg[0].d_max <= 384);
    assert_true(s.seg[1].d_max >= 12288 && s.seg[1].d_max <= 24576);

    /* one protocol: no break */
    truth_t line = {2, {MB_FIT_ONE, MB_FIT_D}, {500, 0.1}};
    double p2[] = {2};
    n = make_points(pts, &line, p2, 1, ds, nd, 0.01, r);
    assert_int_equal(mb_fit_segments(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &s, err, sizeof err),
                     0);
    assert_int_equal(s.count, 1);
    assert_true(s.seg[0].d_min == 0 && s.seg[0].d_max == 1 << 20);
    gsl_rng_free(r);
}

static void test_holdout(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, SEED + 3);
    mb_fit_point_t pts[MAXPTS];
    double ps[] = {2, 4, 8, 16}, ds[] = {0, 64, 512, 4096, 32768, 262144};
    truth_t t = {3, {MB_FIT_ONE, MB_FIT_P, MB_FIT_D}, {1000, 2000, 0.5}};
    size_t n = make_points(pts, &t, ps, 4, ds, 6, 0.002, r), held = 0;
    double mape = -1;
    char err[256];
    assert_int_equal(
        mb_fit_holdout(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &mape, &held, err, sizeof err), 0);
    assert_int_equal(held, 4 + 5); /* d = 4096 at every p, and p = 16 at the other sizes */
    assert_true(mape >= 0 && mape < 1.0);
    /* nothing to hold out: 3 sizes, 1 process count */
    double p2[] = {2};
    n = make_points(pts, &t, p2, 1, ds, 3, 0.01, NULL);
    assert_int_equal(
        mb_fit_holdout(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &mape, &held, err, sizeof err), -1);
    assert_non_null(strstr(err, "nothing to hold out"));
    gsl_rng_free(r);
}

static void test_predict(void **state)
{
    (void)state;
    mb_fit_model_t m = {.k = 2,
                        .basis = {MB_FIT_ONE, MB_FIT_D},
                        .coef = {100, 2},
                        .cov = {{4, 1}, {1, 0.25}},
                        .p_min = 2,
                        .p_max = 2,
                        .d_min = 0,
                        .d_max = 5};
    double se;
    bool out;
    /* t = 100 + 2*10; var = 4 + 2*10*1 + 100*0.25 = 49 */
    assert_true(fabs(mb_fit_predict(&m, 2, 10, &se, &out) - 120) < 1e-12);
    assert_true(fabs(se - 7) < 1e-12);
    assert_true(out);
    mb_fit_predict(&m, 2, 3, NULL, &out);
    assert_false(out);
    mb_fit_predict(&m, 4, 3, NULL, &out);
    assert_true(out);
    /* against a fit: at a fitted point the prediction is the fitted value */
    mb_fit_point_t pts[MAXPTS];
    double ds[] = {0, 100, 200, 300, 400}, p2[] = {2};
    truth_t t = {2, {MB_FIT_ONE, MB_FIT_D}, {50, 3}};
    size_t n = make_points(pts, &t, p2, 1, ds, 5, 0.01, NULL);
    char err[256];
    assert_int_equal(mb_fit_select(pts, n, MB_FIT_ALL, &m, err, sizeof err), 0);
    assert_true(fabs(mb_fit_predict(&m, 2, 250, &se, &out) - 800) < 1e-6);
    assert_true(se > 0 && se < 8);
    assert_false(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basis_names),       cmocka_unit_test(test_usable_bases),
        cmocka_unit_test(test_recover_models),    cmocka_unit_test(test_selection_rate),
        cmocka_unit_test(test_q_exact_and_wrong), cmocka_unit_test(test_segments_break),
        cmocka_unit_test(test_holdout),           cmocka_unit_test(test_predict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
