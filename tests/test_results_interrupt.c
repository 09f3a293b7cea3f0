/* SPDX-License-Identifier: MIT */
/* An interrupted run's last write (results.h: mb_results_interrupt), as the signal thread
 * and the hung-point watchdog make it: the finished benchmarks, the benchmark in progress
 * with its finished points and the point in progress failed with the reason, "complete":
 * false with "incomplete_reason"; valid for the same validator as a finished run, never
 * overwritten by the run's later writes, and no temporary file of a write in progress left. Its own program: the interruption is once
 * per process. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "fileutil.h"
#include "results.h"
#include "results_check.h"
#include "testdoc.h"
#include "tmpdir.h"

static json_t *load(const char *dir)
{
    json_t *root = mb_testdoc_results(dir);
    assert_non_null(root);
    return root;
}

static json_t *failed_record(const json_t *point)
{
    return json_pack("{s:O, s:s, s:s}", "params", json_object_get(point, "params"), "status",
                     "failed", "reason", "interrupted");
}

static void test_interrupt_records_the_benchmark_in_progress(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("interrupt"), err[512] = "";
    json_t *fixture = mb_testdoc_fixture("results_fixture.json");
    assert_non_null(fixture);
    const json_t *benches = json_object_get(fixture, "benchmarks");
    mb_results_t *r = mb_results_open(dir, json_object_get(fixture, "system"),
                                      json_object_get(fixture, "config"), err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    json_t *disk = load(dir);
    assert_string_equal(json_string_value(json_object_get(disk, "incomplete_reason")),
                        "the run did not finish: still running, or ended without a chance to "
                        "record why (SIGKILL, a crash, a power cut)");
    json_decref(disk);

    /* One finished benchmark, then one in progress (the fixture's first: 3 points). */
    json_t *first = json_deep_copy(json_array_get(benches, 1));
    json_int_t first_failed = json_integer_value(json_object_get(first, "failed_points"));
    assert_int_equal(mb_results_add_benchmark(r, first, err, sizeof err), 0);
    const json_t *second = json_array_get(benches, 0);
    const json_t *points = json_object_get(second, "points");
    assert_true(json_array_size(points) >= 2);
    json_t *header = json_deep_copy(second);
    json_object_set_new(header, "points", json_array());
    mb_results_live_begin(header);
    json_decref(header);
    if (json_object_get(second, "node_noise"))
        mb_results_live_extra("node_noise", json_object_get(second, "node_noise"));
    mb_results_live_point(failed_record(json_array_get(points, 0)), NULL);
    mb_results_live_point(NULL, json_array_get(points, 0));
    mb_results_live_point(failed_record(json_array_get(points, 1)), NULL);

    /* A write of the run's in progress (results.c: results_write), its temporary files made
     * and not yet renamed: the interruption removes them, as the process is about to die. */
    const char *names[] = {"results.json", "points.csv", "report.txt"};
    char *temps[3];
    for (size_t i = 0; i < 3; i++) {
        char *path = NULL;
        assert_true(asprintf(&path, "%s/%s", dir, names[i]) > 0);
        temps[i] = mb_file_temp_path(path);
        free(path);
        assert_non_null(temps[i]);
        FILE *f = fopen(temps[i], "w");
        assert_non_null(f);
        fputs("a write in progress", f);
        fclose(f);
    }

    const char *why = "interrupted: SIGTERM (test)";
    assert_int_equal(mb_results_interrupt(why, err, sizeof err), 0);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(access(temps[i], F_OK), -1);
        free(temps[i]);
    }
    disk = load(dir);
    mb_results_check_opts_t opts = {.require_complete = false};
    mb_results_check_counts_t counts;
    if (mb_results_check(disk, &opts, &counts, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(json_is_false(json_object_get(disk, "complete")));
    assert_string_equal(json_string_value(json_object_get(disk, "incomplete_reason")), why);
    assert_int_equal(counts.benchmarks, 2);
    const json_t *live = json_array_get(json_object_get(disk, "benchmarks"), 1);
    assert_string_equal(json_string_value(json_object_get(live, "interrupted")), why);
    const json_t *got = json_object_get(live, "points");
    assert_int_equal(json_array_size(got), 2);
    assert_true(json_equal(json_array_get(got, 0), json_array_get(points, 0)));
    const json_t *cut = json_array_get(got, 1);
    assert_string_equal(json_string_value(json_object_get(cut, "status")), "failed");
    assert_string_equal(json_string_value(json_object_get(cut, "reason")), why);
    assert_true(json_equal(json_object_get(cut, "params"),
                           json_object_get(json_array_get(points, 1), "params")));
    const char *st0 = json_string_value(json_object_get(json_array_get(points, 0), "status"));
    json_int_t live_failed = 1 + (st0 && strcmp(st0, "failed") == 0);
    assert_int_equal(json_integer_value(json_object_get(live, "failed_points")), live_failed);
    assert_int_equal(json_integer_value(json_object_get(disk, "failed_points")),
                     first_failed + live_failed);
    json_decref(disk);

    /* Once: a second interruption, the run's next benchmark and its close write nothing. */
    assert_int_equal(mb_results_interrupt("interrupted: again", err, sizeof err), 1);
    assert_int_equal(mb_results_add_benchmark(r, json_deep_copy(second), err, sizeof err), -1);
    assert_non_null(strstr(err, "interrupted"));
    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), -1);
    disk = load(dir);
    assert_true(json_is_false(json_object_get(disk, "complete")));
    assert_string_equal(json_string_value(json_object_get(disk, "incomplete_reason")), why);
    json_decref(disk);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupt_records_the_benchmark_in_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
