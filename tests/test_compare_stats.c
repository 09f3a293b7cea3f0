/* SPDX-License-Identifier: MIT */
/* The two-sample statistics of `mbsuite compare` on synthetic data with known answers. The
 * p-values were computed apart from compare_stats.c (by hand: ranks, U and the tie term,
 * then Python's math.erfc); 0.01218578 for 1..5 against 6..10 is also scipy's
 * mannwhitneyu(method="asymptotic") value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compare_stats.h"

static void assert_near(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Completely separated samples: U = 0 one way, na x nb the other, the same p. */
static void test_separated(void **state)
{
    (void)state;
    double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 5, b, 5, &r), 0);
    assert_near(r.u_a, 0, 0);
    assert_near(r.p_value, 0.012185780355344818, 1e-12);
    assert_true(r.z < 0);
    assert_int_equal(mb_mann_whitney(b, 5, a, 5, &r), 0);
    assert_near(r.u_a, 25, 0);
    assert_near(r.p_value, 0.012185780355344818, 1e-12);
}

/* Ties: ranks 1, 3, 3, 3, 5.5, 5.5, 7, 8; U_a = 12.5 - 10 = 2.5; sum(t^3 - t) = 24 + 6;
 * variance 16/12 x (9 - 30/56). */
static void test_ties(void **state)
{
    (void)state;
    double a[] = {3, 2, 1, 2}, b[] = {5, 2, 4, 3};
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 4, b, 4, &r), 0);
    assert_near(r.u_a, 2.5, 0);
    assert_near(r.p_value, 0.13665824773814753, 1e-12);
}

/* U against its definition, pairs counted one by one, on unsorted data with ties. */
static void test_u_is_pair_count(void **state)
{
    (void)state;
    double a[13], b[17];
    for (int i = 0; i < 13; i++)
        a[i] = (double)((i * 37) % 11);
    for (int i = 0; i < 17; i++)
        b[i] = (double)((i * 53) % 13) + 0.5 * (i % 2);
    double pairs = 0;
    for (int i = 0; i < 13; i++)
        for (int j = 0; j < 17; j++)
            pairs += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 13, b, 17, &r), 0);
    assert_near(r.u_a, pairs, 1e-9);
    assert_true(r.p_value > 0 && r.p_value <= 1);
}

/* A run compared with itself: p = 1, and the bootstrap interval of the ratio holds 1. */
static void test_identical(void **state)
{
    (void)state;
    double a[11] = {101, 99, 100, 130, 98, 100.5, 102, 99.5, 101, 97, 250};
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 11, a, 11, &r), 0);
    assert_near(r.u_a, 60.5, 0);
    assert_near(r.p_value, 1, 0);
    double lo, hi;
    assert_int_equal(mb_bootstrap_median_ratio(a, 11, a, 11, 2000, 0.95, 1, &lo, &hi), 0);
    assert_true(lo <= 1 && hi >= 1);
    double same[5] = {7, 7, 7, 7, 7};
    assert_int_equal(mb_mann_whitney(same, 5, same, 3, &r), 0);
    assert_near(r.p_value, 1, 0);
    assert_int_equal(mb_bootstrap_median_ratio(same, 5, same, 5, 200, 0.95, 1, &lo, &hi), 0);
    assert_near(lo, 1, 0);
    assert_near(hi, 1, 0);
}

/* B 20% slower than A with A's spread (100..110): U = 0, significant, and the bootstrap
 * interval of the ratio well above 1 and holding 1.2. */
static void test_shifted(void **state)
{
    (void)state;
    double a[15], b[15];
    for (int i = 0; i < 15; i++)
        a[i] = 100 + (double)((i * 7) % 11);
    for (int i = 0; i < 15; i++)
        b[i] = 1.2 * a[(i + 5) % 15];
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 15, b, 15, &r), 0);
    assert_near(r.u_a, 0, 0);
    assert_true(r.p_value < 1e-4);
    double lo, hi;
    assert_int_equal(mb_bootstrap_median_ratio(a, 15, b, 15, 2000, 0.95, 42, &lo, &hi), 0);
    assert_true(lo > 1.05);
    assert_true(lo <= 1.2 && hi >= 1.2);
    /* The same seed gives the same interval. */
    double lo2, hi2;
    assert_int_equal(mb_bootstrap_median_ratio(a, 15, b, 15, 2000, 0.95, 42, &lo2, &hi2), 0);
    assert_near(lo2, lo, 0);
    assert_near(hi2, hi, 0);
}

/* Two runs that each held one of two levels for most of their experiments, in runs: A 25 at
 * about 30 ns then 5 at about 75, B 5 at 30 then 25 at 75 (each level rising by 0.01 ns an
 * experiment, B's 0.005 above A's: no ties). U_a = 110 + 25 + 110 = 245 of 900 (pairs
 * counted by hand): as independent samples they differ (z = -204.5 / sqrt(4575) = -3.02,
 * p = 0.0025 < 0.01). Each sample lies below its median for its first 15 experiments and
 * above it for the last 15: 2 runs in 30, rho = 27/29, factor 28 each; so U's variance is
 * 28 times as large (z = -0.571, p = 0.57). */
static void test_runs(void **state)
{
    (void)state;
    double a[30], b[30];
    for (int i = 0; i < 30; i++) {
        a[i] = (i < 25 ? 30.0 : 75.0) + 0.01 * i;
        b[i] = (i < 5 ? 30.0 : 75.0) + 0.01 * i + 0.005;
    }
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 30, b, 30, &r), 0);
    assert_near(r.u_a, 245, 1e-9);
    assert_near(r.serial, 28, 1e-9);
    assert_near(r.z, -(450 - 245 - 0.5) / sqrt(900.0 / 12 * 61 * 28), 1e-9);
    assert_true(r.p_value > 0.5 && r.p_value < 0.65);
    /* Independent samples keep the plain test: a factor of 1. */
    double x[] = {1, 2, 3, 4, 5}, y[] = {6, 7, 8, 9, 10};
    assert_int_equal(mb_mann_whitney(x, 5, y, 5, &r), 0);
    assert_near(r.serial, 1, 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    double a[3] = {1, NAN, 2}, z[2] = {0, 0}, lo, hi;
    mb_mann_whitney_t r;
    assert_int_equal(mb_mann_whitney(a, 0, a, 3, &r), -1);
    assert_int_equal(mb_mann_whitney(a, 3, a, 1, &r), -1);
    assert_int_equal(mb_bootstrap_median_ratio(a, 0, a, 1, 100, 0.95, 1, &lo, &hi), -1);
    assert_int_equal(mb_bootstrap_median_ratio(z, 2, a, 1, 100, 0.95, 1, &lo, &hi), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separated),       cmocka_unit_test(test_ties),
        cmocka_unit_test(test_u_is_pair_count), cmocka_unit_test(test_identical),
        cmocka_unit_test(test_shifted),         cmocka_unit_test(test_runs),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
