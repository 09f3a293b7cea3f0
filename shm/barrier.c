/* SPDX-License-Identifier: MIT */
/* shm.barrier: MPI_Barrier over the ranks of a node and over all ranks (seed 001's
 * "barrier" row). Every rank loops over barriers together; one operation is one barrier,
 * as each rank sees it from entering the loop's first to leaving its last. */
#include "bench.h"

enum { BARRIER_NODE, BARRIER_ALL };
static const char *const barrier_labels[] = {"node", "all", NULL};
static const mb_dim_t barrier_dims[] = {{.name = "comm", .labels = barrier_labels}};

static int barrier_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t c = BARRIER_NODE; c <= BARRIER_ALL && n < max; c++)
        pts[n++] = (mb_point_t){.v = {c}};
    return (int)n;
}

static mb_scope_t barrier_scope(const mb_point_t *pt)
{
    return pt->v[0] == BARRIER_NODE ? MB_SCOPE_NODE_ALL : MB_SCOPE_WORLD_ALL;
}

static int barrier_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    (void)err, (void)errlen;
    *state = (void *)(pt->v[0] == BARRIER_NODE ? &ctx->node_comm : &ctx->comm);
    return 0;
}

static void barrier_run(void *state, uint64_t iters)
{
    MPI_Comm comm = *(const MPI_Comm *)state;
    for (uint64_t i = iters; i > 0; i--)
        MPI_Barrier(comm);
}

const mb_bench_t mb_bench_shm_barrier = {
    .name = "shm.barrier",
    .group = "shm",
    .summary = "MPI_Barrier over a node's ranks and over all ranks",
    .measures = "one MPI_Barrier in a loop of barriers that all ranks of the communicator run "
                "together",
    .scope_of = barrier_scope,
    .dims = barrier_dims,
    .ndims = MB_COUNT(barrier_dims),
    .points = barrier_points,
    .setup = barrier_setup,
    .run = barrier_run,
};
