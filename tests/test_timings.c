/* SPDX-License-Identifier: MIT */
/* The run's time accounting (src/run/timings.c): phases accumulate under one name in the
 * order first recorded, the "timings" section's shape and totals, and what is refused.
 * Times are given, never measured, except that a lap must cover an interval it spans. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "clock.h"
#include "timings.h"

static void assert_close(double got, double want)
{
    if (fabs(got - want) > 1e-12 * fmax(1.0, fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

static void test_phases_accumulate(void **state)
{
    (void)state;
    mb_timings_t t;
    mb_timings_init(&t, 100.0);
    assert_int_equal(mb_timings_add(&t, "setup", 0.25), 0);
    assert_int_equal(mb_timings_add(&t, "calibration", 1.5), 0);
    assert_int_equal(mb_timings_add(&t, "setup", 0.5), 0); /* interrupted, then resumed */
    assert_int_equal(mb_timings_add(&t, "benchmarks", 0), 0);
    assert_int_equal(t.nphases, 3);
    assert_string_equal(t.phases[0].name, "setup");
    assert_string_equal(t.phases[1].name, "calibration");
    assert_string_equal(t.phases[2].name, "benchmarks");
    assert_close(mb_timings_phase_s(&t, "setup"), 0.75);
    assert_close(mb_timings_phase_s(&t, "calibration"), 1.5);
    assert_close(mb_timings_phase_s(&t, "benchmarks"), 0);
    assert_close(mb_timings_phase_s(&t, "plots"), -1); /* never recorded */
}

static void test_refused(void **state)
{
    (void)state;
    mb_timings_t t;
    mb_timings_init(&t, 0);
    char long_name[MB_TIMINGS_NAME_LEN + 1];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(mb_timings_add(&t, "", 1), -1);
    assert_int_equal(mb_timings_add(&t, NULL, 1), -1);
    assert_int_equal(mb_timings_add(&t, long_name, 1), -1);
    long_name[MB_TIMINGS_NAME_LEN - 1] = '\0'; /* the longest name that fits */
    assert_int_equal(mb_timings_add(&t, long_name, 1), 0);
    assert_int_equal(mb_timings_add(&t, "fits", -0.001), -1);
    assert_int_equal(mb_timings_add(&t, "fits", NAN), -1);
    assert_int_equal(mb_timings_add(&t, "fits", INFINITY), -1);
    assert_int_equal(t.nphases, 1);

    /* A full table still accumulates into its phases, and refuses a new one. */
    char name[16];
    for (int i = 1; i < MB_TIMINGS_MAX_PHASES; i++) {
        snprintf(name, sizeof name, "p%d", i);
        assert_int_equal(mb_timings_add(&t, name, 1), 0);
    }
    assert_int_equal(mb_timings_add(&t, "one_too_many", 1), -1);
    assert_int_equal(mb_timings_add(&t, "p1", 2), 0);
    assert_close(mb_timings_phase_s(&t, "p1"), 3);
    assert_int_equal(t.nphases, MB_TIMINGS_MAX_PHASES);
}

static void test_json_shape(void **state)
{
    (void)state;
    mb_timings_t t;
    mb_timings_init(&t, 10.0);
    mb_timings_add(&t, "calibration", 0.5);
    mb_timings_add(&t, "preflight", 2.0);
    mb_timings_add(&t, "benchmarks", 4.0);
    mb_timings_add(&t, "calibration", 0.25);
    json_t *j = mb_timings_json(&t, 17.5, 123 * 1024 * 1024);
    assert_non_null(j);
    assert_int_equal(json_object_size(j), 3);
    /* Keys in the documented order (docs/results.md). */
    void *it = json_object_iter(j);
    assert_string_equal(json_object_iter_key(it), "total_s");
    it = json_object_iter_next(j, it);
    assert_string_equal(json_object_iter_key(it), "phases");
    it = json_object_iter_next(j, it);
    assert_string_equal(json_object_iter_key(it), "rank0_peak_rss_bytes");

    assert_true(json_is_real(json_object_get(j, "total_s")));
    assert_close(json_real_value(json_object_get(j, "total_s")), 7.5);
    assert_true(json_is_integer(json_object_get(j, "rank0_peak_rss_bytes")));
    assert_int_equal(json_integer_value(json_object_get(j, "rank0_peak_rss_bytes")),
                     123 * 1024 * 1024);
    const json_t *phases = json_object_get(j, "phases");
    assert_int_equal(json_array_size(phases), 3);
    static const char *const names[] = {"calibration", "preflight", "benchmarks"};
    static const double walls[] = {0.75, 2.0, 4.0};
    double sum = 0;
    for (size_t i = 0; i < 3; i++) {
        const json_t *p = json_array_get(phases, i);
        assert_int_equal(json_object_size(p), 2);
        assert_string_equal(json_string_value(json_object_get(p, "name")), names[i]);
        assert_close(json_real_value(json_object_get(p, "wall_s")), walls[i]);
        sum += walls[i];
    }
    /* The phases fit in the total; what is left belongs to no phase. */
    assert_true(sum <= 7.5);
    json_decref(j);
}

static void test_json_empty_and_clock_before_start(void **state)
{
    (void)state;
    mb_timings_t t;
    mb_timings_init(&t, 50.0);
    json_t *j = mb_timings_json(&t, 49.0, 0);
    assert_non_null(j);
    assert_close(json_real_value(json_object_get(j, "total_s")), 0); /* never negative */
    assert_int_equal(json_array_size(json_object_get(j, "phases")), 0);
    json_decref(j);
}

/* Laps from one moving mark cover the run without gaps: each adds at least the interval it
 * spans, returns the new mark, and their sum stays within the total. */
static void test_laps(void **state)
{
    (void)state;
    mb_timings_t t;
    double began = mb_clock_elapsed_s();
    mb_timings_init(&t, began);
    double mark = mb_timings_lap(&t, "startup", began - 1.0);
    assert_true(mark >= began);
    assert_true(mb_timings_phase_s(&t, "startup") >= 1.0);
    double mark2 = mb_timings_lap(&t, "setup", mark);
    assert_true(mark2 >= mark);
    assert_close(mb_timings_phase_s(&t, "setup"), mark2 - mark);
    /* A mark in the future adds nothing rather than a negative time. */
    mb_timings_lap(&t, "setup", mark2 + 1000);
    assert_close(mb_timings_phase_s(&t, "setup"), mark2 - mark);
    json_t *j = mb_timings_json(&t, mb_clock_elapsed_s(), 0);
    double total = json_real_value(json_object_get(j, "total_s"));
    assert_true(mb_timings_phase_s(&t, "setup") <= total);
    json_decref(j);
}

static void test_peak_rss(void **state)
{
    (void)state;
    int64_t before = mb_timings_peak_rss_bytes();
    assert_true(before > 0);
    assert_int_equal(before % 1024, 0); /* kilobytes from getrusage */
    /* Touch 32 MiB: the peak can only grow. */
    size_t n = 32u << 20;
    char *p = malloc(n);
    assert_non_null(p);
    memset(p, 1, n);
    int64_t after = mb_timings_peak_rss_bytes();
    assert_true(after >= before);
    assert_true(after >= (int64_t)n);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_accumulate),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_json_shape),
        cmocka_unit_test(test_json_empty_and_clock_before_start),
        cmocka_unit_test(test_laps),
        cmocka_unit_test(test_peak_rss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
