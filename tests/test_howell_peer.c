/* SPDX-License-Identifier: MIT */
/* Choosing the neighbour whose memory Howell's table reads: the next rank on the same NUMA
 * node, and the farthest NUMA node's next rank, on synthetic layouts with known answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../shm/howell_access.h"

static void test_one_numa_node_is_the_next_rank(void **unused)
{
    (void)unused;
    const int numa[] = {0, 0, 0, 0};
    for (int me = 0; me < 4; me++) {
        assert_int_equal(mb_howell_peer(numa, 4, me, NULL, 1, false), (me + 1) % 4);
        assert_int_equal(mb_howell_peer(numa, 4, me, NULL, 1, true), (me + 1) % 4);
    }
}

static void test_nearest_stays_on_the_numa_node(void **unused)
{
    (void)unused;
    /* Ranks interleaved over two NUMA nodes, as a round-robin launcher places them. */
    const int numa[] = {0, 1, 0, 1};
    assert_int_equal(mb_howell_peer(numa, 4, 0, NULL, 2, false), 2);
    assert_int_equal(mb_howell_peer(numa, 4, 2, NULL, 2, false), 0);
    assert_int_equal(mb_howell_peer(numa, 4, 1, NULL, 2, false), 3);
    assert_int_equal(mb_howell_peer(numa, 4, 0, NULL, 2, true), 1);
    assert_int_equal(mb_howell_peer(numa, 4, 3, NULL, 2, true), 0);
}

static void test_farthest_follows_the_distances(void **unused)
{
    (void)unused;
    /* Four NUMA nodes in a line: 0-1-2-3, distance 10 within, +10 per hop. */
    const int numa[] = {0, 1, 2, 3};
    const uint64_t dist[16] = {10, 20, 30, 40, 20, 10, 20, 30, 30, 20, 10, 20, 40, 30, 20, 10};
    assert_int_equal(mb_howell_peer(numa, 4, 0, dist, 4, true), 3);
    assert_int_equal(mb_howell_peer(numa, 4, 3, dist, 4, true), 0);
    assert_int_equal(mb_howell_peer(numa, 4, 1, dist, 4, true), 3);
    /* Nobody shares rank 0's NUMA node: the nearest is simply the next rank. */
    assert_int_equal(mb_howell_peer(numa, 4, 0, dist, 4, false), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_numa_node_is_the_next_rank),
        cmocka_unit_test(test_nearest_stays_on_the_numa_node),
        cmocka_unit_test(test_farthest_follows_the_distances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
