/* SPDX-License-Identifier: MIT */
/* --runs K's combination on synthetic replies with known answers: the mean and standard
 * error of a figure over runs, per node, a failed run left out with its reason, and the
 * derived figures (node_runs.h); and the os phase's measurements carried from the fresh
 * process to the rank's record (measure.h): the samples whole, a failed point's reason, a
 * process that gave no reply. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"
#include "node_runs.h"
#include "stats.h"

static double num(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void test_stat(void **state)
{
    (void)state;
    /* 1, 2, 3, 4: mean 2.5, sample sd sqrt(5/3), stderr sqrt(5/3) / 2. */
    const double v[] = {1, 2, 3, 4};
    json_t *s = mb_node_runs_stat(v, 4);
    assert_int_equal(json_integer_value(json_object_get(s, "k")), 4);
    assert_true(fabs(num(s, "mean") - 2.5) < 1e-12);
    assert_true(fabs(num(s, "stderr") - sqrt(5.0 / 3.0) / 2) < 1e-12);
    assert_int_equal(json_array_size(json_object_get(s, "values")), 4);
    json_decref(s);
    /* One run: a mean, no error. */
    s = mb_node_runs_stat(v + 2, 1);
    assert_true(fabs(num(s, "mean") - 3) < 1e-12);
    assert_true(json_is_null(json_object_get(s, "stderr")));
    json_decref(s);
    double mean, se;
    mb_stats_mean_stderr(v, 0, &mean, &se);
    assert_true(isnan(mean) && isnan(se));
}

/* A child's reply: os.x with two points and a derived figure. */
static json_t *reply(json_t *p0, json_t *p1, double derived)
{
    return json_pack("{s:[{s:s, s:[o,o], s:[n,n], s:{s:f}}]}", "benchmarks", "name", "os.x",
                     "medians", p0, p1, "reasons", "derived", "sum_ns", derived);
}

static void test_attach(void **state)
{
    (void)state;
    /* Node 0: three runs, the second with point 1 failed; node 1: two runs and one that
     * gave no reply. */
    json_t *per_node = json_pack(
        "[{s:i, s:s, s:[o,o,o], s:[]}, {s:i, s:s, s:[o,o], s:[s]}]", "node", 0, "host", "a",
        "replies", reply(json_real(10), json_real(100), 110), reply(json_real(12), json_null(), 12),
        reply(json_real(14), json_real(104), 118), "errors", "node", 1, "host", "b", "replies",
        reply(json_real(20), json_real(200), 220), reply(json_real(22), json_real(202), 224),
        "errors", "run 3: the child was killed by signal 9");
    json_t *result = json_pack("{s:s, s:[{}, {}]}", "name", "os.x", "points");
    mb_node_runs_attach(result, per_node);

    const json_t *r0 = json_object_get(json_array_get(json_object_get(result, "points"), 0), "runs");
    assert_int_equal(json_integer_value(json_object_get(r0, "k")), 3);
    assert_true(fabs(num(r0, "mean") - 12) < 1e-12);
    assert_true(fabs(num(r0, "stderr") - 2 / sqrt(3.0)) < 1e-12); /* sd 2 */
    const json_t *n1 = json_array_get(json_object_get(r0, "per_node"), 1);
    assert_int_equal(json_integer_value(json_object_get(n1, "node")), 1);
    assert_true(fabs(num(n1, "mean") - 21) < 1e-12);
    assert_true(fabs(num(n1, "stderr") - 1) < 1e-12); /* sd sqrt(2), / sqrt(2) */
    assert_int_equal(json_integer_value(json_object_get(n1, "failed_runs")), 1);

    /* Point 1 on node 0: the failed run left out, counted. */
    const json_t *r1 = json_object_get(json_array_get(json_object_get(result, "points"), 1), "runs");
    assert_int_equal(json_integer_value(json_object_get(r1, "k")), 2);
    assert_true(fabs(num(r1, "mean") - 102) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(r1, "failed_runs")), 1);

    /* The derived figure over every run of node 0: 110, 12, 118. */
    const json_t *d = json_object_get(json_object_get(result, "derived_runs"), "sum_ns");
    assert_int_equal(json_integer_value(json_object_get(d, "k")), 3);
    assert_true(fabs(num(d, "mean") - 80) < 1e-12);
    json_decref(result);
    json_decref(per_node);
}

/* A point measured in the fresh process comes back to the rank with every sample, its
 * statistics recomputed; a point that failed there fails with its reason; a benchmark the
 * reply lacks, or a process that gave no reply, fails with why. */
static void test_from_process(void **state)
{
    (void)state;
    mb_config_t cfg;
    mb_config_defaults(&cfg);
    mb_context_t ctx = {.config = &cfg};
    const mb_bench_t b = {.name = "os.x", .group = "os"}, other = {.name = "os.y", .group = "os"};
    double samples[] = {30, 10, 20, 0.1 + 0.2};
    mb_measurement_t m = {.samples_ns = samples, .n = 4, .iters = 7, .late = 1};
    json_t *reply =
        json_pack("{s:[{s:s, s:[o,n], s:[n,s]}]}", "benchmarks", "name", "os.x", "measurements",
                  mb_measure_to_json(&m), "reasons", "setup: fork() refused");
    /* Through text, as it crosses the pipe. */
    char *text = json_dumps(reply, JSON_COMPACT);
    json_decref(reply);
    reply = json_loads(text, 0, NULL);
    free(text);
    mb_measurement_t got;
    char reason[256] = "";
    assert_int_equal(mb_measure_from_process(&b, &ctx, reply, 0, &got, reason, sizeof reason), 0);
    assert_int_equal(got.n, 4);
    assert_true(got.samples_ns[3] == 0.1 + 0.2); /* exact */
    assert_true(got.iters == 7 && got.late == 1 && !got.trimmed);
    assert_true(fabs(got.stats.median - 15) < 1e-12);
    mb_measurement_free(&got);
    assert_int_equal(mb_measure_from_process(&b, &ctx, reply, 1, &got, reason, sizeof reason), -1);
    assert_string_equal(reason, "setup: fork() refused");
    assert_int_equal(mb_measure_from_process(&other, &ctx, reply, 0, &got, reason, sizeof reason),
                     -1);
    assert_non_null(strstr(reason, "none of this benchmark"));
    json_decref(reply);
    json_t *none = json_pack("{s:s}", "error", "run 1: the child was killed by signal 9");
    assert_int_equal(mb_measure_from_process(&b, &ctx, none, 0, &got, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "killed by signal 9"));
    json_decref(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stat),
        cmocka_unit_test(test_attach),
        cmocka_unit_test(test_from_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
