/* SPDX-License-Identifier: MIT */
/* The perturbation test (seed 002, p1bench) on synthetic run times whose summaries, bins and
 * report lines were worked out by hand (rates with Python); then one real run per mode,
 * checked for shape only: timings are never asserted. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perturb.h"

#define EPS 1e-9

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= EPS * fmax(1.0, fabs(want))))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Ten runs around 1000 ns, out of order. Sorted: 1000 1001 1002 1003 1005 1010 1020 1050
 * 1100 1200; nearest rank: 50th = 5th (1005), 90th = 9th (1100), 99th = 10th (1200). */
static const double ten_ns[10] = {1010, 1000, 1050, 1001, 1200, 1005, 1020, 1002, 1100, 1003};

/* A result that owns a copy of `ns` (as mb_perturb_run's would), summarized. */
static mb_perturb_result_t make_result(const double *ns, size_t n, uint64_t iterations)
{
    mb_perturb_result_t r = {0};
    r.run_ns = malloc(n * sizeof *r.run_ns);
    assert_non_null(r.run_ns);
    memcpy(r.run_ns, ns, n * sizeof *r.run_ns);
    r.count = n;
    r.iterations = iterations;
    mb_perturb_summarize(&r);
    return r;
}

/* 100 runs of 100 ms + k * 0.1 ms, k = 0..99: slower% is k / 10, one run in each 0.1% bin
 * below 1% and ten in each 1% bin from 1% to 9%. */
static mb_perturb_result_t make_hundred(void)
{
    double ns[100];
    for (int k = 0; k < 100; k++)
        ns[(k * 37) % 100] = 1e8 + 1e5 * k; /* shuffled: 37 is coprime to 100 */
    return make_result(ns, 100, 100000000u);
}

/* The report of r, as a NUL-terminated string the caller frees. */
static char *print_to_string(const mb_perturb_opts_t *o, const mb_perturb_result_t *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    mb_perturb_print(f, o, r);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void test_summarize_ten(void **state)
{
    (void)state;
    mb_perturb_result_t r = make_result(ten_ns, 10, 1000);

    assert_close(r.fastest_ns, 1000);
    assert_close(r.slowest_ns, 1200);
    assert_close(r.p50_ns, 1005);
    assert_close(r.mean_ns, 1039.1); /* 10391 / 10 */
    assert_close(r.p50_pct, 0.5);
    assert_close(r.p90_pct, 10.0);
    assert_close(r.p99_pct, 20.0);
    assert_close(r.max_pct, 20.0);
    /* Ten runs: the 10th percentile is the 1st run, the fastest. */
    assert_close(r.reference_ns, 1000);
    assert_close(r.fastest_pct, 0.0);
    assert_close(r.run_ns[0], 1010); /* run order kept */
    assert_close(r.run_ns[4], 1200);
    mb_perturb_free(&r);
    assert_null(r.run_ns);
    assert_int_equal(r.count, 0);
}

/* With 100 runs nearest rank picks the same runs as p1bench's x[p n / 100 - 1]; the
 * reference is the 10th fastest, 100.9 ms, so slower% = (k - 9) x 0.1 ms / 100.9 ms
 * (k = 49, 89, 98, 99 for the 50th, 90th, 99th, 100th; values from Python). */
static void test_summarize_hundred(void **state)
{
    (void)state;
    mb_perturb_result_t r = make_hundred();

    assert_close(r.fastest_ns, 1e8);
    assert_close(r.slowest_ns, 1e8 + 99e5);
    assert_close(r.p50_ns, 1e8 + 49e5);
    assert_close(r.mean_ns, 1e8 + 49.5e5);
    assert_close(r.reference_ns, 1e8 + 9e5);
    assert_close(r.p50_pct, 3.964321110009911);
    assert_close(r.p90_pct, 7.928642220019822);
    assert_close(r.p99_pct, 8.820614469772051);
    assert_close(r.max_pct, 8.919722497522299);
    assert_close(r.fastest_pct, -0.8919722497522299);
    mb_perturb_free(&r);
}

/* Nearest rank on sorted data: the reference of 20 runs is the 2nd, of 5 the 1st. */
static void test_percentile(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i + 1;
    assert_close(mb_perturb_percentile(x, 100, 10), 10);
    assert_close(mb_perturb_percentile(x, 100, 100), 100);
    assert_close(mb_perturb_percentile(x, 20, 10), 2);
    assert_close(mb_perturb_percentile(x, 19, 10), 2); /* ceil(1.9) */
    assert_close(mb_perturb_percentile(x, 10, 10), 1);
    assert_close(mb_perturb_percentile(x, 5, 10), 1);
    assert_close(mb_perturb_percentile(x, 1, 10), 1);
    assert_close(mb_perturb_percentile(x, 1, 99), 1);
    assert_close(mb_perturb_percentile(x, 3, 50), 2);
}

/* Issue 15's case: 99 runs of 100-110 ms and one that the machine sped up to 50 ms. Against
 * the fastest run every percentile would read over 100% slower; against the reference (the
 * 10th fastest of 100: 101 ms) they are the runs' own spread. */
static void test_reference_ignores_a_fast_outlier(void **state)
{
    (void)state;
    double ns[100];
    for (int k = 0; k < 99; k++)
        ns[(k * 37) % 100] = 1e8 + 1e5 * (k + 1); /* 100.1 .. 109.9 ms */
    ns[(99 * 37) % 100] = 5e7;
    mb_perturb_result_t r = make_result(ns, 100, 1000);
    /* Sorted: 50 ms, then 100.1, 100.2, ...: the 10th is 100.9 ms, the 50th 104.9 ms. */
    assert_close(r.fastest_ns, 5e7);
    assert_close(r.reference_ns, 1e8 + 9e5);
    assert_close(r.p50_pct, 100.0 * 4e6 / 1.009e8);
    assert_close(r.max_pct, 100.0 * 9e6 / 1.009e8);
    assert_true(r.p50_pct < 5 && r.p99_pct < 10);
    assert_close(r.fastest_pct, 100.0 * (5e7 - 1.009e8) / 1.009e8);
    /* The outlier counts in the first bin with the runs faster than the reference. */
    mb_perturb_bin_t bins[MB_PERTURB_HIST_BINS];
    double pct[100];
    for (int i = 0; i < 100; i++)
        pct[i] = 100.0 * (ns[i] - r.reference_ns) / r.reference_ns;
    mb_perturb_histogram(pct, 100, bins, MB_PERTURB_HIST_BINS);
    assert_int_equal(bins[0].count, 11); /* the outlier, 100.1 .. 100.9, and 101.0 (0.099%) */
    mb_perturb_free(&r);
}

static void test_summarize_one_and_none(void **state)
{
    (void)state;
    double one = 500;
    mb_perturb_result_t r = make_result(&one, 1, 10);
    mb_perturb_result_t none = {0};

    assert_close(r.fastest_ns, 500);
    assert_close(r.p50_ns, 500);
    assert_close(r.p99_pct, 0.0);
    assert_close(r.max_pct, 0.0);
    mb_perturb_free(&r);

    mb_perturb_summarize(&none);
    assert_true(isnan(none.fastest_ns));
    assert_true(isnan(none.p50_pct));
}

/* Bins [0.0,0.1) ... [0.9,1.0) are 0-9, [1,2) ... [19,20) are 10-28, [20,30) is 29, ... */
static void test_histogram_edges(void **state)
{
    (void)state;
    const double v[] = {0.1, 0.95, 1.0, 19.99, 20.0, 35.0, 0.0, 0.3, 0.0999, 29.999};
    mb_perturb_bin_t bins[40];
    size_t used = mb_perturb_histogram(v, sizeof v / sizeof v[0], bins, 40);

    assert_int_equal(used, 31); /* 35.0 is in bin 30, [30,40) */
    assert_int_equal(bins[0].count, 2);  /* 0.0, 0.0999 */
    assert_int_equal(bins[1].count, 1);  /* 0.1 */
    assert_int_equal(bins[3].count, 1);  /* 0.3 (10 * 0.3 > 3 in doubles; still bin 3) */
    assert_int_equal(bins[9].count, 1);  /* 0.95 */
    assert_int_equal(bins[10].count, 1); /* 1.0 */
    assert_int_equal(bins[28].count, 1); /* 19.99 */
    assert_int_equal(bins[29].count, 2); /* 20.0, 29.999 */
    assert_int_equal(bins[30].count, 1); /* 35.0 */
    assert_int_equal(bins[2].count, 0);
    assert_int_equal(bins[27].count, 0);
    /* Just below an edge stays below it. */
    const double below[] = {nextafter(0.7, 0.0), nextafter(20.0, 0.0), nextafter(0.1, 0.0)};
    assert_int_equal(mb_perturb_histogram(below, 3, bins, 40), 29);
    assert_int_equal(bins[6].count, 1);
    assert_int_equal(bins[28].count, 1);
    assert_int_equal(bins[0].count, 1);
    mb_perturb_histogram(v, sizeof v / sizeof v[0], bins, 40);
    assert_close(bins[1].lo_pct, 0.1);
    assert_close(bins[9].lo_pct, 0.9);
    assert_close(bins[10].lo_pct, 1.0);
    assert_close(bins[11].lo_pct, 2.0);
    assert_close(bins[28].lo_pct, 19.0);
    assert_close(bins[29].lo_pct, 20.0);
    assert_close(bins[30].lo_pct, 30.0);
}

static void test_histogram_used_and_clamp(void **state)
{
    (void)state;
    const double small[] = {0.05, 0.25};
    const double big[] = {0.0, 500.0, NAN};
    const double nan_only[] = {NAN};
    mb_perturb_bin_t bins[12];

    assert_int_equal(mb_perturb_histogram(small, 2, bins, 12), 3); /* bins 0..2 */
    assert_int_equal(bins[1].count, 0);
    assert_int_equal(bins[2].count, 1);
    /* Past the last bin: counted in it, as p1bench's overflow bucket; NaN skipped. */
    assert_int_equal(mb_perturb_histogram(big, 3, bins, 12), 12);
    assert_int_equal(bins[11].count, 1);
    assert_int_equal(bins[0].count, 1);
    assert_int_equal(mb_perturb_histogram(nan_only, 1, bins, 12), 0);
    assert_int_equal(mb_perturb_histogram(small, 0, bins, 12), 0);
    assert_int_equal(mb_perturb_histogram(small, 2, bins, 0), 0);
}

static void test_print_hundred(void **state)
{
    (void)state;
    mb_perturb_opts_t o = {.target_ms = 100, .count = 100};
    mb_perturb_result_t r = make_hundred();
    char *s = print_to_string(&o, &r);
    char bar50[64], bar51[64];

    memset(bar50, '*', 50);
    strcpy(bar50 + 50, "\n");
    memset(bar51, '*', 51);
    bar51[51] = '\0';

    /* Bins (from Python): the ten runs up to the reference and the next (0.099%) in 0.0%,
     * then one in each 0.1% bin, ten in each 1% bin up to 8%. */
    assert_non_null(strstr(s, "\nPerturbation percent by count for 100 ms runs:\n"
                              "Slower% is against the reference run, the p10 of the run times "
                              "(100.900 ms), not the fastest run as in p1bench;\n"
                              "runs faster than the reference count in the 0.0% bin (the "
                              "fastest: -0.892%).\n"
                              "  Slower%   Count  Count% Histogram\n"
                              "     0.0%:     11  11.00% "));
    assert_non_null(strstr(s, "\n     0.9%:      1   1.00% *****\n"
                              "     1.0%:     10  10.00% "));
    assert_non_null(strstr(s, "\n     8.0%:     10  10.00% "));
    assert_null(strstr(s, " 9.0%:")); /* stops at the last non-empty bin */
    assert_non_null(strstr(s, bar50));
    assert_null(strstr(s, bar51));
    assert_non_null(strstr(s, "\n\nPercentiles (slower% than the p10 run): 50th: 3.964%, "
                              "90th: 7.929%, 99th: 8.821%, 100th: 8.920%\n"));
    assert_non_null(strstr(s, "\nFastest: 100.000 ms, 50th: 104.900 ms, mean: 104.950 ms, "
                              "slowest: 109.900 ms\n"));
    assert_non_null(strstr(s, "\nFastest rate: 1000000000/s, 50th: 953288847/s, "
                              "mean: 952834683/s, slowest: 909918107/s\n"));
    free(s);
    mb_perturb_free(&r);
}

/* Fewer runs than p1bench wants for the 99th: left out of the line. Every non-empty bin
 * holds one run, so each gets the full 50 asterisks; empty bins in between are printed. */
static void test_print_ten(void **state)
{
    (void)state;
    mb_perturb_opts_t o = {.target_ms = 0.5, .count = 10};
    mb_perturb_result_t r = make_result(ten_ns, 10, 1000);
    char *s = print_to_string(&o, &r);

    assert_non_null(strstr(s, "for 0.5 ms runs:\n"));
    assert_non_null(strstr(s, "\nPercentiles (slower% than the p10 run): 50th: 0.500%, "
                              "90th: 10.000%, 100th: 20.000%\n"));
    /* 1000 1001 1002 1003 -> 0.0 (1), 0.1 (1), 0.2 (1), 0.3 (1); 1005 -> 0.5; 1010 -> 1;
     * 1020 -> 2; 1050 -> 5; 1100 -> 10; 1200 -> 20 */
    assert_non_null(strstr(s, "\n     0.4%:      0   0.00% \n"));
    assert_non_null(strstr(s, "\n    20.0%:      1  10.00% **************************************************\n"));
    free(s);
    mb_perturb_free(&r);

    /* Two runs: only the 100th. */
    r = make_result(ten_ns, 2, 1000);
    s = print_to_string(&o, &r);
    assert_non_null(strstr(s, "\nPercentiles (slower% than the p10 run): 100th: 1.000%\n"));
    free(s);
    mb_perturb_free(&r);
}

static void test_json(void **state)
{
    (void)state;
    static const char *const num[] = {"target_ms", "count",   "iterations", "mem_bytes",
                                      "fastest_ns", "p50_ns", "mean_ns",    "slowest_ns",
                                      "p50_pct",   "p90_pct", "p99_pct",    "max_pct",
                                      "reference_ns", "fastest_pct"};
    mb_perturb_opts_t o = {.target_ms = 100, .count = 100, .mem_bytes = 1 << 20};
    mb_perturb_result_t r = make_hundred();
    json_t *j = mb_perturb_json(&o, &r), *h;

    assert_non_null(j);
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
        if (!json_is_number(json_object_get(j, num[i])))
            fail_msg("%s missing or not a number", num[i]);
    assert_string_equal(json_string_value(json_object_get(j, "mode")), "memory");
    assert_int_equal(json_integer_value(json_object_get(j, "count")), 100);
    assert_int_equal(json_integer_value(json_object_get(j, "mem_bytes")), 1 << 20);
    assert_close(json_number_value(json_object_get(j, "p90_pct")), 7.928642220019822);
    assert_string_equal(json_string_value(json_object_get(j, "reference")), "p10");
    assert_close(json_number_value(json_object_get(j, "reference_ns")), 1e8 + 9e5);
    h = json_object_get(j, "histogram");
    assert_true(json_is_array(h));
    assert_int_equal(json_array_size(h), 18); /* 0.0 ... 0.9, 1 ... 8 */
    assert_close(json_number_value(json_object_get(json_array_get(h, 17), "lo_pct")), 8.0);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 17), "count")), 10);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 0), "count")), 11);
    json_decref(j);
    mb_perturb_free(&r);

    o.mem_bytes = 0;
    r = (mb_perturb_result_t){0};
    mb_perturb_summarize(&r);
    j = mb_perturb_json(&o, &r);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "mode")), "cpu");
    assert_true(json_is_null(json_object_get(j, "p50_pct"))); /* NaN has no JSON */
    assert_int_equal(json_array_size(json_object_get(j, "histogram")), 0);
    json_decref(j);
}

static void check_real(const mb_perturb_opts_t *o, const char *calibrating)
{
    mb_perturb_result_t r;
    char *log = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&log, &len);

    assert_non_null(f);
    assert_int_equal(mb_perturb_run(mb_clock_get(MB_CLOCK_MONOTONIC), o, f, &r), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(log, calibrating));
    assert_non_null(strstr(log, "(target iteration count: "));
    assert_non_null(strstr(log, "Run 5/5, Ctrl-C to stop ("));
    free(log);

    assert_int_equal(r.count, 5);
    assert_true(r.iterations > 0);
    for (uint64_t i = 0; i < r.count; i++)
        assert_true(r.run_ns[i] > 0);
    assert_true(r.fastest_ns > 0);
    assert_true(r.fastest_ns <= r.p50_ns && r.p50_ns <= r.slowest_ns);
    assert_true(r.fastest_ns <= r.mean_ns && r.mean_ns <= r.slowest_ns);
    assert_true(r.fastest_ns <= r.reference_ns && r.reference_ns <= r.p50_ns);
    assert_true(r.fastest_pct <= 0 && r.p50_pct >= 0 && r.p50_pct <= r.p90_pct &&
                r.p90_pct <= r.p99_pct && r.p99_pct <= r.max_pct);
    mb_perturb_free(&r);
}

static void test_run_real(void **state)
{
    (void)state;
    mb_perturb_opts_t o = {.target_ms = 2, .count = 5};
    volatile sig_atomic_t stop = 1;
    mb_perturb_result_t r;

    check_real(&o, "Calibrating for 2 ms...");
    o.mem_bytes = 1 << 20;
    check_real(&o, "Allocating 1 Mbytes...\nCalibrating for 2 ms...");

    /* stop set: one run, then out. */
    o.mem_bytes = 0;
    o.stop = &stop;
    assert_int_equal(mb_perturb_run(mb_clock_get(MB_CLOCK_MONOTONIC), &o, NULL, &r), 0);
    assert_int_equal(r.count, 1);
    mb_perturb_free(&r);
}

static void test_run_bad_opts(void **state)
{
    (void)state;
    const mb_clock_t *clk = mb_clock_get(MB_CLOCK_MONOTONIC);
    mb_perturb_opts_t o = {.target_ms = 0, .count = 5};
    mb_perturb_result_t r;

    assert_int_equal(mb_perturb_run(clk, &o, NULL, &r), -1);
    assert_null(r.run_ns);
    o.target_ms = NAN;
    assert_int_equal(mb_perturb_run(clk, &o, NULL, &r), -1);
    o.target_ms = 1;
    o.count = 0;
    assert_int_equal(mb_perturb_run(clk, &o, NULL, &r), -1);
    mb_perturb_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summarize_ten),
        cmocka_unit_test(test_summarize_hundred),
        cmocka_unit_test(test_summarize_one_and_none),
        cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_reference_ignores_a_fast_outlier),
        cmocka_unit_test(test_histogram_edges),
        cmocka_unit_test(test_histogram_used_and_clamp),
        cmocka_unit_test(test_print_hundred),
        cmocka_unit_test(test_print_ten),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_run_real),
        cmocka_unit_test(test_run_bad_opts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
