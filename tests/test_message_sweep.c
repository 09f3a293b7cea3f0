/* SPDX-License-Identifier: MIT */
/* The process counts of the collective sweep (mpi/message.h): every p to 8, then powers of
 * two, then every rank; at most MB_MESSAGE_P_MAX of them, spaced in log p at large N. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../mpi/message.h"

static void assert_sweep(int most, const int *want, int nwant)
{
    int ps[MB_MESSAGE_P_MAX];
    int n = mb_message_p_sweep(most, ps);
    assert_int_equal(n, nwant);
    for (int i = 0; i < n; i++)
        assert_int_equal(ps[i], want[i]);
}

static void test_small_runs_take_every_value(void **unused)
{
    (void)unused;
    assert_sweep(2, (const int[]){2}, 1);
    assert_sweep(5, (const int[]){2, 3, 4, 5}, 4);
    assert_sweep(12, (const int[]){2, 3, 4, 5, 6, 7, 8, 12}, 8);
    assert_sweep(16, (const int[]){2, 3, 4, 5, 6, 7, 8, 16}, 8);
    assert_sweep(100, (const int[]){2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 100}, 11);
    assert_sweep(256, (const int[]){2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128, 256}, 12);
}

/* Past 12 values: 12 at most, from 2 to N, rising, each one of the full sweep's. */
static void test_large_runs_are_log_spaced(void **unused)
{
    (void)unused;
    const int sizes[] = {512, 1000, 4096, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int ps[MB_MESSAGE_P_MAX];
        int n = mb_message_p_sweep(sizes[s], ps);
        assert_true(n >= 8 && n <= MB_MESSAGE_P_MAX);
        assert_int_equal(ps[0], 2);
        assert_int_equal(ps[n - 1], sizes[s]);
        for (int i = 1; i < n; i++) {
            assert_true(ps[i] > ps[i - 1]);
            int p = ps[i];
            assert_true(p <= 8 || (p & (p - 1)) == 0 || p == sizes[s]);
        }
    }
    assert_sweep(4096, (const int[]){2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}, 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_runs_take_every_value),
        cmocka_unit_test(test_large_runs_are_log_spaced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
