/* SPDX-License-Identifier: MIT */
#include "harness_together.h"

#include <stdlib.h>
#include <string.h>

#include "mpi_util.h"

/* All ranks agree whether every rank succeeded. */
static bool together_all_ok(MPI_Comm comm, bool ok)
{
    int mine = ok, all = 0;
    MB_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm));
    return all != 0;
}

int mb_harness_measure_together(const mb_timing_t *t, const mb_measure_opts_t *opts,
                                mb_run_fn run, void *state, MPI_Comm comm, mb_measurement_t *out)
{
    uint64_t cap = mb_harness_max_experiments(opts);
    double ops = opts->ops_per_iter > 0 ? opts->ops_per_iter : 1.0;
    memset(out, 0, sizeof *out);
    out->samples_ns = malloc(cap * sizeof *out->samples_ns);

    /* Warm-up and calibration together, so the loop is sized under the contention it will
     * be measured in, and with the same count on every rank at every step: the operation
     * may be a collective (a barrier), where differing counts would deadlock. The seed's
     * sizing rule is applied to the slowest rank's interval. */
    uint64_t iters = 1;
    double warm_ns = 0;
    bool ok = out->samples_ns != NULL;
    if (!together_all_ok(comm, ok))
        goto fail;
    for (;;) {
        MB_MPI_CHECK(MPI_Barrier(comm));
        uint64_t t0 = mb_clock_now_ns(t->clock);
        run(state, iters);
        uint64_t t1 = mb_clock_now_ns(t->clock);
        double mine = (double)(t1 - t0) - t->overhead_ns, slowest = 0;
        MB_MPI_CHECK(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm));
        warm_ns += slowest;
        bool accepted;
        uint64_t next = mb_harness_resize(t, iters, slowest, &accepted);
        if (accepted && warm_ns >= opts->warmup_ns)
            break;
        if (!accepted && next == 0)
            goto fail;
        if (!accepted)
            iters = next;
    }

    uint64_t began = mb_clock_now_ns(t->clock);
    for (;;) {
        MB_MPI_CHECK(MPI_Barrier(comm));
        uint64_t t0 = mb_clock_now_ns(t->clock);
        run(state, iters);
        uint64_t t1 = mb_clock_now_ns(t->clock);
        double per_iter = ((double)(t1 - t0) - t->overhead_ns) / (double)iters;
        if (opts->subtract_loop_overhead)
            per_iter -= t->loop_overhead_ns;
        out->samples_ns[out->n++] = per_iter / ops;
        out->iters = iters;
        int more = mb_harness_want_more(opts, out, (double)(t1 - began)), any = 0;
        MB_MPI_CHECK(MPI_Allreduce(&more, &any, 1, MPI_INT, MPI_LOR, comm));
        if (!any || out->n >= cap)
            break;
    }
    return 0;
fail:
    mb_measurement_free(out);
    return -1;
}
