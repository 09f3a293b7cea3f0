/* SPDX-License-Identifier: MIT */
/* Config parsing: unit parsers, defaults, good and bad INI text (exact FILE:LINE messages),
 * files, JSON. Run from the repository root (fixtures in tests/data/config). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "config.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

#define FIXTURES "tests/data/config/"

/* ---- unit parsers ---- */

struct u64_case {
    const char *text;
    uint64_t want;
};

static void test_parse_count(void **state)
{
    (void)state;
    static const struct u64_case good[] = {
        {"0", 0}, {"11", 11}, {" 42 ", 42}, {"007", 7}, {"9223372036854775807", INT64_MAX},
    };
    static const char *bad[] = {"",    "abc", "-1",  "+1",  "1.5",
                                "1e3", "12x", "1 2", "0x10", "9223372036854775808",
                                "99999999999999999999999"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_count(good[i].text, &v) != 0 || v != good[i].want)
            fail_msg("count '%s': got %" PRIu64, good[i].text, v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_count(bad[i], &v) != -1 || v != 1234)
            fail_msg("count '%s' accepted", bad[i]);
    }
}

static void test_parse_size(void **state)
{
    (void)state;
    static const struct u64_case good[] = {
        {"4096", 4096},         {"4K", 4 * KiB},      {"4k", 4 * KiB},       {"4KB", 4 * KiB},
        {"4KiB", 4 * KiB},      {"4kib", 4 * KiB},    {"1M", MiB},           {"1MiB", MiB},
        {"1mb", MiB},           {"2G", 2 * GiB},      {"2GiB", 2 * GiB},     {"3 KiB", 3 * KiB},
        {" 16B ", 16},          {"16b", 16},          {"0", 0},              {"0K", 0},
        {"8589934591G", 8589934591 * GiB},            {"9223372036854775807", INT64_MAX},
    };
    static const char *bad[] = {"",     "K",    "4X",   "4KX",  "-4K", "+4K", "1.5M", "4 K B",
                                "4iB",  "4T",   "0x10", "4K4",  "4,K", "M4",
                                "8589934592G",          "9223372036854775808"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_size(good[i].text, &v) != 0 || v != good[i].want)
            fail_msg("size '%s': got %" PRIu64 ", want %" PRIu64, good[i].text, v, good[i].want);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_size(bad[i], &v) != -1 || v != 1234)
            fail_msg("size '%s' accepted", bad[i]);
    }
}

static void test_parse_duration(void **state)
{
    (void)state;
    static const struct u64_case good[] = {
        {"500ns", 500},
        {"20us", 20000},
        {"5ms", 5000000},
        {"1s", 1000000000},
        {"1.5ms", 1500000},
        {"0.5s", 500000000},
        {" 7 ms ", 7000000},
        {"0.001us", 1},
        {"2.5ns", 3},                     /* half rounds up */
        {"2.49ns", 2},
        {"1.0000000004s", 1000000000},    /* tenth of a ns rounds down */
        {"1.0000000005s", 1000000001},
        {"0.123456789123s", 123456789},
        {"9223372036s", 9223372036000000000},
        {"0ns", 0},
    };
    static const char *bad[] = {"",     "5",      "ms",   "5 m",  "5MS",  "5 sec",
                                "-1ms", "+1ms",   "1.ms", ".5ms", "1e3ns", "1.5.2ms",
                                "5ms5", "1,5ms",  "9223372037s",  "9223372036854775808ns"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_duration(good[i].text, &v) != 0 || v != good[i].want)
            fail_msg("duration '%s': got %" PRIu64 ", want %" PRIu64, good[i].text, v,
                     good[i].want);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 1234;
        if (mb_parse_duration(bad[i], &v) != -1 || v != 1234)
            fail_msg("duration '%s' accepted", bad[i]);
    }
}

static void test_parse_fraction(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double want;
    } good[] = {
        {"2%", 0.02}, {"0.02", 0.02}, {"0", 0.0}, {"0%", 0.0}, {"99.9%", 0.999},
        {"0.5", 0.5}, {" 5 % ", 0.05}, {"1.5%", 0.015}, {"0.999999", 0.999999},
    };
    static const char *bad[] = {"",    "1",    "1.0",  "100%", "150%", "-0.1", "-2%",
                                "abc", "2%%",  "0.02x", "nan",  "inf", "1e-2", ".5",
                                "5.%", "% 5", "0,5"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        if (mb_parse_fraction(good[i].text, &v) != 0 || v != good[i].want)
            fail_msg("fraction '%s': got %.17g, want %.17g", good[i].text, v, good[i].want);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = -1;
        if (mb_parse_fraction(bad[i], &v) != -1 || v != -1)
            fail_msg("fraction '%s' accepted", bad[i]);
    }
}

static void test_parse_size_list(void **state)
{
    (void)state;
    mb_size_list_t l;
    assert_int_equal(mb_parse_size_list("1M", &l), 0);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.bytes[0], MiB);
    assert_int_equal(mb_parse_size_list(" 4K, 8K,16KiB ,  1G", &l), 0);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.bytes[0], 4 * KiB);
    assert_int_equal(l.bytes[1], 8 * KiB);
    assert_int_equal(l.bytes[2], 16 * KiB);
    assert_int_equal(l.bytes[3], GiB);

    /* exactly MB_SIZE_LIST_MAX entries, then one too many */
    char text[MB_SIZE_LIST_MAX * 8 + 16] = "";
    for (int i = 1; i <= MB_SIZE_LIST_MAX; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%dK", i > 1 ? "," : "", i);
    assert_int_equal(mb_parse_size_list(text, &l), 0);
    assert_int_equal(l.n, MB_SIZE_LIST_MAX);
    assert_int_equal(l.bytes[MB_SIZE_LIST_MAX - 1], MB_SIZE_LIST_MAX * KiB);
    strcat(text, ",1K");
    l.n = 7;
    assert_int_equal(mb_parse_size_list(text, &l), -1);
    assert_int_equal(l.n, 7); /* untouched on error */

    static const char *bad[] = {"", "  ", ",", "1K,,2K", "1K,", ",1K", "1K, 4X", "1K 2K",
                                "1K;2K"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (mb_parse_size_list(bad[i], &l) != -1)
            fail_msg("size list '%s' accepted", bad[i]);
}

/* ---- defaults and good text ---- */

static void test_defaults(void **state)
{
    (void)state;
    mb_config_t c;
    mb_config_defaults(&c);
    assert_int_equal(c.run_min_experiments, 11);
    assert_int_equal(c.run_max_experiments, 51);
    assert_true(c.run_ci_target == 0.02);
    assert_int_equal(c.timing_clock, MB_CLOCK_MONOTONIC);
    assert_int_equal(c.timing_enough, 0); /* auto */
    assert_int_equal(c.timing_enough_max, 100000000);
    assert_int_equal(c.timing_enough_fallback, 10000000);
    assert_int_equal(c.harness_bcopy_sizes.n, 1);
    assert_int_equal(c.harness_bcopy_sizes.bytes[0], MiB);
    assert_int_equal(c.harness_bcopy_cold_span, 0); /* auto */
}

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

/* ---- JSON and the key list ---- */

static void test_json_has_every_key(void **state)
{
    (void)state;
    static const struct {
        const char *section, *key, *type;
    } keys[] = {
#define MB_CONFIG_KEY(section, key, type, def, help) {#section, #key, #type},
#include "config_keys.def"
#undef MB_CONFIG_KEY
    };
    mb_config_t c;
    mb_config_defaults(&c);
    json_t *j = mb_config_to_json(&c);
    assert_non_null(j);
    size_t total = 0;
    const char *name;
    json_t *sec;
    json_object_foreach(j, name, sec) total += json_object_size(sec);
    assert_int_equal(total, sizeof keys / sizeof keys[0]);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(json_object_get(j, keys[i].section), keys[i].key);
        if (!v)
            fail_msg("JSON lacks %s.%s", keys[i].section, keys[i].key);
        const char *t = keys[i].type;
        int ok = strcmp(t, "SIZE_LIST") == 0 ? json_is_array(v)
                 : strcmp(t, "FRACTION") == 0 ? json_is_real(v)
                 : strcmp(t, "CLOCK") == 0    ? json_is_string(v)
                 : strcmp(t, "NOISE_ACTION") == 0 ? json_is_string(v)
                 : strcmp(t, "SYNC") == 0     ? json_is_string(v)
                 : strcmp(t, "BUFFERS") == 0  ? json_is_string(v)
                 : strcmp(t, "BOOL") == 0     ? json_is_boolean(v)
                                              : json_is_integer(v) ||
                                                 (json_is_string(v) &&
                                                  strcmp(json_string_value(v), "auto") == 0);
        if (!ok)
            fail_msg("%s.%s has the wrong JSON type for %s", keys[i].section, keys[i].key, t);
    }
    json_decref(j);

    /* values: bytes, ns, "auto", config names */
    parse_ok(&c, "[timing]\nclock = monotonic_raw\nenough_max = 1.5ms\n"
                 "[harness]\nbcopy_sizes = 4K, 1M\nbcopy_cold_span = 2G\n");
    j = mb_config_to_json(&c);
    /* Section by section, so a new key elsewhere does not change these. */
    static const struct {
        const char *section, *json;
    } want[] = {
        {"run", "{\"min_experiments\":11,\"max_experiments\":51,\"warmup\":10000000,"
                "\"ci_target\":0.02,\"ci_wide\":0.1}"},
        {"timing", "{\"clock\":\"monotonic_raw\",\"enough\":\"auto\",\"enough_max\":1500000,"
                   "\"enough_fallback\":10000000}"},
        {"harness", "{\"bcopy_sizes\":[4096,1048576],\"bcopy_cold_span\":2147483648}"},
        {"preflight", "{\"enabled\":true,\"mhz_measurements\":11,\"perturb_duration\":20000000,"
                      "\"perturb_count\":100,\"noise_threshold\":0.05,\"mhz_tolerance\":0.02,"
                      "\"on_noisy\":\"warn\"}"},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        char *s = json_dumps(json_object_get(j, want[w].section),
                             JSON_COMPACT | JSON_REAL_PRECISION(15));
        assert_string_equal(s, want[w].json);
        free(s);
    }
    json_decref(j);
}

static void test_print_keys_round_trip(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    mb_config_print_keys(f);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "[run]\n; (count) fewest experiments per point"));
    assert_non_null(strstr(text, "\nmin_experiments = 11\n"));

    /* start far from the defaults: parsing the listing must bring every key back */
    mb_config_t c, d;
    mb_config_defaults(&d);
    mb_config_defaults(&c);
    parse_ok(&c, "[run]\nmin_experiments = 2\nmax_experiments = 3\nci_target = 0.5\n"
                 "[timing]\nclock = monotonic_raw\nenough = 1s\nenough_max = 2s\n"
                 "enough_fallback = 3s\n[harness]\nbcopy_sizes = 1K, 2K\nbcopy_cold_span = 1G\n");
    parse_ok(&c, text);
    json_t *jc = mb_config_to_json(&c), *jd = mb_config_to_json(&d);
    assert_true(json_equal(jc, jd));
    json_decref(jc);
    json_decref(jd);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_count),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_duration),
        cmocka_unit_test(test_parse_fraction),
        cmocka_unit_test(test_parse_size_list),
        cmocka_unit_test(test_defaults),
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
        cmocka_unit_test(test_first_error_wins),
        cmocka_unit_test(test_continuation),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_load_files),
        cmocka_unit_test(test_error_buffer),
        cmocka_unit_test(test_json_has_every_key),
        cmocka_unit_test(test_print_keys_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
