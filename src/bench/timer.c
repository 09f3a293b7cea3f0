/* SPDX-License-Identifier: MIT */
/* harness.timer: the clock itself (seed 000 6.1-6.2; Howell's "timer()" row). "read" is a
 * loop of clock reads: the cost of one read, which is the timing overhead inside every
 * interval. "tick" waits, read after read, for the clock to change: the mean step between
 * distinct readings, the resolution the harness actually sees (not what clock_getres says). */
#include <stdlib.h>

#include "bench.h"

enum { TIMER_READ, TIMER_TICK };
static const char *const timer_labels[] = {"read", "tick", NULL};
static const mb_dim_t timer_dims[] = {{.name = "quantity", .labels = timer_labels}};

typedef struct timer_state {
    const mb_clock_t *clock;
    int quantity;
} timer_state_t;

static int timer_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                        size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    if (max < 2)
        return 0;
    pts[0] = (mb_point_t){.v = {TIMER_READ}};
    pts[1] = (mb_point_t){.v = {TIMER_TICK}};
    return 2;
}

static int timer_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                       size_t errlen)
{
    timer_state_t *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *s = (timer_state_t){.clock = ctx->timing->clock, .quantity = (int)pt->v[0]};
    *state = s;
    return 0;
}

static void timer_run(void *state, uint64_t iters)
{
    const timer_state_t *s = state;
    uint64_t last = 0;
    if (s->quantity == TIMER_READ) {
        for (uint64_t i = iters; i > 0; i--)
            last = mb_clock_now_ns(s->clock);
    } else {
        last = mb_clock_now_ns(s->clock);
        for (uint64_t i = iters; i > 0; i--) {
            uint64_t t;
            do
                t = mb_clock_now_ns(s->clock);
            while (t == last);
            last = t;
        }
    }
    mb_use_int(last);
}

const mb_bench_t mb_bench_harness_timer = {
    .name = "harness.timer",
    .group = "harness",
    .summary = "clock read cost (timing overhead) and observed resolution",
    .measures = "read: one clock read, in a loop of reads; tick: from one reading to the next "
                "distinct one, spinning on the clock",
    .dims = timer_dims,
    .ndims = MB_COUNT(timer_dims),
    .points = timer_points,
    .setup = timer_setup,
    .run = timer_run,
    .teardown = free,
};
