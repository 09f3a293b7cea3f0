/* SPDX-License-Identifier: MIT */
/* A simulated clock of known resolution for the timing tests: time advances only when the
 * clock is read (read_cost_ns) or a simulated loop runs (op_ns per iteration, with optional
 * noise), so every figure the harness derives has a known answer. */
#ifndef MB_TEST_SIM_CLOCK_H
#define MB_TEST_SIM_CLOCK_H

#include <stdint.h>

#include "clock.h"

typedef struct sim {
    double now_ns;        /* true time */
    double resolution_ns; /* readings are multiples of this */
    double read_cost_ns;  /* each read advances true time by this */
    double op_ns;         /* one loop iteration or call */
    double noise;         /* each run's duration is scaled by 1 + noise * U(-1, 1) */
    double delay;         /* and every other run (at random) by 1 + delay * U(0, 1): a busy
                           * machine's noise, which only ever adds time */
    double quiet_from_ns; /* > 0: noise and delay stop once true time reaches this */
    uint64_t runs;        /* calls of sim_run or sim_op */
    unsigned seed;
} sim_t;

/* A clock reading s. */
mb_clock_t sim_clock(sim_t *s);

/* mb_run_fn: iters iterations of op_ns each. */
void sim_run(void *state, uint64_t iters);

/* mb_call_fn: one call of op_ns. */
void sim_op(void *state);

#endif
