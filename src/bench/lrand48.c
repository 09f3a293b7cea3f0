/* SPDX-License-Identifier: MIT */
/* harness.lrand48: the seed's first example (seed 000 Figure 4 and Appendix, "Measuring
 * latency"): one lrand48() call, its result kept alive, loop overhead subtracted. A pure
 * CPU operation with no memory traffic: the harness's repeatability check. */
#include <stdlib.h>

#include "bench.h"

static int lrand48_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    (void)ctx, (void)pt, (void)err, (void)errlen;
    srand48(1);
    *state = NULL;
    return 0;
}

static void lrand48_run(void *state, uint64_t iters)
{
    (void)state;
    for (uint64_t i = iters; i > 0; i--)
        mb_use_int((uint64_t)lrand48());
}

const mb_bench_t mb_bench_harness_lrand48 = {
    .name = "harness.lrand48",
    .group = "harness",
    .summary = "one lrand48() call (seed 000's latency example)",
    .measures = "one lrand48() call, loop overhead subtracted",
    .setup = lrand48_setup,
    .run = lrand48_run,
    .subtract_loop_overhead = true,
};
