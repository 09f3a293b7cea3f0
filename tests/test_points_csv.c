/* SPDX-License-Identifier: MIT */
/* points.csv on a hand-made results document: the header is the union of every
 * benchmark's axes in order of first appearance, a label axis holds its text, a benchmark
 * without an axis leaves its cell empty, a failed point has its reason (quoted per
 * RFC 4180) and none of its bogus figures, and the file is written atomically. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "points_csv.h"
#include "testdoc.h"

/* Two benchmarks with different axes: a pingpong over size and a label pair, with a failed
 * point whose reason needs quoting, and a barrier over ranks whose label has a comma. */
static json_t *csv_doc(void)
{
    json_t *pp = mb_testdoc_bench("mpi.pingpong", "linear_pd", "L", "size_bytes:message_size",
                                  "pair:label:intra,inter", NULL);
    json_t *bar =
        mb_testdoc_bench("shm.barrier", NULL, NULL, "ranks:ranks", "comm:label:node", NULL);
    mb_testdoc_point(pp, json_pack("{s:I, s:s}", "size_bytes", (json_int_t)1024, "pair", "intra"),
                     600.5);
    json_t *pt = json_array_get(json_object_get(pp, "points"), 0);
    json_object_set_new(pt, "iterations", json_integer(40));
    json_object_set_new(pt, "bandwidth_bytes_per_s",
                        json_pack("{s:f, s:f}", "median", 2.5e9, "best", 2.6e9));
    mb_testdoc_failed(pp, json_pack("{s:I, s:s}", "size_bytes", (json_int_t)2048, "pair", "inter"),
                      1.0);
    json_t *failed = json_array_get(json_object_get(pp, "points"), 1);
    json_object_set_new(failed, "reason",
                        json_string("setup: \"MPI_Recv\" got 3 bytes, expected 2048"));
    mb_testdoc_point(bar, json_pack("{s:I, s:s}", "ranks", (json_int_t)4, "comm", "node, world"),
                     3000);
    json_object_set_new(bar, "statistic", json_string("min"));
    json_t *doc = json_pack("{s:[o, o]}", "benchmarks", pp, bar);
    assert_non_null(doc);
    return doc;
}

static char *csv_text(const json_t *doc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(mb_points_csv_write(f, doc), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void test_points_csv_rows(void **state)
{
    (void)state;
    json_t *doc = csv_doc();
    char *csv = csv_text(doc);
    const char *want =
        "benchmark,size_bytes,pair,ranks,comm,status,unit,statistic,n,min,median,mean,max,"
        "stddev,p90,p99,ci95_lo,ci95_hi,bytes_per_op,bandwidth_bytes_per_s,iterations,reason\n"
        /* the label axis as its text; no ranks or comm: empty cells; figures it lacks too */
        "mpi.pingpong,1024,intra,,,ok,ns,,11,,600.5,,,,,,597.4975,603.5025,,2500000000,40,\n"
        /* failed: the reason quoted, its quotes doubled; the bogus median not shown */
        "mpi.pingpong,2048,inter,,,failed,ns,,,,,,,,,,,,,,,"
        "\"setup: \"\"MPI_Recv\"\" got 3 bytes, expected 2048\"\n"
        /* a label with a comma is quoted */
        "shm.barrier,,,4,\"node, world\",ok,ns,min,11,,3000,,,,,,2985,3015,,,,\n";
    assert_string_equal(csv, want);
    free(csv);
    json_decref(doc);
}

/* Benchmarks with no points (skipped) give no rows, but their axes still head columns; a
 * document without benchmarks is refused. */
static void test_points_csv_empty(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:[o]}", "benchmarks",
                            mb_testdoc_bench("mpi.barrier", NULL, NULL, "ranks:ranks", NULL));
    char *csv = csv_text(doc);
    assert_string_equal(csv, "benchmark,ranks,status,unit,statistic,n,min,median,mean,max,"
                             "stddev,p90,p99,ci95_lo,ci95_hi,bytes_per_op,"
                             "bandwidth_bytes_per_s,iterations,reason\n");
    free(csv);
    json_decref(doc);
    json_t *bad = json_pack("{s:s}", "schema", "mbsuite-results/2");
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    assert_int_equal(mb_points_csv_write(f, bad), -1);
    fclose(f);
    char err[256];
    assert_int_equal(mb_points_csv_write_file(bad, "/tmp/never-written.csv", err, sizeof err), -1);
    assert_non_null(strstr(err, "/tmp/never-written.csv"));
    json_decref(bad);
}

/* The file: its content is the stream's, nothing else is left beside it, and a failed
 * write (no such directory) reports the path. */
static void test_points_csv_file(void **state)
{
    (void)state;
    json_t *doc = csv_doc();
    char err[256], dir[] = "/tmp/test_points_csv.XXXXXX", path[128], cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/points.csv", dir);
    assert_int_equal(mb_points_csv_write_file(doc, path, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    char *want = csv_text(doc);
    assert_string_equal(buf, want);
    free(want);
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/nosuchdir/points.csv", dir);
    assert_int_equal(mb_points_csv_write_file(doc, path, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_csv_rows),
        cmocka_unit_test(test_points_csv_empty),
        cmocka_unit_test(test_points_csv_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
