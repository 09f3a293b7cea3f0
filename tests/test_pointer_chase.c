/* SPDX-License-Identifier: MIT */
/* The chase builder: every order gives one cycle through every slot, starting at slot 0,
 * in the promised order; random orders are reproducible from their seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pointer_chase.h"

#define LINE 64

static const mb_chase_order_t orders[] = {MB_CHASE_SEQUENTIAL, MB_CHASE_PAGE, MB_CHASE_RANDOM};

/* 1, 2 and 63 lines; whole pages; 3 pages and 5 lines; a size that is not a multiple of a
 * line (its last 40 bytes hold no slot); 1 MiB + 3 lines. */
static const size_t sizes[] = {
    64, 128, 4032, 4096, 8192, 3 * 4096 + 5 * 64, 5 * 4096 + 104, (1 << 20) + 192};

static void *chase_alloc(size_t bytes)
{
    void *buf = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    assert_non_null(buf);
    memset(buf, 0xa5, bytes);
    return buf;
}

/* Walk the chase from slot 0 and check it visits every one of the bytes / stride slots
 * exactly once before coming back; visit[k] gets the slot visited k-th. */
static void check_cycle(const char *buf, size_t bytes, size_t stride, size_t *visit)
{
    size_t n = bytes / stride;
    unsigned char *seen = calloc(n, 1);
    assert_non_null(seen);
    const char *p = buf;
    for (size_t k = 0; k < n; k++) {
        uintptr_t at = (uintptr_t)p, base = (uintptr_t)buf;
        size_t off = (size_t)(at - base);
        if (at < base || off >= n * stride || off % stride != 0)
            fail_msg("step %zu lands at %p, not on a slot of %p", k, (const void *)p,
                     (const void *)buf);
        if (seen[off / stride])
            fail_msg("slot %zu visited twice (at step %zu of %zu)", off / stride, k, n);
        seen[off / stride] = 1;
        if (visit)
            visit[k] = off / stride;
        p = *(const char *const *)(const void *)p;
    }
    if (p != buf)
        fail_msg("after %zu steps the chase is at %p, not back at slot 0 (%p)", n, (const void *)p,
                 (const void *)buf);
    assert_int_equal(mb_chase_walk(buf, n + 1), n);
    free(seen);
}

static void test_single_cycle_every_order_and_size(void **state)
{
    (void)state;
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            char *buf = chase_alloc(sizes[s]);
            assert_int_equal(mb_chase_build(buf, sizes[s], LINE, orders[o], 42), 0);
            check_cycle(buf, sizes[s], LINE, NULL);
            free(buf);
        }
}

static void test_other_strides(void **state)
{
    (void)state;
    const size_t strides[] = {8, 16, 128, 4096, 8192};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
            size_t bytes = 9 * 4096 + 3 * strides[s];
            char *buf = chase_alloc(bytes);
            assert_int_equal(mb_chase_build(buf, bytes, strides[s], orders[o], 7), 0);
            check_cycle(buf, bytes, strides[s], NULL);
            free(buf);
        }
}

static void test_sequential_order(void **state)
{
    (void)state;
    size_t bytes = 3 * 4096 + 5 * LINE, n = bytes / LINE;
    size_t visit[3 * 64 + 5];
    char *buf = chase_alloc(bytes);
    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_SEQUENTIAL, 1), 0);
    check_cycle(buf, bytes, LINE, visit);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(visit[k], k);
    free(buf);
}

/* Page order: all slots of page 0, then all of page 1, ...; and not in sequence within a
 * page (63! orders: the chance that a random one is sequential is nil). */
static void test_page_order(void **state)
{
    (void)state;
    size_t bytes = 3 * 4096 + 5 * LINE, n = bytes / LINE, per_page = 4096 / LINE;
    size_t visit[3 * 64 + 5];
    char *buf = chase_alloc(bytes);
    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_PAGE, 1), 0);
    check_cycle(buf, bytes, LINE, visit);
    size_t in_sequence = 0;
    for (size_t k = 0; k < n; k++) {
        assert_int_equal(visit[k] / per_page, k / per_page);
        in_sequence += k > 0 && visit[k] == visit[k - 1] + 1;
    }
    assert_true(visit[0] == 0);
    assert_true(in_sequence < n / 4);
    free(buf);
}

/* Random order: far from sequential, leaves its page most of the time, and the same seed
 * builds the same chase while another seed builds another. */
static void test_random_order(void **state)
{
    (void)state;
    size_t bytes = 1 << 20, n = bytes / LINE;
    size_t *visit = malloc(n * sizeof *visit), *again = malloc(n * sizeof *again);
    assert_non_null(visit);
    assert_non_null(again);
    char *buf = chase_alloc(bytes);
    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_RANDOM, 99), 0);
    check_cycle(buf, bytes, LINE, visit);
    size_t same_page = 0, in_sequence = 0;
    for (size_t k = 1; k < n; k++) {
        same_page += visit[k] / 64 == visit[k - 1] / 64;
        in_sequence += visit[k] == visit[k - 1] + 1;
    }
    assert_true(same_page < n / 100);
    assert_true(in_sequence < n / 100);

    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_RANDOM, 99), 0);
    check_cycle(buf, bytes, LINE, again);
    assert_memory_equal(visit, again, n * sizeof *visit);
    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_RANDOM, 100), 0);
    check_cycle(buf, bytes, LINE, again);
    assert_memory_not_equal(visit, again, n * sizeof *visit);
    free(buf);
    free(visit);
    free(again);
}

/* Only the first word of each slot is written; a tail shorter than a slot is untouched. */
static void test_writes_only_first_words(void **state)
{
    (void)state;
    size_t bytes = 4096 + 104, n = bytes / LINE;
    unsigned char *buf = chase_alloc(bytes);
    assert_int_equal(mb_chase_build(buf, bytes, LINE, MB_CHASE_RANDOM, 3), 0);
    for (size_t i = 0; i < bytes; i++)
        if (i % LINE >= sizeof(void *) || i >= n * LINE)
            assert_int_equal(buf[i], 0xa5);
    free(buf);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char *buf = chase_alloc(8192);
    assert_int_equal(mb_chase_build(NULL, 4096, LINE, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf, 4096, 0, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf, 4096, 4, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf, 4096, 12, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf, 32, LINE, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf + 4, 4096, LINE, MB_CHASE_RANDOM, 1), -1);
    assert_int_equal(mb_chase_build(buf, 4096, LINE, (mb_chase_order_t)17, 1), -1);
    free(buf);
}

static void test_walk_stops_at_max_steps(void **state)
{
    (void)state;
    char *buf = chase_alloc(4096);
    assert_int_equal(mb_chase_build(buf, 4096, LINE, MB_CHASE_RANDOM, 5), 0);
    assert_int_equal(mb_chase_walk(buf, 10), 10);
    assert_int_equal(mb_chase_walk(buf, 64), 64);
    assert_int_equal(mb_chase_walk(buf, 1000), 64);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_cycle_every_order_and_size),
        cmocka_unit_test(test_other_strides),
        cmocka_unit_test(test_sequential_order),
        cmocka_unit_test(test_page_order),
        cmocka_unit_test(test_random_order),
        cmocka_unit_test(test_writes_only_first_words),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_walk_stops_at_max_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
