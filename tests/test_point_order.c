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

static const mb_dim_t d_dims[] = {{.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE}};

/* 9 sizes, each at least 1 s and expected 2 s: coarse to fine they are 0 and 8 (the ends),
 * 4, then 2 and 6, then 1, 3, 5, 7. */
static void thin_nine(mb_point_thin_t *t, mb_point_t *pts)
{
    static const mb_bench_t b = {.name = "t.d", .dims = d_dims, .ndims = 1};
    double least[9], expected[9];
    for (size_t i = 0; i < 9; i++) {
        pts[i] = (mb_point_t){.v = {(int64_t)i}};
        least[i] = 1, expected[i] = 2;
    }
    assert_int_equal(mb_point_thin_init(t, &b, pts, 9, least, expected), 0);
}

/* With time for all, every point in its own order, each among all the points still to come;
 * with none, the ends alone, whatever the time left. */
static void test_thin_all_or_ends(void **state)
{
    (void)state;
    mb_point_t pts[9];
    mb_point_thin_t t;
    thin_nine(&t, pts);
    double kept;
    for (size_t i = 0; i < 9; i++) {
        assert_true(mb_point_thin_keep(&t, i, 100, &kept));
        assert_float_equal(kept, 2.0 * (double)(9 - i), 1e-12);
    }
    mb_point_thin_free(&t);
    thin_nine(&t, pts);
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(mb_point_thin_keep(&t, i, i == 8 ? -1 : 0, &kept), i == 0 || i == 8);
    mb_point_thin_free(&t);
}

/* Short of time, the grid coarsens as coarse to fine would cut it; a point passed frees its
 * room for the finer ones after it. Worked by hand: at point 0 with 5 s left, the first 5 of
 * the coarse-to-fine order fit (0, 8, 4, 2, 6 at 1 s each), so 0 is measured among 5 points
 * expected at 10 s; at point 1 with 4 s, 8, 4, 2, 6 fill it and 1 is skipped; at point 2
 * with 4 s, the passed 0 and 1 cost nothing, 8, 4, 2, 6 fit and 2 is measured among them
 * (8 s); at point 3 with 4 s, 3 fits after 8, 4, 6; at 4 with 3 s, 8, 4, 6; 5 with 2 s does
 * not fit after 8 and 6, 6 does; at 7 with nothing left only the end 8 is kept, and 8 is
 * measured with nothing left. */
static void test_thin_by_hand(void **state)
{
    (void)state;
    mb_point_t pts[9];
    mb_point_thin_t t;
    thin_nine(&t, pts);
    static const double left[9] = {5, 4, 4, 4, 3, 2, 2, 0, 0};
    static const bool want[9] = {true, false, true, true, true, false, true, false, true};
    static const double want_kept[9] = {10, 0, 8, 8, 6, 0, 4, 0, 2};
    for (size_t i = 0; i < 9; i++) {
        double kept;
        assert_int_equal(mb_point_thin_keep(&t, i, left[i], &kept), want[i]);
        assert_float_equal(kept, want_kept[i], 1e-12);
    }
    mb_point_thin_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_by_hand),      cmocka_unit_test(test_sizes_coarsen_before_p),
        cmocka_unit_test(test_labels_are_all_ends), cmocka_unit_test(test_thin_all_or_ends),
        cmocka_unit_test(test_thin_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
