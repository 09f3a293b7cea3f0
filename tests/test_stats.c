/* SPDX-License-Identifier: MIT */
/* Expected values below were computed independently (Python, exact binomial sums with
 * fractions.Fraction, statistics.median/mean/stdev), not copied from stats.c's output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define EPS 1e-12

static void assert_close(double got, double want)
{
    if (fabs(got - want) > EPS * fmax(1.0, fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

static void test_median_odd(void **state)
{
    (void)state;
    double x[] = {5, 1, 4, 2, 3};
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(x, 5, &s), 0);
    assert_close(s.median, 3);
    assert_close(s.min, 1);
    assert_close(s.max, 5);
    assert_close(x[0], 1); /* sorted in place */
    assert_close(x[4], 5);
}

static void test_median_even(void **state)
{
    (void)state;
    double x[] = {9, 4, 2, 7, 5, 4, 5, 4};
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(x, 8, &s), 0);
    assert_close(s.median, 4.5);
}

static void test_mean_sd(void **state)
{
    (void)state;
    double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(x, 8, &s), 0);
    assert_int_equal(s.n, 8);
    assert_close(s.mean, 5);
    assert_close(s.stddev, sqrt(32.0 / 7.0)); /* sample sd, n - 1 */
}

static void test_quantiles_1_to_100(void **state)
{
    (void)state;
    double x[100];
    mb_stats_t s;
    for (int i = 0; i < 100; i++)
        x[i] = 100 - i; /* reversed: summarize must sort */
    assert_int_equal(mb_stats_summarize(x, 100, &s), 0);
    /* linear interpolation at index f * (n - 1): 89.1 -> 90.1, 98.01 -> 99.01 */
    assert_close(s.p90, 90.1);
    assert_close(s.p99, 99.01);
    assert_close(s.median, 50.5);
    assert_close(s.mean, 50.5);
}

struct ci_case {
    size_t n;
    double level;
    size_t lo, hi;
    double coverage;
};

static void test_ci_ranks(void **state)
{
    (void)state;
    static const struct ci_case cases[] = {
        {1, 0.95, 1, 1, 0.0},
        {2, 0.95, 1, 2, 0.5},
        {5, 0.95, 1, 5, 0.9375},
        {6, 0.95, 1, 6, 0.96875},
        {8, 0.95, 1, 8, 0.9921875},
        {9, 0.95, 2, 8, 0.9609375},
        {11, 0.95, 2, 10, 1.0 - 2.0 * 12.0 / 2048.0},
        {12, 0.95, 3, 10, 0.96142578125},
        {17, 0.95, 5, 13, 0.950958251953125},
        {51, 0.95, 19, 33, 0.9511261076817297},
        {100, 0.95, 40, 61, 0.9647997997822951},
        {1000, 0.95, 469, 532, 0.9537088026395019},
        {100, 0.99, 37, 64, 0.9933628794840739},
        {11, 0.50, 4, 8, 0.7734375},
        {20, 0.90, 6, 15, 0.9586105346679688},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct ci_case *c = &cases[i];
        size_t lo = 99, hi = 99;
        double cov = -1;
        mb_stats_median_ci_ranks(c->n, c->level, &lo, &hi, &cov);
        if (lo != c->lo || hi != c->hi || fabs(cov - c->coverage) > 1e-9)
            fail_msg("n=%zu level=%g: got [%zu,%zu] %.12g, want [%zu,%zu] %.12g", c->n, c->level,
                     lo, hi, cov, c->lo, c->hi, c->coverage);
    }
    size_t lo, hi;
    mb_stats_median_ci_ranks(11, 0.95, &lo, &hi, NULL); /* coverage is optional */
    assert_int_equal(lo, 2);
    assert_int_equal(hi, 10);
    mb_stats_median_ci_ranks(0, 0.95, &lo, &hi, NULL);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
}

static void test_ci_values_shuffled(void **state)
{
    (void)state;
    double x[] = {33.1, 15.9, 65.4, 8.2, 54.1, 37.2, 6.7, 51.2, 4.7, 43.9, 7.9};
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(x, 11, &s), 0);
    /* sorted: 4.7 6.7 7.9 8.2 15.9 33.1 37.2 43.9 51.2 54.1 65.4; ranks [2, 10] */
    assert_close(s.median, 33.1);
    assert_close(s.ci95_lo, 6.7);
    assert_close(s.ci95_hi, 54.1);
    assert_close(s.ci95_coverage, 253.0 / 256.0);
    assert_close(s.mean, 29.845454545454547);
    assert_close(s.stddev, 22.098070668561256);
    assert_close(s.p90, 54.1);
    assert_close(s.p99, 64.27);
    assert_close(mb_stats_ci_rel_halfwidth(&s), 26.4 / 33.1);
}

static void test_rel_halfwidth_nonpositive(void **state)
{
    (void)state;
    mb_stats_t s = {.median = 0.0, .ci95_lo = -1.0, .ci95_hi = 1.0};
    assert_true(isinf(mb_stats_ci_rel_halfwidth(&s)));
    s.median = -2.0;
    assert_true(isinf(mb_stats_ci_rel_halfwidth(&s)));
    s = (mb_stats_t){.median = 10.0, .ci95_lo = 9.0, .ci95_hi = 10.5};
    assert_close(mb_stats_ci_rel_halfwidth(&s), 0.1);
}

static void test_n0_and_nan(void **state)
{
    (void)state;
    double x[] = {1.0, NAN, 2.0};
    mb_stats_t s = {.n = 77};
    assert_int_equal(mb_stats_summarize(x, 0, &s), -1);
    assert_int_equal(mb_stats_summarize(x, 3, &s), -1);
    assert_int_equal(s.n, 77); /* untouched */
}

static void test_n1(void **state)
{
    (void)state;
    double x[] = {42.5};
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(x, 1, &s), 0);
    assert_int_equal(s.n, 1);
    assert_close(s.min, 42.5);
    assert_close(s.median, 42.5);
    assert_close(s.mean, 42.5);
    assert_close(s.max, 42.5);
    assert_close(s.p90, 42.5);
    assert_close(s.p99, 42.5);
    assert_close(s.ci95_lo, 42.5);
    assert_close(s.ci95_hi, 42.5);
    assert_close(s.stddev, 0.0);
    assert_close(s.ci95_coverage, 0.0);
    assert_close(mb_stats_ci_rel_halfwidth(&s), 0.0);
}

/* Independent samples: a fixed LCG's uniforms. The runs test keeps the plain CI. */
static void test_serial_independent(void **state)
{
    (void)state;
    double x[51], y[51];
    uint64_t r = 12345;
    for (int i = 0; i < 51; i++) {
        r = r * 6364136223846793005u + 1442695040888963407u;
        x[i] = y[i] = 100.0 + (double)(r >> 40) / (double)(1u << 24);
    }
    mb_stats_t s;
    assert_int_equal(mb_stats_summarize(y, 51, &s), 0);
    assert_close(mb_stats_serial_factor(x, 51, s.median), 1.0);
    /* Alternating sides: more runs than chance, not fewer; no widening either. */
    for (int i = 0; i < 20; i++)
        x[i] = i % 2 ? 30.0 : 75.0 + i;
    assert_close(mb_stats_serial_factor(x, 20, 52.0), 1.0);
    /* Samples equal to the median are left out: one on each side is too few to tell. */
    double ties[] = {4, 4, 1, 4, 4, 9};
    assert_close(mb_stats_serial_factor(ties, 6, 4.0), 1.0);
}

/* Two levels in long runs, as a node that holds a state: 10 at 30 ns, 10 at 75, 10 at 30, 10
 * at 75 (the median 52.5 between them): 4 runs of 40 samples where independent ones give
 * 21 +- 3.1 (z = -5.4); rho = 1 - 2 * 3 / 39 = 33/39, factor (72/39) / (6/39) = 12. */
static void test_serial_levels(void **state)
{
    (void)state;
    double x[40];
    for (int i = 0; i < 40; i++)
        x[i] = (i / 10) % 2 ? 75.0 + 0.01 * i : 30.0 + 0.01 * i;
    assert_close(mb_stats_serial_factor(x, 40, 52.5), 12.0);
    /* One run each side of 3: runs 2 against 4 +- 1.10 (z = -1.83); rho = 1 - 2 / 5, factor 4. */
    double two[] = {1, 1.1, 1.2, 5, 5.1, 5.2};
    assert_close(mb_stats_serial_factor(two, 6, 3.0), 4.0);
}

/* A two-state chain switching with probability q = 0.1 a step (a fixed LCG's draws): rho
 * 0.8, factor 9; the estimate from 4000 samples within 15%. */
static void test_serial_markov(void **state)
{
    (void)state;
    static double x[4000];
    uint64_t r = 99;
    int side = 1;
    for (int i = 0; i < 4000; i++) {
        r = r * 6364136223846793005u + 1442695040888963407u;
        if ((double)(r >> 11) / 9007199254740992.0 < 0.1)
            side = -side;
        x[i] = side > 0 ? 80.0 + (i % 7) : 30.0 + (i % 5);
    }
    double f = mb_stats_serial_factor(x, 4000, 55.0);
    if (f < 9.0 * 0.85 || f > 9.0 * 1.15)
        fail_msg("factor %.3f, want 9 within 15%%", f);
}

/* The widened CI: 1..100 with factor 4 is the CI of 25 independent samples, ranks 8..18
 * (exact binomial, coverage 0.9567), scaled by 4 about the middle 50.5: 50.5 -+ 20 -> ranks
 * 30..71, values 30 and 71 (the plain CI: ranks 40..61). Factor 1 keeps the plain one; a
 * factor that leaves under 6 samples gives the whole range and its coverage. */
static void test_ci_widen(void **state)
{
    (void)state;
    double x[100];
    mb_stats_t s;
    for (int i = 0; i < 100; i++)
        x[i] = i + 1;
    assert_int_equal(mb_stats_summarize(x, 100, &s), 0);
    assert_close(s.ci95_lo, 40);
    assert_close(s.ci95_hi, 61);
    assert_close(s.serial_factor, 1.0);
    mb_stats_median_ci_widen(x, 100, 1.0, &s);
    assert_close(s.ci95_lo, 40);
    assert_close(s.ci95_hi, 61);
    mb_stats_median_ci_widen(x, 100, 4.0, &s);
    assert_close(s.ci95_lo, 30);
    assert_close(s.ci95_hi, 71);
    assert_close(s.serial_factor, 4.0);
    if (fabs(s.ci95_coverage - 0.95671475) > 1e-6)
        fail_msg("coverage %.8f, want 0.95671475", s.ci95_coverage);
    mb_stats_median_ci_widen(x, 100, 25.0, &s); /* 4 samples' worth */
    assert_close(s.ci95_lo, 1);
    assert_close(s.ci95_hi, 100);
    assert_close(s.ci95_coverage, 1.0 - 2.0 / 16.0);
}

/* Two levels (mb_stats_two_levels), sorted samples: the os.bw_unix two_cores point of a
 * default run (2026-12-04, us per 64 KiB read: 7 at 12.5-38.1, 4 at 160.7-163.4) splits
 * there; one slow experiment in 11, or 2 in 12 (under the 20% share), is no level; a spread
 * with no step of 2x is none; the widest of two steps is the split; a split needs a sample
 * above 0 below it; under 4 samples nothing splits (2 on each side). */
static void test_two_levels(void **state)
{
    (void)state;
    mb_stats_levels_t lv;
    double bw[] = {12.53, 12.71, 15.01, 15.27, 25.84, 36.36, 38.11, 160.69, 160.97, 160.97, 163.37};
    assert_true(mb_stats_two_levels(bw, 11, &lv));
    assert_int_equal(lv.low_n, 7);
    assert_int_equal(lv.high_n, 4);
    assert_close(lv.low_min, 12.53);
    assert_close(lv.low_max, 38.11);
    assert_close(lv.high_min, 160.69);
    assert_close(lv.high_max, 163.37);
    double outlier[] = {90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 950};
    assert_false(mb_stats_two_levels(outlier, 11, &lv));
    assert_int_equal(lv.high_n, 0);
    double two_of_12[] = {90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 900, 1000};
    assert_false(mb_stats_two_levels(two_of_12, 12, &lv));
    double three_of_12[] = {90, 91, 92, 93, 94, 95, 96, 97, 98, 900, 950, 1000};
    assert_true(mb_stats_two_levels(three_of_12, 12, &lv));
    assert_int_equal(lv.low_n, 9);
    double spread[] = {10, 13, 17, 22, 29, 38, 49, 64, 83, 108};
    assert_false(mb_stats_two_levels(spread, 10, &lv));
    double steps[] = {10, 10, 25, 25, 25, 100, 100, 100};
    assert_true(mb_stats_two_levels(steps, 8, &lv));
    assert_int_equal(lv.low_n, 5); /* 25 -> 100 (4x) over 10 -> 25 (2.5x) */
    assert_close(lv.high_min, 100);
    double zeros[] = {0, 0, 0, 5, 5, 5};
    assert_false(mb_stats_two_levels(zeros, 6, &lv));
    double three[] = {1, 1, 100};
    assert_false(mb_stats_two_levels(three, 3, &lv));
    double four[] = {1, 1, 100, 100};
    assert_true(mb_stats_two_levels(four, 4, &lv));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_odd),
        cmocka_unit_test(test_median_even),
        cmocka_unit_test(test_mean_sd),
        cmocka_unit_test(test_quantiles_1_to_100),
        cmocka_unit_test(test_ci_ranks),
        cmocka_unit_test(test_ci_values_shuffled),
        cmocka_unit_test(test_rel_halfwidth_nonpositive),
        cmocka_unit_test(test_n0_and_nan),
        cmocka_unit_test(test_n1),
        cmocka_unit_test(test_serial_independent),
        cmocka_unit_test(test_serial_levels),
        cmocka_unit_test(test_serial_markov),
        cmocka_unit_test(test_ci_widen),
        cmocka_unit_test(test_two_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
