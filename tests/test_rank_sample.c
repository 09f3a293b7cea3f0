/* SPDX-License-Identifier: MIT */
/* The sample of ranks measured per node, on synthetic topologies with the bindings a
 * launcher gives (in order, round-robin over packages, per PU, oversubscribed, unbound):
 * the exact ranks chosen for k = 1, 2, 4, 8, 16 and n < k, and the words for the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_node.h"
#include "rank_place.h"
#include "rank_sample.h"

#define MAXR 16

/* Picks k of the n ranks and checks the ranks chosen, in ascending order. */
static void expect_pick(hwloc_topology_t topo, hwloc_bitmap_t *b, int n, int k, const int *want,
                        int nwant)
{
    int got[MAXR];
    assert_true(nwant <= MAXR && (k < n ? k : n) <= MAXR);
    int m = mb_rank_sample_pick(topo, b, n, k, got, NULL);
    if (m != nwant)
        print_error("n=%d k=%d: %d ranks chosen, %d expected\n", n, k, m, nwant);
    assert_int_equal(m, nwant);
    for (int i = 0; i < m; i++) {
        if (got[i] != want[i])
            print_error("n=%d k=%d: chosen[%d] = %d, expected %d\n", n, k, i, got[i], want[i]);
        assert_int_equal(got[i], want[i]);
    }
}

#define EXPECT(topo, b, n, k, ...)                                                                 \
    do {                                                                                           \
        const int want_[] = {__VA_ARGS__};                                                         \
        expect_pick(topo, b, n, k, want_, (int)(sizeof want_ / sizeof want_[0]));                  \
    } while (0)

static void test_two_packages_two_numa_in_order(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:4 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_CORE, 16);
    /* NUMA j holds ranks 4j..4j+3; package 1's first NUMA node (2) comes before NUMA 1. */
    EXPECT(topo, b, 16, 1, 0);
    EXPECT(topo, b, 16, 2, 0, 8);
    EXPECT(topo, b, 16, 3, 0, 4, 8);
    EXPECT(topo, b, 16, 4, 0, 4, 8, 12);
    EXPECT(topo, b, 16, 8, 0, 1, 4, 5, 8, 9, 12, 13);

    int got[8];
    mb_rank_sample_why_t why[8];
    assert_int_equal(mb_rank_sample_pick(topo, b, 16, 8, got, why), 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(why[i], got[i] % 4 == 0 ? MB_RANK_SAMPLE_NUMA : MB_RANK_SAMPLE_SPREAD);
    mb_rank_place_free(b, 16);
    hwloc_topology_destroy(topo);
}

static void test_two_packages_two_numa_round_robin(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:4 pu:1");
    assert_non_null(topo);
    /* Even ranks on package 0 (NUMA 0: 0 2 4 6, NUMA 1: 8 10 12 14), odd ones on package 1
     * (NUMA 2: 1 3 5 7, NUMA 3: 9 11 13 15). */
    hwloc_bitmap_t *b = mb_fake_node_round_robin(topo, 16);
    EXPECT(topo, b, 16, 1, 0);
    EXPECT(topo, b, 16, 2, 0, 1);
    EXPECT(topo, b, 16, 4, 0, 1, 8, 9);
    /* Then two per NUMA node, package after package. */
    EXPECT(topo, b, 16, 8, 0, 1, 2, 3, 8, 9, 10, 11);
    EXPECT(topo, b, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    mb_rank_place_free(b, 16);
    hwloc_topology_destroy(topo);
}

static void test_ci_machine(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:1 numa:1 core:2 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_CORE, 2);
    EXPECT(topo, b, 2, 1, 0);
    EXPECT(topo, b, 2, 2, 0, 1);
    EXPECT(topo, b, 2, 4, 0, 1);
    EXPECT(topo, b, 1, 4, 0);
    int got[1];
    assert_int_equal(mb_rank_sample_pick(topo, b, 0, 4, got, NULL), 0);
    assert_int_equal(mb_rank_sample_pick(topo, b, 2, 0, got, NULL), 0);
    assert_int_equal(mb_rank_sample_pick(topo, b, 2, -1, got, NULL), -1);
    assert_int_equal(mb_rank_sample_pick(topo, b, -1, 4, got, NULL), -1);
    assert_int_equal(mb_rank_sample_pick(NULL, b, 2, 4, got, NULL), -1);
    mb_rank_place_free(b, 2);
    hwloc_topology_destroy(topo);
}

static void test_eight_numa_nodes(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:4 core:8 pu:2");
    assert_non_null(topo);
    /* One rank per core in order: NUMA j holds ranks 8j..8j+7, package 1 NUMA 4-7. */
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_CORE, 64);
    EXPECT(topo, b, 64, 1, 0);
    EXPECT(topo, b, 64, 2, 0, 32);
    EXPECT(topo, b, 64, 4, 0, 8, 32, 40);
    EXPECT(topo, b, 64, 8, 0, 8, 16, 24, 32, 40, 48, 56);
    mb_rank_place_free(b, 64);

    /* Round-robin: rank r on package r mod 2, its core r / 2; NUMA nodes change every 16
     * ranks. */
    b = mb_fake_node_round_robin(topo, 64);
    EXPECT(topo, b, 64, 4, 0, 1, 16, 17);
    EXPECT(topo, b, 64, 8, 0, 1, 16, 17, 32, 33, 48, 49);
    EXPECT(topo, b, 64, 16, 0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51);
    mb_rank_place_free(b, 64);
    hwloc_topology_destroy(topo);
}

static void test_one_rank_per_pu_avoids_sibling_threads(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:4 core:8 pu:2");
    assert_non_null(topo);
    /* 128 ranks, one per PU: rank 2c and 2c+1 share core c. */
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_PU, 128);
    EXPECT(topo, b, 128, 8, 0, 16, 32, 48, 64, 80, 96, 112);
    /* The next ones go to another core of a NUMA node, not to a representative's twin. */
    EXPECT(topo, b, 128, 10, 0, 2, 16, 32, 48, 64, 66, 80, 96, 112);
    mb_rank_place_free(b, 128);
    hwloc_topology_destroy(topo);
}

static void test_fewer_ranks_than_k(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:4 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t *b = mb_fake_node_in_order(topo, HWLOC_OBJ_CORE, 3);
    int got[4];
    mb_rank_sample_why_t why[4];
    assert_int_equal(mb_rank_sample_pick(topo, b, 3, 4, got, why), 3);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 1);
    assert_int_equal(got[2], 2);
    assert_int_equal(why[0], MB_RANK_SAMPLE_NUMA);
    assert_int_equal(why[1], MB_RANK_SAMPLE_SPREAD);
    assert_int_equal(why[2], MB_RANK_SAMPLE_SPREAD);
    mb_rank_place_free(b, 3);
    b = mb_fake_node_round_robin(topo, 6);
    EXPECT(topo, b, 6, 8, 0, 1, 2, 3, 4, 5);
    mb_rank_place_free(b, 6);
    hwloc_topology_destroy(topo);
}

static void test_oversubscribed_core(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:4 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t b[3] = {mb_fake_node_on(topo, HWLOC_OBJ_CORE, 0),
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 0),
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 1)};
    EXPECT(topo, b, 3, 2, 0, 2);
    for (int i = 0; i < 3; i++)
        hwloc_bitmap_free(b[i]);
    hwloc_topology_destroy(topo);
}

static void test_unplaced_ranks_come_last(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:2 core:4 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t outside = hwloc_bitmap_alloc();
    hwloc_bitmap_set(outside, 100);
    /* Rank 0 over package 0 (NUMA 0 and 1), 1 unknown, 2 on NUMA 1, 3 on NUMA 3, 4 empty,
     * 5 on a PU this node does not have. */
    hwloc_bitmap_t b[6] = {mb_fake_node_on(topo, HWLOC_OBJ_PACKAGE, 0),
                           NULL,
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 5),
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 12),
                           hwloc_bitmap_alloc(),
                           outside};
    EXPECT(topo, b, 6, 1, 2);
    EXPECT(topo, b, 6, 2, 2, 3);
    EXPECT(topo, b, 6, 3, 0, 2, 3);
    EXPECT(topo, b, 6, 6, 0, 1, 2, 3, 4, 5);
    int got[6];
    mb_rank_sample_why_t why[6];
    assert_int_equal(mb_rank_sample_pick(topo, b, 6, 4, got, why), 4);
    assert_int_equal(got[0], 0);
    assert_int_equal(why[0], MB_RANK_SAMPLE_UNPLACED);
    assert_int_equal(got[1], 1);
    assert_int_equal(why[1], MB_RANK_SAMPLE_UNPLACED);
    assert_int_equal(why[2], MB_RANK_SAMPLE_NUMA);
    assert_int_equal(why[3], MB_RANK_SAMPLE_NUMA);

    /* No binding known at all: the lowest ranks. */
    EXPECT(topo, NULL, 6, 4, 0, 1, 2, 3);
    for (int i = 0; i < 6; i++)
        hwloc_bitmap_free(b[i]);

    /* On one NUMA node, a rank free to run on every core is still on that NUMA node. */
    hwloc_topology_destroy(topo);
    topo = mb_fake_node_topology("pack:1 numa:1 core:2 pu:1");
    assert_non_null(topo);
    hwloc_bitmap_t c[2] = {hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo)),
                           mb_fake_node_on(topo, HWLOC_OBJ_CORE, 1)};
    int one;
    assert_int_equal(mb_rank_sample_pick(topo, c, 2, 1, &one, why), 1);
    assert_int_equal(one, 0);
    assert_int_equal(why[0], MB_RANK_SAMPLE_NUMA);
    hwloc_bitmap_free(c[0]);
    hwloc_bitmap_free(c[1]);
    hwloc_topology_destroy(topo);
}

static void expect_words(hwloc_topology_t topo, hwloc_bitmap_t binding, mb_rank_sample_why_t why,
                         const char *want)
{
    char buf[128];
    int w = mb_rank_sample_describe(topo, binding, why, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        print_error("described as \"%s\", expected \"%s\"\n", buf, want);
    assert_string_equal(buf, want);
    assert_int_equal(w, (int)strlen(want));
    hwloc_bitmap_free(binding);
}

static void test_describe(void **unused)
{
    (void)unused;
    hwloc_topology_t topo = mb_fake_node_topology("pack:2 numa:4 core:8 pu:2");
    assert_non_null(topo);
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_CORE, 9), MB_RANK_SAMPLE_NUMA,
                 "NUMA 1, package 0");
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_CORE, 40), MB_RANK_SAMPLE_NUMA,
                 "NUMA 5, package 1");
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_PU, 19), MB_RANK_SAMPLE_SPREAD,
                 "spread, core 9 (NUMA 1, package 0)");
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_NUMANODE, 1), MB_RANK_SAMPLE_SPREAD,
                 "spread, cores 8-15 (NUMA 1, package 0)");
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_PACKAGE, 1), MB_RANK_SAMPLE_UNPLACED,
                 "binding over NUMA 4-7");
    expect_words(topo, NULL, MB_RANK_SAMPLE_UNPLACED, "binding unknown");
    expect_words(topo, hwloc_bitmap_alloc(), MB_RANK_SAMPLE_UNPLACED, "binding unknown");
    hwloc_bitmap_t outside = hwloc_bitmap_alloc();
    hwloc_bitmap_set(outside, 1000);
    expect_words(topo, outside, MB_RANK_SAMPLE_UNPLACED, "binding outside this topology");
    hwloc_topology_destroy(topo);

    topo = mb_fake_node_topology("numa:2 core:2 pu:1");
    assert_non_null(topo);
    expect_words(topo, mb_fake_node_on(topo, HWLOC_OBJ_CORE, 3), MB_RANK_SAMPLE_NUMA, "NUMA 1");
    hwloc_topology_destroy(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_packages_two_numa_in_order),
        cmocka_unit_test(test_two_packages_two_numa_round_robin),
        cmocka_unit_test(test_ci_machine),
        cmocka_unit_test(test_eight_numa_nodes),
        cmocka_unit_test(test_one_rank_per_pu_avoids_sibling_threads),
        cmocka_unit_test(test_fewer_ranks_than_k),
        cmocka_unit_test(test_oversubscribed_core),
        cmocka_unit_test(test_unplaced_ranks_come_last),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
