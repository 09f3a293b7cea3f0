/* SPDX-License-Identifier: MIT */
/* The run's warnings (src/output/report_warnings.c): which points each kind counts, and
 * report.txt's summary of them on documents whose warnings are known: none, one of each,
 * long lists cut, skipped benchmarks grouped by their reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report_html_warnings.h"
#include "report_warnings.h"

/* The summary of root, as a new string. */
static char *summary(const json_t *root)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    mb_report_warnings_text(m, root);
    assert_int_equal(fclose(m), 0);
    return buf;
}

/* report.html's warnings of root, as a new string. */
static char *page_of(const json_t *root)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    mb_report_html_warnings(m, root, 0);
    assert_int_equal(fclose(m), 0);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static json_t *point(int size, const char *status, int ci_met, int ci_wide, double rel)
{
    return json_pack("{s:{s:i}, s:s, s:f, s:b, s:b, s:f}", "params", "size_bytes", size, "status",
                     status, "median", 10.0, "ci_target_met", ci_met, "ci_too_wide", ci_wide,
                     "ci95_rel_halfwidth", rel);
}

static json_t *bench(const char *name, json_t *points)
{
    return json_pack("{s:s, s:[s], s:o}", "name", name, "params", "size_bytes", "points", points);
}

static json_t *skipped(const char *name, const char *why)
{
    return json_pack("{s:s, s:s, s:[]}", "name", name, "skipped", why, "points");
}

/* A complete run whose every point met its CI target: nothing to say. */
static void test_none(void **state)
{
    (void)state;
    json_t *root = json_pack(
        "{s:b, s:[o]}", "complete", 1, "benchmarks",
        bench("x.a", json_pack("[o, o]", point(8, "ok", 1, 0, 0.01), point(16, "ok", 1, 0, 0.02))));
    char *text = summary(root);
    assert_string_equal(text, "\nwarnings \u2014 what to read with care (report.html lists each "
                              "with what it concerns)\n  none\n");
    free(text);
    json_decref(root);
}

/* One of each kind, each counted once, and a failed point counted as failed only (its
 * ci_target_met false is not a missed target). */
static void test_each_kind(void **state)
{
    (void)state;
    json_t *points = json_pack("[o, o, o, o, o]", point(8, "ok", 1, 0, 0.01),
                               point(16, "failed", 0, 0, 0), point(32, "ok", 0, 0, 0.06),
                               point(64, "ok", 0, 1, 0.123), point(128, "ok", 1, 0, 0.01));
    json_object_set_new(json_array_get(points, 4), "trimmed_by_budget", json_true());
    json_t *b = bench("x.a", points);
    json_object_set_new(b, "dropped_by_budget", json_integer(5));
    json_t *root = json_pack(
        "{s:b, s:[o, o], s:{s:[{s:i, s:s, s:b, s:s}, {s:i, s:s, s:b}]}, s:{s:f, s:[{s:s}]}}",
        "complete", 0, "benchmarks", b, skipped("x.b", "needs 2 ranks"), "preflight", "nodes",
        "node", 0, "host", "n0", "flagged", 1, "why", "noisy: p99 9%", "node", 1, "host", "n1",
        "flagged", 0, "drift", "usual_ns", 106.0, "flagged", "name", "x.a");
    assert_int_equal(mb_warn_count_points(root, MB_WARN_POINT_FAILED), 1);
    assert_int_equal(mb_warn_count_points(root, MB_WARN_POINT_CI_MISSED), 2);
    assert_int_equal(mb_warn_count_points(root, MB_WARN_POINT_CI_WIDE), 1);
    assert_int_equal(mb_warn_count_points(root, MB_WARN_POINT_TRIMMED), 1);
    char *text = summary(root);
    assert_non_null(strstr(text, "  the run did not finish: this report holds the benchmarks "
                                 "finished so far\n"
                                 "  node 0 (n0) flagged by the pre-flight: noisy: p99 9%\n"
                                 "  1 point failed: measured nothing, left out of every table, "
                                 "fit and plot (\"failed points\" below)\n"
                                 "  1 point with a CI wider than [run] ci_wide of the median:\n"
                                 "    x.a size_bytes=64: CI half-width 12.3% of the median\n"
                                 "  1 point trimmed by the time budget, with fewer repetitions "
                                 "than asked:\n"
                                 "    x.a size_bytes=128\n"
                                 "  2 points missed the CI target (\"CI target not met\", at the "
                                 "end)\n"
                                 "  the time budget cut the run: 1 benchmark measured a coarser "
                                 "grid (5 points dropped), 0 smaller working sets (\"where the "
                                 "time went\" below)\n"
                                 "  1 benchmark measured while the drift probe read far from the "
                                 "run's usual 106 ns, in another state of the node: x.a "
                                 "(\"drift\" below)\n"
                                 "  1 benchmark skipped (needs 2 ranks): x.b\n"));
    assert_null(strstr(text, "n1"));
    assert_null(strstr(text, "none"));
    free(text);
    json_decref(root);
}

/* A long list is cut at 8 names with how many more (points, flagged nodes, in report.html
 * too, a reason's skipped benchmarks); skipped benchmarks are grouped by their reason, in the
 * order of their first. */
static void test_long_lists(void **state)
{
    (void)state;
    json_t *benches = json_array(), *points = json_array();
    for (int i = 0; i < 12; i++)
        json_array_append_new(points, point(1 << i, "ok", 0, 1, 0.2));
    json_array_append_new(benches, bench("x.wide", points));
    char name[32];
    for (int i = 0; i < 11; i++) {
        snprintf(name, sizeof name, "mpi.b%d", i);
        json_array_append_new(benches, skipped(name, "needs at least 2 ranks, the run has 1"));
        if (i == 3)
            json_array_append_new(benches, skipped("os.fork", "fork refused"));
    }
    json_t *nodes = json_array();
    for (int i = 0; i < 10; i++)
        json_array_append_new(nodes, json_pack("{s:i, s:s, s:b, s:s}", "node", i, "host", "h",
                                               "flagged", i != 4, "why", "noisy"));
    json_t *root = json_pack("{s:b, s:o, s:{s:o}}", "complete", 1, "benchmarks", benches,
                             "preflight", "nodes", nodes);
    char *text = summary(root);
    /* 9 nodes flagged (all but node 4): 8 named, in order, and the count of the rest */
    assert_int_equal(count(text, "flagged by the pre-flight: noisy\n"), 8);
    assert_non_null(strstr(text, "  node 8 (h) flagged by the pre-flight: noisy\n"
                                 "  ... and 1 more node flagged (the pre-flight's table below)\n"));
    assert_null(strstr(text, "node 4 "));
    assert_null(strstr(text, "node 9 "));
    /* report.html's list the same: 8 nodes named, then the count */
    char *page = page_of(root);
    assert_int_equal(count(page, "pre-flight flagged node h: noisy"), 8);
    assert_non_null(strstr(page, "<span class=\"badge bad\">1</span>more nodes flagged by the "
                                 "pre-flight"));
    free(page);
    assert_non_null(
        strstr(text, "  12 points with a CI wider than [run] ci_wide of the median:\n"));
    assert_int_equal(count(text, "    x.wide size_bytes="), 8);
    assert_non_null(strstr(text, "    ... and 4 more (results.json: ci_too_wide)\n"));
    assert_non_null(strstr(text, "  11 benchmarks skipped (needs at least 2 ranks, the run has 1): "
                                 "mpi.b0, mpi.b1, mpi.b2, mpi.b3, mpi.b4, mpi.b5, mpi.b6, mpi.b7 "
                                 "and 3 more\n"
                                 "  1 benchmark skipped (fork refused): os.fork\n"));
    assert_int_equal(count(text, "skipped ("), 2);
    free(text);
    json_decref(root);
}

/* A point whose experiments sat at two levels (its "two_levels", ns): counted, and named in
 * both reports with its levels, each range in one unit where both ends share it, and where
 * its median lies. */
static void test_two_levels(void **state)
{
    (void)state;
    json_t *two = point(64, "ok", 1, 0, 0.01), *plain = point(128, "ok", 1, 0, 0.01);
    json_object_set_new(two, "two_levels",
                        json_pack("{s:{s:i, s:f, s:f}, s:{s:i, s:f, s:f}, s:f, s:s}", "low", "n", 7,
                                  "min", 12530.0, "max", 38110.0, "high", "n", 4, "min", 160690.0,
                                  "max", 163370.0, "gap_ratio", 160690.0 / 38110.0, "median_in",
                                  "low"));
    json_t *root = json_pack("{s:b, s:[o]}", "complete", 1, "benchmarks",
                             bench("os.bw_unix", json_pack("[o, o]", two, plain)));
    assert_int_equal(mb_warn_count_points(root, MB_WARN_POINT_TWO_LEVELS), 1);
    const char *want = "os.bw_unix size_bytes=64: 7 experiments at 12.53-38.11 us, 4 at "
                       "160.7-163.4 us; the median in the low level";
    char *text = summary(root);
    assert_non_null(strstr(text, "  1 point whose experiments sat at two levels, 2x or more "
                                 "apart (the node's state or the benchmark's regime changed "
                                 "during the point; its median is one level's, or between "
                                 "them):\n"));
    assert_non_null(strstr(text, want));
    assert_null(strstr(text, "size_bytes=128"));
    free(text);
    char *page = page_of(root);
    assert_non_null(strstr(page, "points whose experiments sat at two levels"));
    assert_non_null(strstr(page, "7 experiments at 12.53-38.11 us"));
    free(page);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_each_kind),
        cmocka_unit_test(test_long_lists),
        cmocka_unit_test(test_two_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
