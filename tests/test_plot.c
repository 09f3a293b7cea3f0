/* SPDX-License-Identifier: MIT */
/* The plots read roles and fields, never names: the x axis is found by its role, series
 * split by the other axes' values (label axes first of all), failed points left out even
 * when they carry figures, and a whole results directory plotted from benchmarks whose
 * names and axis names the plot code has never seen. Runs gnuplot when it is installed;
 * needs the templates of plots/ in the current directory (tests/run.sh runs from the
 * repository root), and skips otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fit.h"
#include "plot.h"
#include "plot_series.h"
#include "results.h"

/* ---- helpers ---------------------------------------------------------------------- */

/* JSON written with ' for " (readable in C), parsed. */
static json_t *doc(const char *text)
{
    char *s = strdup(text);
    assert_non_null(s);
    for (char *p = s; *p; p++) {
        if (*p == '\'')
            *p = '"';
    }
    json_error_t je;
    json_t *root = json_loads(s, 0, &je);
    if (!root)
        fail_msg("line %d: %s in %s", je.line, je.text, s);
    free(s);
    return root;
}

/* An ok point at x (axis xname) with labels lab (a JSON object text) and median t_ns. */
static json_t *ok_point(const char *xname, double x, const char *lab, double t_ns)
{
    json_t *params = doc(lab);
    json_object_set_new(params, xname, json_real(x));
    return json_pack("{s:o, s:s, s:i, s:f, s:f, s:[f, f]}", "params", params, "status", "ok", "n",
                     11, "min", t_ns * 0.98, "median", t_ns, "ci95", t_ns * 0.99, t_ns * 1.01);
}

static int tmp_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open", path);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    int ch;
    while ((ch = fgetc(f)) != EOF)
        fputc(ch, m);
    fclose(f);
    fclose(m);
    return buf;
}

#define assert_contains(haystack, needle)                                                          \
    do {                                                                                           \
        if (!strstr((haystack), (needle)))                                                         \
            fail_msg("expected \"%s\" in:\n%s", (needle), (haystack));                             \
    } while (0)

#define assert_lacks(haystack, needle)                                                             \
    do {                                                                                           \
        if (strstr((haystack), (needle)))                                                          \
            fail_msg("did not expect \"%s\" in:\n%s", (needle), (haystack));                       \
    } while (0)

/* ---- the x axis by role --------------------------------------------------------------- */

static const mb_role_t x_roles[] = {MB_ROLE_MESSAGE_SIZE, MB_ROLE_RANKS,
                                      MB_ROLE_WORKING_SET, MB_ROLE_THREADS};

static void test_x_axis_by_role(void **state)
{
    (void)state;
    json_t *bench =
        doc("{'name': 'a.b', 'axes': [{'name': 'flavour', 'role': 'label'},"
            " {'name': 'np', 'role': 'ranks'}, {'name': 'len', 'role': 'message_size'},"
            " {'name': 'size_bytes', 'role': 'count'}],"
            " 'points': [{'params': {'flavour': 'x', 'np': 2, 'len': 8, 'size_bytes': 1},"
            "  'status': 'ok'},"
            " {'params': {'flavour': 'x', 'np': 2, 'len': 'oops'}, 'status': 'failed',"
            "  'reason': 'a failed point does not decide'}]}");
    mb_plot_x_t x;
    assert_true(mb_plot_x_choose(bench, x_roles, 4, &x));
    assert_string_equal(x.name, "len");
    assert_int_equal(x.role, MB_ROLE_MESSAGE_SIZE);
    assert_true(x.bytes);

    /* Without the message size in the roles asked for, the ranks axis, counted not sized. */
    assert_true(mb_plot_x_choose(bench, x_roles + 1, 3, &x));
    assert_string_equal(x.name, "np");
    assert_false(x.bytes);

    /* An axis whose value is not a number on an ok point is passed over. */
    json_object_set_new(
        json_object_get(json_array_get(json_object_get(bench, "points"), 0), "params"), "len",
        json_string("big"));
    assert_true(mb_plot_x_choose(bench, x_roles, 4, &x));
    assert_string_equal(x.name, "np");

    /* A name means nothing: size_bytes with the role count is no x axis. */
    const mb_role_t sized[] = {MB_ROLE_MESSAGE_SIZE, MB_ROLE_WORKING_SET};
    assert_false(mb_plot_x_choose(bench, sized, 2, &x));
    json_decref(bench);

    /* A working set, and a benchmark with only failed points has none. */
    bench = doc("{'axes': [{'name': 'ws', 'role': 'working_set'}],"
                " 'points': [{'params': {'ws': 4096}, 'status': 'ok'}]}");
    assert_true(mb_plot_x_choose(bench, x_roles, 4, &x));
    assert_int_equal(x.role, MB_ROLE_WORKING_SET);
    assert_true(x.bytes);
    json_object_set_new(json_array_get(json_object_get(bench, "points"), 0), "status",
                        json_string("failed"));
    assert_false(mb_plot_x_choose(bench, x_roles, 4, &x));
    json_decref(bench);
}

/* ---- series ----------------------------------------------------------------------------- */

static void test_series_split_by_labels(void **state)
{
    (void)state;
    json_t *bench = doc("{'name': 'q.r', 'statistic': 'median',"
                        " 'axes': [{'name': 'len', 'role': 'message_size'},"
                        "  {'name': 'flavour', 'role': 'label', 'labels': ['a', 'b']},"
                        "  {'name': 'kind', 'role': 'label', 'labels': ['k', 'm']}],"
                        " 'points': []}");
    json_t *points = json_object_get(bench, "points");
    static const double sizes[] = {64, 8, 1024};
    for (size_t i = 0; i < 3; i++) {
        json_array_append_new(
            points, ok_point("len", sizes[i], "{'flavour': 'a', 'kind': 'k'}", 100 + sizes[i]));
        json_array_append_new(
            points, ok_point("len", sizes[i], "{'flavour': 'b', 'kind': 'k'}", 200 + sizes[i]));
    }
    json_array_append_new(points, ok_point("len", 8, "{'flavour': 'b', 'kind': 'm'}", 300));
    /* Failed, with figures it should not have: left out on its status. */
    json_t *failed = ok_point("len", 4096, "{'flavour': 'a', 'kind': 'k'}", 999);
    json_object_set_new(failed, "status", json_string("failed"));
    json_object_set_new(failed, "reason", json_string("setup: wrong data"));
    json_array_append_new(points, failed);

    mb_plot_x_t x;
    assert_true(mb_plot_x_choose(bench, x_roles, 4, &x));
    mb_plot_set_t set = {0};
    assert_int_equal(mb_plot_set_collect(&set, bench, &x, mb_plot_time_ns, false), 0);
    assert_int_equal(set.n, 3);
    assert_string_equal(set.v[0].label, "flavour=a, kind=k");
    assert_string_equal(set.v[1].label, "flavour=b, kind=k");
    assert_string_equal(set.v[2].label, "flavour=b, kind=m");
    assert_int_equal(set.v[0].n, 3);
    assert_int_equal(set.v[1].n, 3);
    assert_int_equal(set.v[2].n, 1);
    for (size_t k = 0; k < set.n; k++) {
        for (size_t i = 0; i < set.v[k].n; i++) {
            assert_true(set.v[k].pts[i].x != 4096);
            if (i > 0)
                assert_true(set.v[k].pts[i - 1].x < set.v[k].pts[i].x);
        }
    }
    assert_true(set.v[0].pts[0].x == 8 && set.v[0].pts[0].y == 108);
    double lo, hi;
    mb_plot_set_x_span(&set, &lo, &hi);
    assert_true(lo == 8 && hi == 1024);
    assert_true(mb_plot_set_has_curve(&set));

    /* With the benchmark's name in front, as on the bandwidth plot. */
    mb_plot_set_free(&set);
    assert_int_equal(mb_plot_set_collect(&set, bench, &x, mb_plot_time_ns, true), 0);
    assert_string_equal(set.v[0].label, "q.r flavour=a, kind=k");
    mb_plot_set_free(&set);
    assert_int_equal(set.n, 0);
    json_decref(bench);
}

/* A second numeric axis splits too: points at different rank counts are not one line. */
static void test_series_split_by_ranks(void **state)
{
    (void)state;
    json_t *bench = doc("{'axes': [{'name': 'procs', 'role': 'ranks'},"
                        " {'name': 'len', 'role': 'message_size'}], 'points': []}");
    json_t *points = json_object_get(bench, "points");
    for (int p = 2; p <= 4; p += 2) {
        json_array_append_new(points,
                              ok_point("len", 8, p == 2 ? "{'procs': 2}" : "{'procs': 4}", 10));
        json_array_append_new(points,
                              ok_point("len", 64, p == 2 ? "{'procs': 2}" : "{'procs': 4}", 20));
    }
    mb_plot_x_t x;
    assert_true(mb_plot_x_choose(bench, x_roles, 4, &x));
    assert_string_equal(x.name, "len");
    mb_plot_set_t set = {0};
    assert_int_equal(mb_plot_set_collect(&set, bench, &x, mb_plot_time_us, false), 0);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.v[0].label, "procs=2");
    assert_string_equal(set.v[1].label, "procs=4");
    assert_true(set.v[0].pts[1].y == 0.02); /* us */
    mb_plot_set_free(&set);
    json_decref(bench);
}

/* ---- a results directory, end to end ------------------------------------------------- */

/* A fit of every basis fit.h knows, so that one the plots cannot evaluate shows. */
static json_t *fit_all_bases(const char *name)
{
    json_t *terms = json_array();
    for (int b = 0; b < MB_FIT_NBASES; b++)
        json_array_append_new(terms, json_pack("{s:s, s:f}", "basis",
                                               mb_fit_basis_name((mb_fit_basis_t)b), "coef", 1.0));
    return json_pack("{s:s, s:{s:s}, s:[{s:i, s:n, s:o}]}", "name", name, "params", "variant", "v1",
                     "segments", "d_min", 0, "d_max", "terms", terms);
}

/* The data file of plot `name` in results directory dir (read_all's). */
static char *plot_dat(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/plots/%s.dat", dir, name);
    return read_all(path);
}

static void test_results_dir(void **state)
{
    (void)state;
    if (access("plots/latency_fit.gp", R_OK) != 0)
        skip(); /* not run from the repository root */
    json_t *root = doc("{'benchmarks': [], 'fits': []}");
    json_object_set_new(root, "schema", json_string(MB_RESULTS_SCHEMA));

    /* Time against a message size named d, series by the label axis variant, a model. */
    json_t *odd = doc("{'name': 'x.odd', 'measures': 'a thing', 'statistic': 'median',"
                      " 'axes': [{'name': 'variant', 'role': 'label', 'labels': ['v1', 'v2']},"
                      "  {'name': 'd', 'role': 'message_size'}],"
                      " 'model': 'linear_pd', 'points': [], 'failed_points': 1, 'skipped': null}");
    json_t *points = json_object_get(odd, "points");
    for (double d = 8; d <= 8192; d *= 4) {
        json_array_append_new(points, ok_point("d", d, "{'variant': 'v1'}", 1000 + d));
        json_array_append_new(points, ok_point("d", d, "{'variant': 'v2'}", 2000 + d));
    }
    json_t *failed = ok_point("d", 777777, "{'variant': 'v1'}", 5e6);
    json_object_set_new(failed, "status", json_string("failed"));
    json_array_append_new(points, failed);
    json_array_append_new(json_object_get(root, "benchmarks"), odd);
    json_array_append_new(json_object_get(root, "fits"), fit_all_bases("x.odd"));

    /* The same without a model: no curves even with a fit of its name. */
    json_t *plain = json_deep_copy(odd);
    json_object_set_new(plain, "name", json_string("x.plain"));
    json_object_set_new(plain, "model", json_null());
    json_array_append_new(json_object_get(root, "benchmarks"), plain);
    json_array_append_new(json_object_get(root, "fits"), fit_all_bases("x.plain"));

    /* A working set named ws: a memory curve, whatever the benchmark's name. The one that
     * derived cache levels is mem_latency, though another (os.ctx's) comes first. */
    json_t *ring = doc("{'name': 'x.ring', 'statistic': 'median',"
                       " 'axes': [{'name': 'ws', 'role': 'working_set'}], 'model': null,"
                       " 'points': [], 'skipped': null}");
    for (double ws = 1024; ws <= 1 << 20; ws *= 8)
        json_array_append_new(json_object_get(ring, "points"),
                              ok_point("ws", ws, "{}", 2000 + ws / 1e3));
    json_array_append_new(json_object_get(root, "benchmarks"), ring);
    json_t *mem = json_deep_copy(ring);
    json_object_set_new(mem, "name", json_string("y.mem"));
    json_object_set_new(mem, "derived",
                        doc("{'levels_from': 'page', 'levels': [{'size_bytes': 32768,"
                            " 'latency_ns': 1.2, 'midpoint_bytes': 40000, 'open': false}]}"));
    json_array_append_new(json_object_get(root, "benchmarks"), mem);

    char dir[] = "/tmp/mbsuite-test-plot.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[512], err[1024] = "";
    snprintf(path, sizeof path, "%s/results.json", dir);
    assert_int_equal(json_dump_file(root, path, JSON_INDENT(1)), 0);
    mb_plot_files_t files;
    int rc = mb_plot_results_dir_files(dir, &files, err, sizeof err);
    if (rc != 0 && rc != MB_PLOT_NO_GNUPLOT)
        fail_msg("mb_plot_results_dir_files: %s", err);
    assert_int_equal(files.nscripts, 4);
    mb_plot_files_free(&files);

    char *dat = plot_dat(dir, "x_odd");
    assert_contains(dat, "# [0] variant=v1\n# x_plot d time_us");
    assert_contains(dat, "variant=v2\n");
    assert_contains(dat, "fit variant=v1: segment d in [0, inf] bytes");
    assert_lacks(dat, "not drawn");
    assert_lacks(dat, "777777");
    free(dat);
    dat = plot_dat(dir, "x_plain");
    assert_contains(dat, "# [1] variant=v2");
    assert_lacks(dat, "segment d in");
    free(dat);
    dat = plot_dat(dir, "mem_latency");
    assert_contains(dat, "# x_plot ws time_ns");
    assert_contains(dat, "\n32768 1.2 40000 0\n");
    free(dat);
    dat = plot_dat(dir, "x_ring");
    assert_contains(dat, "# x_plot ws time_ns");
    assert_lacks(dat, "\n32768 1.2");
    free(dat);

    assert_int_equal(nftw(dir, tmp_remove_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x_axis_by_role),
        cmocka_unit_test(test_series_split_by_labels),
        cmocka_unit_test(test_series_split_by_ranks),
        cmocka_unit_test(test_results_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
