/* SPDX-License-Identifier: MIT */
/* An interruption while a benchmark is measured again (the driver's drift re-measure,
 * results.h): its first record stands whole, with no partial record beside it of the same
 * name, and the file is as valid as any interrupted run's. Its own program: the
 * interruption is once per process (test_results_interrupt.c has the first measurement's
 * case). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "results.h"
#include "results_check.h"
#include "testdoc.h"
#include "tmpdir.h"

static void test_interrupt_while_measured_again(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("interrupt-again"), err[512] = "";
    json_t *fixture = mb_testdoc_fixture("results_fixture.json");
    assert_non_null(fixture);
    const json_t *first = json_array_get(json_object_get(fixture, "benchmarks"), 0);
    mb_results_t *r = mb_results_open(dir, json_object_get(fixture, "system"),
                                      json_object_get(fixture, "config"), err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    assert_int_equal(mb_results_add_benchmark(r, json_deep_copy(first), err, sizeof err), 0);

    /* Measured again: one point finished, the next in progress, when the signal comes. */
    json_t *header = json_deep_copy(first);
    json_object_set_new(header, "points", json_array());
    mb_results_live_begin(header);
    json_decref(header);
    const json_t *points = json_object_get(first, "points");
    mb_results_live_point(NULL, json_array_get(points, 0));
    mb_results_live_point(json_pack("{s:O, s:s}", "params",
                                    json_object_get(json_array_get(points, 1), "params"), "status",
                                    "failed"),
                          NULL);
    assert_int_equal(mb_results_interrupt("interrupted: SIGTERM (test)", err, sizeof err), 0);

    json_t *disk = mb_testdoc_results(dir);
    assert_non_null(disk);
    mb_results_check_opts_t opts = {.require_complete = false};
    if (mb_results_check(disk, &opts, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    const json_t *benches = json_object_get(disk, "benchmarks");
    assert_int_equal(json_array_size(benches), 1);
    assert_true(json_equal(json_array_get(benches, 0), first));
    assert_true(json_is_false(json_object_get(disk, "complete")));
    json_decref(disk);
    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), -1);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupt_while_measured_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
