/* SPDX-License-Identifier: MIT */
/* Config reading and parsing: good and bad INI text (exact FILE:LINE messages), files and
 * what cannot be one. Run from the repository root (fixtures in tests/data/config).
 * Unit parsers: test_config_units.c; defaults, JSON, the key list: test_config_keys.c. */
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "config.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)

#define FIXTURES "tests/data/config/"

/* ---- defaults and good text ---- */

static void parse_ok(mb_config_t *c, const char *text)
{
    char err[512] = "";
    if (mb_config_parse_string(c, text, "t.ini", err, sizeof err) != 0)
        fail_msg("unexpected error: %s\n--- text:\n%s", err, text);
}

static void test_good_text(void **state)
{
    (void)state;
    mb_config_t c;
    mb_config_defaults(&c);
    parse_ok(&c, "\xEF\xBB\xBF; leading comment, after a byte order mark\r\n"
                 "# another comment\r\n"
                 "[run]\r\n"
                 "min_experiments = 3 ; inline\r\n"
                 "max_experiments=9 # inline too\r\n"
                 "ci_target: 5%\r\n"
                 "\r\n"
                 "[timing]\n"
                 "clock = monotonic_raw\n"
                 "enough = 20us\n"
                 "enough = 50us\n" /* later wins */
                 "enough_max = 0.25s\n"
                 "[harness]\n"
                 "bcopy_sizes = 1K, 2K,\n"
                 "\n"
                 "    ; a comment line does not end the value\n"
                 "    4KiB, ; inline comment on a continuation line\n"
                 "\t8k   # and one with '#'\n"
                 "[run]\n" /* a section may come back */
                 "ci_target = 0.125\n"
                 "[timing]\n"
                 "enough_fallback = 9s\n"
                 "enough_fallback = 3s\n");
    assert_int_equal(c.run_min_experiments, 3);
    assert_int_equal(c.run_max_experiments, 9);
    assert_true(c.run_ci_target == 0.125);
    assert_int_equal(c.timing_clock, MB_CLOCK_MONOTONIC_RAW);
    assert_int_equal(c.timing_enough, 50000);
    assert_int_equal(c.timing_enough_max, 250000000);
    assert_int_equal(c.timing_enough_fallback, 3000000000u);
    assert_int_equal(c.harness_bcopy_sizes.n, 4);
    assert_int_equal(c.harness_bcopy_sizes.bytes[0], KiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[1], 2 * KiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[2], 4 * KiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[3], 8 * KiB);
    assert_int_equal(c.harness_bcopy_cold_span, 0); /* untouched default */
}

static void test_auto_and_layering(void **state)
{
    (void)state;
    mb_config_t c;
    mb_config_defaults(&c);
    parse_ok(&c, "[timing]\nenough = 5ms\n[harness]\nbcopy_cold_span = 64M\n");
    assert_int_equal(c.timing_enough, 5000000);
    assert_int_equal(c.harness_bcopy_cold_span, 64 * MiB);
    /* a second text applies on top of the first */
    parse_ok(&c, "[timing]\nenough = auto\n");
    assert_int_equal(c.timing_enough, 0);
    assert_int_equal(c.harness_bcopy_cold_span, 64 * MiB);
    parse_ok(&c, "[harness]\nbcopy_cold_span = auto\n");
    assert_int_equal(c.harness_bcopy_cold_span, 0);
    parse_ok(&c, "");
    parse_ok(&c, "\n\n; only comments\n");
    /* an indented key right after a section header is a key, not a continuation */
    parse_ok(&c, "[run]\n   min_experiments = 7\n");
    assert_int_equal(c.run_min_experiments, 7);
    /* the last line may lack its newline */
    parse_ok(&c, "[run]\nmax_experiments = 77");
    assert_int_equal(c.run_max_experiments, 77);
}

static void test_long_list_by_continuation(void **state)
{
    (void)state;
    /* MB_SIZE_LIST_MAX sizes do not fit on one line; continuation lines carry them. */
    char text[8192] = "[harness]\nbcopy_sizes =";
    for (int i = 1; i <= MB_SIZE_LIST_MAX; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%dK%s",
                 i % 16 == 1 && i > 1 ? "\n    " : " ", i, i < MB_SIZE_LIST_MAX ? "," : "\n");
    mb_config_t c;
    mb_config_defaults(&c);
    parse_ok(&c, text);
    assert_int_equal(c.harness_bcopy_sizes.n, MB_SIZE_LIST_MAX);
    assert_int_equal(c.harness_bcopy_sizes.bytes[MB_SIZE_LIST_MAX - 1], MB_SIZE_LIST_MAX * KiB);
}

/* ---- bad text: the message and its FILE:LINE ---- */

static void expect_error(const char *text, const char *want)
{
    mb_config_t c;
    char err[512] = "";
    mb_config_defaults(&c);
    int rc = mb_config_parse_string(&c, text, "t.ini", err, sizeof err);
    if (rc != -1 || strcmp(err, want) != 0)
        fail_msg("rc %d\n got: %s\nwant: %s\n--- text:\n%s", rc, err, want, text);
}

static void test_bad_unknown_section(void **state)
{
    (void)state;
    expect_error("[run]\nmin_experiments = 5\n[bar]\nx = 1\n", "t.ini:3: unknown section [bar]");
    /* no keys in it: inih never calls the handler, the reader catches it */
    expect_error("[run]\nmin_experiments = 5\n\n[bar]\n", "t.ini:4: unknown section [bar]");
    expect_error("[bar]\n[run]\nmin_experiments = 5\n", "t.ini:1: unknown section [bar]");
    expect_error("[run]\n[bar] ; comment\n", "t.ini:2: unknown section [bar]");
    expect_error("[ run ]\n", "t.ini:1: unknown section [ run ]"); /* names are exact */
    expect_error("[RUN]\n", "t.ini:1: unknown section [RUN]");
    expect_error("[]\n", "t.ini:1: unknown section []");
}

static void test_bad_unknown_key(void **state)
{
    (void)state;
    expect_error("[run]\n\nfoo = 1\n", "t.ini:3: unknown key 'foo' in section [run]");
    expect_error("[timing]\nmin_experiments = 1\n",
                 "t.ini:2: unknown key 'min_experiments' in section [timing]");
    expect_error("[run]\nMin_Experiments = 1\n",
                 "t.ini:2: unknown key 'Min_Experiments' in section [run]");
    expect_error("[run]\n= 1\n", "t.ini:2: unknown key '' in section [run]");
}

static void test_bad_value(void **state)
{
    (void)state;
    expect_error("[run]\nmin_experiments = abc\n",
                 "t.ini:2: [run] min_experiments: 'abc' is not a count");
    expect_error("[run]\nmin_experiments = -3\n",
                 "t.ini:2: [run] min_experiments: '-3' is not a count");
    expect_error("[run]\nmin_experiments = 99999999999999999999\n",
                 "t.ini:2: [run] min_experiments: '99999999999999999999' is too large");
    expect_error("[run]\nmin_experiments =\n", "t.ini:2: [run] min_experiments: no value");
    expect_error("[run]\nmin_experiments = ; just a comment\n",
                 "t.ini:2: [run] min_experiments: no value");
    expect_error("[run]\nci_target = 150%\n",
                 "t.ini:2: [run] ci_target: '150%' is out of range (0 <= fraction < 1, i.e. "
                 "below 100%)");
    expect_error("[run]\nci_target = two\n",
                 "t.ini:2: [run] ci_target: 'two' is not a fraction (write e.g. 2% or 0.02)");
    expect_error("[timing]\nclock = tsc\n",
                 "t.ini:2: [timing] clock: unknown clock 'tsc' (use monotonic or monotonic_raw)");
    expect_error("[timing]\nenough_max = 5\n",
                 "t.ini:2: [timing] enough_max: '5' needs a unit (ns, us, ms or s)");
    expect_error("[timing]\nenough_max = fast\n",
                 "t.ini:2: [timing] enough_max: 'fast' is not a duration");
    expect_error("[timing]\nenough_max = 0ms\n",
                 "t.ini:2: [timing] enough_max: '0ms' must be greater than zero");
    expect_error("[timing]\nenough = 0ns\n", "t.ini:2: [timing] enough: '0ns' must be greater "
                                             "than zero (write auto for the automatic choice)");
    expect_error("[harness]\nbcopy_cold_span = 1.5M\n",
                 "t.ini:2: [harness] bcopy_cold_span: '1.5M' is not a whole number of bytes");
    expect_error("[harness]\nbcopy_sizes = 1K,,2K\n",
                 "t.ini:2: [harness] bcopy_sizes: empty entry in '1K,,2K'");
    expect_error("[harness]\nbcopy_sizes = 0, 1K\n",
                 "t.ini:2: [harness] bcopy_sizes: sizes must be greater than zero in '0, 1K'");
    /* no '#' comment without whitespace before it */
    expect_error("[run]\nmin_experiments = 5#x\n",
                 "t.ini:2: [run] min_experiments: '5#x' is not a count");
}

static void test_bad_unit(void **state)
{
    (void)state;
    expect_error("[harness]\nbcopy_sizes = 4X\n",
                 "t.ini:2: [harness] bcopy_sizes: unknown unit 'X' in '4X' (use K, M or G)");
    expect_error("[harness]\nbcopy_sizes = 1K, 2K, 4TB\n",
                 "t.ini:2: [harness] bcopy_sizes: unknown unit 'TB' in '4TB' (use K, M or G)");
    expect_error("[harness]\nbcopy_cold_span = 4 MiBs\n",
                 "t.ini:2: [harness] bcopy_cold_span: unknown unit 'MiBs' in '4 MiBs' (use K, M "
                 "or G)");
    expect_error("[timing]\n\nenough_fallback = 2 sec\n",
                 "t.ini:3: [timing] enough_fallback: unknown unit 'sec' in '2 sec' (use ns, us, "
                 "ms or s)");
}

static void test_bad_syntax(void **state)
{
    (void)state;
    expect_error("[run]\nmin_experiments 5\n", "t.ini:2: syntax error");
    expect_error("[run\nmin_experiments = 5\n", "t.ini:1: syntax error");
    expect_error("[run]\n[timing ; ]\n", "t.ini:2: syntax error");
    expect_error("[run]\nmin_experiments ; = 5\n", "t.ini:2: syntax error");
}

static void test_bad_outside_section(void **state)
{
    (void)state;
    expect_error("min_experiments = 5\n[run]\n",
                 "t.ini:1: key 'min_experiments' is outside any section");
    expect_error("; comment\n\nfoo=1\n", "t.ini:3: key 'foo' is outside any section");
}

static void test_bad_auto(void **state)
{
    (void)state;
    expect_error("[timing]\nenough_max = auto\n",
                 "t.ini:2: [timing] enough_max: auto is not allowed here (the default is 100ms)");
    expect_error("[run]\n\nmin_experiments = auto\n",
                 "t.ini:3: [run] min_experiments: auto is not allowed here (the default is 11)");
    expect_error("[timing]\nclock = auto\n",
                 "t.ini:2: [timing] clock: auto is not allowed here (the default is monotonic)");
}

static void test_bad_min_max(void **state)
{
    (void)state;
    expect_error("[run]\nmin_experiments = 60\n",
                 "t.ini:2: [run] min_experiments: 60 is more than max_experiments (51)");
    expect_error("[run]\n\nmax_experiments = 5\n",
                 "t.ini:3: [run] max_experiments: 5 is less than min_experiments (11)");
    expect_error("[run]\nmax_experiments = 5\nmin_experiments = 6\n",
                 "t.ini:2: [run] max_experiments: 5 is less than min_experiments (6)");
    expect_error("[run]\nmin_experiments = 0\n",
                 "t.ini:2: [run] min_experiments: must be at least 1");
    expect_error("[os]\nenough_min = 5ms\nexperiments = 0\n",
                 "t.ini:3: [os] experiments: must be at least 1");
    expect_error("[run]\nci_target = 0%\n", "t.ini:2: [run] ci_target: must be greater than 0");

    /* the values came from an earlier text: only the file can be named */
    mb_config_t c;
    char err[256];
    mb_config_defaults(&c);
    c.run_min_experiments = 60;
    assert_int_equal(mb_config_parse_string(&c, "[timing]\nenough = 1ms\n", "u.ini", err,
                                            sizeof err),
                     -1);
    assert_string_equal(err, "u.ini: [run] max_experiments: 51 is less than min_experiments (60)");
}

/* [mpi] pattern_compute: mpi.allreduce_compute's compute phase, a duration in (0, 100ms]. */
static void test_pattern_compute(void **state)
{
    (void)state;
    mb_config_t c;
    char err[256] = "";
    mb_config_defaults(&c);
    assert_int_equal(c.mpi_pattern_compute, 20000);
    assert_int_equal(mb_config_parse_string(&c, "[mpi]\npattern_compute = 100ms\n", "t.ini", err,
                                            sizeof err),
                     0);
    assert_int_equal(c.mpi_pattern_compute, 100000000);
    expect_error("[mpi]\npattern_compute = 101ms\n",
                 "t.ini:2: [mpi] pattern_compute: must be at most 100ms");
    expect_error("[mpi]\npattern_compute = 0us\n",
                 "t.ini:2: [mpi] pattern_compute: '0us' must be greater than zero");
    expect_error("[mpi]\npattern_compute = 20\n",
                 "t.ini:2: [mpi] pattern_compute: '20' needs a unit (ns, us, ms or s)");
}

/* [mpi] window: the streaming benchmarks' messages in flight, 1 to 1024, default OSU's 64. */
static void test_window(void **state)
{
    (void)state;
    mb_config_t c;
    char err[256] = "";
    mb_config_defaults(&c);
    assert_int_equal(c.mpi_window, 64);
    assert_int_equal(mb_config_parse_string(&c, "[mpi]\nwindow = 1024\n", "t.ini", err, sizeof err),
                     0);
    assert_int_equal(c.mpi_window, 1024);
    expect_error("[mpi]\nwindow = 0\n", "t.ini:2: [mpi] window: must be 1 to 1024 messages");
    expect_error("[mpi]\n\nwindow = 1025\n", "t.ini:3: [mpi] window: must be 1 to 1024 messages");
}

static void test_first_error_wins(void **state)
{
    (void)state;
    expect_error("[run]\nnope\nfoo = 1\n", "t.ini:2: syntax error");
    expect_error("[run]\nfoo = 1\nnope\n", "t.ini:2: unknown key 'foo' in section [run]");
    /* a value is checked once complete, after inih has read on: still reported first */
    expect_error("[run]\nmin_experiments = x\nnope\n",
                 "t.ini:2: [run] min_experiments: 'x' is not a count");
    expect_error("[run]\nmin_experiments = x\n[bar]\n",
                 "t.ini:2: [run] min_experiments: 'x' is not a count");
    expect_error("[bar]\n[run]\nmin_experiments = x\n", "t.ini:1: unknown section [bar]");
    /* an error in a later value does not hide behind a good earlier one */
    expect_error("[run]\nmin_experiments = 5\nmax_experiments = y\n",
                 "t.ini:3: [run] max_experiments: 'y' is not a count");
}

static void test_continuation(void **state)
{
    (void)state;
    /* reported at the key's line, with the joined value */
    expect_error("[harness]\nbcopy_sizes = 1K,\n  4X\n",
                 "t.ini:2: [harness] bcopy_sizes: unknown unit 'X' in '4X' (use K, M or G)");
    expect_error("[run]\nmin_experiments = 1\n  2\n",
                 "t.ini:2: [run] min_experiments: '1 2' is not a count");
    /* an indented line after a key continues it, even one that looks like a header */
    expect_error("[run]\nmin_experiments = 5\n  [timing]\n",
                 "t.ini:2: [run] min_experiments: '5 [timing]' is not a count");
    /* after a section header, an indented line is an ordinary line */
    expect_error("[run]\n  nope\n", "t.ini:2: syntax error");
    /* so is an indented key: it is no key at all */
    expect_error("[run]\nmin_experiments = 3\n  max_experiments = 9\n",
                 "t.ini:2: [run] min_experiments: '3 max_experiments = 9' is not a count");
    /* after a syntax error, inih still continues the last good key: the earlier line wins */
    expect_error("[run]\nmin_experiments = 5\nnope\n  6\n",
                 "t.ini:2: [run] min_experiments: '5 6' is not a count");
}

static void test_long_lines(void **state)
{
    (void)state;
    /* inih r55 reads lines into 200 bytes: 197 characters, "\r\n" and the NUL */
    char text[1024];
    char comment[300];
    memset(comment, 'x', sizeof comment);
    comment[0] = ';';

    /* 197 characters: fine, and later line numbers are right */
    snprintf(text, sizeof text, "[run]\n%.197s\r\nmin_experiments = 5\nfoo = 1\n", comment);
    expect_error(text, "t.ini:4: unknown key 'foo' in section [run]");
    /* 198: refused at its own line, not split into two */
    snprintf(text, sizeof text, "[run]\n%.198s\nmin_experiments = 5\n", comment);
    expect_error(text, "t.ini:2: line is longer than 197 characters");
    snprintf(text, sizeof text, "[run]\nmin_experiments = 5\n%.299s", comment);
    expect_error(text, "t.ini:3: line is longer than 197 characters");
}

/* ---- files ---- */

static void test_load_files(void **state)
{
    (void)state;
    mb_config_t c;
    char err[512] = "";
    mb_config_defaults(&c);
    if (mb_config_load_file(&c, FIXTURES "good.ini", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(c.run_min_experiments, 15);
    assert_int_equal(c.run_max_experiments, 101);
    assert_true(c.run_ci_target == 0.015);
    assert_int_equal(c.timing_clock, MB_CLOCK_MONOTONIC_RAW);
    assert_int_equal(c.timing_enough, 1500000);
    assert_int_equal(c.timing_enough_max, 200000000);
    assert_int_equal(c.timing_enough_fallback, 2000000000);
    assert_int_equal(c.harness_bcopy_sizes.n, 4);
    assert_int_equal(c.harness_bcopy_sizes.bytes[0], 4 * KiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[1], 64 * KiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[2], MiB);
    assert_int_equal(c.harness_bcopy_sizes.bytes[3], 2 * MiB);
    assert_int_equal(c.harness_bcopy_cold_span, 256 * MiB);

    mb_config_defaults(&c);
    assert_int_equal(mb_config_load_file(&c, FIXTURES "unknown_section.ini", err, sizeof err), -1);
    assert_string_equal(err, FIXTURES "unknown_section.ini:7: unknown section [benchmarks]");
    assert_int_equal(mb_config_load_file(&c, FIXTURES "bad_unit.ini", err, sizeof err), -1);
    assert_string_equal(err, FIXTURES "bad_unit.ini:3: [harness] bcopy_cold_span: unknown unit "
                                      "'X' in '4X' (use K, M or G)");
    assert_int_equal(mb_config_load_file(&c, FIXTURES "no_such_file.ini", err, sizeof err), -1);
    assert_string_equal(err, FIXTURES "no_such_file.ini: cannot read: No such file or directory");
    assert_int_equal(mb_config_load_file(&c, "tests/data/config", err, sizeof err), -1);
    assert_string_equal(err, "tests/data/config: cannot read: Is a directory");
}

/* A file in /tmp holding data[0..len); its path in path (PATH_MAX). */
static void temp_file(char *path, const void *data, size_t len)
{
    snprintf(path, PATH_MAX, "/tmp/mbsuite-test-config.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    assert_int_equal(close(fd), 0);
}

static void expect_read_error(const char *path, const char *want)
{
    char err[512] = "";
    char *text = mb_config_read_file(path, err, sizeof err);
    if (text || strcmp(err, want) != 0)
        fail_msg("%s read: %s\n got: %s\nwant: %s", path, text ? "accepted" : "refused", err, want);
}

/* What cannot be a configuration file is refused before it is read whole: the message names
 * the file, and the line for binary data. */
static void test_read_file_refuses(void **state)
{
    (void)state;
    char path[PATH_MAX], want[PATH_MAX + 128];

    expect_read_error("/dev/zero",
                      "/dev/zero:1: a NUL byte: binary data, not a configuration file");
    expect_read_error("/tmp", "/tmp: cannot read: Is a directory");

    /* 100 MB, sparse: refused by its size, without reading it */
    temp_file(path, "", 0);
    assert_int_equal(truncate(path, 100 * 1000 * 1000), 0);
    snprintf(want, sizeof want, "%s: 100000000 bytes, larger than 1 MiB: not a configuration file",
             path);
    expect_read_error(path, want);
    /* one byte over 1 MiB of good text */
    char *big = malloc(MiB + 1);
    assert_non_null(big);
    for (size_t i = 0; i < MiB + 1; i++)
        big[i] = i % 64 == 63 ? '\n' : ';';
    unlink(path);
    temp_file(path, big, MiB + 1);
    snprintf(want, sizeof want, "%s: 1048577 bytes, larger than 1 MiB: not a configuration file",
             path);
    expect_read_error(path, want);
    unlink(path);

    static const char nul[] = "[run]\nmin_experiments = 1\0 1\n";
    temp_file(path, nul, sizeof nul - 1);
    snprintf(want, sizeof want, "%s:2: a NUL byte: binary data, not a configuration file", path);
    expect_read_error(path, want);
    unlink(path);

    static const char esc[] = "[run]\nmin_experiments = 11\n\x1b[31m\n";
    temp_file(path, esc, sizeof esc - 1);
    snprintf(want, sizeof want,
             "%s:3: control character 0x1b: binary data, not a configuration file", path);
    expect_read_error(path, want);
    /* mb_config_load_file reads the same way */
    mb_config_t c;
    char err[512];
    mb_config_defaults(&c);
    assert_int_equal(mb_config_load_file(&c, path, err, sizeof err), -1);
    assert_string_equal(err, want);
    unlink(path);

    static const unsigned char gzip[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00};
    temp_file(path, gzip, sizeof gzip);
    snprintf(want, sizeof want,
             "%s:1: control character 0x1f: binary data, not a configuration file", path);
    expect_read_error(path, want);
    unlink(path);
    free(big);
}

/* A pipe, whose size is not known up front, is cut off one byte past 1 MiB. */
static void test_read_file_long_stream(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        static const char line[] = "; a comment line\n";
        signal(SIGPIPE, SIG_IGN);
        close(fds[0]);
        for (size_t sent = 0; sent < 4 * MiB; sent += sizeof line - 1)
            if (write(fds[1], line, sizeof line - 1) < 0)
                break;
        _exit(0);
    }
    close(fds[1]);
    char path[64], want[128];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    snprintf(want, sizeof want, "%s: larger than 1 MiB: not a configuration file", path);
    expect_read_error(path, want);
    close(fds[0]);
    assert_int_equal(waitpid(child, NULL, 0), child);
}

/* Text up to 1 MiB is read whole: whitespace controls and bytes over 0x7f (UTF-8 comments)
 * are text. */
static void test_read_file_accepts(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512] = "";
    static const char text[] = "; 20 \xc2\xb5s\r\n[run]\r\n\tmin_experiments = 12\f\v\n";
    temp_file(path, text, sizeof text - 1);
    char *got = mb_config_read_file(path, err, sizeof err);
    if (!got)
        fail_msg("%s", err);
    assert_string_equal(got, text);
    free(got);
    unlink(path);

    char *big = malloc(MiB);
    assert_non_null(big);
    for (size_t i = 0; i < MiB; i++)
        big[i] = i % 64 == 63 ? '\n' : ';';
    temp_file(path, big, MiB);
    got = mb_config_read_file(path, err, sizeof err);
    if (!got)
        fail_msg("%s", err);
    assert_int_equal(strlen(got), MiB);
    mb_config_t c;
    mb_config_defaults(&c);
    if (mb_config_parse_string(&c, got, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(got);
    free(big);
    unlink(path);
}

/* Text in memory is held to what a file is: the same refusals and messages; it needs no
 * terminating NUL, and one inside it is binary data. */
static void test_parse_buffer(void **state)
{
    (void)state;
    mb_config_t c, want_cfg;
    char err[512] = "";
    static const char text[] = "[run]\nmin_experiments = 12\n[run]\nmin_experiments = 13";
    mb_config_defaults(&c);
    /* only the first 27 bytes: the second section is not read */
    if (mb_config_parse_buffer(&c, text, 27, "mem.ini", err, sizeof err) != 0)
        fail_msg("%s", err);
    mb_config_defaults(&want_cfg);
    assert_int_equal(
        mb_config_parse_string(&want_cfg, "[run]\nmin_experiments = 12\n", "t", err, sizeof err),
        0);
    assert_memory_equal(&c, &want_cfg, sizeof c);

    static const char nul[] = "[run]\nmin_experiments = 1\0 1\n";
    assert_int_equal(mb_config_parse_buffer(&c, nul, sizeof nul - 1, "mem.ini", err, sizeof err),
                     -1);
    assert_string_equal(err, "mem.ini:2: a NUL byte: binary data, not a configuration file");
    static const char esc[] = "[run]\n\x1b[31m\n";
    assert_int_equal(mb_config_parse_buffer(&c, esc, sizeof esc - 1, NULL, err, sizeof err), -1);
    assert_string_equal(
        err, "<string>:2: control character 0x1b: binary data, not a configuration file");
    assert_int_equal(mb_config_parse_buffer(&c, "[bar]\n", 6, "mem.ini", err, sizeof err), -1);
    assert_string_equal(err, "mem.ini:1: unknown section [bar]");

    char *big = malloc(MiB + 1);
    assert_non_null(big);
    memset(big, '\n', MiB + 1);
    assert_int_equal(mb_config_parse_buffer(&c, big, MiB + 1, "big.ini", err, sizeof err), -1);
    assert_string_equal(err, "big.ini: 1048577 bytes, larger than 1 MiB: not a configuration file");
    assert_int_equal(mb_config_parse_buffer(&c, big, MiB, "big.ini", NULL, 0), 0);
    free(big);
}

static void test_error_buffer(void **state)
{
    (void)state;
    mb_config_t c;
    char small[12];
    mb_config_defaults(&c);
    assert_int_equal(mb_config_parse_string(&c, "[bar]\n", "t.ini", small, sizeof small), -1);
    assert_string_equal(small, "t.ini:1: un"); /* truncated, terminated */
    assert_int_equal(mb_config_parse_string(&c, "[bar]\n", "t.ini", NULL, 0), -1);
    assert_int_equal(mb_config_parse_string(&c, "[bar]\n", NULL, small, sizeof small), -1);
    assert_string_equal(small, "<string>:1:");
    assert_int_equal(mb_config_load_file(&c, FIXTURES "no_such_file.ini", NULL, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_text),
        cmocka_unit_test(test_auto_and_layering),
        cmocka_unit_test(test_long_list_by_continuation),
        cmocka_unit_test(test_bad_unknown_section),
        cmocka_unit_test(test_bad_unknown_key),
        cmocka_unit_test(test_bad_value),
        cmocka_unit_test(test_bad_unit),
        cmocka_unit_test(test_bad_syntax),
        cmocka_unit_test(test_bad_outside_section),
        cmocka_unit_test(test_bad_auto),
        cmocka_unit_test(test_bad_min_max),
        cmocka_unit_test(test_pattern_compute),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_first_error_wins),
        cmocka_unit_test(test_continuation),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_load_files),
        cmocka_unit_test(test_read_file_refuses),
        cmocka_unit_test(test_read_file_long_stream),
        cmocka_unit_test(test_read_file_accepts),
        cmocka_unit_test(test_parse_buffer),
        cmocka_unit_test(test_error_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
