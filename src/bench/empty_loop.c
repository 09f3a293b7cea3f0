/* SPDX-License-Identifier: MIT */
/* harness.empty_loop: loop overhead (seed 000 6.3; Howell's "empty loop" row). Time per
 * iteration of a loop with 0, 1 and 2 instances of an out-of-line operation; from
 * T1/N1 = l + o and T2/N2 = l + 2o the loop overhead is l = 2 T1/N1 - T2/N2, derived here
 * from the medians (the start-up calibration does the same and is what gets subtracted). */
#include <stdlib.h>

#include "bench.h"

static const mb_dim_t empty_loop_dims[] = {{.name = "instances", .role = MB_ROLE_COUNT}};

static int empty_loop_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                             size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    int n = 0;
    for (int64_t k = 0; k <= 2 && (size_t)n < max; k++)
        pts[n++] = (mb_point_t){.v = {k}};
    return n;
}

typedef struct empty_loop_state {
    int instances;
    volatile uint64_t sink;
} empty_loop_state_t;

static int empty_loop_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                            char *err, size_t errlen)
{
    (void)ctx;
    empty_loop_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->instances = (int)pt->v[0];
    *state = s;
    return 0;
}

static void empty_loop_run(void *state, uint64_t iters)
{
    empty_loop_state_t *s = state;
    if (s->instances == 1) {
        mb_timing_use_int_loop1((void *)&s->sink, iters);
    } else if (s->instances == 2) {
        mb_timing_use_int_loop2((void *)&s->sink, iters);
    } else {
        /* The counter passes through an empty asm so the loop cannot be folded away. */
        for (uint64_t i = iters; i > 0; i--)
            __asm__ volatile("" : "+r"(i));
    }
}

static json_t *empty_loop_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    double t1 = -1, t2 = -1;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].v[0] == 1)
            t1 = ms[i].stats.median;
        if (pts[i].v[0] == 2)
            t2 = ms[i].stats.median;
    }
    if (t1 < 0 || t2 < 0)
        return NULL;
    json_t *d = json_pack("{s:f, s:f}", "loop_overhead_ns", 2 * t1 - t2, "operation_ns", t2 - t1);
    /* Where two operations per iteration cost more than twice one, the loop's own cost
     * overlaps the operations' and T = l + k o does not hold (seen on AMD family 26: 0.95
     * and 2.12 ns): the figure is kept, as measured, and said to be no overhead. */
    if (d && 2 * t1 - t2 < 0)
        json_object_set_new(d, "loop_overhead_note",
                            json_string("negative: two operations per iteration cost more than "
                                        "twice one here, so the loop's overhead is below what "
                                        "this method resolves; the harness subtracts its "
                                        "start-up calibration, never less than 0"));
    return d;
}

const mb_bench_t mb_bench_harness_empty_loop = {
    .name = "harness.empty_loop",
    .group = "harness",
    .summary = "loop overhead, from loops of 0, 1 and 2 operations per iteration",
    .measures = "one loop iteration with 0, 1 or 2 calls of an out-of-line function",
    .dims = empty_loop_dims,
    .ndims = MB_COUNT(empty_loop_dims),
    .points = empty_loop_points,
    .setup = empty_loop_setup,
    .run = empty_loop_run,
    .teardown = free,
    .derive = empty_loop_derive,
};
