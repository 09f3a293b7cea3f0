/* SPDX-License-Identifier: MIT */
/* The timing harness against a simulated clock of known resolution: time advances only
 * when the clock is read (read_cost_ns) or the simulated loop runs (op_ns per iteration,
 * with optional noise), so every figure the harness derives has a known answer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "loop_rules.h"
#include "timing.h"

typedef struct sim {
    double now_ns;        /* true time */
    double resolution_ns; /* readings are multiples of this */
    double read_cost_ns;  /* each read advances true time by this */
    double op_ns;         /* one loop iteration */
    double noise;         /* each run's duration is scaled by 1 + noise * U(-1, 1) */
    uint64_t runs;
    unsigned seed;
} sim_t;

static uint64_t sim_now(void *state)
{
    sim_t *s = state;
    s->now_ns += s->read_cost_ns;
    return (uint64_t)(floor(s->now_ns / s->resolution_ns) * s->resolution_ns);
}

static double sim_res(void *state) { return ((sim_t *)state)->resolution_ns; }

static void sim_run(void *state, uint64_t iters)
{
    sim_t *s = state;
    double jitter = s->noise ? s->noise * (2.0 * rand_r(&s->seed) / RAND_MAX - 1.0) : 0.0;
    s->now_ns += (double)iters * s->op_ns * (1.0 + jitter);
    s->runs++;
}

static mb_clock_t sim_clock(sim_t *s)
{
    return (mb_clock_t){.name = "simulated", .config_name = "sim", .now_ns = sim_now,
                        .nominal_resolution_ns = sim_res, .state = s};
}

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
    assert_float_equal(mb_timing_measure_overhead(&clk, 101), 30.0, 1e-9);
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

static void test_enough_falls_back_when_noisy(void **unused)
{
    (void)unused;
    /* 2% jitter can never pass a 0.1% test: the seed's fallback applies. */
    sim_t s = {.resolution_ns = 1000, .op_ns = 3, .noise = 0.02, .seed = 1};
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

static void test_interval_ok_detects_a_coarse_clock(void **unused)
{
    (void)unused;
    /* 1 ms interval on a 100 us clock: a 0.5% step is lost in quantisation. */
    sim_t s = {.resolution_ns = 100000, .op_ns = 3};
    mb_clock_t clk = sim_clock(&s);
    assert_false(mb_timing_interval_ok(&clk, 100000, 1e6, sim_run, &s));
    assert_true(mb_timing_interval_ok(&clk, 100000, 100e6, sim_run, &s));
}

static void test_measure_quiet_stops_at_minimum(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5, .loop_overhead_ns = 1};
    mb_measure_opts_t opts = {.min_experiments = 11, .max_experiments = 51, .ci_target = 0.02,
                              .ops_per_iter = 2, .subtract_loop_overhead = true};
    mb_measurement_t m;
    assert_int_equal(mb_harness_measure(&t, &opts, sim_run, &s, &m), 0);
    assert_int_equal(m.n, 11);
    assert_true(m.ci_target_met);
    /* (5 ns per iteration - 1 ns loop overhead) / 2 operations per iteration. */
    assert_float_equal(m.stats.median, 2.0, 0.01);
    mb_measurement_free(&m);
}

static void test_measure_noisy_runs_to_the_cap(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5, .noise = 0.3, .seed = 7};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_measure_opts_t opts = {.min_experiments = 11, .max_experiments = 21, .ci_target = 0.001};
    mb_measurement_t m;
    assert_int_equal(mb_harness_measure(&t, &opts, sim_run, &s, &m), 0);
    assert_int_equal(m.n, 21);
    assert_false(m.ci_target_met);
    assert_true(m.stats.min >= 5 * 0.7 - 0.01 && m.stats.max <= 5 * 1.3 + 0.01);
    mb_measurement_free(&m);
}

static void test_measure_noisy_but_loose_target_stops_early(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5, .noise = 0.01, .seed = 3};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_measure_opts_t opts = {.min_experiments = 11, .max_experiments = 51, .ci_target = 0.05};
    mb_measurement_t m;
    assert_int_equal(mb_harness_measure(&t, &opts, sim_run, &s, &m), 0);
    assert_int_equal(m.n, 11);
    assert_true(m.ci_target_met);
    mb_measurement_free(&m);
}

/* --time-budget: a spent budget leaves a median of three and says it was trimmed; a
 * generous one changes nothing. */
static void test_measure_budget_trims_repetitions(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_measure_opts_t opts = {.min_experiments = 11, .max_experiments = 51, .ci_target = 0.02,
                              .time_limit_ns = 1};
    mb_measurement_t m;
    assert_int_equal(mb_harness_measure(&t, &opts, sim_run, &s, &m), 0);
    assert_int_equal(m.n, MB_LOOP_BUDGET_FLOOR);
    assert_true(m.trimmed);
    assert_float_equal(m.stats.median, 5.0, 0.01);
    mb_measurement_free(&m);
    opts.time_limit_ns = 1e12;
    assert_int_equal(mb_harness_measure(&t, &opts, sim_run, &s, &m), 0);
    assert_int_equal(m.n, 11);
    assert_false(m.trimmed);
    mb_measurement_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolution_is_the_tick),
        cmocka_unit_test(test_overhead_is_one_read),
        cmocka_unit_test(test_resize_rules),
        cmocka_unit_test(test_experiment_reaches_enough),
        cmocka_unit_test(test_experiment_with_no_work_fails),
        cmocka_unit_test(test_enough_from_resolution),
        cmocka_unit_test(test_enough_falls_back_when_noisy),
        cmocka_unit_test(test_interval_ok_detects_a_coarse_clock),
        cmocka_unit_test(test_measure_quiet_stops_at_minimum),
        cmocka_unit_test(test_measure_noisy_runs_to_the_cap),
        cmocka_unit_test(test_measure_noisy_but_loose_target_stops_early),
        cmocka_unit_test(test_measure_budget_trims_repetitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
