/* SPDX-License-Identifier: MIT */
/* The results validator (tests/lib/results_check.c, record_check.c) against the fixture
 * tests/data/results_fixture.json and broken copies of it: each rule of docs/results.md
 * it enforces must name the JSON path of the offending value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "results_check.h"
#include "testdoc.h"

#define assert_contains(haystack, needle)                                                          \
    do {                                                                                           \
        if (!strstr((haystack), (needle)))                                                         \
            fail_msg("expected \"%s\" in:\n%s", (needle), (haystack));                             \
    } while (0)

static json_t *load_fixture(void)
{
    json_t *root = mb_testdoc_fixture("results_fixture.json");
    if (!root)
        fail_msg("cannot load the fixture");
    return root;
}

static json_t *bench_at(json_t *root, size_t b)
{
    return json_array_get(json_object_get(root, "benchmarks"), b);
}

static json_t *point_at(json_t *root, size_t b, size_t p)
{
    return json_array_get(json_object_get(bench_at(root, b), "points"), p);
}

static json_t *axis_at(json_t *root, size_t b, size_t a)
{
    return json_array_get(json_object_get(bench_at(root, b), "axes"), a);
}

static json_t *phase_at(json_t *root, size_t i)
{
    return json_array_get(json_object_get(json_object_get(root, "timings"), "phases"), i);
}

/* Point pt (the fixture's point 1: n 51, min 80100, median 95432.1) with its experiments at
 * two levels: 40 at 80100-98000 ns, 11 at 196000-200000 (its max raised to that), 2x apart. */
static void set_two_levels(json_t *pt)
{
    json_object_set_new(pt, "max", json_real(200000.0));
    json_object_set_new(pt, "two_levels",
                        json_pack("{s:{s:i, s:f, s:f}, s:{s:i, s:f, s:f}, s:f, s:s}", "low", "n",
                                  40, "min", 80100.0, "max", 98000.0, "high", "n", 11, "min",
                                  196000.0, "max", 200000.0, "gap_ratio", 2.0, "median_in", "low"));
}

static void test_check_fixture(void **state)
{
    (void)state;
    json_t *root = load_fixture();
    mb_results_check_counts_t counts;
    char err[512] = "";
    mb_results_check_opts_t opts = {.require_complete = true};
    if (mb_results_check(root, &opts, &counts, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(counts.benchmarks, 3);
    assert_int_equal(counts.points, 4);
    assert_int_equal(counts.failed, 1);
    /* A CI widened for experiments in runs (n = 51 there) passes. */
    json_object_set_new(point_at(root, 0, 1), "ci95_serial_factor", json_real(3.0));
    if (mb_results_check(root, &opts, &counts, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* So does one whose experiments sat at two levels. */
    set_two_levels(point_at(root, 0, 1));
    if (mb_results_check(root, &opts, &counts, err, sizeof err) != 0)
        fail_msg("%s", err);
    json_decref(root);
}

/* One broken copy of the fixture per case: benchmark 0 is harness.bcopy (axes size_bytes,
 * working_set, and cache, label warm/cold; points 0 and 1 ok, 2 failed), benchmark 1 the
 * skipped mpi.pingpong, benchmark 2 harness.null without axes. */
static void check_broken(size_t which, json_t *root)
{
    json_t *bench0 = bench_at(root, 0), *bench1 = bench_at(root, 1), *bench2 = bench_at(root, 2);
    json_t *pt = point_at(root, 0, 1), *failed = point_at(root, 0, 2);
    switch (which) {
    /* schema 1 rules */
    case 0: json_object_set_new(pt, "median", json_real(-3.0)); break;
    case 1: json_object_set_new(bench0, "points", json_array()); break;
    case 2: json_object_set_new(bench1, "skipped", json_string("")); break;
    case 3: json_object_set_new(pt, "ci95", json_pack("[f, f]", 96000.0, 101000.0)); break;
    case 4: json_object_set_new(pt, "n", json_integer(0)); break;
    case 5: json_object_set_new(root, "complete", json_false()); break;
    case 6: json_object_del(json_object_get(root, "system"), "clock"); break;
    case 7: json_object_set_new(pt, "min", json_real(99999.0)); break;
    case 8:
        json_object_set_new(json_object_get(pt, "bandwidth_bytes_per_s"), "ci95",
                            json_pack("[f]", 1.0));
        break;
    case 9: json_object_set_new(root, "started_utc", json_string("yesterday")); break;
    case 10: json_object_set_new(json_object_get(pt, "params"), "size_bytes", json_true()); break;
    case 11: json_object_set_new(bench0, "unit", json_string("us")); break;
    case 12:
        json_array_remove(json_object_get(json_object_get(root, "system"), "bindings"), 1);
        break;
    case 13: json_object_set_new(root, "schema", json_string("mbsuite-results/1")); break;
    /* axes */
    case 14: json_object_del(bench0, "axes"); break;
    case 15: json_object_set_new(axis_at(root, 0, 0), "role", json_string("bytes")); break;
    case 16: json_object_del(axis_at(root, 0, 1), "labels"); break;
    case 17: json_object_set_new(axis_at(root, 0, 1), "labels", json_array()); break;
    case 18: json_object_set_new(axis_at(root, 0, 1), "name", json_string("kind")); break;
    case 19: json_array_remove(json_object_get(bench0, "axes"), 1); break;
    case 20: json_object_set_new(axis_at(root, 0, 0), "labels", json_pack("[s]", "big")); break;
    case 21:
        json_object_set_new(json_object_get(pt, "params"), "cache", json_string("lukewarm"));
        break;
    case 22:
        json_object_set_new(json_object_get(pt, "params"), "size_bytes", json_string("1M"));
        break;
    /* model, loggp, measured_by */
    case 23: json_object_set_new(bench0, "model", json_string("cubic")); break;
    case 24: json_object_del(bench2, "model"); break;
    case 25: json_object_set_new(bench1, "loggp", json_string("G")); break;
    case 26: json_object_del(bench2, "measured_by"); break;
    /* point status and failed points */
    case 27: json_object_del(pt, "status"); break;
    case 28: json_object_set_new(pt, "status", json_string("skipped")); break;
    case 29: json_object_del(failed, "reason"); break;
    case 30: json_object_set_new(failed, "reason", json_string("")); break;
    case 31: json_object_set_new(failed, "median", json_real(1.0)); break;
    case 32: json_object_set_new(failed, "status", json_string("ok")); break;
    case 33: json_object_set_new(bench0, "failed_points", json_integer(0)); break;
    case 34: json_object_del(bench2, "failed_points"); break;
    case 35: json_object_set_new(root, "failed_points", json_integer(2)); break;
    case 36: json_object_del(root, "failed_points"); break;
    /* timings */
    case 37: json_object_set_new(phase_at(root, 1), "wall_s", json_real(-1)); break;
    case 38: json_object_set_new(json_object_get(root, "timings"), "total_s", json_real(5)); break;
    case 39: json_object_set_new(phase_at(root, 2), "name", json_string("setup")); break;
    case 40: json_object_del(json_object_get(root, "timings"), "rank0_peak_rss_bytes"); break;
    case 41: json_object_set_new(bench0, "wall_s", json_string("3.3 s")); break;
    case 42: json_object_set_new(root, "timings", json_array()); break;
    /* below the clock's step; drift probes */
    case 43: json_object_set_new(pt, "below_resolution_ns", json_real(20)); break;
    case 44:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", -1.0, "after_ns", 120.0));
        break;
    case 45:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
        json_object_set_new(root, "drift",
                            json_pack("{s:s, s:f, s:f, s:i, s:[]}", "method", "m", "median_ns",
                                      125.0, "flag_ratio", 1.3, "probes", 4, "flagged"));
        break;
    case 46:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
        json_object_set_new(root, "drift",
                            json_pack("{s:s, s:f, s:f, s:i, s:[{s:s, s:f}]}", "method", "m",
                                      "median_ns", 125.0, "flag_ratio", 1.3, "probes", 2, "flagged",
                                      "name", "harness.null", "ratio", 2.0));
        break;
    /* the drift re-measure's notes */
    case 47:
        json_object_set_new(bench0, "drift_remeasure",
                            json_pack("{s:b, s:f, s:f, s:f}", "measured_again", 1,
                                      "first_before_ns", 300.0, "first_after_ns", 310.0,
                                      "probe_ns", 120.0));
        break;
    case 48:
        json_object_set_new(bench0, "drift_remeasure", json_pack("{s:b}", "measured_again", 0));
        break;
    case 49:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
        json_object_set_new(root, "drift",
                            json_pack("{s:s, s:f, s:f, s:i, s:[], s:[{s:s, s:f, s:f}]}", "method",
                                      "m", "median_ns", 125.0, "flag_ratio", 1.3, "probes", 2,
                                      "flagged", "remeasured", "name", "harness.bcopy",
                                      "first_before_ns", 300.0, "first_after_ns", 310.0));
        break;
    case 50:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
        json_object_set_new(bench0, "drift_remeasure",
                            json_pack("{s:b, s:f, s:f, s:f, s:i}", "measured_again", 1,
                                      "first_before_ns", 300.0, "first_after_ns", 310.0, "probe_ns",
                                      120.0, "attempts", 0));
        break;
    /* the other state: apart from the usual one, and fewer readings */
    case 51:
    case 52:
        json_object_set_new(bench0, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
        json_object_set_new(root, "drift",
                            json_pack("{s:s, s:f, s:f, s:f, s:i, s:[], s:f, s:i}", "method", "m",
                                      "median_ns", 125.0, "usual_ns", 120.0, "flag_ratio", 1.3,
                                      "probes", 2, "flagged", "other_ns",
                                      which == 51 ? 150.0 : 300.0, "other_probes",
                                      which == 51 ? 1 : 2));
        break;
    /* a CI widened for experiments in runs: by a factor over 1, at most n */
    case 53: json_object_set_new(pt, "ci95_serial_factor", json_real(1.0)); break;
    case 54: json_object_set_new(pt, "ci95_serial_factor", json_real(52.0)); break;
    /* the point's wall time */
    case 55: json_object_set_new(pt, "wall_s", json_real(-0.5)); break;
    /* two levels: its gap, its counts, where the median lies */
    case 56:
    case 57:
    case 58:
    case 59:
        set_two_levels(pt);
        if (which == 56)
            json_object_set_new(json_object_get(pt, "two_levels"), "gap_ratio", json_real(3.0));
        if (which == 57)
            json_object_set_new(json_object_get(json_object_get(pt, "two_levels"), "low"), "n",
                                json_integer(39));
        if (which == 58)
            json_object_set_new(json_object_get(pt, "two_levels"), "median_in",
                                json_string("high"));
        if (which == 59) {
            json_object_set_new(json_object_get(json_object_get(pt, "two_levels"), "low"), "n",
                                json_integer(46));
            json_object_set_new(json_object_get(json_object_get(pt, "two_levels"), "high"), "n",
                                json_integer(5));
        }
        break;
    }
}

static void test_check_reports_path(void **state)
{
    (void)state;
    static const char *const expected[] = {
        "$.benchmarks[0].points[1].median: -3 must be positive",
        "$.benchmarks[0].points: no points",
        "$.benchmarks[1].skipped: must not be empty",
        "$.benchmarks[0].points[1]: ci95 lo 96000 > median 95432.1",
        "$.benchmarks[0].points[1].n: 0 is below the minimum 1",
        "$.complete: false, but the run must be complete",
        "$.system: missing key \"clock\"",
        "$.benchmarks[0].points[1]: min 99999 > median 95432.1",
        "$.benchmarks[0].points[1].bandwidth_bytes_per_s.ci95: expected [lo, hi], got 1 elements",
        "$.started_utc: \"yesterday\" is not an ISO 8601",
        "$.benchmarks[0].points[1].params.size_bytes: expected number, got boolean",
        "$.benchmarks[0].unit: \"us\" but all times are in ns",
        "$.system.bindings: 1 entries for 2 ranks",
        "$.schema: \"mbsuite-results/1\", expected \"mbsuite-results/2\"",
        "$.benchmarks[0]: missing key \"axes\"",
        "$.benchmarks[0].axes[0].role: \"bytes\" is not a role",
        "$.benchmarks[0].axes[1]: missing key \"labels\"",
        "$.benchmarks[0].axes[1].labels: a label axis lists at least one label",
        "$.benchmarks[0].axes[1].name: \"kind\", but params[1] is \"cache\"",
        "$.benchmarks[0].axes: 1 axes for 2 parameters",
        "$.benchmarks[0].axes[0].labels: only a label axis lists labels",
        "$.benchmarks[0].points[1].params.cache: \"lukewarm\" is not one of the axis' labels",
        "$.benchmarks[0].points[1].params.size_bytes: expected number, got string",
        "$.benchmarks[0].model: \"cubic\" is not a model (null or linear_pd)",
        "$.benchmarks[2]: missing key \"model\"",
        "$.benchmarks[1].loggp: \"G\" is not a LogGP parameter",
        "$.benchmarks[2]: missing key \"measured_by\"",
        "$.benchmarks[0].points[1]: missing key \"status\"",
        "$.benchmarks[0].points[1].status: \"skipped\" is neither ok nor failed",
        "$.benchmarks[0].points[2]: missing key \"reason\"",
        "$.benchmarks[0].points[2].reason: must not be empty",
        "$.benchmarks[0].points[2]: a failed point has only params, status and reason, but has "
        "\"median\"",
        "$.benchmarks[0].points[2]: missing key \"n\"",
        "$.benchmarks[0].failed_points: 0 but 1 points failed",
        "$.benchmarks[2]: missing key \"failed_points\"",
        "$.failed_points: 2 but 1 points failed in all",
        "$: missing key \"failed_points\"",
        "$.timings.phases[1].wall_s: -1 must not be negative",
        "$.timings.phases: the phases add up to 9.6 s, more than total_s 5 s",
        "$.timings.phases[2]: phase \"setup\" is listed twice (at 1 and 2)",
        "$.timings: missing key \"rank0_peak_rss_bytes\"",
        "$.benchmarks[0].wall_s: expected number, got string",
        "$.timings: expected object, got array",
        "$.benchmarks[0].points[1].below_resolution_ns: 20, but the median is 95432.1",
        "$.benchmarks[0].drift_probe.before_ns: -1 must be positive",
        "$.drift: 4 probes, but 1 benchmarks were probed (two readings each)",
        "$.drift.flagged[0]: \"harness.null\" is no probed benchmark",
        "$.benchmarks[0].drift_remeasure: measured again, but the record has no \"drift_probe\"",
        "$.benchmarks[0].drift_remeasure: missing key \"why\"",
        "$.drift.remeasured[0]: \"harness.bcopy\" has no record that says it was measured again",
        "$.benchmarks[0].drift_remeasure.attempts: 0 is below the minimum 1",
        "$.drift: other_ns 150 is within 1.3 x of usual_ns 120",
        "$.drift: other_probes 2 of 2: the other state has no more readings than the usual",
        "$.benchmarks[0].points[1].ci95_serial_factor: 1, outside (1, n = 51]",
        "$.benchmarks[0].points[1].ci95_serial_factor: 52, outside (1, n = 51]",
        "$.benchmarks[0].points[1].wall_s: -0.5 must not be negative",
        "$.benchmarks[0].points[1].two_levels: gap_ratio 3: not the high level's min over the "
        "low one's max (196000 / 98000), or under 2",
        "$.benchmarks[0].points[1].two_levels: 39 + 11 experiments in its levels, the point has 51",
        "$.benchmarks[0].points[1].two_levels: median_in \"high\", but the median 95432.1 is low",
        "$.benchmarks[0].points[1].two_levels: 5 experiments in the high level, under 20% of 51 "
        "(11)",
    };
    json_t *fixture = load_fixture();
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        json_t *root = json_deep_copy(fixture);
        char err[512] = "";
        mb_results_check_opts_t opts = {.require_complete = true};
        check_broken(i, root);
        assert_int_equal(mb_results_check(root, &opts, NULL, err, sizeof err), -1);
        if (strncmp(err, expected[i], strlen(expected[i])) != 0)
            fail_msg("case %zu: expected \"%s...\", got \"%s\"", i, expected[i], err);
        json_decref(root);
    }
    json_decref(fixture);
}

/* A call timed below the clock's step: a median and a CI top of 0 and an undefined
 * relative CI pass where the point says below_resolution_ns, and only there. */
static void test_check_below_resolution(void **state)
{
    (void)state;
    json_t *root = load_fixture();
    json_t *pt = point_at(root, 0, 1);
    json_object_set_new(pt, "min", json_real(0));
    json_object_set_new(pt, "median", json_real(0));
    json_object_set_new(pt, "ci95", json_pack("[f, f]", 0.0, 20.0));
    json_object_set_new(pt, "ci95_rel_halfwidth", json_real(-1));
    char err[512] = "";
    assert_int_equal(mb_results_check(root, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "median: 0 must be positive"));
    json_object_set_new(pt, "below_resolution_ns", json_real(20));
    if (mb_results_check(root, NULL, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* most experiments read 0 (a 0-byte MPI_Bcast on a 20 ns clock): the CI's top as well */
    json_object_set_new(pt, "ci95", json_pack("[f, f]", 0.0, 0.0));
    if (mb_results_check(root, NULL, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    json_decref(root);
}

/* What schema 2 allows: null model and loggp, a point whose status is failed in a
 * benchmark with no ok point, every role. */
static void test_check_accepts(void **state)
{
    (void)state;
    json_t *root = load_fixture();
    json_t *bench0 = bench_at(root, 0);
    json_t *points = json_object_get(bench0, "points");
    json_array_remove(points, 1);
    json_array_remove(points, 0);
    static const char *const roles[] = {"message_size", "ranks", "threads", "working_set", "count"};
    for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++) {
        json_object_set_new(axis_at(root, 0, 0), "role", json_string(roles[r]));
        char err[512] = "";
        mb_results_check_counts_t counts;
        if (mb_results_check(root, NULL, &counts, err, sizeof err) != 0)
            fail_msg("role %s: %s", roles[r], err);
        assert_int_equal(counts.points, 2);
        assert_int_equal(counts.failed, 1);
    }
    json_decref(root);
}

/* A run that measured one flagged benchmark again and not another: both records say so,
 * and so does the drift section. */
static void test_check_accepts_remeasure(void **state)
{
    (void)state;
    json_t *root = load_fixture();
    json_t *bench0 = bench_at(root, 0), *bench2 = bench_at(root, 2);
    json_object_set_new(bench0, "drift_probe",
                        json_pack("{s:f, s:f}", "before_ns", 120.0, "after_ns", 130.0));
    json_object_set_new(bench0, "drift_remeasure",
                        json_pack("{s:b, s:f, s:f, s:f, s:f, s:i}", "measured_again", 1,
                                  "first_before_ns", 300.0, "first_after_ns", 310.0, "first_wall_s",
                                  1.5, "probe_ns", 118.0, "attempts", 2));
    json_object_set_new(bench2, "drift_probe",
                        json_pack("{s:f, s:f}", "before_ns", 320.0, "after_ns", 330.0));
    json_object_set_new(bench2, "drift_remeasure",
                        json_pack("{s:b, s:s}", "measured_again", 0, "why", "no time"));
    json_object_set_new(
        root, "drift",
        json_pack("{s:s, s:f, s:f, s:i, s:[{s:s, s:f}], s:[{s:s, s:f, s:f}], s:[{s:s, s:s}]}",
                  "method", "m", "median_ns", 125.0, "flag_ratio", 1.3, "probes", 4, "flagged",
                  "name", "harness.null", "ratio", 2.6, "remeasured", "name", "harness.bcopy",
                  "first_before_ns", 300.0, "first_after_ns", 310.0, "not_remeasured", "name",
                  "harness.null", "why", "no time"));
    char err[512] = "";
    if (mb_results_check(root, NULL, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    json_decref(root);
}

static void test_check_expect_bench(void **state)
{
    (void)state;
    json_t *root = load_fixture();
    char err[512] = "";
    const char *present[] = {"harness.bcopy", "harness.null"};
    mb_results_check_opts_t opts = {.expect_bench = present, .n_expect_bench = 2};
    assert_int_equal(mb_results_check(root, &opts, NULL, err, sizeof err), 0);

    const char *skipped[] = {"mpi.pingpong"};
    opts = (mb_results_check_opts_t){.expect_bench = skipped, .n_expect_bench = 1};
    assert_int_equal(mb_results_check(root, &opts, NULL, err, sizeof err), -1);
    assert_contains(err, "$.benchmarks[1]: expected benchmark \"mpi.pingpong\" was skipped");

    const char *missing[] = {"shm.nothing"};
    opts = (mb_results_check_opts_t){.expect_bench = missing, .n_expect_bench = 1};
    assert_int_equal(mb_results_check(root, &opts, NULL, err, sizeof err), -1);
    assert_contains(err, "$.benchmarks: expected benchmark \"shm.nothing\" is missing");

    assert_int_equal(mb_results_check(bench_at(root, 0), NULL, NULL, err, sizeof err), -1);
    assert_contains(err, "$: missing key \"schema\"");
    json_decref(root);
}

/* A finished run's timings (--expect-timings): every phase, and wall_s on every benchmark
 * that was measured; a skipped one needs none, and without the option none is required. */
static void test_check_timings_required(void **state)
{
    (void)state;
    json_t *fixture = load_fixture();
    mb_results_check_opts_t need = {.require_complete = true, .require_timings = true};
    static const char *const expected[] = {
        "$.timings.phases: no phase \"plots\"",
        "$: missing key \"timings\"",
        "$.benchmarks[2]: missing key \"wall_s\"",
        "$.timings.phases: no phase \"calibration\"",
    };
    char err[512] = "";
    if (mb_results_check(fixture, &need, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (size_t i = 0; i <= sizeof expected / sizeof expected[0]; i++) {
        json_t *root = json_deep_copy(fixture);
        json_t *phases = json_object_get(json_object_get(root, "timings"), "phases");
        switch (i) {
        case 0: json_array_remove(phases, 7); break;
        case 1: json_object_del(root, "timings"); break;
        case 2: json_object_del(bench_at(root, 2), "wall_s"); break;
        case 3: json_array_remove(phases, 2); break;
        case 4: json_object_del(bench_at(root, 1), "wall_s"); break; /* skipped: fine */
        }
        int rc = mb_results_check(root, &need, NULL, err, sizeof err);
        if (i == sizeof expected / sizeof expected[0]) {
            if (rc != 0)
                fail_msg("a skipped benchmark without wall_s: %s", err);
        } else {
            assert_int_equal(rc, -1);
            if (strncmp(err, expected[i], strlen(expected[i])) != 0)
                fail_msg("case %zu: expected \"%s...\", got \"%s\"", i, expected[i], err);
            /* Optional without --expect-timings. */
            assert_int_equal(mb_results_check(root, NULL, NULL, err, sizeof err), 0);
        }
        json_decref(root);
    }
    json_decref(fixture);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_fixture),
        cmocka_unit_test(test_check_reports_path),
        cmocka_unit_test(test_check_accepts),
        cmocka_unit_test(test_check_below_resolution),
        cmocka_unit_test(test_check_accepts_remeasure),
        cmocka_unit_test(test_check_expect_bench),
        cmocka_unit_test(test_check_timings_required),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
