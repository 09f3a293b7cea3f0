/* SPDX-License-Identifier: MIT */
/* The benchmark table: every descriptor is complete and well named, globs select the
 * right benchmarks, and a benchmark that needs more ranks is skipped with the reason. */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"
#include "registry.h"

static void test_descriptors_are_complete(void **unused)
{
    (void)unused;
    assert_true(mb_registry_count() > 0);
    for (size_t i = 0; i < mb_registry_count(); i++) {
        const mb_bench_t *b = mb_registry_get(i);
        assert_non_null(b->name);
        assert_non_null(b->group);
        /* "group.function" */
        size_t g = strlen(b->group);
        assert_int_equal(strncmp(b->name, b->group, g), 0);
        assert_int_equal(b->name[g], '.');
        assert_true(b->summary && *b->summary);
        assert_true(b->measures && *b->measures);
        /* A timed loop or a per-call operation, not both. */
        assert_true((b->run != NULL) != (b->op != NULL));
        assert_true(b->ndims <= MB_MAX_DIMS);
        assert_true(b->ndims == 0 || b->dims != NULL);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(b->name, mb_registry_get(j)->name);
        assert_ptr_equal(mb_registry_find(b->name), b);
    }
    assert_null(mb_registry_find("no.such"));
}

static size_t count_selected(const bool *sel)
{
    size_t n = 0;
    for (size_t i = 0; i < mb_registry_count(); i++)
        n += sel[i];
    return n;
}

static void test_select_globs(void **unused)
{
    (void)unused;
    bool sel[256];
    char err[256];
    assert_true(mb_registry_count() <= 256);
    assert_int_equal(mb_registry_select(NULL, sel, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), mb_registry_count());

    size_t harness = 0;
    for (size_t i = 0; i < mb_registry_count(); i++)
        harness += fnmatch("harness.*", mb_registry_get(i)->name, 0) == 0;
    assert_int_equal(mb_registry_select("harness.*", sel, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), harness);

    assert_int_equal(mb_registry_select("harness.timer, harness.bcopy", sel, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), 2);
    assert_true(sel[0]); /* harness.timer is first in bench_list.def */

    assert_int_equal(mb_registry_select("harness.timer,nope*", sel, err, sizeof err), -1);
    assert_non_null(strstr(err, "'nope*' matches no benchmark"));
}

static void test_skip_reason_names_the_need(void **unused)
{
    (void)unused;
    mb_bench_t b = {.name = "t.two", .group = "t", .summary = "s", .measures = "m", .min_ranks = 2};
    mb_context_t one = {.size = 1}, two = {.size = 2};
    char buf[128];
    const char *why = mb_measure_skip_reason(&b, &one, buf, sizeof buf);
    assert_non_null(why);
    assert_string_equal(why, "needs at least 2 ranks, the run has 1");
    assert_null(mb_measure_skip_reason(&b, &two, buf, sizeof buf));

    json_t *j = mb_measure_skipped_json(&b, why);
    assert_string_equal(json_string_value(json_object_get(j, "skipped")), why);
    assert_int_equal(json_array_size(json_object_get(j, "points")), 0);
    json_decref(j);
}

static void test_params_json(void **unused)
{
    (void)unused;
    static const char *const labels[] = {"warm", "cold", NULL};
    const mb_dim_t dims[] = {{.name = "size_bytes"}, {.name = "cache", .labels = labels}};
    mb_bench_t b = {.name = "t.p", .group = "t", .dims = dims, .ndims = 2};
    mb_point_t pt = {.v = {4096, 1}};
    json_t *p = mb_measure_params_json(&b, &pt);
    assert_int_equal(json_integer_value(json_object_get(p, "size_bytes")), 4096);
    assert_string_equal(json_string_value(json_object_get(p, "cache")), "cold");
    json_decref(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptors_are_complete),
        cmocka_unit_test(test_select_globs),
        cmocka_unit_test(test_skip_reason_names_the_need),
        cmocka_unit_test(test_params_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
