/* SPDX-License-Identifier: MIT */
/* Start-up calibration (timing.h) and the sizing rule (loop_rules.h) against a simulated
 * clock of known resolution (tests/lib/sim_clock.h). The point loop: test_point_loop.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "loop_rules.h"
#include "sim_clock.h"
#include "timing.h"

static void test_resolution_is_the_tick(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .read_cost_ns = 15};
    mb_clock_t clk = sim_clock(&s);
    assert_float_equal(mb_timing_measure_resolution(&clk, 50), 1000.0, 1e-9);
}

static void test_overhead_is_one_read(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .read_cost_ns = 30};
    mb_clock_t clk = sim_clock(&s);
    assert_float_equal(mb_timing_measure_overhead(&clk, 1, 101), 30.0, 1e-9);
}

/* A read of 21.3 ns on a clock of 20 ns steps (the 2-vCPU VMs: 21-23 ns reads): one
 * interval reads 20 or 40 ns, but the overhead is the read's cost within 1% of a step, and
 * an operation timed alone and corrected by it averages its own duration. */
static void test_overhead_between_steps(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 20, .read_cost_ns = 21.3, .op_ns = 15};
    mb_clock_t clk = sim_clock(&s);
    double overhead = mb_timing_measure_overhead(&clk, 20, 101);
    assert_float_equal(overhead, 21.3, 0.2);
    double sum = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t t0 = mb_clock_now_ns(&clk);
        sim_op(&s);
        sum += (double)(mb_clock_now_ns(&clk) - t0) - overhead;
    }
    assert_float_equal(sum / 10000, 15.0, 0.3);
}

static void test_resize_rules(void **unused)
{
    (void)unused;
    mb_timing_t t = {.resolution_ns = 1000, .enough_ns = 1e6};
    bool accepted;
    /* Under 100 steps (100 us): meaningless, x10. */
    assert_int_equal(mb_loop_resize(&t, 7, 99e3, &accepted), 70);
    assert_false(accepted);
    /* Meaningful: 1.1 x enough / measured, rounded up. */
    assert_int_equal(mb_loop_resize(&t, 100, 500e3, &accepted), 220);
    assert_false(accepted);
    /* 95% of enough is enough. */
    mb_loop_resize(&t, 100, 950e3, &accepted);
    assert_true(accepted);
    mb_loop_resize(&t, 100, 949e3, &accepted);
    assert_false(accepted);
}

static void test_experiment_reaches_enough(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .read_cost_ns = 0, .op_ns = 7};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000, .enough_ns = 1e6};
    uint64_t iters = 1;
    double e = mb_loop_experiment(&t, sim_run, &s, &iters);
    assert_true(e >= 0.95e6);
    assert_true(e < 1.3e6);
    /* Quantisation error of one tick in a 1 ms interval: under 0.1%. */
    assert_true(fabs(e / (double)iters - 7.0) < 7.0 * 0.001);
    /* 1, 10, ..., 10^5 iterations (700 us, the first meaningful), then one scaled run. */
    assert_int_equal(s.runs, 7);
}

static void test_experiment_with_no_work_fails(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .read_cost_ns = 0, .op_ns = 0};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e6};
    uint64_t iters = 1;
    assert_true(mb_loop_experiment(&t, sim_run, &s, &iters) < 0);
}

static void test_enough_from_resolution(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .read_cost_ns = 0, .op_ns = 3};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &s);
    /* A quiet clock of 1 us steps: 1000 steps, 1 ms, passes at once. */
    assert_true(t.enough_verified);
    assert_float_equal(t.enough_ns, 1e6, 1e-6);

    sim_t coarse = {.resolution_ns = 10000, .op_ns = 3};
    clk = sim_clock(&coarse);
    t = (mb_timing_t){.clock = &clk, .resolution_ns = 10000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &coarse);
    assert_float_equal(t.enough_ns, 10e6, 1e-6);
}

/* Noise of 0.3% fails a 0.1% test at every length but passes a wider one: enough stays at
 * the first candidate, with the tolerance it passed, instead of the fallback. */
static void test_enough_widens_before_falling_back(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .noise = 0.003, .seed = 5};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &s);
    assert_true(t.enough_verified);
    assert_true(t.enough_tolerance > 0.001);
    assert_true(t.enough_ns < 1e9);
}

/* Half the runs slowed by up to 30%, as on a busy shared machine: the fastest of the tries
 * still shows the clock's 0.1%, so enough is the first candidate, verified at 0.1%. (The
 * median of the tries moved by several % and fell back: issue 15.) */
static void test_enough_sees_through_one_sided_noise(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .delay = 0.3, .seed = 7};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &s);
    assert_true(t.enough_verified);
    assert_float_equal(t.enough_ns, 1e6, 1e-6);
    assert_float_equal(t.enough_tolerance, 0.001, 1e-12);
}

/* Noise that no 0.1-1% test survives, for the first 2 s of a scan, then a quiet clock: the
 * first scan passes only a long candidate once the noise is over; the second finds the
 * first candidate, which the noise alone had failed. */
static void test_enough_rescans_after_a_burst(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .noise = 0.5, .seed = 3, .quiet_from_ns = 2e9};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &s);
    assert_true(t.enough_verified);
    assert_float_equal(t.enough_ns, 1e6, 1e-6);
    assert_int_equal(t.enough_scans, 2);
    /* A quiet clock passes the first candidate in the first scan, and scans no more. */
    sim_t quiet = {.resolution_ns = 1000, .op_ns = 3};
    clk = sim_clock(&quiet);
    t = (mb_timing_t){.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &quiet);
    assert_float_equal(t.enough_ns, 1e6, 1e-6);
    assert_int_equal(t.enough_scans, 1);
}

static void test_enough_falls_back_when_noisy(void **unused)
{
    (void)unused;
    /* Every run off by up to 50% either way: even the fastest tries cannot show a 1% step,
     * so the seed's fallback applies. */
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .noise = 0.5, .seed = 1};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 1e9, sim_run, &s);
    assert_false(t.enough_verified);
    assert_float_equal(t.enough_ns, 1e9, 1e-6);
    /* A fallback shorter than 1000 clock steps is raised to them (0.1% quantisation). */
    mb_timing_compute_enough(&t, 1e6, 1e5, sim_run, &s);
    assert_false(t.enough_verified);
    assert_float_equal(t.enough_ns, 1e6, 1e-6);
}

/* Noise that no test survives: the search stops trying candidates after 3 s of the clock's
 * time (it went on to 100 ms candidates, some 30 s), and the auto fallback (0) is the first
 * candidate, 1000 clock steps, not verified. */
static void test_enough_search_is_bounded(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .noise = 0.5, .seed = 1};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1000};
    mb_timing_compute_enough(&t, 100e6, 0, sim_run, &s);
    assert_false(t.enough_verified);
    assert_string_equal(t.enough_source, "fallback");
    assert_float_equal(t.enough_ns, 1e6, 1e-6);
    /* 3 s, and the attempt under way then (at 20 ms: 21 intervals, 0.42 s). */
    assert_true(s.now_ns < 3.5e9);
    assert_true(s.now_ns > 3e9);
}

static void test_interval_ok_detects_a_coarse_clock(void **unused)
{
    (void)unused;
    /* 1 ms interval on a 100 us clock: a 0.5% step is lost in quantisation. */
    sim_t s = {.resolution_ns = 100000, .op_ns = 3};
    mb_clock_t clk = sim_clock(&s);
    assert_false(mb_timing_interval_ok(&clk, 100000, 1e6, 0.001, sim_run, &s));
    assert_true(mb_timing_interval_ok(&clk, 100000, 100e6, 0.001, sim_run, &s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolution_is_the_tick),
        cmocka_unit_test(test_overhead_is_one_read),
        cmocka_unit_test(test_overhead_between_steps),
        cmocka_unit_test(test_resize_rules),
        cmocka_unit_test(test_experiment_reaches_enough),
        cmocka_unit_test(test_experiment_with_no_work_fails),
        cmocka_unit_test(test_enough_from_resolution),
        cmocka_unit_test(test_enough_widens_before_falling_back),
        cmocka_unit_test(test_enough_rescans_after_a_burst),
        cmocka_unit_test(test_enough_sees_through_one_sided_noise),
        cmocka_unit_test(test_enough_falls_back_when_noisy),
        cmocka_unit_test(test_enough_search_is_bounded),
        cmocka_unit_test(test_interval_ok_detects_a_coarse_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
