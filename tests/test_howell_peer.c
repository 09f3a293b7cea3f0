/* SPDX-License-Identifier: MIT */
/* Choosing the neighbour whose memory Howell's table reads: the next rank on the same NUMA
 * node, and the farthest NUMA node's next rank, on synthetic layouts with known answers,
 * then end to end from bindings on hwloc synthetic topologies with added distances. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../shm/howell_access.h"
#include "fake_node.h"
#include "rank_place.h"

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

/* Two packages of two NUMA nodes: within a package 20, across 30 or 40, so that each NUMA
 * node has one farthest: 0 <-> 3 and 1 <-> 2. */
static const hwloc_uint64_t two_by_two[16] = {10, 20, 30, 40, 20, 10, 40, 30,
                                              30, 40, 10, 20, 40, 30, 20, 10};

static void test_two_by_two_end_to_end(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:2 pu:1");
    assert_non_null(topo);
    /* Ranks in order: NUMA j holds ranks 2j and 2j+1. */
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_CORE, 8);
    int numa[8], nnuma = 0;
    /* A synthetic topology carries no distances: the far neighbour is the next rank off
     * the reader's NUMA node. */
    uint64_t *dist = mb_rank_place_peer_inputs(topo, b, 8, numa, &nnuma);
    assert_null(dist);
    assert_int_equal(nnuma, 4);
    for (int r = 0; r < 8; r++)
        assert_int_equal(numa[r], r / 2);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, false), 1);
    assert_int_equal(mb_howell_peer(numa, 8, 1, dist, nnuma, false), 0);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, true), 2);
    assert_int_equal(mb_howell_peer(numa, 8, 7, dist, nnuma, true), 0);

    assert_int_equal(mb_fake_node_add_latencies(topo, two_by_two), 0);
    dist = mb_rank_place_peer_inputs(topo, b, 8, numa, &nnuma);
    assert_non_null(dist);
    for (int i = 0; i < 16; i++)
        assert_int_equal(dist[i], two_by_two[i]);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, false), 1);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, true), 6);
    assert_int_equal(mb_howell_peer(numa, 8, 1, dist, nnuma, true), 6);
    assert_int_equal(mb_howell_peer(numa, 8, 3, dist, nnuma, true), 4);
    assert_int_equal(mb_howell_peer(numa, 8, 4, dist, nnuma, true), 2);
    assert_int_equal(mb_howell_peer(numa, 8, 7, dist, nnuma, true), 0);
    assert_int_equal(mb_howell_peer(numa, 8, 7, dist, nnuma, false), 6);
    free(dist);
    mb_rank_place_free(b, 8);

    /* Round-robin over packages: ranks 0 2 on NUMA 0, 4 6 on NUMA 1, 1 3 on NUMA 2, 5 7 on
     * NUMA 3. The nearest stays on the NUMA node, the farthest crosses to 3 or 2. */
    b = mb_fake_node_round_robin(topo, 8);
    dist = mb_rank_place_peer_inputs(topo, b, 8, numa, &nnuma);
    assert_non_null(dist);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, false), 2);
    assert_int_equal(mb_howell_peer(numa, 8, 1, dist, nnuma, false), 3);
    assert_int_equal(mb_howell_peer(numa, 8, 0, dist, nnuma, true), 5);
    assert_int_equal(mb_howell_peer(numa, 8, 4, dist, nnuma, true), 1);
    assert_int_equal(mb_howell_peer(numa, 8, 5, dist, nnuma, true), 0);
    free(dist);
    mb_rank_place_free(b, 8);
    hwloc_topology_destroy(topo);
}

/* A rank bound over several NUMA nodes counts as on the first; one of unknown binding as
 * on NUMA 0 (what Howell's table did before bindings were gathered). Two latency matrices
 * leave the choice of the farthest to the NUMA numbering. */
static void test_unplaced_bindings_and_ambiguous_distances(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:2 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t b[3] = {mb_fake_node_on(topo, HWLOC_OBJ_PACKAGE, 1), NULL,
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 3)};
    int numa[3], nnuma;
    assert_int_equal(mb_fake_node_add_latencies(topo, two_by_two), 0);
    assert_int_equal(mb_fake_node_add_latencies(topo, two_by_two), 0);
    uint64_t *dist = mb_rank_place_peer_inputs(topo, b, 3, numa, &nnuma);
    assert_null(dist);
    assert_int_equal(numa[0], 2);
    assert_int_equal(numa[1], 0);
    assert_int_equal(numa[2], 1);
    for (int i = 0; i < 3; i++)
        hwloc_bitmap_free(b[i]);
    hwloc_topology_destroy(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_numa_node_is_the_next_rank),
        cmocka_unit_test(test_nearest_stays_on_the_numa_node),
        cmocka_unit_test(test_farthest_follows_the_distances),
        cmocka_unit_test(test_two_by_two_end_to_end),
        cmocka_unit_test(test_unplaced_bindings_and_ambiguous_distances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
