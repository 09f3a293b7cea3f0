/* SPDX-License-Identifier: MIT */
/* `mbsuite predict` on documents built in code (testdoc.h): the model of a benchmark and
 * series at p and d, warnings when extrapolating, and every refusal with its message and
 * exit status. Series are picked by label values, whatever the label axis is called. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "predict_command.h"
#include "testdoc.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int run_predict(char **out, ...)
{
    char *argv[16];
    int argc = 0;
    va_list ap;
    va_start(ap, out);
    while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
        argc++;
    va_end(ap);
    argv[argc] = NULL;
    char path[] = "/tmp/test_fit_out.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    int rc = mb_command_predict(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    close(fd);
    *out = slurp(path);
    unlink(path);
    return rc;
}

/* Write root (consumed) into a new temporary file named from path's template. */
static void write_doc(json_t *root, char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, path, JSON_INDENT(1)), 0);
    json_decref(root);
}

static void test_predict_command(void **state)
{
    (void)state;
    char path[] = "/tmp/test_fit_doc.XXXXXX", bad[] = "/tmp/test_fit_bad.XXXXXX", *out;
    write_doc(mb_testdoc_mpi(), path);

    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.allgather", "-p", "4", "-d", "1024", NULL), 0);
    assert_non_null(strstr(out, "mpi.allgather p=4 d=1024: 9.512 us +- "));
    assert_non_null(strstr(out, "(model 1 + 2*p + 0.0005*d, Q 1)"));
    assert_null(strstr(out, "warning"));
    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.allgather", "-p", "16", "-d", "1024", NULL), 0);
    assert_non_null(strstr(out, "33.51 us"));
    assert_non_null(strstr(out, "warning: p=16 is outside the measured range 2..8"));
    assert_int_equal(run_predict(&out, "predict", path, "mpi.pingpong", "-d", "1024", NULL), 0);
    assert_non_null(strstr(out, "mpi.pingpong pair=intra d=1024: 0.6024 us"));
    /* Sizes as the configuration writes them. */
    assert_int_equal(run_predict(&out, "predict", path, "mpi.pingpong", "-d", "1K", NULL), 0);
    assert_non_null(strstr(out, "mpi.pingpong pair=intra d=1024: 0.6024 us"));
    assert_int_equal(run_predict(&out, "predict", path, "mpi.pingpong", "-d", "10X", NULL), 2);
    assert_non_null(strstr(out, "-d: unknown unit 'X' in '10X' (use K, M or G)"));
    assert_int_equal(run_predict(&out, "predict", path, "mpi.pingpong", "-d", "-5", NULL), 2);
    assert_non_null(strstr(out, "-d: '-5' is not a size"));
    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.pingpong", "-d", "1024", "--pair", "inter", NULL),
        0);
    assert_non_null(strstr(out, "pair=inter d=1024: 2.051 us"));
    assert_int_equal(run_predict(&out, "predict", path, "mpi.pingpong", "-d", "1000000", NULL), 0);
    assert_non_null(strstr(out, "d=1000000 is outside the measured range 0..65536 bytes"));

    assert_int_equal(run_predict(&out, "predict", path, "mpi.nosuch", "-d", "8", NULL), 2);
    assert_non_null(strstr(out, "mbsuite predict: unknown primitive 'mpi.nosuch'; known: "
                                "mpi.pingpong, mpi.allgather, mpi.send, mpi.recvmin"));
    assert_int_equal(run_predict(&out, "predict", path, "mpi.allgather", "-d", "8", NULL), 2);
    assert_non_null(strstr(out, "give -p P"));
    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.allgather", "-p", "x", "-d", "8", NULL), 2);
    assert_non_null(strstr(out, "-p: 'x' is not a process count"));
    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.pingpong", "-d", "8", "--pair", "far", NULL), 2);
    assert_non_null(strstr(out, "has no pair 'far'; measured: intra, inter"));
    assert_int_equal(run_predict(&out, "predict", path, NULL), 2);
    assert_int_equal(
        run_predict(&out, "predict", "/nonexistent/r.json", "mpi.pingpong", "-d", "8", NULL), 1);
    assert_non_null(strstr(out, "mbsuite predict: /nonexistent/r.json: cannot read"));

    int fd = mkstemp(bad);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\n \"schema\": 1,\n oops\n}\n", 24), 24);
    close(fd);
    assert_int_equal(run_predict(&out, "predict", bad, "mpi.pingpong", "-d", "8", NULL), 1);
    char want[64];
    snprintf(want, sizeof want, "%s:3:", bad);
    assert_non_null(strstr(out, want));
    unlink(bad);
    unlink(path);
}

/* --pair picks a series by its label value whatever the label axis is called; without it,
 * the first series measured. */
static void test_predict_labels(void **state)
{
    (void)state;
    json_t *x = mb_testdoc_transfer();
    json_t *timer = mb_testdoc_bench("harness.timer", NULL, NULL, "quantity:label:read", NULL);
    mb_testdoc_point(timer, json_pack("{s:s}", "quantity", "read"), 21.5);
    json_t *root = json_pack("{s:[o, o]}", "benchmarks", x, timer);
    char path[] = "/tmp/test_fit_labels.XXXXXX", *out;
    write_doc(root, path);

    assert_int_equal(
        run_predict(&out, "predict", path, "x.transfer", "-p", "4", "-d", "1024", NULL), 0);
    assert_non_null(strstr(out, "x.transfer route=near p=4 d=1024: 0.956 us +- "));
    assert_int_equal(run_predict(&out, "predict", path, "x.transfer", "-p", "4", "-d", "1024",
                                 "--pair", "far", NULL),
                     0);
    assert_non_null(strstr(out, "x.transfer route=far p=4 d=1024: 1.556 us +- "));
    assert_int_equal(run_predict(&out, "predict", path, "x.transfer", "-p", "4", "-d", "1024",
                                 "--pair", "mid", NULL),
                     2);
    assert_non_null(strstr(out, "x.transfer has no pair 'mid'; measured: near, far"));
    assert_int_equal(run_predict(&out, "predict", path, "harness.timer", NULL), 1);
    assert_non_null(strstr(out, "harness.timer has no model: its record declares no model"));
    unlink(path);
}

/* One process count measured: the model has no term in p, and predict says that its time
 * at another p is the time at the measured one, not a prediction. A 0-byte model (no
 * degrees of freedom) prints no Q. */
static void test_predict_one_p(void **state)
{
    (void)state;
    json_t *ag = mb_testdoc_bench("mpi.allgather", "linear_pd", NULL, "size_bytes:message_size",
                                  "ranks:ranks", NULL);
    for (double d = 64; d <= 65536; d *= 2)
        mb_testdoc_point(ag, json_pack("{s:f, s:f}", "size_bytes", d, "ranks", 2.0),
                         1000 + 0.5 * d);
    char path[] = "/tmp/test_fit_one_p.XXXXXX", *out;
    write_doc(json_pack("{s:[o]}", "benchmarks", ag), path);

    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.allgather", "-p", "64", "-d", "1K", NULL), 0);
    assert_non_null(strstr(out, "mpi.allgather p=64 d=1024: 1.512 us"));
    assert_non_null(strstr(out, "warning: only p=2 was measured, so the model has no term in p: "
                                "this is its time at p=2, not a prediction for p=64"));
    assert_int_equal(
        run_predict(&out, "predict", path, "mpi.allgather", "-p", "2", "-d", "1K", NULL), 0);
    assert_null(strstr(out, "warning"));
    unlink(path);

    char mpi[] = "/tmp/test_fit_zero.XXXXXX";
    write_doc(mb_testdoc_mpi(), mpi);
    assert_int_equal(run_predict(&out, "predict", mpi, "mpi.pingpong", "-d", "0", NULL), 0);
    assert_non_null(strstr(out, ", Q -)"));
    assert_null(strstr(out, "nan"));
    unlink(mpi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predict_command),
        cmocka_unit_test(test_predict_labels),
        cmocka_unit_test(test_predict_one_p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
