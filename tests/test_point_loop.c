/* SPDX-License-Identifier: MIT */
/* The point loop (point_loop.h) on simulated clocks (tests/lib/sim_clock.h), one per rank,
 * so every figure has a known answer. Run alone (MPI_COMM_SELF cases) and under mpirun at
 * -np 2 and -np 4 (tests/run.sh), where the cases over MPI_COMM_WORLD check that every rank
 * runs the same experiments and reaches the same decision; they are skipped on one rank. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpi.h>

#include "config.h"
#include "measure_json.h"
#include "point_loop.h"
#include "sim_clock.h"

static int world_rank, world_size;

/* A simulated operation with hooks to count, an error to raise, a slow call to inject. */
typedef struct probe {
    sim_t sim;
    uint64_t prepared, finished;
    uint64_t fail_at; /* raise the error at this call (0: never) */
    uint64_t slow_at; /* this call takes slow_ns instead (0: never) */
    double slow_ns;
    double finish_ns; /* the finish hook's untimed work (a transfer after irecv1's post) */
    char error[128];
} probe_t;

static void probe_prepare(void *state)
{
    ((probe_t *)state)->prepared++;
}
static void probe_finish(void *state)
{
    probe_t *p = state;
    p->finished++;
    p->sim.now_ns += p->finish_ns;
}

static void probe_op(void *state)
{
    probe_t *p = state;
    uint64_t call = p->sim.runs + 1;
    if (p->fail_at && call == p->fail_at)
        snprintf(p->error, sizeof p->error, "the probe failed at call %llu",
                 (unsigned long long)call);
    if (p->slow_at && call == p->slow_at) {
        p->sim.now_ns += p->slow_ns;
        p->sim.runs++;
        return;
    }
    sim_op(&p->sim);
}

static const mb_measure_opts_t loop_opts = {
    .min_experiments = 11, .max_experiments = 51, .ci_target = 0.02};

/* A loop on p's clock: enough 100 us, a clock of 1 ns steps read for free. */
static mb_loop_t loop_on(probe_t *p, mb_clock_t *clk, mb_timing_t *t, mb_granularity_t grain,
                         mb_agreement_t agree, MPI_Comm comm)
{
    *clk = sim_clock(&p->sim);
    *t = (mb_timing_t){.clock = clk, .resolution_ns = 1, .enough_ns = 1e5};
    return (mb_loop_t){.timing = t,
                       .opts = loop_opts,
                       .grain = grain,
                       .start = &mb_start_barrier,
                       .agree = agree,
                       .comm = comm};
}

static mb_loop_work_t work_on(probe_t *p)
{
    return (mb_loop_work_t){.run = sim_run,
                            .prepare = probe_prepare,
                            .op = probe_op,
                            .finish = probe_finish,
                            .state = p,
                            .error = p->error};
}

/* Loop granularity: timing and loop overhead subtracted, operations per iteration. */
static void test_local_loop_subtracts_overheads(void **unused)
{
    (void)unused;
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 5}};
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_LOOP, MB_AGREE_LOCAL, MPI_COMM_NULL);
    t.loop_overhead_ns = 1;
    mb_loop_work_t w = work_on(&p);
    w.state = &p.sim;
    w.ops_per_iter = 2;
    w.subtract_loop_overhead = true;
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_int_equal(r.headline.n, 11);
    assert_true(r.headline.ci_target_met);
    /* (5 ns per iteration - 1 ns loop overhead) / 2 operations per iteration. */
    assert_float_equal(r.headline.stats.median, 2.0, 0.01);
    assert_true(isnan(r.entry_skew_ns));
    mb_loop_result_free(&r);
}

static void test_local_noisy_runs_to_the_cap(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5, .noise = 0.3, .seed = 7};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t,
                   .opts = {.min_experiments = 11, .max_experiments = 21, .ci_target = 0.001}};
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_int_equal(r.headline.n, 21);
    assert_false(r.headline.ci_target_met);
    assert_true(r.headline.stats.min >= 5 * 0.7 - 0.01 && r.headline.stats.max <= 5 * 1.3 + 0.01);
    mb_loop_result_free(&r);
}

/* --time-budget: a spent budget leaves a median of three and says it was trimmed; a
 * generous one changes nothing. */
static void test_local_budget_trims_repetitions(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t, .opts = loop_opts};
    L.opts.time_limit_ns = 1;
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_int_equal(r.headline.n, MB_LOOP_BUDGET_FLOOR);
    assert_true(r.headline.trimmed);
    assert_float_equal(r.headline.stats.median, 5.0, 0.01);
    mb_loop_result_free(&r);
    L.opts.time_limit_ns = 1e12;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_int_equal(r.headline.n, 11);
    assert_false(r.headline.trimmed);
    mb_loop_result_free(&r);
}

/* One warm-up rule: experiments are discarded until warmup_ns has passed. */
static void test_local_warmup_is_discarded(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t, .opts = loop_opts};
    L.opts.warmup_ns = 2e6; /* 20 experiments of enough */
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_int_equal(r.headline.n, 11);
    /* sizing runs (1, 10, ..., 10^4 iterations, then one scaled), then warm-up runs of
     * about enough each until 2 ms, then the 11 kept */
    assert_true(s.runs >= 11 + 19);
    assert_true(s.now_ns >= 2e6 + 11 * 0.95e5);
    mb_loop_result_free(&r);
}

/* A loop whose every other run() call starts cold (cold_ns more): with lead-in iterations
 * the harness makes each experiment's first call, the lead-in, the cold one (mpi.pingpong's
 * first round trips after the quiet wait, issue 15). */
typedef struct cold_sim {
    sim_t sim;
    double cold_ns;
    uint64_t calls, lead_ins;
} cold_sim_t;

static void cold_run(void *state, uint64_t iters)
{
    cold_sim_t *c = state;
    if (c->calls++ % 2 == 0) {
        c->sim.now_ns += c->cold_ns;
        c->lead_ins += iters == 3;
    }
    sim_run(&c->sim, iters);
}

static void test_lead_in_is_not_timed(void **unused)
{
    (void)unused;
    for (int agree = MB_AGREE_LOCAL; agree <= MB_AGREE_ALL; agree++) {
        cold_sim_t c = {.sim = {.resolution_ns = 1, .op_ns = 5}, .cold_ns = 1e5};
        mb_clock_t clk = sim_clock(&c.sim);
        mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
        mb_loop_t L = {.timing = &t,
                       .opts = loop_opts,
                       .grain = MB_GRAIN_LOOP,
                       .start = &mb_start_barrier,
                       .agree = (mb_agreement_t)agree,
                       .comm = MPI_COMM_SELF};
        mb_loop_work_t w = {.run = cold_run, .state = &c, .ops_per_iter = 2, .lead_in = 3};
        mb_loop_result_t r;
        assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
        assert_int_equal(r.headline.n, 11);
        /* Every experiment: one lead-in call (the cold one), one timed call (warm). */
        assert_int_equal(c.calls % 2, 0);
        assert_int_equal(c.lead_ins, c.calls / 2);
        assert_float_equal(r.headline.stats.max, 2.5, 1e-3);
        mb_loop_result_free(&r);
    }
}

/* Call granularity: every call timed alone, hooks around it, overhead subtracted. */
static void test_local_calls_time_each_call(void **unused)
{
    (void)unused;
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100, .read_cost_ns = 20}};
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, MB_AGREE_LOCAL, MPI_COMM_NULL);
    t.overhead_ns = 20; /* one read's cost, as calibration would find */
    mb_loop_work_t w = work_on(&p);
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_float_equal(r.headline.stats.median, 100.0, 1e-6);
    assert_int_equal(p.prepared, p.sim.runs);
    assert_int_equal(p.finished, p.sim.runs);
    mb_loop_result_free(&r);
}

/* Calls of a few clock steps between long untimed hooks: an experiment holds enough calls
 * for their timed total to be 50 steps of the clock (not the 10 that fill enough of wall
 * time), or, where the hooks are longer still, 50 x enough of wall time. */
static void test_local_calls_add_up_to_steps_of_the_clock(void **unused)
{
    (void)unused;
    const double hooks_ns[] = {10e3, 1e6}; /* wall per call: 10 us, then 1 ms */
    const uint64_t fewest[] = {34, 5}, most[] = {40, 6};
    for (int i = 0; i < 2; i++) {
        probe_t p = {.sim = {.resolution_ns = 20, .op_ns = 30}, .finish_ns = hooks_ns[i]};
        mb_clock_t clk;
        mb_timing_t t;
        mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, MB_AGREE_LOCAL, MPI_COMM_NULL);
        t.resolution_ns = 20; /* 50 steps: 1000 ns, 34 calls of 30 ns */
        mb_loop_work_t w = work_on(&p);
        mb_loop_result_t r;
        assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
        assert_in_range(r.headline.iters, fewest[i], most[i]);
        assert_float_equal(r.headline.stats.median, 30.0, 5.0);
        mb_loop_result_free(&r);
    }
}

static void test_local_no_work_fails(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 0};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t, .opts = loop_opts};
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), -1);
    assert_non_null(strstr(r.reason, "no measurable work"));
    assert_null(r.headline.samples_ns);
}

static void test_local_benchmark_error_fails(void **unused)
{
    (void)unused;
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100}, .fail_at = 5000};
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, MB_AGREE_LOCAL, MPI_COMM_NULL);
    mb_loop_work_t w = work_on(&p);
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), -1);
    assert_string_equal(r.reason, "the probe failed at call 5000");
    /* It stopped at the end of that experiment, not at the cap. */
    assert_true(p.sim.runs < 5000 + 2000);
}

static void test_local_timeout_fails(void **unused)
{
    (void)unused;
    sim_t s = {.resolution_ns = 1, .op_ns = 5, .noise = 0.3, .seed = 7};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t,
                   .opts = {.min_experiments = 11,
                            .max_experiments = 1000,
                            .ci_target = 0.0001,
                            .timeout_ns = 5e6}};
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), -1);
    assert_non_null(strstr(r.reason, "timed out"));
    assert_true(s.now_ns < 5e6 + 2e5);
}

/* Agreement over a communicator of one rank gives what the rank alone gives. */
static void test_self_agreement_is_local(void **unused)
{
    (void)unused;
    for (int agree = MB_AGREE_LOCAL; agree <= MB_AGREE_ALL; agree++) {
        probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100}};
        mb_clock_t clk;
        mb_timing_t t;
        mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, (mb_agreement_t)agree, MPI_COMM_SELF);
        mb_loop_work_t w = work_on(&p);
        mb_loop_result_t r;
        assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
        assert_int_equal(r.headline.n, 11);
        assert_float_equal(r.headline.stats.median, 100.0, 1e-6);
        if (agree == MB_AGREE_ALL) {
            assert_float_equal(r.max_over_ranks_ns, 100.0, 1e-6);
            assert_float_equal(r.avg_over_ranks_ns, 100.0, 1e-6);
        }
        mb_loop_result_free(&r);
    }
}

/* Every rank of the world ran exactly `mine` (experiments, iterations...). */
static void assert_same_everywhere(uint64_t mine)
{
    uint64_t lo = 0, hi = 0;
    MPI_Allreduce(&mine, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    assert_int_equal(lo, hi);
}

/* p measured at grain on every rank of the world, with headline h as the point's headline. */
static int world_measure(probe_t *p, mb_granularity_t grain, mb_headline_t h, mb_loop_result_t *r)
{
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(p, &clk, &t, grain, MB_AGREE_ALL, MPI_COMM_WORLD);
    L.headline = h;
    mb_loop_work_t w = work_on(p);
    return mb_loop_measure(&L, &w, r);
}

/* Rank r's call takes 100 (r + 1) ns: the headline is the slowest, each rank keeps its own,
 * all ranks run the same calls. */
static void test_world_calls_slowest_rank(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100.0 * (world_rank + 1)}};
    mb_loop_result_t r;
    assert_int_equal(world_measure(&p, MB_GRAIN_CALL, MB_HEADLINE_MAX, &r), 0);
    assert_float_equal(r.headline.stats.median, 100.0 * world_size, 1e-6);
    assert_float_equal(r.own.stats.median, 100.0 * (world_rank + 1), 1e-6);
    assert_float_equal(r.avg_over_ranks_ns, 100.0 * (world_size + 1) / 2, 1e-6);
    assert_same_everywhere(p.sim.runs);
    assert_same_everywhere(r.own.n);
    mb_loop_result_free(&r);
}

/* Loop granularity together: each rank its own figure; the same counts everywhere, sized
 * on the slowest rank; more experiments while any rank's CI is wide. */
static void test_world_loops_in_step(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    sim_t s = {.resolution_ns = 1,
               .op_ns = 5.0 * (world_rank + 1),
               .noise = world_rank == world_size - 1 ? 0.2 : 0,
               .seed = 11};
    mb_clock_t clk = sim_clock(&s);
    mb_timing_t t = {.clock = &clk, .resolution_ns = 1, .enough_ns = 1e5};
    mb_loop_t L = {.timing = &t,
                   .opts = loop_opts,
                   .start = &mb_start_barrier,
                   .agree = MB_AGREE_ALL,
                   .comm = MPI_COMM_WORLD};
    mb_loop_work_t w = {.run = sim_run, .state = &s};
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_same_everywhere(s.runs);
    assert_same_everywhere(r.own.iters);
    assert_same_everywhere(r.own.n);
    /* The noisy last rank kept every rank going past the minimum. */
    assert_true(r.own.n > 11);
    if (world_rank != world_size - 1)
        assert_float_equal(r.headline.stats.median, 5.0 * (world_rank + 1), 1e-6);
    mb_loop_result_free(&r);
}

/* The measured side of a pair: rank 0's series is the headline, there only. */
static void test_world_rank0_headline(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = world_rank == 0 ? 300 : 100}};
    mb_loop_result_t r;
    assert_int_equal(world_measure(&p, MB_GRAIN_CALL, MB_HEADLINE_RANK0, &r), 0);
    if (world_rank == 0)
        assert_float_equal(r.headline.stats.median, 300.0, 1e-6);
    else
        assert_int_equal(r.headline.n, 0);
    assert_same_everywhere(r.own.n);
    mb_loop_result_free(&r);
}

/* A symmetric exchange (mpi.sendrecv): rank 0's calls take 300 ns, the others' 100: the
 * headline on every rank is the mean over the ranks, each rank keeps its own. */
static void test_world_mean_headline(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = world_rank == 0 ? 300 : 100}};
    mb_loop_result_t r;
    assert_int_equal(world_measure(&p, MB_GRAIN_CALL, MB_HEADLINE_MEAN, &r), 0);
    double mean = (300.0 + 100.0 * (world_size - 1)) / world_size;
    assert_float_equal(r.headline.stats.median, mean, 1e-6);
    assert_float_equal(r.avg_over_ranks_ns, mean, 1e-6);
    assert_float_equal(r.own.stats.median, world_rank == 0 ? 300.0 : 100.0, 1e-6);
    assert_same_everywhere(r.headline.n);
    mb_loop_result_free(&r);
}

/* A loop timed as a whole has no mean over the ranks: the point fails, saying why, on
 * every rank. */
static void test_world_mean_headline_needs_calls(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100}};
    mb_loop_result_t r;
    assert_int_equal(world_measure(&p, MB_GRAIN_LOOP, MB_HEADLINE_MEAN, &r), -1);
    assert_string_equal(r.reason,
                        "the mean over ranks as headline needs calls timed on every rank");
}

/* mpi.isend at 4 MiB: rank 0 posts in 30 ns while its partner's timed MPI_Wait takes the
 * whole transfer. Rank 0's 30 ns calls are what must add up to 50 clock steps: the
 * partner's long ones do not make one call per experiment enough. */
static void test_world_rank0_calls_add_up(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 20, .op_ns = world_rank == 0 ? 30 : 100e3},
                 .finish_ns = world_rank == 0 ? 100e3 : 0};
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, MB_AGREE_ALL, MPI_COMM_WORLD);
    t.resolution_ns = 20;
    L.headline = MB_HEADLINE_RANK0;
    mb_loop_work_t w = work_on(&p);
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    /* 1000 ns of 30 ns calls: 34; at 100 us each, 50 x enough (5 ms) holds 50. */
    assert_in_range(r.own.iters, 34, 40);
    if (world_rank == 0)
        assert_float_equal(r.headline.stats.median, 30.0, 5.0);
    assert_same_everywhere(r.own.iters);
    mb_loop_result_free(&r);
}

/* An error on the last rank fails the point on every rank, with that rank's words. */
static void test_world_error_on_one_rank(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100},
                 .fail_at = world_rank == world_size - 1 ? 3000 : 0};
    mb_loop_result_t r;
    assert_int_equal(world_measure(&p, MB_GRAIN_CALL, MB_HEADLINE_OWN, &r), -1);
    assert_string_equal(r.reason, "the probe failed at call 3000");
    assert_same_everywhere(p.sim.runs);
}

/* Window starts: a rank held up past the next start makes that experiment late; it is
 * discarded and counted, and the point still gets its experiments. */
static void test_world_window_late_start(void **unused)
{
    (void)unused;
    if (world_size < 2)
        skip();
    /* A clock that moves while a rank waits for its start. */
    probe_t p = {.sim = {.resolution_ns = 1, .op_ns = 100, .read_cost_ns = 10}};
    if (world_rank == 1) {
        p.slow_at = 100; /* past the warm-up (2 experiments of about 20 calls) */
        p.slow_ns = 1e6;
    }
    mb_clock_t clk;
    mb_timing_t t;
    mb_loop_t L = loop_on(&p, &clk, &t, MB_GRAIN_CALL, MB_AGREE_ALL, MPI_COMM_WORLD);
    L.start = &mb_start_window;
    mb_loop_work_t w = work_on(&p);
    mb_loop_result_t r;
    assert_int_equal(mb_loop_measure(&L, &w, &r), 0);
    assert_true(r.headline.late >= 1);
    assert_true(r.own.n >= 11);
    assert_same_everywhere(r.headline.late);
    /* The late experiment's slow call is not among the samples. */
    assert_true(r.own.stats.max < 200);
    mb_loop_result_free(&r);
}

/* Two levels in a point's experiments (mb_stats_two_levels), found when its samples are
 * summarized and written into its record: 7 at 100-106 ns and 4 at 400-403 (the median in
 * the low level), each level's count and range, the gap; one level gets no "two_levels". */
static void test_two_levels_in_the_record(void **unused)
{
    (void)unused;
    static const double two[] = {100, 400, 101, 102, 401, 103, 104, 402, 105, 403, 106};
    static const double one[] = {100, 130, 101, 102, 131, 103, 104, 132, 105, 133, 106};
    static const mb_dim_t dims[] = {{.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE}};
    const mb_bench_t b = {.name = "x.levels", .dims = dims, .ndims = 1};
    mb_config_t cfg = {.run_ci_wide = 0.1};
    mb_timing_t t = {.resolution_ns = 1};
    mb_context_t ctx = {.config = &cfg, .timing = &t};
    const mb_point_t pt = {.v = {64}};
    for (int k = 0; k < 2; k++) {
        mb_measurement_t m = {.samples_ns = malloc(sizeof two), .n = 11, .iters = 1};
        assert_non_null(m.samples_ns);
        memcpy(m.samples_ns, k ? one : two, sizeof two);
        assert_int_equal(mb_loop_summarize(&loop_opts, &m), 0);
        json_t *j = mb_measure_json_point(&b, &ctx, &pt, &m);
        const json_t *lv = json_object_get(j, "two_levels");
        if (k) {
            assert_int_equal(m.levels.high_n, 0);
            assert_null(lv);
        } else {
            assert_int_equal(m.levels.low_n, 7);
            assert_int_equal(json_integer_value(json_object_get(json_object_get(lv, "low"), "n")),
                             7);
            assert_int_equal(json_integer_value(json_object_get(json_object_get(lv, "high"), "n")),
                             4);
            assert_float_equal(json_real_value(json_object_get(json_object_get(lv, "low"), "max")),
                               106, 1e-9);
            assert_float_equal(json_real_value(json_object_get(json_object_get(lv, "high"), "min")),
                               400, 1e-9);
            assert_float_equal(json_real_value(json_object_get(lv, "gap_ratio")), 400.0 / 106,
                               1e-9);
            assert_string_equal(json_string_value(json_object_get(lv, "median_in")), "low");
        }
        json_decref(j);
        mb_measurement_free(&m);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_loop_subtracts_overheads),
        cmocka_unit_test(test_local_noisy_runs_to_the_cap),
        cmocka_unit_test(test_local_budget_trims_repetitions),
        cmocka_unit_test(test_local_warmup_is_discarded),
        cmocka_unit_test(test_local_calls_time_each_call),
        cmocka_unit_test(test_two_levels_in_the_record),
        cmocka_unit_test(test_local_calls_add_up_to_steps_of_the_clock),
        cmocka_unit_test(test_lead_in_is_not_timed),
        cmocka_unit_test(test_local_no_work_fails),
        cmocka_unit_test(test_local_benchmark_error_fails),
        cmocka_unit_test(test_local_timeout_fails),
        cmocka_unit_test(test_self_agreement_is_local),
        cmocka_unit_test(test_world_calls_slowest_rank),
        cmocka_unit_test(test_world_loops_in_step),
        cmocka_unit_test(test_world_rank0_headline),
        cmocka_unit_test(test_world_mean_headline),
        cmocka_unit_test(test_world_mean_headline_needs_calls),
        cmocka_unit_test(test_world_rank0_calls_add_up),
        cmocka_unit_test(test_world_error_on_one_rank),
        cmocka_unit_test(test_world_window_late_start),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    MPI_Finalize();
    return failed ? 1 : 0;
}
