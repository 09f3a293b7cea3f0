/* SPDX-License-Identifier: MIT */
/* Seed 003's node tables in the report (report_node_tables.h): a derived figure that its
 * subtraction clamped at 0 (a context switch less its pipe overhead, os_util.h) is shown as
 * none, with why, in one run and over --runs; a figure above 0 is shown as measured; the local
 * latencies by placement, lmbench's unbound figure in Table 4, the bound ones apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report_node_tables.h"
#include "testdoc.h"

/* The line of report that starts with prefix (after the indent), or fail. */
static const char *line_of(const char *report, const char *prefix)
{
    for (const char *l = report; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *t = l + strspn(l, " ");
        if (strncmp(t, prefix, strlen(prefix)) == 0)
            return t;
    }
    fail_msg("no line starting '%s' in:\n%s", prefix, report);
    return NULL;
}

/* A run of one node whose os.ctx derived 4.6 us unpinned at 2p/0K, 0.93 us pinned there, and
 * 0 (clamped) pinned at 8p/64K and 16p/64K. */
static json_t *ctx_doc(void)
{
    return json_pack("{s:{s:[{s:s}]}, s:[{s:s, s:s, s:[{s:{}, s:s, s:f}], s:{s:f, s:f, s:f, "
                     "s:f}}]}",
                     "system", "node_list", "host", "n0", "benchmarks", "name", "os.ctx", "group",
                     "os", "points", "params", "status", "ok", "median", 1000.0, "derived",
                     "ctx_2p_0K_unpinned_ns", 4600.0, "ctx_2p_0K_pinned_ns", 930.0,
                     "ctx_8p_64K_pinned_ns", 0.0, "ctx_16p_64K_pinned_ns", 0.0);
}

static void test_clamped_one_run(void **state)
{
    (void)state;
    json_t *root = ctx_doc();
    char *out = mb_testdoc_render(mb_report_node_tables, root);
    assert_non_null(out);
    /* Table 3 (pinned): 2p/0K as measured, 8p/64K none. */
    const char *pinned = strstr(out, "Table 3 (pinned)");
    assert_non_null(pinned);
    const char *row = line_of(pinned, "n0 ");
    assert_true(strncmp(row, "n0    0.9300", 12) == 0);
    /* Both clamped columns under one reason that says why, no figure of 0 shown. */
    assert_non_null(strstr(pinned, "- 8p/64K, 16p/64K: os.ctx read 0: the time it is "
                                   "corrected by read as long or longer"));
    const char *end = strchr(row, '\n');
    assert_null(memmem(row, (size_t)(end - row), " 0 ", 3));
    free(out);
    json_decref(root);
}

static void test_clamped_every_run(void **state)
{
    (void)state;
    json_t *root = ctx_doc();
    json_t *bench = json_array_get(json_object_get(root, "benchmarks"), 0);
    /* --runs 2: 8p/64K pinned read 0 in both runs; 2p/0K pinned 0 in one, 1000 in the other:
     * the mean of the runs that gave a figure. */
    json_object_set_new(bench, "derived_runs",
                        json_pack("{s:{s:[{s:[f,f]}]}, s:{s:[{s:[f,f]}]}}", "ctx_8p_64K_pinned_ns",
                                  "per_node", "values", 0.0, 0.0, "ctx_2p_0K_pinned_ns", "per_node",
                                  "values", 0.0, 1000.0));
    char *out = mb_testdoc_render(mb_report_node_tables, root);
    assert_non_null(out);
    const char *pinned = strstr(out, "Table 3 (pinned)");
    assert_non_null(pinned);
    assert_non_null(strstr(pinned, "8p/64K: os.ctx, every run: read 0: the time it is corrected"));
    assert_true(strncmp(line_of(pinned, "n0 "), "n0    1.000", 11) == 0);
    free(out);
    json_decref(root);
}

/* os.lat_pipe and os.tcp_connect at their three placements (os/placement.h). */
static void test_lat_placements(void **state)
{
    (void)state;
    json_t *root = json_pack(
        "{s:{s:[{s:s}]}, s:[{s:s, s:s, s:[{s:{s:s}, s:s, s:f}, {s:{s:s}, s:s, s:f}, "
        "{s:{s:s}, s:s, s:f}]}, {s:s, s:s, s:[{s:{s:s}, s:s, s:f}, {s:{s:s}, s:s, s:f}, "
        "{s:{s:s}, s:s, s:f}]}]}",
        "system", "node_list", "host", "n0", "benchmarks", "name", "os.lat_pipe", "group", "os",
        "points", "params", "placement", "unpinned", "status", "ok", "median", 40000.0, "params",
        "placement", "one_cpu", "status", "ok", "median", 5000.0, "params", "placement",
        "two_cores", "status", "ok", "median", 35000.0, "name", "os.tcp_connect", "group", "os",
        "points", "params", "placement", "unpinned", "status", "ok", "median", 50000.0, "params",
        "placement", "one_cpu", "status", "ok", "median", 15000.0, "params", "placement",
        "two_cores", "status", "ok", "median", 45000.0);
    char *out = mb_testdoc_render(mb_report_node_tables, root);
    assert_non_null(out);
    const char *t4 = strstr(out, "Table 4: local communication latencies");
    assert_non_null(t4);
    /* pipe and TCP conn, each its unpinned point */
    char cells[6][16];
    assert_int_equal(sscanf(line_of(t4, "n0 "), "n0 %15s %*s %*s %*s %15s", cells[0], cells[1]), 2);
    assert_string_equal(cells[0], "40.00");
    assert_string_equal(cells[1], "50.00");
    const char *bound = strstr(out, "Table 4 (bound)");
    assert_non_null(bound);
    const char *row = line_of(bound, "n0 ");
    /* pipe 1 CPU, AF UNIX none, TCP conn 1 CPU, pipe 2 cores, AF UNIX none, TCP conn 2 cores */
    assert_int_equal(sscanf(row, "n0 %15s %15s %*s %*s %15s %15s %15s %*s %*s %15s", cells[0],
                            cells[1], cells[2], cells[3], cells[4], cells[5]),
                     6);
    assert_string_equal(cells[0], "5.000");
    assert_string_equal(cells[1], "-");
    assert_string_equal(cells[2], "15.00");
    assert_string_equal(cells[3], "35.00");
    assert_string_equal(cells[4], "-");
    assert_string_equal(cells[5], "45.00");
    free(out);
    json_decref(root);
}

/* Table 6 from shm.latency's levels beside hwloc's three data caches: main memory is the
 * level past them, open (running to the curve's end) or closed (the curve's last point went
 * off it); with no level past them, none, and why. */
static void test_memory_level(void **state)
{
    (void)state;
    json_t *root = json_pack(
        "{s:{s:[{s:s, s:[{s:i, s:s, s:i}, {s:i, s:s, s:i}, {s:i, s:s, s:i}, {s:i, s:s, s:i}]}]}, "
        "s:[{s:s, s:s, s:[{s:{}, s:s, s:f}], s:{s:[{s:b, s:f}, {s:b, s:f}, {s:b, s:f}, "
        "{s:b, s:f}]}}]}",
        "system", "node_list", "host", "n0", "caches", "level", 1, "type", "data", "size_bytes",
        49152, "level", 1, "type", "instruction", "size_bytes", 32768, "level", 2, "type",
        "unified", "size_bytes", 1048576, "level", 3, "type", "unified", "size_bytes", 33554432,
        "benchmarks", "name", "shm.latency", "group", "shm", "points", "params", "status", "ok",
        "median", 1.0, "derived", "levels", "open", 0, "random_latency_ns", 0.95, "open", 0,
        "random_latency_ns", 3.34, "open", 0, "random_latency_ns", 12.5, "open", 0,
        "random_latency_ns", 140.6);
    json_t *levels = json_object_get(
        json_object_get(json_array_get(json_object_get(root, "benchmarks"), 0), "derived"),
        "levels");
    for (int open = 0; open < 2; open++) {
        json_object_set_new(json_array_get(levels, 3), "open", json_boolean(open));
        char *out = mb_testdoc_render(mb_report_node_tables, root);
        assert_non_null(out);
        const char *t6 = strstr(out, "Table 6: memory latencies");
        assert_non_null(t6);
        char cells[4][16];
        assert_int_equal(sscanf(line_of(t6, "n0 "), "n0 %15s %15s %15s %15s", cells[0], cells[1],
                                cells[2], cells[3]),
                         4);
        assert_string_equal(cells[0], "0.9500");
        assert_string_equal(cells[2], "12.50");
        assert_string_equal(cells[3], "140.6");
        free(out);
    }
    json_array_remove(levels, 3);
    char *out = mb_testdoc_render(mb_report_node_tables, root);
    assert_non_null(out);
    assert_non_null(strstr(out, "- main mem: the latency curve shows 3 cache levels of hwloc's 3"));
    free(out);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clamped_one_run),
        cmocka_unit_test(test_clamped_every_run),
        cmocka_unit_test(test_lat_placements),
        cmocka_unit_test(test_memory_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
