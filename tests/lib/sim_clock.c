/* SPDX-License-Identifier: MIT */
#include "sim_clock.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t sim_now(void *state)
{
    sim_t *s = state;
    s->now_ns += s->read_cost_ns;
    return (uint64_t)(floor(s->now_ns / s->resolution_ns) * s->resolution_ns);
}

static double sim_res(void *state)
{
    return ((sim_t *)state)->resolution_ns;
}

mb_clock_t sim_clock(sim_t *s)
{
    return (mb_clock_t){.name = "simulated",
                        .config_name = "sim",
                        .now_ns = sim_now,
                        .nominal_resolution_ns = sim_res,
                        .state = s};
}

void sim_run(void *state, uint64_t iters)
{
    sim_t *s = state;
    bool noisy = !(s->quiet_from_ns > 0 && s->now_ns >= s->quiet_from_ns);
    double jitter = noisy && s->noise ? s->noise * (2.0 * rand_r(&s->seed) / RAND_MAX - 1.0) : 0.0;
    if (noisy && s->delay && rand_r(&s->seed) % 2)
        jitter += s->delay * rand_r(&s->seed) / RAND_MAX;
    s->now_ns += (double)iters * s->op_ns * (1.0 + jitter);
    s->runs++;
}

void sim_op(void *state)
{
    sim_run(state, 1);
}
