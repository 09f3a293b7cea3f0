/* SPDX-License-Identifier: MIT */
/* Output modules without MPI: atomic file replacement, the results directory's life cycle
 * (checked with the same validator the end-to-end tests use; the validator's own cases are
 * test_results_check.c's), rewriting one section of a closed run, and report rendering from a
 * fixture document (tests/data/results_fixture.json), failed points included. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fileutil.h"
#include "report.h"
#include "results.h"
#include "results_check.h"
#include "testdoc.h"
#include "tmpdir.h"

/* ---- helpers ---------------------------------------------------------------------- */

static char *path_join(const char *dir, const char *name)
{
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
    return p;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
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

/* Names in dir other than . and .., sorted, joined by spaces, for exact comparisons. */
static char *dir_listing(const char *dir)
{
    struct dirent **e;
    int count = scandir(dir, &e, NULL, alphasort);
    assert_true(count >= 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int n = 0;
    for (int i = 0; i < count; i++) {
        if (strcmp(e[i]->d_name, ".") != 0 && strcmp(e[i]->d_name, "..") != 0)
            fprintf(m, "%s%s", n++ ? " " : "", e[i]->d_name);
        free(e[i]);
    }
    free(e);
    fclose(m);
    return buf;
}

/* How many lines the file at path has. */
static size_t line_count(const char *path)
{
    char *text = read_all(path);
    size_t n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    free(text);
    return n;
}

static json_t *load_fixture(const char *name)
{
    json_t *root = mb_testdoc_fixture(name);
    if (!root)
        fail_msg("cannot load the fixture %s", name);
    return root;
}

static char *render(const json_t *root)
{
    FILE *t = tmpfile();
    assert_non_null(t);
    assert_int_equal(mb_report_write(t, root), 0);
    return mb_tmpfile_text(t);
}

#define assert_contains(haystack, needle)                                                          \
    do {                                                                                           \
        if (!strstr((haystack), (needle)))                                                         \
            fail_msg("expected \"%s\" in:\n%s", (needle), (haystack));                             \
    } while (0)

static int check_doc(const json_t *root, bool complete, mb_results_check_counts_t *counts)
{
    char err[512] = "";
    mb_results_check_opts_t opts = {.require_complete = complete};
    int rc = mb_results_check(root, &opts, counts, err, sizeof err);
    if (rc != 0)
        print_error("%s\n", err);
    return rc;
}

static json_t *load_results_file(const char *dir)
{
    json_t *root = mb_testdoc_results(dir);
    assert_non_null(root);
    return root;
}

static json_t *bench_point(json_t *root, size_t b, size_t p)
{
    json_t *bench = json_array_get(json_object_get(root, "benchmarks"), b);
    return json_array_get(json_object_get(bench, "points"), p);
}

/* ---- fileutil --------------------------------------------------------------------- */

static int write_text(FILE *f, void *arg)
{
    return fputs((const char *)arg, f) < 0 ? -1 : 0;
}

/* Writes half its content, then fails, like a writer hitting an error mid-way. */
static int write_then_fail(FILE *f, void *arg)
{
    (void)arg;
    fputs("partial new cont", f);
    return -1;
}

static void test_atomic_write_whole(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), *path = path_join(dir, "out.txt"), err[256] = "";
    assert_int_equal(mb_file_write_atomic(path, write_text, "first\n", err, sizeof err), 0);
    assert_int_equal(mb_file_write_atomic(path, write_text, "second version\n", err, sizeof err), 0);
    char *content = read_all(path);
    assert_string_equal(content, "second version\n");
    char *names = dir_listing(dir);
    assert_string_equal(names, "out.txt");
    free(names);
    free(content);
    free(path);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_atomic_write_failing_writer_keeps_old(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), *path = path_join(dir, "out.txt"), err[256] = "";
    assert_int_equal(mb_file_write_atomic(path, write_text, "old\n", err, sizeof err), 0);
    assert_int_equal(mb_file_write_atomic(path, write_then_fail, NULL, err, sizeof err), -1);
    assert_contains(err, path);
    char *content = read_all(path);
    assert_string_equal(content, "old\n");
    char *names = dir_listing(dir);
    assert_string_equal(names, "out.txt"); /* no temporary file left */
    free(names);
    free(content);
    free(path);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_atomic_write_rename_fails(void **state)
{
    (void)state;
    /* A directory in the target's place: everything succeeds up to the rename. */
    char *dir = mb_tmpdir_new("results"), *path = path_join(dir, "out.txt"), err[256] = "";
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(mb_file_write_atomic(path, write_text, "x", err, sizeof err), -1);
    assert_contains(err, "rename");
    char *names = dir_listing(dir);
    assert_string_equal(names, "out.txt");
    free(names);
    free(path);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_atomic_write_missing_dir(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), *path = path_join(dir, "no/such/out.txt"), err[256] = "";
    assert_int_equal(mb_file_write_atomic(path, write_text, "x", err, sizeof err), -1);
    assert_contains(err, path);
    free(path);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_mkdir_p(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[256] = "";
    char *deep = path_join(dir, "a/b//c/");
    assert_int_equal(mb_mkdir_p(deep, err, sizeof err), 0);
    assert_int_equal(mb_mkdir_p(deep, err, sizeof err), 0); /* exists: fine */
    struct stat st;
    char *c = path_join(dir, "a/b/c");
    assert_int_equal(stat(c, &st), 0);
    assert_true(S_ISDIR(st.st_mode));

    char *file = path_join(dir, "a/file");
    assert_int_equal(mb_file_write_atomic(file, write_text, "x", err, sizeof err), 0);
    char *under = path_join(dir, "a/file/d");
    assert_int_equal(mb_mkdir_p(under, err, sizeof err), -1);
    assert_contains(err, "not a directory");
    assert_int_equal(mb_mkdir_p(file, err, sizeof err), -1);
    assert_int_equal(mb_mkdir_p("", err, sizeof err), -1);
    free(under);
    free(file);
    free(c);
    free(deep);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* ---- results ---------------------------------------------------------------------- */

static json_t *fixture_benchmark(const json_t *fixture, size_t i)
{
    json_t *b = json_deep_copy(json_array_get(json_object_get(fixture, "benchmarks"), i));
    assert_non_null(b);
    return b;
}

/* The run's total of failed points, kept up to date beside the benchmarks as the run's
 * writer does; results_check requires it. */
static void set_failed_total(mb_results_t *r, json_int_t n)
{
    char err[512] = "";
    if (mb_results_set_section(r, "failed_points", json_integer(n), err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_results_lifecycle(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[512] = "";
    json_t *fixture = load_fixture("results_fixture.json");
    mb_results_check_counts_t counts;

    mb_results_t *r = mb_results_open(dir, json_object_get(fixture, "system"), json_object_get(fixture, "config"),
                                      err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    set_failed_total(r, 0);
    json_t *disk = load_results_file(dir);
    assert_int_equal(check_doc(disk, false, &counts), 0);
    assert_int_equal(counts.benchmarks, 0);
    assert_true(json_is_false(json_object_get(disk, "complete")));
    assert_true(json_is_null(json_object_get(disk, "finished_utc")));
    char err2[256];
    mb_results_check_opts_t need_complete = {.require_complete = true};
    assert_int_equal(mb_results_check(disk, &need_complete, NULL, err2, sizeof err2), -1);
    /* Keys in schema order, as results.h lists them. */
    const char *first = json_object_iter_key(json_object_iter(disk));
    assert_string_equal(first, "schema");
    json_decref(disk);
    char *report_path = path_join(dir, "report.txt");
    char *report = read_all(report_path);
    assert_contains(report, "INCOMPLETE (run stopped early)");
    free(report);
    /* points.csv follows results.json: its header alone, then a row per point added. */
    char *points_path = path_join(dir, "points.csv");
    assert_int_equal(line_count(points_path), 1);

    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 0), err, sizeof err), 0);
    set_failed_total(r, 1);
    disk = load_results_file(dir);
    assert_int_equal(check_doc(disk, false, &counts), 0);
    assert_int_equal(counts.benchmarks, 1);
    assert_int_equal(counts.points, 3);
    assert_int_equal(counts.failed, 1);
    json_decref(disk);
    assert_int_equal(line_count(points_path), 1 + 3);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 1), err, sizeof err), 0);
    assert_int_equal(json_array_size(json_object_get(mb_results_json(r), "benchmarks")), 2);

    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), 0);
    disk = load_results_file(dir);
    assert_int_equal(check_doc(disk, true, &counts), 0);
    assert_int_equal(counts.benchmarks, 2);
    assert_true(json_is_string(json_object_get(disk, "finished_utc")));
    /* Figures survive the round trip through the file. */
    const json_t *pt = bench_point(disk, 0, 0);
    assert_float_equal(json_number_value(json_object_get(pt, "median")), 40123.4, 1e-9);
    json_decref(disk);

    report = read_all(report_path);
    assert_contains(report, "status          complete");
    assert_contains(report, "harness.bcopy \u2014 bcopy of size_bytes bytes");
    assert_contains(report, "mpi.pingpong \u2014 skipped: needs 2 ranks");
    free(report);
    char *names = dir_listing(dir);
    assert_string_equal(names, "points.csv report.html report.txt results.json");
    free(names);
    free(points_path);
    free(report_path);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* A results directory opened on the fixture's system and config, holding its first
 * benchmark (one failed point in all). */
static mb_results_t *open_with_first_benchmark(const char *dir, json_t *fixture)
{
    char err[512] = "";
    mb_results_t *r = mb_results_open(dir, json_object_get(fixture, "system"), json_object_get(fixture, "config"),
                                      err, sizeof err);
    assert_non_null(r);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 0), err, sizeof err), 0);
    set_failed_total(r, 1);
    return r;
}

/* A benchmark measured again replaces its record in place, its failed points counted anew;
 * a name with no record is refused. */
/* After a benchmark, points.csv and report.txt wait while they are not due
 * (mb_results_set_derived_wait), results.json never; a section and the close bring them up
 * to date, and with no wait they follow every benchmark. */
static void test_results_derived_wait(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[512] = "";
    json_t *fixture = load_fixture("results_fixture.json");
    mb_results_check_counts_t counts;
    mb_results_t *r = mb_results_open(dir, json_object_get(fixture, "system"),
                                      json_object_get(fixture, "config"), err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    char *points_path = path_join(dir, "points.csv"), *report_path = path_join(dir, "report.txt");
    mb_results_set_derived_wait(r, 1e9);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 0), err, sizeof err),
                     0);
    json_t *disk = load_results_file(dir);
    assert_int_equal(check_doc(disk, false, &counts), 0);
    assert_int_equal(counts.benchmarks, 1);
    json_decref(disk);
    assert_int_equal(line_count(points_path), 1); /* the header of the open's write */
    char *report = read_all(report_path);
    assert_null(strstr(report, "harness.bcopy \u2014"));
    free(report);
    set_failed_total(r, 1); /* a section: everything written */
    assert_int_equal(line_count(points_path), 1 + 3);
    report = read_all(report_path);
    assert_contains(report, "harness.bcopy \u2014 bcopy of size_bytes bytes");
    free(report);

    mb_results_set_derived_wait(r, 0);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 1), err, sizeof err),
                     0);
    report = read_all(report_path);
    assert_contains(report, "mpi.pingpong \u2014 skipped: needs 2 ranks");
    free(report);
    mb_results_set_derived_wait(r, 1e9);
    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), 0);
    report = read_all(report_path);
    assert_contains(report, "status          complete");
    free(report);
    free(points_path);
    free(report_path);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_results_replace_benchmark(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[512] = "";
    json_t *fixture = load_fixture("results_fixture.json");
    mb_results_t *r = open_with_first_benchmark(dir, fixture);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 1), err, sizeof err),
                     0);
    const char *name = json_string_value(
        json_object_get(json_array_get(json_object_get(fixture, "benchmarks"), 0), "name"));

    json_t *again = fixture_benchmark(fixture, 0);
    json_object_set_new(again, "failed_points", json_integer(2));
    json_object_set_new(json_array_get(json_object_get(again, "points"), 0), "median",
                        json_real(777));
    /* the total less the first record's own failed points, plus the new record's */
    size_t before = mb_results_failed_points(r);
    json_int_t was = json_integer_value(json_object_get(
        json_array_get(json_object_get(fixture, "benchmarks"), 0), "failed_points"));
    assert_int_equal(mb_results_replace_benchmark(r, again, err, sizeof err), 0);
    assert_int_equal(mb_results_failed_points(r), before - (size_t)was + 2);
    json_t *disk = load_results_file(dir);
    const json_t *benches = json_object_get(disk, "benchmarks");
    assert_int_equal(json_array_size(benches), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(benches, 0), "name")),
                        name);
    assert_float_equal(json_number_value(json_object_get(bench_point(disk, 0, 0), "median")), 777,
                       1e-9);
    json_decref(disk);
    again = fixture_benchmark(fixture, 0);
    json_object_set_new(again, "failed_points", json_integer(0));
    assert_int_equal(mb_results_replace_benchmark(r, again, err, sizeof err), 0);
    assert_int_equal(mb_results_failed_points(r), before - (size_t)was);

    json_t *stranger = fixture_benchmark(fixture, 0);
    json_object_set_new(stranger, "name", json_string("mpi.nobody"));
    assert_int_equal(mb_results_replace_benchmark(r, stranger, err, sizeof err), -1);
    assert_contains(err, "no benchmark \"mpi.nobody\" to replace");
    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), 0);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_results_write_failure_keeps_files(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[512] = "";
    json_t *fixture = load_fixture("results_fixture.json");
    mb_results_t *r = open_with_first_benchmark(dir, fixture);

    /* A directory where the temporary file goes makes the next write fail. */
    char *blocker = NULL;
    assert_true(asprintf(&blocker, "%s/results.json.tmp.%ld", dir, (long)getpid()) > 0);
    assert_int_equal(mkdir(blocker, 0755), 0);
    assert_int_equal(mb_results_add_benchmark(r, fixture_benchmark(fixture, 2), err, sizeof err), -1);
    assert_contains(err, "results.json");
    json_t *disk = load_results_file(dir);
    mb_results_check_counts_t counts;
    assert_int_equal(check_doc(disk, false, &counts), 0);
    assert_int_equal(counts.benchmarks, 1);
    json_decref(disk);

    /* Not a benchmark object: refused, reference released. */
    assert_int_equal(mb_results_add_benchmark(r, json_string("nope"), err, sizeof err), -1);

    /* Once writing works again, the benchmark kept in memory reaches the file. */
    assert_int_equal(rmdir(blocker), 0);
    assert_int_equal(mb_results_close(r, false, NULL, err, sizeof err), 0);
    disk = load_results_file(dir);
    assert_int_equal(check_doc(disk, false, &counts), 0);
    assert_int_equal(counts.benchmarks, 2);
    assert_true(json_is_false(json_object_get(disk, "complete")));
    json_decref(disk);
    free(blocker);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* After the run (the plots' phase): one section replaced in place in a closed directory,
 * both files rewritten and still valid; an unreadable results.json is refused, naming it. */
static void test_results_update_section(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("results"), err[512] = "";
    json_t *fixture = load_fixture("results_fixture.json");
    mb_results_t *r = open_with_first_benchmark(dir, fixture);
    json_t *early = json_pack("{s:f, s:[], s:i}", "total_s", 1.0, "phases", "rank0_peak_rss_bytes", 0);
    assert_int_equal(mb_results_stage_section(r, "timings", early, err, sizeof err), 0);
    assert_int_equal(mb_results_close(r, true, NULL, err, sizeof err), 0);
    json_t *disk = load_results_file(dir);
    assert_int_equal(json_array_size(json_object_get(json_object_get(disk, "timings"), "phases")), 0);
    json_decref(disk);

    json_t *timings = json_deep_copy(json_object_get(fixture, "timings"));
    assert_int_equal(mb_results_update_section(dir, "timings", timings, err, sizeof err), 0);
    disk = load_results_file(dir);
    mb_results_check_counts_t counts;
    mb_results_check_opts_t need = {.require_complete = true, .require_timings = true};
    if (mb_results_check(disk, &need, &counts, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(counts.benchmarks, 1);
    assert_true(json_equal(json_object_get(disk, "timings"), json_object_get(fixture, "timings")));
    /* The rest is as it was, keys in their order. */
    assert_string_equal(json_object_iter_key(json_object_iter(disk)), "schema");
    assert_true(json_equal(json_object_get(disk, "system"), json_object_get(fixture, "system")));
    json_decref(disk);
    char *report_path = path_join(dir, "report.txt");
    char *report = read_all(report_path);
    assert_contains(report, "status          complete");
    assert_contains(report, "  plots                   1.50   15.0%\n");
    free(report);
    char *names = dir_listing(dir);
    assert_string_equal(names, "points.csv report.html report.txt results.json");
    free(names);

    /* Missing and malformed files: refused, named, the value released, nothing written. */
    char *missing = path_join(dir, "none");
    assert_int_equal(mb_results_update_section(missing, "timings", json_object(), err, sizeof err), -1);
    assert_contains(err, "none/results.json: cannot read");
    char *json_path = path_join(dir, "results.json");
    assert_int_equal(mb_file_write_atomic(json_path, write_text, "{\n \"schema\": oops\n}\n", err, sizeof err), 0);
    assert_int_equal(mb_results_update_section(dir, "timings", json_object(), err, sizeof err), -1);
    assert_contains(err, "results.json:2:");
    assert_contains(err, "malformed JSON");
    char *content = read_all(json_path);
    assert_string_equal(content, "{\n \"schema\": oops\n}\n");
    free(content);
    assert_int_equal(mb_file_write_atomic(json_path, write_text, "[1, 2]\n", err, sizeof err), 0);
    assert_int_equal(mb_results_update_section(dir, "timings", json_object(), err, sizeof err), -1);
    assert_contains(err, "not a results document");
    free(json_path);
    free(missing);
    free(report_path);
    json_decref(fixture);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_results_open_missing_dir(void **state)
{
    (void)state;
    char err[512] = "";
    json_t *system = json_object(), *config = json_object();
    assert_null(mb_results_open("/nonexistent/mbsuite/dir", system, config, err, sizeof err));
    assert_contains(err, "/nonexistent/mbsuite/dir/results.json");
    /* The caller's references are its own still. */
    assert_int_equal(system->refcount, 1);
    json_decref(system);
    json_decref(config);
}

/* ---- report ----------------------------------------------------------------------- */

/* The clock's line names the tolerance passed and, after a rescan, the scan. */
static void test_report_enough_scans(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    json_t *clock = json_object_get(json_object_get(root, "system"), "clock");
    json_object_set_new(clock, "enough_tolerance", json_real(0.002));
    json_object_set_new(clock, "enough_scans", json_integer(1));
    char *text = render(root);
    assert_contains(text, "enough          5.000 ms (verified by the jiggle test at +-0.2%; measured)\n");
    free(text);
    json_object_set_new(clock, "enough_scans", json_integer(2));
    text = render(root);
    assert_contains(text, "enough          5.000 ms (verified by the jiggle test at +-0.2%; measured, "
                          "in scan 2 of the candidates)\n");
    free(text);
    json_decref(root);
}

/* The MPI's protocol limits, by name; none recorded (a run from before): no line. */
static void test_report_mpi_limits(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    char *text = render(root);
    assert_null(strstr(text, "MPI limits"));
    free(text);
    json_t *mpi = json_object_get(json_object_get(root, "system"), "mpi");
    json_object_set_new(mpi, "protocol_limits",
                        json_pack("{s:I, s:I}", "btl_vader_eager_limit", (json_int_t)4096,
                                  "btl_tcp_eager_limit", (json_int_t)65536));
    text = render(root);
    assert_contains(text,
                    "MPI limits      btl_tcp_eager_limit 65536 B, btl_vader_eager_limit 4096 B "
                    "(the library's MPI_T control variables on its protocols;");
    free(text);
    json_object_set_new(mpi, "protocol_limits", json_object());
    text = render(root);
    assert_contains(text, "MPI limits      none stated (no MPI_T control variable of the library "
                          "names one)\n");
    free(text);
    json_decref(root);
}

static void test_report_fixture(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    char *text = render(root);
    /* Context block first. */
    assert_true(strstr(text, "mbsuite 0.1.0") == text);
    assert_contains(text, "status          complete\n");
    assert_contains(text, "ranks / nodes   2 / 1\n");
    assert_contains(text, "CPU             Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz; 1 socket, 1 core, 2 PUs");
    assert_contains(text, "caches          L1d 48K x1, L1i 32K x1, L2 1.25M x1, L3 54M x1\n");
    assert_contains(text, "MPI             Open MPI v4.1.4 (MPI 3.1)\n");
    assert_contains(text, "MPI env         OMPI_MCA_btl=self,vader\n");
    assert_contains(text, "clock           CLOCK_MONOTONIC\n");
    assert_contains(text, "resolution      20.50 ns measured (1.000 ns nominal)\n");
    assert_contains(text, "enough          5.000 ms (verified by the jiggle test; measured)\n");
    assert_contains(text, "loop overhead   0.3125 ns per iteration\n");
    assert_contains(text, "rank 1: node 0 (node0), cpus 1\n");
    /* The bcopy table: header with units, rows aligned under it. */
    assert_contains(text,
                    "harness.bcopy \u2014 bcopy of size_bytes bytes, warm and cold cache\n"
                    "  measures: time of one bcopy() call of size_bytes bytes\n"
                    "  size_bytes  cache  median ns     95% CI (ns)   n  CI ok  bandwidth MB/s  "
                    "best MB/s\n"
                    "     1048576  warm       40123   39900 - 40400  11  yes             26133  "
                    "    26346\n"
                    "     1048576  cold       95432  90000 - 101000  51  no              10988  "
                    "    13091\n"
                    "  (and 1 failed point, listed above)\n"
                    "  derived:\n"
                    "    loop_overhead_ns  0.3125\n"
                    "    note              cold: cache flushed by a 4x LLC sweep\n");
    assert_contains(text, "\nmpi.pingpong \u2014 skipped: needs 2 ranks, the run has 1\n");
    /* A benchmark without parameters and without bandwidth. */
    assert_contains(text, "  median ns      95% CI (ns)   n  CI ok\n"
                          "     0.5000  0.5000 - 0.5000  11  yes\n");
    /* Failed points after the context block, before every table; in no table. */
    const char *failed = strstr(text, "\nfailed points: 1 ");
    assert_non_null(failed);
    assert_true(failed > strstr(text, "rank 1: node 0"));
    assert_true(failed < strstr(text, "harness.bcopy \u2014"));
    assert_contains(failed, "  harness.bcopy size_bytes=2097152 cache=cold: setup: bcopy copied wrong "
                            "bytes at offset 4096\n");
    assert_null(strstr(text, "   2097152  cold"));
    /* Missed CI targets listed last. */
    const char *missed = strstr(text, "CI target not met");
    assert_non_null(missed);
    assert_contains(missed, "harness.bcopy size_bytes=1048576 cache=cold: CI half-width 5.83% of the median "
                            "after 51 experiments\n");
    assert_null(strstr(missed, "cache=warm"));
    free(text);
    json_decref(root);
}

static void test_report_missing_fields(void **state)
{
    (void)state;
    json_t *root = json_pack("{s:b, s:{s:i}, s:[{s:s, s:[s], s:[{s:{s:i}, s:f}]}, {s:s, s:[]}]}", "complete", 0,
                             "system", "ranks", 4, "benchmarks", "name", "x.sparse", "params", "size_bytes", "points",
                             "params", "size_bytes", 64, "median", 12.345678, "name", "x.empty", "points");
    assert_non_null(root);
    char *text = render(root);
    assert_contains(text, "status          INCOMPLETE (run stopped early)\n");
    assert_contains(text, "ranks / nodes   4 / -\n");
    assert_contains(text, "host            -\n");
    assert_contains(text, "enough          - (-)\n");
    assert_contains(text, "x.sparse \u2014 -\n  measures: -\n"
                          "  size_bytes  median ns  95% CI (ns)  n  CI ok\n"
                          "          64      12.35            -  -  -\n");
    assert_contains(text, "x.empty \u2014 -\n  measures: -\n  (no points)\n");
    assert_null(strstr(text, "CI target not met"));
    assert_null(strstr(text, "failed points"));
    free(text);
    json_decref(root);

    json_t *empty = json_object();
    text = render(empty);
    assert_contains(text, "(no benchmarks finished)\n");
    free(text);
    json_decref(empty);
}

/* A derived list too long for its cell is counted, never cut off; a short one is shown
 * whole (report.html's tables use the same cell). */
static void test_report_derived_lists(void **state)
{
    (void)state;
    json_t *levels = json_array();
    for (int i = 0; i < 3; i++)
        json_array_append_new(levels, json_pack("{s:i, s:f, s:b, s:f, s:i}", "size_bytes",
                                                46336 << (4 * i), "latency_ns", 0.98 * (i + 1),
                                                "open", i == 2, "random_latency_ns", 0.97 * (i + 1),
                                                "midpoint_bytes", 50467 << (4 * i)));
    json_t *root = json_pack("{s:b, s:[{s:s, s:[], s:[{s:{}, s:s, s:i, s:f}], s:{s:o, s:[i, i]}}]}",
                             "complete", 1, "benchmarks", "name", "x.curve", "params", "points",
                             "params", "status", "ok", "n", 11, "median", 1.0, "derived", "levels",
                             levels, "short", 1, 2);
    char *text = render(root);
    assert_contains(text, "\n    levels  3 entries (whole in results.json)\n");
    assert_contains(text, "\n    short   [1,2]\n");
    free(text);
    json_decref(root);
}

/* A benchmark whose every point failed has no table, only the list; failed points stay out
 * of the CI list even when marked as missing their target. Parameters print in axis order
 * and label columns align left, by role. */
static void test_report_failed_points(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    json_t *bcopy = json_array_get(json_object_get(root, "benchmarks"), 0);
    json_t *points = json_object_get(bcopy, "points");
    json_t *bad = json_pack("{s:{s:s, s:i}, s:s, s:s, s:b}", "params", "cache", "warm", "size_bytes", 1024,
                            "status", "failed", "reason", "timeout", "ci_target_met", 0);
    json_array_clear(points);
    json_array_append_new(points, bad);
    json_object_set_new(bcopy, "failed_points", json_integer(1));
    char *text = render(root);
    assert_contains(text, "\nfailed points: 1 ");
    assert_contains(text, "  harness.bcopy size_bytes=1024 cache=warm: timeout\n");
    assert_contains(text, "measures: time of one bcopy() call of size_bytes bytes\n"
                          "  (no measured points: 1 failed, listed above)\n");
    assert_null(strstr(text, "CI target not met"));
    free(text);

    /* A number on a label axis is still a label: left-aligned, by its role. */
    json_t *ok = json_pack("{s:{s:i, s:i}, s:s, s:i, s:f, s:[f, f], s:b}", "params", "size_bytes", 64, "cache", 7,
                           "status", "ok", "n", 11, "median", 10.0, "ci95", 9.0, 11.0, "ci_target_met", 1);
    json_array_append_new(points, ok);
    text = render(root);
    assert_contains(text, "  size_bytes  cache  median ns    95% CI (ns)   n  CI ok\n"
                          "          64  7          10.00  9.000 - 11.00  11  yes\n"
                          "  (and 1 failed point, listed above)\n");
    free(text);
    json_decref(root);
}

/* A CI widened for experiments in runs is marked r, and the table says what r is once; a
 * benchmark with none has no such line. */
static void test_report_serial_ci(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    json_t *bcopy = json_array_get(json_object_get(root, "benchmarks"), 0);
    char *text = render(root);
    assert_null(strstr(text, "r: a CI widened"));
    free(text);
    json_object_set_new(json_array_get(json_object_get(bcopy, "points"), 1), "ci95_serial_factor",
                        json_real(3.0));
    text = render(root);
    const char *legend = strstr(text, "  r: a CI widened for experiments that came in runs");
    assert_non_null(legend);
    assert_null(strstr(legend + 4, "r: a CI widened")); /* once */
    /* The marked row comes before the legend, and it is the only one marked. */
    const char *row = strstr(text, " r  ");
    assert_non_null(row);
    assert_true(row < legend);
    assert_null(strstr(row + 1, " r  "));
    free(text);
    json_decref(root);
}

/* Where the time went: after the failed points, before the tables; each phase with its
 * share, what no phase covers, the slowest measured benchmarks (a skipped one is not). */
static void test_report_timings(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    char *text = render(root);
    const char *where = strstr(text, "\nwhere the time went \u2014 10.0 s on rank 0's clock; "
                                     "rank 0's peak memory 50M (resident)\n");
    assert_non_null(where);
    assert_true(where > strstr(text, "\nfailed points: 1 "));
    assert_true(where < strstr(text, "harness.bcopy \u2014"));
    assert_contains(where, "  phase                 wall s   share\n"
                           "  startup                 0.50    5.0%\n"
                           "  setup                   0.10    1.0%\n"
                           "  calibration             1.20   12.0%\n"
                           "  preflight               2.00   20.0%\n"
                           "  clock_sync              0.05    0.5%\n"
                           "  benchmarks              4.00   40.0%\n"
                           "  fits                    0.25    2.5%\n"
                           "  plots                   1.50   15.0%\n"
                           "  other                   0.40    4.0%\n"
                           "  slowest benchmarks    wall s   share\n"
                           "  harness.bcopy           3.30   33.0%\n"
                           "  harness.null            0.52    5.2%\n\n");
    free(text);

    /* Six measured benchmarks: the five slowest, slowest first; elapsed_s stands in for a
     * record without wall_s (results written before it). */
    json_t *benchmarks = json_object_get(root, "benchmarks");
    static const double walls[] = {0.7, 2.5, 0.1, 9.25, 1.0, 0.3};
    for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "x.b%zu", i);
        json_t *b = json_pack("{s:s, s:n, s:f}", "name", name, "skipped", "elapsed_s", walls[i]);
        json_array_append_new(benchmarks, b);
    }
    text = render(root);
    assert_contains(text, "  slowest benchmarks    wall s   share\n"
                          "  x.b3                    9.25   92.5%\n"
                          "  harness.bcopy           3.30   33.0%\n"
                          "  x.b1                    2.50   25.0%\n"
                          "  x.b4                    1.00   10.0%\n"
                          "  x.b0                    0.70    7.0%\n\n");
    free(text);

    /* A budget kept within its 10%: its line alone. One overrun: the phases the budget does
     * not cut, the three longest named, and the benchmarks' own time. */
    json_object_set_new(root, "time_budget",
                        json_pack("{s:f, s:f, s:i, s:i, s:i}", "budget_s", 9.5, "benchmarks_done_s",
                                  8.1, "points", 12, "points_trimmed", 0, "points_dropped", 0));
    text = render(root);
    assert_contains(text, "  time budget 10 s; benchmarks done at 8.1 s; 0 of 12 points ran "
                          "fewer repetitions; 0 points dropped\n"
                          "  slowest benchmarks");
    free(text);
    json_object_set_new(json_object_get(root, "time_budget"), "budget_s", json_real(5.0));
    text = render(root);
    assert_contains(text,
                    "  time budget 5 s; benchmarks done at 8.1 s; 0 of 12 points ran "
                    "fewer repetitions; 0 points dropped\n"
                    "  over the budget: the run took 10.0 s against 5 s; the phases "
                    "outside the benchmarks, which the budget cuts only to their least, took 5.6 s "
                    "(preflight 2.0 s, plots 1.5 s, calibration 1.2 s), the benchmarks "
                    "4.0 s\n  slowest benchmarks");
    free(text);
    json_object_del(root, "time_budget");

    /* A run that stopped during setup: no phases yet, nothing over; no section, no table. */
    json_object_set_new(root, "timings", json_pack("{s:f, s:[], s:i}", "total_s", 0.0, "phases",
                                                   "rank0_peak_rss_bytes", 0));
    json_array_clear(benchmarks);
    text = render(root);
    assert_contains(text, "\nwhere the time went \u2014 0.0 s on rank 0's clock; rank 0's peak memory -\n"
                          "  phase                 wall s   share\n\n");
    free(text);
    json_object_del(root, "timings");
    text = render(root);
    assert_null(strstr(text, "where the time went"));
    free(text);
    json_decref(root);
}

static void test_report_write_error(void **state)
{
    (void)state;
    json_t *root = load_fixture("results_fixture.json");
    FILE *f = fopen("/dev/null", "r"); /* every write fails */
    assert_non_null(f);
    assert_int_equal(mb_report_write(f, root), -1);
    fclose(f);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_write_whole),
        cmocka_unit_test(test_atomic_write_failing_writer_keeps_old),
        cmocka_unit_test(test_atomic_write_rename_fails),
        cmocka_unit_test(test_atomic_write_missing_dir),
        cmocka_unit_test(test_mkdir_p),
        cmocka_unit_test(test_results_lifecycle),
        cmocka_unit_test(test_results_derived_wait),
        cmocka_unit_test(test_results_replace_benchmark),
        cmocka_unit_test(test_results_write_failure_keeps_files),
        cmocka_unit_test(test_results_update_section),
        cmocka_unit_test(test_results_open_missing_dir),
        cmocka_unit_test(test_report_fixture),
        cmocka_unit_test(test_report_mpi_limits),
        cmocka_unit_test(test_report_enough_scans),
        cmocka_unit_test(test_report_missing_fields),
        cmocka_unit_test(test_report_derived_lists),
        cmocka_unit_test(test_report_failed_points),
        cmocka_unit_test(test_report_serial_ci),
        cmocka_unit_test(test_report_timings),
        cmocka_unit_test(test_report_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
