/* SPDX-License-Identifier: MIT */
/* The run's progress on stderr (src/run/progress.c), written to a memory stream on a fake
 * clock: the bar, durations, the time-left estimate with and without a budget, the log's
 * one line per benchmark with no carriage return, the terminal's updating line cleared
 * before a note and replaced by the permanent line, and the mode from MB_PROGRESS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

static double fake_now_s;

static double fake_clock(void)
{
    return fake_now_s;
}

/* A memory stream and what was written to it, reread after each step. */
typedef struct capture {
    FILE *f;
    char *text;
    size_t len;
} capture_t;

static void capture_open(capture_t *c)
{
    *c = (capture_t){0};
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
}

static const char *capture_text(capture_t *c)
{
    fflush(c->f);
    return c->text;
}

static void capture_close(capture_t *c)
{
    fclose(c->f);
    free(c->text);
}

static void assert_close(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void test_bar(void **state)
{
    (void)state;
    char buf[64];
    mb_progress_bar(buf, sizeof buf, 0, 10, 10);
    assert_string_equal(buf, "[..........]");
    mb_progress_bar(buf, sizeof buf, 5, 10, 10);
    assert_string_equal(buf, "[#####.....]");
    mb_progress_bar(buf, sizeof buf, 1, 3, 4); /* floor: a cell is full when its points are */
    assert_string_equal(buf, "[#...]");
    mb_progress_bar(buf, sizeof buf, 12, 10, 4); /* more done than planned: full, not over */
    assert_string_equal(buf, "[####]");
    mb_progress_bar(buf, sizeof buf, 0, 0, 4);
    assert_string_equal(buf, "[....]");
    mb_progress_bar(buf, 5, 2, 4, 10); /* cut to the buffer */
    assert_string_equal(buf, "[###");
}

static void test_duration(void **state)
{
    (void)state;
    char buf[32];
    mb_progress_duration(buf, sizeof buf, 0.4);
    assert_string_equal(buf, "0s");
    mb_progress_duration(buf, sizeof buf, -3);
    assert_string_equal(buf, "0s");
    mb_progress_duration(buf, sizeof buf, 59.4);
    assert_string_equal(buf, "59s");
    mb_progress_duration(buf, sizeof buf, 59.6);
    assert_string_equal(buf, "1m00s");
    mb_progress_duration(buf, sizeof buf, 303);
    assert_string_equal(buf, "5m03s");
    mb_progress_duration(buf, sizeof buf, 3725);
    assert_string_equal(buf, "1h02m");
}

static void test_left_without_budget(void **state)
{
    (void)state;
    mb_progress_left_t in = {
        .points = 10, .own_s = -1, .rest_s = -1, .budget_left_s = -1, .runs_after = 3};
    assert_close(mb_progress_left_s(&in), -1); /* nothing done yet: no estimate */
    in.timed = 2;
    in.timed_s = 20; /* 10 s per benchmark */
    assert_close(mb_progress_left_s(&in), 10 + 3 * 10);
    in.bench_elapsed_s = 4; /* 4 s into this one, 6 left by the average... */
    in.points_done = 5;
    assert_close(mb_progress_left_s(&in), 6 + 30);
    in.points_done = 2; /* ...but 8 of its 10 points to go: the larger */
    assert_close(mb_progress_left_s(&in), 8 + 30);
    in.bench_elapsed_s = 12; /* over the average, half its points to go: half of it */
    in.points_done = 5;
    assert_close(mb_progress_left_s(&in), 5 + 30);
    in.runs_after = 0;
    in.points_done = 10;
    assert_close(mb_progress_left_s(&in), 0);
}

static void test_left_with_budget(void **state)
{
    (void)state;
    mb_progress_left_t in = {
        .points = 4, .own_s = 8, .rest_s = 30, .budget_left_s = 100, .timed = 0, .runs_after = 2};
    assert_close(mb_progress_left_s(&in), 38); /* the estimates, none done yet */
    in.bench_elapsed_s = 2;
    in.points_done = 1;
    assert_close(mb_progress_left_s(&in), 6 + 30);
    in.bench_elapsed_s = 7; /* slower than its points: 2 of 4 left is half of its estimate */
    in.points_done = 2;
    assert_close(mb_progress_left_s(&in), 4 + 30);
    in.budget_left_s = 12; /* the budget ends the run first */
    assert_close(mb_progress_left_s(&in), 12);
    in.budget_left_s = 0;
    assert_close(mb_progress_left_s(&in), 0);
}

static void test_log_lines(void **state)
{
    (void)state;
    capture_t c;
    capture_open(&c);
    fake_now_s = 100;
    mb_progress_start(c.f, MB_PROGRESS_LOG, 3, 90, fake_clock);
    mb_progress_bench_begin(&(mb_progress_bench_t){.index = 0,
                                                   .name = "mpi.pingpong",
                                                   .npoints = 3,
                                                   .own_s = -1,
                                                   .rest_s = -1,
                                                   .runs_after = 1});
    for (int i = 0; i < 3; i++) {
        mb_progress_point_begin("size_bytes=8 pair=intra");
        mb_progress_point_end(i == 1);
    }
    assert_string_equal(capture_text(&c), ""); /* nothing per point */
    mb_progress_bench_end(1.234);
    mb_progress_bench_skipped(1, "mpi.halo4", "needs at least 4 ranks, the run has 2");
    mb_progress_bench_begin(&(mb_progress_bench_t){
        .index = 2, .name = "shm.read", .npoints = 5, .own_s = 3, .rest_s = 0});
    mb_progress_point_begin("size_bytes=64");
    mb_progress_point_end(false);
    mb_progress_note("mbsuite: warning: %s", "something");
    mb_progress_bench_end(0.5);
    mb_progress_finish();
    assert_string_equal(capture_text(&c),
                        "mbsuite: [1/3] mpi.pingpong: 2 points measured, 1 failed, 1.23 s\n"
                        "mbsuite: [2/3] mpi.halo4 skipped: needs at least 4 ranks, the run has 2\n"
                        "mbsuite: warning: something\n"
                        "mbsuite: [3/3] shm.read: 1 point measured, 0 failed, 4 dropped by the "
                        "budget, 0.50 s\n");
    capture_close(&c);
}

static void test_tty_line(void **state)
{
    (void)state;
    setenv("COLUMNS", "120", 1);
    capture_t c;
    capture_open(&c);
    fake_now_s = 70;
    mb_progress_start(c.f, MB_PROGRESS_TTY, 4, 5, fake_clock);
    /* One benchmark of 10 s done: the average says 10 s for each of the 2 to go. */
    mb_progress_bench_begin(&(mb_progress_bench_t){.index = 0,
                                                   .name = "harness.timer",
                                                   .npoints = 1,
                                                   .own_s = -1,
                                                   .rest_s = -1,
                                                   .runs_after = 2});
    mb_progress_point_end(false);
    fake_now_s = 80;
    mb_progress_bench_end(10);
    size_t before = strlen(capture_text(&c));
    mb_progress_bench_begin(&(mb_progress_bench_t){.index = 1,
                                                   .name = "mpi.pingpong",
                                                   .npoints = 8,
                                                   .own_s = -1,
                                                   .rest_s = -1,
                                                   .runs_after = 1});
    for (int i = 0; i < 4; i++) {
        mb_progress_point_begin("size_bytes=1024 pair=intra");
        mb_progress_point_end(false);
    }
    fake_now_s = 84;
    mb_progress_point_begin("size_bytes=2048 pair=intra");
    const char *text = capture_text(&c) + before;
    const char *last = strrchr(text, '\r');
    assert_non_null(last);
    assert_string_equal(last, "\r\033[K[2/4] mpi.pingpong [########........] 4/8  1m19s elapsed, "
                              "~16s left  size_bytes=2048 pair=intra");
    assert_null(strchr(text, '\n')); /* still one line */
    /* A note: the line cleared, the message on a line of its own, the line drawn again. */
    mb_progress_note("mbsuite: [2/4] mpi.pingpong size_bytes=2048 failed: %s", "timeout");
    mb_progress_point_end(true);
    text = capture_text(&c) + before;
    const char *note = strstr(text, "\r\033[Kmbsuite: [2/4] mpi.pingpong size_bytes=2048 failed: "
                                    "timeout\n\r\033[K[2/4] mpi.pingpong");
    assert_non_null(note);
    assert_non_null(strstr(text, "5/8 (1 failed)"));
    fake_now_s = 88;
    mb_progress_bench_end(8);
    text = capture_text(&c) + before;
    size_t len = strlen(text);
    const char *end = "\r\033[Kmbsuite: [2/4] mpi.pingpong: 4 points measured, 1 failed, 3 dropped "
                      "by the budget, 8.00 s\n";
    assert_true(len >= strlen(end));
    assert_string_equal(text + len - strlen(end), end);
    mb_progress_finish();
    capture_close(&c);
}

static void test_tty_line_fits_the_width(void **state)
{
    (void)state;
    setenv("COLUMNS", "40", 1);
    capture_t c;
    capture_open(&c);
    fake_now_s = 0;
    mb_progress_start(c.f, MB_PROGRESS_TTY, 1, 0, fake_clock);
    mb_progress_bench_begin(&(mb_progress_bench_t){.index = 0,
                                                   .name = "mpi.allreduce_compute",
                                                   .npoints = 7,
                                                   .own_s = 2,
                                                   .rest_s = 0,
                                                   .budget_end_s = 30});
    mb_progress_point_begin("size_bytes=1048576 ranks=2");
    const char *last = strrchr(capture_text(&c), '\r');
    assert_non_null(last);
    assert_int_equal(strlen(last + strlen("\r\033[K")), 39);
    /* Finishing clears the line, and later notes go to stderr, not to the stream. */
    mb_progress_finish();
    const char *text = capture_text(&c);
    assert_string_equal(text + strlen(text) - strlen("\r\033[K"), "\r\033[K");
    assert_int_equal(count(text, "\n"), 0);
    capture_close(&c);
    unsetenv("COLUMNS");
}

static void test_mode(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(mb_progress_mode_parse("tty"), MB_PROGRESS_TTY);
    assert_int_equal(mb_progress_mode_parse("log"), MB_PROGRESS_LOG);
    assert_int_equal(mb_progress_mode_parse("yes"), -1);
    setenv("MB_PROGRESS", "tty", 1);
    assert_int_equal(mb_progress_mode_detect(why, sizeof why), MB_PROGRESS_TTY);
    assert_string_equal(why, "");
    setenv("MB_PROGRESS", "log", 1);
    assert_int_equal(mb_progress_mode_detect(why, sizeof why), MB_PROGRESS_LOG);
    /* Unknown: said, and the terminal decides (TERM=dumb: a log, whatever stderr is). */
    setenv("MB_PROGRESS", "fancy", 1);
    setenv("TERM", "dumb", 1);
    assert_int_equal(mb_progress_mode_detect(why, sizeof why), MB_PROGRESS_LOG);
    assert_string_equal(why, "MB_PROGRESS=\"fancy\" is not tty, log or auto; ignored");
    unsetenv("MB_PROGRESS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar),
        cmocka_unit_test(test_duration),
        cmocka_unit_test(test_left_without_budget),
        cmocka_unit_test(test_left_with_budget),
        cmocka_unit_test(test_log_lines),
        cmocka_unit_test(test_tty_line),
        cmocka_unit_test(test_tty_line_fits_the_width),
        cmocka_unit_test(test_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
