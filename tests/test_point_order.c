/* SPDX-License-Identifier: MIT */
/* The coarse-to-fine order of a benchmark's points under a time budget (point_order.h):
 * levels worked out by hand from the rule "both ends 0, then each halving one more". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "point_order.h"

static void test_levels_by_hand(void **state)
{
    (void)state;
    /* 9 values: ends 0; middle (4) 1; quarters (2, 6) 2; the rest 3. */
    static const int want9[] = {0, 3, 2, 3, 1, 3, 2, 3, 0};
    for (size_t j = 0; j < 9; j++)
        assert_int_equal(mb_point_order_level(j, 9), want9[j]);
    /* 5 values: 0, 2, 1, 2, 0. Two or fewer: all ends. */
    static const int want5[] = {0, 2, 1, 2, 0};
    for (size_t j = 0; j < 5; j++)
        assert_int_equal(mb_point_order_level(j, 5), want5[j]);
    assert_int_equal(mb_point_order_level(0, 1), 0);
    assert_int_equal(mb_point_order_level(1, 2), 0);
    /* 6 values (top = 3): 0, 3, 2, 3, 1, 0: position 4 of 0..5 halves 0..8's grid. */
    static const int want6[] = {0, 3, 2, 3, 1, 0};
    for (size_t j = 0; j < 6; j++)
        assert_int_equal(mb_point_order_level(j, 6), want6[j]);
}

static const mb_dim_t pd_dims[] = {
    {.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
    {.name = "ranks", .role = MB_ROLE_RANKS},
};

/* Every prefix of the order, cut where its size level rises, holds a grid: each p at the
 * coarse sizes before any p at a finer one; and p's ends before its middle. */
static void test_sizes_coarsen_before_p(void **state)
{
    (void)state;
    mb_bench_t b = {.name = "t.pd", .dims = pd_dims, .ndims = 2};
    mb_point_t pts[5 * 3];
    size_t n = 0;
    static const int64_t p_values[] = {2, 3, 4};
    for (size_t pi = 0; pi < 3; pi++)
        for (int64_t d = 0; d < 5; d++)
            pts[n++] = (mb_point_t){.v = {d * 8, p_values[pi]}};
    size_t order[15];
    size_t ends = mb_point_order(&b, pts, n, order);
    /* Ends: d in {0, 32} and p in {2, 4}: 4 points. */
    assert_int_equal(ends, 4);
    for (size_t k = 0; k < ends; k++) {
        assert_true(pts[order[k]].v[0] == 0 || pts[order[k]].v[0] == 32);
        assert_true(pts[order[k]].v[1] == 2 || pts[order[k]].v[1] == 4);
    }
    /* Then p = 3 at the size ends (size level 0, p level 1). */
    for (size_t k = 4; k < 6; k++) {
        assert_int_equal(pts[order[k]].v[1], 3);
        assert_true(pts[order[k]].v[0] == 0 || pts[order[k]].v[0] == 32);
    }
    /* Then the middle size (16) for every p, before the quarter sizes (8, 24). */
    for (size_t k = 6; k < 9; k++)
        assert_int_equal(pts[order[k]].v[0], 16);
    for (size_t k = 9; k < 15; k++)
        assert_true(pts[order[k]].v[0] == 8 || pts[order[k]].v[0] == 24);
    /* A permutation. */
    int seen[15] = {0};
    for (size_t k = 0; k < 15; k++)
        seen[order[k]]++;
    for (size_t k = 0; k < 15; k++)
        assert_int_equal(seen[k], 1);
}

/* Labels are series, not grids: a benchmark of labels alone has every point at the ends,
 * in its own order, so a budget never drops one. */
static void test_labels_are_all_ends(void **state)
{
    (void)state;
    static const char *const ops[] = {"read", "write", NULL};
    static const mb_dim_t dims[] = {{.name = "op", .labels = ops}};
    mb_bench_t b = {.name = "t.labels", .dims = dims, .ndims = 1};
    mb_point_t pts[] = {{.v = {0}}, {.v = {1}}};
    size_t order[2];
    assert_int_equal(mb_point_order(&b, pts, 2, order), 2);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_by_hand),
        cmocka_unit_test(test_sizes_coarsen_before_p),
        cmocka_unit_test(test_labels_are_all_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
