/* SPDX-License-Identifier: MIT */
/* mbsuite compare on two synthetic runs without raw samples (the medians' 95% CIs decide):
 * each benchmark's drift probe in both runs, and how many of the points that differ lie in
 * benchmarks measured in another state of the node in one run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compare_runs.h"

/* A run of two benchmarks, one point each: mpi.x and mpi.y, with their medians (CIs +-1 ns)
 * and drift probe readings (before and after alike). */
static json_t *run_json(double x_ns, double x_probe_ns, double y_ns, double y_probe_ns)
{
    json_t *root =
        json_pack("{s:s, s:{}, s:{}, s:[{s:s, s:{s:f, s:f}, s:[{s:{s:i}, s:f, s:[f,f]}]},"
                  " {s:s, s:{s:f, s:f}, s:[{s:{s:i}, s:f, s:[f,f]}]}]}",
                  "schema", "mbsuite-results/2", "system", "config", "benchmarks", "name", "mpi.x",
                  "drift_probe", "before_ns", x_probe_ns, "after_ns", x_probe_ns, "points",
                  "params", "size_bytes", 8, "median", x_ns, "ci95", x_ns - 1, x_ns + 1, "name",
                  "mpi.y", "drift_probe", "before_ns", y_probe_ns, "after_ns", y_probe_ns, "points",
                  "params", "size_bytes", 8, "median", y_ns, "ci95", y_ns - 1, y_ns + 1);
    assert_non_null(root);
    return root;
}

static json_t *compare(json_t *ra, json_t *rb)
{
    mb_compare_run_t a = {.dir = "A", .root = ra, .raw_note = "none"};
    mb_compare_run_t b = {.dir = "B", .root = rb, .raw_note = "none"};
    mb_compare_opts_t o = {.alpha = 0.01, .min_change = 0.01, .reps = 100};
    json_t *cmp = mb_compare_runs(&a, &b, &o);
    assert_non_null(cmp);
    return cmp;
}

static long long summary_count(const json_t *cmp, const char *key)
{
    return (long long)json_integer_value(json_object_get(json_object_get(cmp, "summary"), key));
}

static const char *summary_text(const json_t *cmp)
{
    return json_string_value(json_object_get(json_object_get(cmp, "summary"), "text"));
}

/* The comparison's drift entry of benchmark name (NULL: none). */
static const json_t *bench_drift(const json_t *cmp, const char *name)
{
    return json_object_get(json_object_get(cmp, "drift_by_benchmark"), name);
}

static bool bench_apart(const json_t *cmp, const char *name)
{
    return json_is_true(json_object_get(bench_drift(cmp, name), "apart"));
}

static void release(json_t *cmp, json_t *ra, json_t *rb)
{
    json_decref(cmp);
    json_decref(ra);
    json_decref(rb);
}

/* Both slower; mpi.x's probe read 3 times as long in B (another state), mpi.y's the same. */
static void test_slower_in_another_state(void **state)
{
    (void)state;
    json_t *ra = run_json(100, 100, 100, 100), *rb = run_json(200, 300, 200, 100);
    json_t *cmp = compare(ra, rb);
    assert_int_equal(summary_count(cmp, "slower"), 2);
    assert_int_equal(summary_count(cmp, "in_other_state"), 1);
    assert_true(bench_apart(cmp, "mpi.x"));
    assert_false(bench_apart(cmp, "mpi.y"));
    assert_true(json_number_value(json_object_get(bench_drift(cmp, "mpi.x"), "ratio")) == 3);
    assert_non_null(strstr(summary_text(cmp), "; of the points slower or faster, 1 in benchmarks "
                                              "the drift probe saw in another state of the node "
                                              "in one run"));
    release(cmp, ra, rb);
}

/* Unchanged points are not counted, whatever the probe read; within 1.3x is the same state. */
static void test_unchanged_not_counted(void **state)
{
    (void)state;
    json_t *ra = run_json(100, 100, 100, 100), *rb = run_json(100, 300, 100, 125);
    json_t *cmp = compare(ra, rb);
    assert_int_equal(summary_count(cmp, "unchanged"), 2);
    assert_int_equal(summary_count(cmp, "in_other_state"), 0);
    assert_true(bench_apart(cmp, "mpi.x"));
    assert_false(bench_apart(cmp, "mpi.y"));
    assert_null(strstr(summary_text(cmp), "drift probe"));
    release(cmp, ra, rb);
}

/* A benchmark one run did not probe has no entry. */
static void test_unprobed_has_no_entry(void **state)
{
    (void)state;
    json_t *ra = run_json(100, 100, 100, 100), *rb = run_json(100, 100, 100, 100);
    json_object_del(json_array_get(json_object_get(rb, "benchmarks"), 1), "drift_probe");
    json_t *cmp = compare(ra, rb);
    assert_non_null(bench_drift(cmp, "mpi.x"));
    assert_null(bench_drift(cmp, "mpi.y"));
    release(cmp, ra, rb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slower_in_another_state),
        cmocka_unit_test(test_unchanged_not_counted),
        cmocka_unit_test(test_unprobed_has_no_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
