/* SPDX-License-Identifier: MIT */
/* The unit parsers of configuration values: counts, sizes, durations, fractions, size lists,
 * good and bad text and the limits. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config_units.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_count),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_duration),
        cmocka_unit_test(test_parse_fraction),
        cmocka_unit_test(test_parse_size_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
