/* SPDX-License-Identifier: MIT */
/* raw.csv.gz written and read back: every sample at its point, a quoted params field, a run
 * killed half-way (the part read up to the bytes results.json counted, uncommitted rows
 * left out), the final file appearing only at close, a benchmark measured again read by its
 * last measurement alone, a measurement not kept taken back, and files that are not raw samples
 * refused with their name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "raw_read.h"
#include "raw_samples.h"
#include "tmpdir.h"

static bool exists(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static void test_round_trip_and_kill(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("raw");
    char err[512] = "";
    mb_raw_t *r = mb_raw_open(dir, err, sizeof err);
    assert_non_null(r);
    double a[3] = {10.5, 11.25, 1e9 + 0.5}, b[2] = {7, 8};
    mb_raw_add_point(r, "mpi.pingpong", "size_bytes=8 pair=intra", 0, a, 3);
    mb_raw_add_point(r, "mpi.pingpong", "size_bytes=16 pair=intra", 2, b, 2);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    json_t *committed = mb_raw_json(r);
    assert_int_equal(json_integer_value(json_object_get(committed, "rows")), 5);
    assert_false(json_is_true(json_object_get(committed, "complete")));
    /* The next benchmark's rows, not committed: a run killed now has not recorded them. */
    mb_raw_add_point(r, "shm.x", "label=\"a,b\"", 1, b, 2);
    assert_true(exists(dir, MB_RAW_PART));
    assert_false(exists(dir, MB_RAW_FILE));

    mb_raw_data_t d;
    assert_int_equal(mb_raw_read(dir, committed, &d, err, sizeof err), 0);
    assert_int_equal(d.rows, 5);
    assert_int_equal(d.npoints, 2);
    const mb_raw_point_t *p = mb_raw_find(&d, "mpi.pingpong", 0);
    assert_non_null(p);
    assert_int_equal(p->n, 3);
    /* To 10 significant digits, as results.json's figures. */
    assert_true(p->samples_ns[0] == 10.5 && p->samples_ns[1] == 11.25 &&
                p->samples_ns[2] == 1e9);
    assert_non_null(mb_raw_find(&d, "mpi.pingpong", 2));
    assert_null(mb_raw_find(&d, "mpi.pingpong", 1));
    assert_null(mb_raw_find(&d, "shm.x", 1));
    mb_raw_data_free(&d);
    json_decref(committed);

    json_t *final = NULL;
    assert_int_equal(mb_raw_close(r, &final, err, sizeof err), 0);
    assert_true(json_is_true(json_object_get(final, "complete")));
    assert_int_equal(json_integer_value(json_object_get(final, "rows")), 7);
    assert_false(exists(dir, MB_RAW_PART));
    assert_true(exists(dir, MB_RAW_FILE));
    assert_int_equal(mb_raw_read(dir, final, &d, err, sizeof err), 0);
    assert_int_equal(d.rows, 7);
    p = mb_raw_find(&d, "shm.x", 1);
    assert_non_null(p);
    assert_int_equal(p->n, 2);
    mb_raw_data_free(&d);
    json_decref(final);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* A benchmark measured again (the drift re-measure) appends a member of the same name: its
 * earlier points are dropped whole, even one the later measurement lacks, and the
 * benchmarks measured between keep theirs. */
static void test_measured_again(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("raw-again");
    char err[512] = "";
    mb_raw_t *r = mb_raw_open(dir, err, sizeof err);
    assert_non_null(r);
    double first[2] = {300, 310}, other[3] = {5, 6, 7}, again[3] = {120, 121, 122};
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=0", 0, first, 2);
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=8", 1, first, 2);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    mb_raw_add_point(r, "mpi.bcast", "size_bytes=0", 0, other, 3);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=0", 0, again, 3);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    json_t *final = NULL;
    assert_int_equal(mb_raw_close(r, &final, err, sizeof err), 0);
    mb_raw_data_t d;
    assert_int_equal(mb_raw_read(dir, final, &d, err, sizeof err), 0);
    assert_int_equal(d.npoints, 2);
    assert_int_equal(d.rows, 6);
    const mb_raw_point_t *p = mb_raw_find(&d, "mpi.sendrecv", 0);
    assert_non_null(p);
    assert_int_equal(p->n, 3);
    assert_true(p->samples_ns[0] == 120 && p->samples_ns[2] == 122);
    assert_null(mb_raw_find(&d, "mpi.sendrecv", 1));
    const mb_raw_point_t *between = mb_raw_find(&d, "mpi.bcast", 0);
    assert_non_null(between);
    assert_int_equal(between->n, 3);
    assert_true(p->member > between->member);
    mb_raw_data_free(&d);
    json_decref(final);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* A measurement again that is not kept (it read further from the node's usual state than
 * the one before) is taken back: the file holds the kept member's rows alone, and what comes
 * after is appended as before. */
static void test_discard(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("raw-discard");
    char err[512] = "";
    mb_raw_t *r = mb_raw_open(dir, err, sizeof err);
    assert_non_null(r);
    double kept[2] = {120, 121}, worse[3] = {400, 401, 402}, next[1] = {9};
    assert_int_equal(mb_raw_discard(r, err, sizeof err), 0); /* nothing queued */
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=0", 0, kept, 2);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=0", 0, worse, 3);
    mb_raw_add_point(r, "mpi.sendrecv", "size_bytes=8", 1, worse, 3);
    assert_int_equal(mb_raw_discard(r, err, sizeof err), 0);
    json_t *now = mb_raw_json(r);
    assert_int_equal(json_integer_value(json_object_get(now, "rows")), 2);
    json_decref(now);
    mb_raw_add_point(r, "mpi.bcast", "size_bytes=0", 0, next, 1);
    assert_int_equal(mb_raw_commit(r, err, sizeof err), 0);
    json_t *final = NULL;
    assert_int_equal(mb_raw_close(r, &final, err, sizeof err), 0);
    assert_int_equal(json_integer_value(json_object_get(final, "rows")), 3);
    mb_raw_data_t d;
    assert_int_equal(mb_raw_read(dir, final, &d, err, sizeof err), 0);
    assert_int_equal(d.rows, 3);
    const mb_raw_point_t *p = mb_raw_find(&d, "mpi.sendrecv", 0);
    assert_non_null(p);
    assert_int_equal(p->n, 2);
    assert_true(p->samples_ns[0] == 120 && p->samples_ns[1] == 121);
    assert_null(mb_raw_find(&d, "mpi.sendrecv", 1));
    assert_non_null(mb_raw_find(&d, "mpi.bcast", 0));
    mb_raw_data_free(&d);
    json_decref(final);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_off_and_bad_files(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("raw");
    char err[512] = "", path[512];
    mb_raw_data_t d;
    json_t *off = mb_raw_off_json("--no-raw");
    assert_int_equal(mb_raw_read(dir, off, &d, err, sizeof err), 1);
    assert_non_null(strstr(err, "--no-raw"));
    json_decref(off);
    assert_int_equal(mb_raw_read(dir, NULL, &d, err, sizeof err), 1);

    json_t *section = json_pack("{s:s, s:b}", "file", MB_RAW_FILE, "complete", 1);
    assert_int_equal(mb_raw_read(dir, section, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "raw.csv.gz: cannot open"));
    snprintf(path, sizeof path, "%s/%s", dir, MB_RAW_FILE);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("benchmark,params\nnot gzip\n", f);
    fclose(f);
    assert_int_equal(mb_raw_read(dir, section, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a whole gzip file"));
    json_decref(section);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_kill),
        cmocka_unit_test(test_measured_again),
        cmocka_unit_test(test_discard),
        cmocka_unit_test(test_off_and_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
