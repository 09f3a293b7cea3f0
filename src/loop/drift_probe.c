/* SPDX-License-Identifier: MIT */
#include "drift_probe.h"

#include <math.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "clock.h"
#include "mpi_util.h"

/* Blocks of round trips, the median block reported: one block hit by an interrupt does
 * not move it. Some 30-100 us in all, against a benchmark's seconds. */
#define DRIFT_PROBE_WARMUP 8
#define DRIFT_PROBE_BLOCKS 9
#define DRIFT_PROBE_TRIPS 16
#define DRIFT_PROBE_TAG 0x6472
/* The longest nap of the ranks waiting for the pair: each probe may end up to this late. */
#define DRIFT_PROBE_NAP_NS 1000000L

const char mb_drift_probe_method[] =
    "a 0-byte MPI_Send/MPI_Recv pingpong between world rank 0 and the next rank of its node "
    "(pair intra), or the first rank of node 1 where rank 0's node has no other (pair inter), "
    "timed on rank 0: the median of 9 blocks of 16 round trips (after 8 untimed), as half a "
    "round trip; taken just before and just after each mpi and shm benchmark where ranks or "
    "cores talk (not where one core works alone while the others sleep: shm.latency, shm.read, "
    "shm.write)";

static void drift_probe_trips(MPI_Comm pair, int me, int n)
{
    char byte = 0;
    for (int i = 0; i < n; i++) {
        if (me == 0) {
            MB_MPI_CHECK(MPI_Send(&byte, 0, MPI_BYTE, 1, DRIFT_PROBE_TAG, pair));
            MB_MPI_CHECK(MPI_Recv(&byte, 0, MPI_BYTE, 1, DRIFT_PROBE_TAG, pair, MPI_STATUS_IGNORE));
        } else {
            MB_MPI_CHECK(MPI_Recv(&byte, 0, MPI_BYTE, 0, DRIFT_PROBE_TAG, pair, MPI_STATUS_IGNORE));
            MB_MPI_CHECK(MPI_Send(&byte, 0, MPI_BYTE, 0, DRIFT_PROBE_TAG, pair));
        }
    }
}

const char *mb_drift_probe_pair(const mb_context_t *ctx)
{
    return ctx->has_pair_intra ? "intra" : ctx->has_pair_inter ? "inter" : NULL;
}

double mb_drift_probe_ns(const mb_context_t *ctx)
{
    if (!mb_drift_probe_pair(ctx))
        return NAN;
    MPI_Comm pair = ctx->has_pair_intra ? ctx->pair_intra : ctx->pair_inter;
    double half_ns[DRIFT_PROBE_BLOCKS];
    if (pair != MPI_COMM_NULL) {
        int me;
        MB_MPI_CHECK(MPI_Comm_rank(pair, &me));
        drift_probe_trips(pair, me, DRIFT_PROBE_WARMUP);
        for (int b = 0; b < DRIFT_PROBE_BLOCKS; b++) {
            uint64_t t0 = mb_clock_now_ns(ctx->timing->clock);
            drift_probe_trips(pair, me, DRIFT_PROBE_TRIPS);
            half_ns[b] =
                (double)(mb_clock_now_ns(ctx->timing->clock) - t0) / (2.0 * DRIFT_PROBE_TRIPS);
        }
    }
    /* The other ranks wait asleep meanwhile: polling for the next benchmark on a node with
     * more ranks than cores, they would take the pair's cores and read as drift. */
    mb_mpi_wait_quietly_for(ctx->comm, DRIFT_PROBE_NAP_NS);
    if (ctx->rank != 0)
        return NAN;
    gsl_sort(half_ns, 1, DRIFT_PROBE_BLOCKS);
    double scale = ctx->probe_scale > 0 ? ctx->probe_scale : 1;
    return scale * gsl_stats_median_from_sorted_data(half_ns, 1, DRIFT_PROBE_BLOCKS);
}
