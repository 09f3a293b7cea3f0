/* SPDX-License-Identifier: MIT */
/* How a time budget is shared out (budget.h): estimates, slowness, shares and the working-set
 * cap, against figures worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "budget.h"
#include "measure.h"
#include "point_cost.h"

#define MIB ((uint64_t)1 << 20)

static uint64_t fake_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (uint64_t)pt->v[0];
}

/* The tests' configuration: a warm-up of 10 ms for a benchmark's first point and 1 ms for
 * each later one, 11 to max_experiments experiments. */
static mb_config_t config_by_hand(uint64_t max_experiments)
{
    mb_config_t cfg;
    mb_config_defaults(&cfg);
    cfg.run_warmup = 10000000;
    cfg.run_warmup_next = 1000000;
    cfg.run_min_experiments = 11;
    cfg.run_max_experiments = max_experiments;
    return cfg;
}

/* 3 points, a warm-up of 1 ms and max_experiments = 51 intervals of 1 ms each: 52 ms a
 * point, the first point's warm-up 9 ms more; touch bytes 0, 100 MB and 150 MB at
 * MB_BUDGET_TOUCH_NS_PER_BYTE, and the largest, 150 MB, once more at
 * MB_BUDGET_FIRST_TOUCH_NS_PER_BYTE (its pages' first touch). Taking turns on a node of 8
 * ranks: every point 4 times (at most MB_RANK_SAMPLE_K ranks take turns), and each of the 4
 * ranks touches its own largest working set first. */
static void test_estimate_by_hand(void **state)
{
    (void)state;
    mb_config_t cfg = config_by_hand(51);
    mb_timing_t timing = {.enough_ns = 1e6};
    mb_context_t ctx = {.config = &cfg, .timing = &timing, .node_size = 8};
    mb_bench_t b = {.name = "t.fake", .scope = MB_SCOPE_ONE, .touch_bytes = fake_bytes};
    mb_point_t pts[3] = {{.v = {0}}, {.v = {100000000}}, {.v = {150000000}}};
    mb_budget_estimate_t e = mb_budget_estimate(&ctx, &b, pts, 3);
    assert_float_equal(e.points_s, 3 * 0.052 + 0.009, 1e-12);
    double touch_s =
        (250e6 * MB_BUDGET_TOUCH_NS_PER_BYTE + 150e6 * MB_BUDGET_FIRST_TOUCH_NS_PER_BYTE) / 1e9;
    assert_float_equal(e.touch_s, touch_s, 1e-9);
    assert_float_equal(mb_point_turns(&ctx, &b, &pts[0]), 1, 0);
    b.scope = MB_SCOPE_SAMPLE_EACH;
    assert_float_equal(mb_point_turns(&ctx, &b, &pts[0]), 4, 0);
    ctx.node_size = 1; /* alone on its node: no one to take turns with */
    assert_float_equal(mb_point_turns(&ctx, &b, &pts[0]), 1, 0);
    ctx.node_size = 8;
    e = mb_budget_estimate(&ctx, &b, pts, 3);
    assert_float_equal(e.points_s, 4 * (3 * 0.052 + 0.009), 1e-12);
    assert_float_equal(e.touch_s, 4 * touch_s, 1e-9);
    /* A benchmark's own rate for the bytes it walks again (the first touch keeps its own). */
    b.touch_ns_per_byte = 3.0;
    e = mb_budget_estimate(&ctx, &b, pts, 3);
    assert_float_equal(e.touch_s,
                       4 * (250e6 * 3.0 + 150e6 * MB_BUDGET_FIRST_TOUCH_NS_PER_BYTE) / 1e9, 1e-9);
    b.touch_bytes = NULL;
    e = mb_budget_estimate(&ctx, &b, pts, 3);
    assert_float_equal(e.touch_s, 0, 0);
}

/* An op for a per-call benchmark by hand: never called. */
static void fake_call(void *state)
{
    (void)state;
}

/* A benchmark's first point warms up for warmup, each later one for warmup_next, never
 * longer than warmup. */
static void test_warmup_by_point(void **state)
{
    (void)state;
    mb_config_t cfg = config_by_hand(51);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 0), 10e6, 0);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 1), 1e6, 0);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 44), 1e6, 0);
    cfg.run_warmup = 500000;
    assert_float_equal(mb_measure_warmup_ns(&cfg, 0), 0.5e6, 0);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 1), 0.5e6, 0);
    /* The defaults: 10 ms, then 1 ms. */
    mb_config_defaults(&cfg);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 0), 10e6, 0);
    assert_float_equal(mb_measure_warmup_ns(&cfg, 3), 1e6, 0);
}

/* Messages of 0, 1 MB and 100 MB, 2 per iteration, 10 lead-in iterations, enough 1 ms: an
 * iteration takes 2 x bytes x MB_POINT_COST_NS_PER_MESSAGE_BYTE; an experiment max(enough,
 * iteration) + 10 iterations; a later point 1 ms + 12 experiments (max_experiments 12, or under
 * min_experiments 12: the larger counts). A memory benchmark's bytes (touch_bytes) are its
 * working set, counted apart: its experiments stay at enough. */
static void test_point_cost_by_hand(void **state)
{
    (void)state;
    mb_config_t cfg = config_by_hand(12);
    mb_timing_t timing = {.enough_ns = 1e6};
    mb_context_t ctx = {.config = &cfg, .timing = &timing, .node_size = 1};
    mb_bench_t b = {.name = "t.msg", .scope = MB_SCOPE_ONE, .bytes_per_op = fake_bytes,
                    .ops_per_iter = 2, .lead_in = 10};
    mb_point_t pts[3] = {{.v = {0}}, {.v = {1000000}}, {.v = {100000000}}};
    double k = MB_POINT_COST_NS_PER_MESSAGE_BYTE;
    double it1 = 2 * 1e6 * k, it2 = 2 * 1e8 * k; /* ns */
    assert_float_equal(mb_point_iteration_ns(&ctx, &b, &pts[0]), 0, 0);
    assert_float_equal(mb_point_iteration_ns(&ctx, &b, &pts[2]), it2, 1e-6);
    double c0 = 0.001 + 12 * 0.001;
    double c1 = 0.001 + 12 * (fmax(1e6, it1) + 10 * it1) / 1e9;
    double c2 = 0.001 + 12 * (fmax(1e6, it2) + 10 * it2) / 1e9;
    assert_float_equal(mb_point_cost_s(&ctx, &b, &pts[0]), c0, 1e-12);
    assert_float_equal(mb_point_cost_s(&ctx, &b, &pts[1]), c1, 1e-12);
    assert_float_equal(mb_point_cost_s(&ctx, &b, &pts[2]), c2, 1e-12);
    cfg.run_max_experiments = 5; /* below the minimum: min_experiments counts */
    cfg.run_min_experiments = 12;
    assert_float_equal(mb_point_cost_s(&ctx, &b, &pts[1]), c1, 1e-12);
    assert_true(c2 > 50 * c0); /* 100 MB messages: iterations of 10 ms against enough's 1 ms */
    /* At the budget's floor, MB_LOOP_BUDGET_FLOOR (3) experiments instead of 12. */
    double f0 = 0.001 + 3 * 0.001, f2 = 0.001 + 3 * (fmax(1e6, it2) + 10 * it2) / 1e9;
    assert_float_equal(mb_point_floor_cost_s(&ctx, &b, &pts[0]), f0, 1e-12);
    assert_float_equal(mb_point_floor_cost_s(&ctx, &b, &pts[2]), f2, 1e-12);
    /* The first point's warm-up 9 ms longer. */
    mb_budget_estimate_t e = mb_budget_estimate(&ctx, &b, pts, 3);
    assert_float_equal(e.points_s, 0.009 + c0 + c1 + c2, 1e-12);
    /* Points 2x slow. Without working sets never coarse to fine, however short the share
     * (their own order, thinned: point_order.h); with them, under twice the expected time. */
    mb_budget_t bg = {.budget_s = 100};
    mb_budget_done(&bg, (mb_budget_estimate_t){.points_s = 1}, 0, 2);
    assert_float_equal(mb_budget_expected_s(&bg, e), 2 * e.points_s, 1e-12);
    assert_false(mb_budget_coarse_first(&bg, e, 1e-9));
    assert_false(mb_budget_coarse_first(&bg, e, 2 * mb_budget_expected_s(&bg, e) - 1e-9));
    e.touch_s = 0.5;
    assert_true(mb_budget_coarse_first(&bg, e, 2 * mb_budget_expected_s(&bg, e) - 1e-9));
    assert_false(mb_budget_coarse_first(&bg, e, 2 * mb_budget_expected_s(&bg, e)));
    /* A call timed between untimed transfers: 50 of them an experiment, up to 50 x enough
     * (50 ms here). 1 MB: 50 x 0.1 ms = 5 ms; 100 MB: 50 x 10 ms, capped at 50 ms; 0 B:
     * enough. Only for per-call benchmarks (op). */
    mb_bench_t u = b;
    u.op = fake_call;
    u.transfer_untimed = true;
    u.lead_in = 0;
    assert_float_equal(mb_point_cost_s(&ctx, &u, &pts[0]), c0, 1e-12);
    assert_float_equal(mb_point_cost_s(&ctx, &u, &pts[1]), 0.001 + 12 * 50 * it1 / 1e9, 1e-12);
    assert_float_equal(mb_point_cost_s(&ctx, &u, &pts[2]), 0.001 + 12 * 50 * 1e6 / 1e9, 1e-12);
    u.op = NULL; /* a loop benchmark: the flag means nothing */
    assert_float_equal(mb_point_cost_s(&ctx, &u, &pts[1]), 0.001 + 12 * fmax(1e6, it1) / 1e9,
                       1e-12);
    b.touch_bytes = fake_bytes;
    assert_float_equal(mb_point_iteration_ns(&ctx, &b, &pts[2]), 0, 0);
    assert_float_equal(mb_point_cost_s(&ctx, &b, &pts[2]), c0, 1e-12);
}

static mb_budget_estimate_t est(double points_s, double touch_s)
{
    return (mb_budget_estimate_t){.points_s = points_s, .touch_s = touch_s};
}

/* Points and memory work apart: a benchmark without working sets teaches the points' rate;
 * one with them, its wall time less its points' (at that rate), the memory rate. */
static void test_slowness_by_part(void **state)
{
    (void)state;
    mb_budget_t bg = {.budget_s = 100};
    mb_budget_slowness_t s = mb_budget_slowness(&bg);
    assert_float_equal(s.points, 1, 0);
    assert_float_equal(s.touch, 1, 0);
    mb_budget_done(&bg, est(10, 0), 0, 15);
    mb_budget_done(&bg, est(10, 0), 0, 25);
    s = mb_budget_slowness(&bg);
    assert_float_equal(s.points, 2, 1e-12);
    assert_float_equal(s.touch, 1, 0);
    /* 4 s of points at 2x = 8 s; 38 - 8 = 30 s for 10 s of memory work: 3x. */
    mb_budget_done(&bg, est(4, 10), 0, 38);
    s = mb_budget_slowness(&bg);
    assert_float_equal(s.points, 2, 1e-12);
    assert_float_equal(s.touch, 3, 1e-12);
    /* Ended on its share (5 s of an expected 20 s): says nothing. */
    mb_budget_done(&bg, est(10, 0), 5, 5);
    assert_float_equal(mb_budget_slowness(&bg).points, 2, 1e-12);
    /* Clamped. */
    mb_budget_t fast = {.budget_s = 100};
    mb_budget_done(&fast, est(100, 0), 0, 1);
    assert_float_equal(mb_budget_slowness(&fast).points, 0.25, 0);
    mb_budget_t slow = {.budget_s = 100};
    mb_budget_done(&slow, est(1, 0), 0, 100);
    assert_float_equal(mb_budget_slowness(&slow).points, 20, 0);
}

/* Budget 100 s, run began at 0, now 8 s: left = 92 - 8 = 84 s. */
static void test_share_by_hand(void **state)
{
    (void)state;
    mb_budget_t bg = {.budget_s = 100, .began_s = 0};
    double f;
    /* Everything fits (10 + 30 <= 84): this one gets all but the rest's 30. */
    assert_float_equal(mb_budget_share_s(&bg, 8, est(4, 6), est(30, 0), &f), 54, 1e-9);
    assert_float_equal(f, 1, 0);
    /* It does not (60 + 108 > 84), but the points do (10 + 14 <= 84): its 10 s of points and
     * the 60 s left over in proportion to the working sets, 60 * 50 / 100 = 30; the working
     * sets fit 60 of their 100 s. */
    assert_float_equal(mb_budget_share_s(&bg, 8, est(10, 50), est(14, 50), &f), 40, 1e-9);
    assert_float_equal(f, 0.6, 1e-12);
    /* A benchmark without working sets keeps its points' time. */
    assert_float_equal(mb_budget_share_s(&bg, 8, est(14, 0), est(10, 100), &f), 14, 1e-9);
    assert_float_equal(f, 0.6, 1e-12);
    /* Not even the points fit (60 + 108 > 84): points and working sets cut alike, by
     * 84 / 178; this one gets that of its 65 s. */
    assert_float_equal(mb_budget_share_s(&bg, 8, est(60, 5), est(108, 5), &f), 84.0 * 65 / 178,
                       1e-9);
    assert_float_equal(f, 84.0 / 178, 1e-12);
    /* Points running 2x slow double their side: 20 + 60 <= 84 fits, 84 - 60 = 24. */
    mb_budget_done(&bg, est(5, 0), 0, 10);
    assert_float_equal(mb_budget_share_s(&bg, 8, est(10, 0), est(30, 0), &f), 24, 1e-9);
    /* Nothing left. */
    assert_float_equal(mb_budget_share_s(&bg, 95, est(10, 0), est(30, 0), &f), 0, 0);
    assert_float_equal(f, 0, 0);
}

/* Budget 100 s, run began at 0: left at now = 92 - now. */
static void test_phase_share_by_hand(void **state)
{
    (void)state;
    mb_budget_t bg = {.budget_s = 100, .began_s = 0};
    /* The phase's fraction of the whole budget where that much is left... */
    assert_float_equal(mb_budget_phase_share_s(&bg, 2, MB_BUDGET_OS_SHARE), 15, 1e-9);
    assert_float_equal(mb_budget_phase_share_s(&bg, 2, MB_BUDGET_PREFLIGHT_SHARE), 10, 1e-9);
    /* ...else what is left (92 - 85 = 7), and nothing once the reserve is reached. */
    assert_float_equal(mb_budget_phase_share_s(&bg, 85, MB_BUDGET_OS_SHARE), 7, 1e-9);
    assert_float_equal(mb_budget_phase_share_s(&bg, 95, MB_BUDGET_OS_SHARE), 0, 0);
    /* The run's start counts from began_s. */
    bg.began_s = 80;
    assert_float_equal(mb_budget_phase_share_s(&bg, 165, MB_BUDGET_OS_SHARE), 7, 1e-9);
}

static void test_span_cap_by_hand(void **state)
{
    (void)state;
    uint64_t cap = 256 * MIB;
    /* Fits. */
    assert_int_equal(mb_budget_span_cap(cap, 1), cap);
    /* Half the memory work fits: 128 MiB. */
    assert_int_equal(mb_budget_span_cap(cap, 0.5), 128 * MIB);
    /* Nearly fits (0.95 >= MB_BUDGET_SPAN_KEEP): kept whole. */
    assert_int_equal(mb_budget_span_cap(cap, 0.95), cap);
    /* Rounded down to a MiB: 0.3 of 256 MiB = 76.8 MiB -> 76 MiB. */
    assert_int_equal(mb_budget_span_cap(cap, 0.3), 76 * MIB);
    /* Never under the floor, even with no time for memory at all. */
    assert_int_equal(mb_budget_span_cap(cap, 0), MB_BUDGET_SPAN_FLOOR_BYTES);
    /* A cap already under the floor stays. */
    assert_int_equal(mb_budget_span_cap(4 * MIB, 0), 4 * MIB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_by_hand),    cmocka_unit_test(test_warmup_by_point),
        cmocka_unit_test(test_point_cost_by_hand),  cmocka_unit_test(test_slowness_by_part),
        cmocka_unit_test(test_share_by_hand),       cmocka_unit_test(test_span_cap_by_hand),
        cmocka_unit_test(test_phase_share_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
