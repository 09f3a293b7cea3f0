/* SPDX-License-Identifier: MIT */
/* The system description's /proc/cpuinfo reading on a known text: the first processor's
 * values, a key that is a prefix of another ("model" vs "model name"), an absent key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysdesc.h"

static const char cpuinfo[] = "processor\t: 0\n"
                              "vendor_id\t: GenuineIntel\n"
                              "cpu family\t: 6\n"
                              "model\t\t: 85\n"
                              "model name\t: Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\n"
                              "stepping\t: 4\n"
                              "microcode\t: 0x2006e05\n"
                              "\n"
                              "processor\t: 1\n"
                              "cpu family\t: 7\n"
                              "flags\t\t: fpu\n";

static void test_first_processor(void **state)
{
    (void)state;
    char v[64];
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "cpu family", v, sizeof v), 0);
    assert_string_equal(v, "6");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "model", v, sizeof v), 0);
    assert_string_equal(v, "85");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "stepping", v, sizeof v), 0);
    assert_string_equal(v, "4");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "microcode", v, sizeof v), 0);
    assert_string_equal(v, "0x2006e05");
}

static void test_absent(void **state)
{
    (void)state;
    char v[64];
    /* Only in the second processor's block: not the first's. */
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "flags", v, sizeof v), -1);
    assert_int_equal(mb_sysdesc_cpuinfo_value("", "model", v, sizeof v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_processor),
        cmocka_unit_test(test_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
