/* SPDX-License-Identifier: MIT */
/* The detour test (detour.h) on steps and clocks whose detours are known: the count, the
 * share of time lost, the rate and the percentiles worked out by hand; then one real spin,
 * checked for shape only (timings are never asserted). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "detour.h"

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, want %.17g (+-%g)", got, want, tol);
}

/* 1000 steps of 25 ns with 10 detours of 30 us among them, every 100th step: 990 x 25 ns +
 * 10 x 30000 ns = 324750 ns; lost 10 x (30000 - 25) = 299750 ns, 92.30% of the span. */
static void test_steps_known(void **unused)
{
    (void)unused;
    mb_detour_t *d = malloc(sizeof *d);
    assert_non_null(d);
    mb_detour_init(d, 25, 1);
    assert_near(d->threshold_ns, MB_DETOUR_MIN_THRESHOLD_NS, 0);
    for (int i = 0; i < 1000; i++)
        mb_detour_step(d, i % 100 == 99 ? 30000 : 25);
    mb_detour_result_t r;
    mb_detour_summarize(d, &r);
    assert_int_equal(r.count, 10);
    assert_near(r.span_ns, 324750, 1e-6);
    assert_near(r.lost_pct, 100.0 * 299750 / 324750, 1e-9);
    assert_near(r.per_s, 10 / 324750e-9, 1e-3);
    assert_near(r.median_ns, 30000, 0);
    assert_near(r.max_ns, 30000, 0);
    free(d);
}

/* The threshold is the largest of 1 us, 20 loop steps and two clock ticks; a step equal to
 * it is no detour, one just above is. Detours 2, 4, ..., 20 us: median 11, p90 (GSL's
 * interpolated quantile, 0.9 x 9 = 8.1 between the 9th and 10th) 18.2. */
static void test_threshold_and_percentiles(void **unused)
{
    (void)unused;
    mb_detour_t *d = malloc(sizeof *d);
    assert_non_null(d);
    mb_detour_init(d, 100, 1); /* 20 x 100 ns = 2 us */
    assert_near(d->threshold_ns, 2000, 0);
    mb_detour_init(d, 10, 4000); /* two ticks of a 4 us clock */
    assert_near(d->threshold_ns, 8000, 0);
    mb_detour_init(d, 50, 1);
    mb_detour_step(d, 1000);
    mb_detour_step(d, 1000.5);
    assert_int_equal(d->count, 1);
    mb_detour_init(d, 50, 1);
    for (int k = 10; k >= 1; k--) /* out of order: the summary sorts */
        mb_detour_step(d, 2000.0 * k);
    mb_detour_result_t r;
    mb_detour_summarize(d, &r);
    assert_int_equal(r.count, 10);
    assert_near(r.median_ns, 11000, 1e-9);
    assert_near(r.p90_ns, 18200, 1e-9);
    assert_near(r.max_ns, 20000, 0);
    free(d);
}

/* More detours than are kept: all are counted and their time summed; the percentiles come
 * from the kept ones, the longest from all. None at all: zeros, no division by zero. */
static void test_more_than_kept_and_none(void **unused)
{
    (void)unused;
    mb_detour_t *d = malloc(sizeof *d);
    assert_non_null(d);
    mb_detour_init(d, 20, 1);
    uint64_t n = MB_DETOUR_KEPT + 100;
    for (uint64_t i = 0; i < n; i++)
        mb_detour_step(d, i < MB_DETOUR_KEPT ? 5000 : 9000);
    mb_detour_result_t r;
    mb_detour_summarize(d, &r);
    assert_int_equal(r.count, n);
    assert_int_equal(d->kept, MB_DETOUR_KEPT);
    assert_near(r.median_ns, 5000, 0);
    assert_near(r.max_ns, 9000, 0);
    assert_near(r.lost_pct,
                100.0 * ((double)n * 5000 + 100 * 4000 - (double)n * 20) /
                    ((double)n * 5000 + 100 * 4000),
                1e-9);

    mb_detour_init(d, 20, 1);
    for (int i = 0; i < 100; i++)
        mb_detour_step(d, 20);
    mb_detour_summarize(d, &r);
    assert_int_equal(r.count, 0);
    assert_near(r.lost_pct, 0, 0);
    assert_near(r.per_s, 0, 0);
    assert_near(r.median_ns, 0, 0);
    assert_near(r.max_ns, 0, 0);
    mb_detour_init(d, 20, 1);
    mb_detour_summarize(d, &r);
    assert_near(r.per_s, 0, 0);
    free(d);
}

/* A clock that advances 25 ns a read, and 40 us on every 4000th read after the first
 * 10010 (the calibration's 10 batches of 1 + 1000 reads). */
typedef struct scripted {
    uint64_t now, reads;
} scripted_t;

static uint64_t scripted_now(void *state)
{
    scripted_t *s = state;
    s->reads++;
    s->now += s->reads > 10010 && s->reads % 4000 == 0 ? 40000 : 25;
    return s->now;
}

static double scripted_res(void *state)
{
    (void)state;
    return 1;
}

/* 10 ms on that clock: each 4000 reads take 3999 x 25 + 40000 = 139975 ns, a detour of
 * 40000 - 25 lost in each: 28.56% of the time, 7144 a second. */
static void test_run_scripted_clock(void **unused)
{
    (void)unused;
    scripted_t s = {0};
    mb_clock_t clk = {.name = "scripted",
                      .config_name = "scripted",
                      .now_ns = scripted_now,
                      .nominal_resolution_ns = scripted_res,
                      .state = &s};
    mb_detour_result_t r;
    assert_int_equal(mb_detour_run(&clk, 1, 10e6, &r), 0);
    assert_near(r.step_ns, 25, 1e-9);
    assert_near(r.threshold_ns, MB_DETOUR_MIN_THRESHOLD_NS, 0);
    assert_near(r.lost_pct, 100.0 * 39975 / 139975, 0.5);
    assert_near(r.per_s, 1e9 / 139975, 100);
    assert_near(r.median_ns, 40000, 0);
    assert_true(r.span_ns >= 10e6);
}

/* The real clock: shape only. */
static void test_run_real(void **unused)
{
    (void)unused;
    mb_detour_result_t r;
    assert_int_equal(mb_detour_run(mb_clock_get(MB_CLOCK_MONOTONIC), 1, 5e6, &r), 0);
    assert_true(r.span_ns >= 5e6);
    assert_true(r.step_ns > 0);
    assert_true(r.lost_pct >= 0 && r.lost_pct <= 100);
    assert_true(r.count == 0 || (r.median_ns > r.threshold_ns && r.max_ns >= r.p90_ns));
    json_t *j = mb_detour_json(&r);
    assert_non_null(json_object_get(j, "lost_pct"));
    assert_int_equal(json_integer_value(json_object_get(j, "count")), (json_int_t)r.count);
    json_decref(j);
    assert_int_equal(mb_detour_run(mb_clock_get(MB_CLOCK_MONOTONIC), 1, 0, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_known),
        cmocka_unit_test(test_threshold_and_percentiles),
        cmocka_unit_test(test_more_than_kept_and_none),
        cmocka_unit_test(test_run_scripted_clock),
        cmocka_unit_test(test_run_real),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
