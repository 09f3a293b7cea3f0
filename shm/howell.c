/* SPDX-License-Identifier: MIT */
/* Howell's shared-memory table (seed 001): read_X and write_X have one process active at a
 * time while the others sleep (node ranks take turns); allread_X and allwrite_X have every
 * process of the node active at once, so they show contention. X is localcache (half of
 * L1d), local (4 x LLC of the process's own memory) or neighbour (another process's
 * memory). Times are ns per 8-byte word; "avg" and "max" over processes are in each
 * point's over_ranks. Reads give both latency (random dependent chase) and stream rate. */
#include "howell_access.h"

static const mb_dim_t howell_dims[] = {
    {.name = "target", .labels = mb_howell_target_labels},
    {.name = "access", .labels = mb_howell_access_labels},
};

static int howell_read_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                              size_t errlen)
{
    return mb_howell_points(ctx, false, pts, max, err, errlen);
}

static int howell_write_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                               size_t errlen)
{
    return mb_howell_points(ctx, true, pts, max, err, errlen);
}

static int howell_read_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                             char *err, size_t errlen)
{
    return mb_howell_setup(ctx, pt, false, state, err, errlen);
}

static int howell_write_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                              char *err, size_t errlen)
{
    return mb_howell_setup(ctx, pt, true, state, err, errlen);
}

#define HOWELL_BENCH(ident, bname, bscope, sharing, kind, what, how)                          \
    const mb_bench_t mb_bench_##ident = {                                                    \
        .name = bname,                                                                       \
        .group = "shm",                                                                      \
        .summary = what,                                                                     \
        .measures = "one 8-byte " #kind " of the target buffer, in an MPI-3 shared window; " how, \
        .scope = bscope,                                                                     \
        .single_core = (bscope) == MB_SCOPE_SAMPLE_EACH, /* one process at a time */       \
        .dims = howell_dims,                                                                 \
        .ndims = MB_COUNT(howell_dims),                                                      \
        .points = howell_##kind##_points,                                                    \
        .setup = howell_##kind##_setup,                                                      \
        .run = mb_howell_##kind,                                                             \
        .teardown = mb_howell_teardown,                                                      \
        .bytes_per_op = mb_howell_word_bytes,                                                \
        .touch_bytes = mb_howell_touch_##sharing,                                            \
    }

#define HOWELL_READS "latency: a dependent load in a random cyclic chase; stream: successive words"
#define HOWELL_WRITES "stream: successive words"

HOWELL_BENCH(shm_read, "shm.read", MB_SCOPE_SAMPLE_EACH, one, read,
             "read of own cache, own memory, neighbour's memory; one process at a time", HOWELL_READS);
HOWELL_BENCH(shm_allread, "shm.allread", MB_SCOPE_NODE_ALL, all, read,
             "read of own cache, own memory, neighbour's memory; all processes at once", HOWELL_READS);
HOWELL_BENCH(shm_write, "shm.write", MB_SCOPE_SAMPLE_EACH, one, write,
             "write of own cache, own memory, neighbour's memory; one process at a time", HOWELL_WRITES);
HOWELL_BENCH(shm_allwrite, "shm.allwrite", MB_SCOPE_NODE_ALL, all, write,
             "write of own cache, own memory, neighbour's memory; all processes at once", HOWELL_WRITES);
