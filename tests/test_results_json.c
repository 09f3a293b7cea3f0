/* SPDX-License-Identifier: MIT */
/* results.json's writer (results_json.h): byte for byte what json_dumpf writes, for the
 * fixture run and for documents built to have what a layout can get wrong (an empty
 * benchmarks array, strings with newlines and non-ASCII, empty and nested containers,
 * numbers), and still so after records are replaced, appended or dropped between writes;
 * and a record the cache holds is not formatted again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results_json.h"
#include "testdoc.h"
#include "tmpdir.h"

/* Through temporary files (mb_tmpfile_text). */
static char *by_dumpf(const json_t *root)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(json_dumpf(root, f, MB_RESULTS_JSON_FLAGS), 0);
    fputc('\n', f);
    return mb_tmpfile_text(f);
}

static char *by_writer(const json_t *root, mb_results_json_cache_t *c)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(mb_results_json_write(f, root, c), 0);
    return mb_tmpfile_text(f);
}

/* The writer's text is json_dumpf's, through the cache c. */
static void assert_same_text(const json_t *root, mb_results_json_cache_t *c)
{
    char *want = by_dumpf(root), *got = by_writer(root, c);
    if (strcmp(want, got) != 0) {
        size_t at = 0;
        while (want[at] && want[at] == got[at])
            at++;
        fail_msg("differs at byte %zu: json_dumpf \"%.40s\", the writer \"%.40s\"", at, want + at,
                 got + at);
    }
    free(want);
    free(got);
}

static json_t *record(const char *name, double median_ns)
{
    json_t *b = json_pack("{s:s, s:s, s:{}, s:[], s:[{s:{s:i}, s:s, s:f, s:[f, f]}], s:n}", "name",
                          name, "summary", "line one\nline two: \"quoted\", caf\u00e9", "params",
                          "axes", "points", "params", "size_bytes", 8, "status", "ok", "median",
                          median_ns, "ci95", median_ns * 0.99, median_ns * 1.01, "model");
    assert_non_null(b);
    return b;
}

static void test_fixture_as_dumpf(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture("results_fixture.json");
    assert_non_null(root);
    mb_results_json_cache_t *c = mb_results_json_cache_new();
    assert_non_null(c);
    assert_same_text(root, c);
    assert_same_text(root, c); /* the second time from the cache */
    mb_results_json_cache_free(c);
    json_decref(root);
}

static void test_layouts_as_dumpf(void **state)
{
    (void)state;
    mb_results_json_cache_t *c = mb_results_json_cache_new();
    json_t *root = json_pack("{s:s, s:b, s:n, s:[], s:{}, s:i, s:f, s:{s:[i, {s:[]}]}}", "schema",
                             "mbsuite-results/2", "complete", 0, "finished_utc", "benchmarks",
                             "system", "failed_points", 0, "x", 0.1 + 0.2, "nested", "a", 1, "b");
    assert_non_null(root);
    assert_same_text(root, c);
    json_t *benches = json_object_get(root, "benchmarks");
    json_array_append_new(benches, record("harness.timer", 21.5));
    assert_same_text(root, c);
    json_array_append_new(benches, record("mpi.pingpong", 1234.5678901234));
    json_array_append_new(benches, json_object()); /* an empty record */
    assert_same_text(root, c);
    /* A record replaced in place, one dropped from the end, a section after them. */
    json_array_set_new(benches, 0, record("harness.timer", 22.5));
    assert_same_text(root, c);
    json_array_remove(benches, 2);
    json_object_set_new(root, "timings", json_pack("{s:f}", "total_s", 80.25));
    assert_same_text(root, c);
    json_array_clear(benches);
    assert_same_text(root, c);
    /* No cache, an empty document, and "benchmarks" that is not an array: dumpf's own. */
    assert_same_text(root, NULL);
    json_t *empty = json_object();
    assert_same_text(empty, c);
    json_object_set_new(root, "benchmarks", json_string("none"));
    assert_same_text(root, c);
    json_decref(empty);
    json_decref(root);
    mb_results_json_cache_free(c);
}

/* Against the contract (records never change once in the document), a record changed in
 * place after a write keeps the text it had: the cache is what wrote it. */
static void test_cached_record_not_formatted_again(void **state)
{
    (void)state;
    mb_results_json_cache_t *c = mb_results_json_cache_new();
    json_t *root = json_pack("{s:[o]}", "benchmarks", record("harness.timer", 21.5));
    char *before = by_writer(root, c);
    json_object_set_new(json_array_get(json_object_get(root, "benchmarks"), 0), "summary",
                        json_string("changed"));
    char *after = by_writer(root, c);
    assert_string_equal(before, after);
    free(after);
    /* Without the cache it is formatted anew. */
    after = by_writer(root, NULL);
    assert_non_null(strstr(after, "\"changed\""));
    free(before);
    free(after);
    json_decref(root);
    mb_results_json_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_as_dumpf),
        cmocka_unit_test(test_layouts_as_dumpf),
        cmocka_unit_test(test_cached_record_not_formatted_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
