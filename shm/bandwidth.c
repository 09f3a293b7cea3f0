/* SPDX-License-Identifier: MIT */
/* shm.bandwidth: memory bandwidth (seed 004's read/write bandwidth; STREAM's sizing): one
 * pass of read (lmbench bw_mem's rd: bw_read), write (store of words), copy by memcpy,
 * and copy by a plain loop, over a buffer in cache (a quarter of the L2) or out of it (4 x the last-level
 * cache, shared out over the ranks when all run at once: sysinfo.h), by a sample of ranks
 * alone in turn and by all of a node's ranks at once. Bandwidth per rank is in
 * every point; with all ranks at once, over_ranks' aggregate is the node's. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpi_util.h"
#include "sysinfo.h"
#include "workset.h"

enum { BW_READ, BW_WRITE, BW_COPY_MEMCPY, BW_COPY_LOOP };
enum { BW_IN_CACHE, BW_MEMORY };
enum { BW_ONE, BW_ALL };
static const char *const bw_op_labels[] = {"read", "write", "copy_memcpy", "copy_loop", NULL};
static const char *const bw_where_labels[] = {"cache", "memory", NULL};
static const char *const bw_ranks_labels[] = {"one", "all", NULL};
static const mb_dim_t bw_dims[] = {
    {.name = "op", .labels = bw_op_labels},
    {.name = "where", .labels = bw_where_labels},
    {.name = "ranks", .labels = bw_ranks_labels},
};

typedef struct bw_state {
    uint64_t *src, *dst;
    size_t words;
    int op;
} bw_state_t;

/* Each rank's buffer: in cache, or out of it; all ranks at once share 4 x LLC between them. */
static uint64_t bw_bytes(const mb_context_t *ctx, int where, int ranks)
{
    if (where == BW_IN_CACHE) {
        hwloc_obj_t l2 = hwloc_get_obj_by_type(ctx->topology, HWLOC_OBJ_L2CACHE, 0);
        uint64_t l2_bytes = l2 && l2->attr->cache.size ? l2->attr->cache.size : 256 * 1024;
        return l2_bytes / 4; /* source and destination both fit, with room to spare */
    }
    return mb_sysinfo_memory_span_shared_bytes(ctx->llc_bytes, 32u << 20,
                                               ranks == BW_ALL ? ctx->node_size : 1);
}

static int bw_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err, size_t errlen)
{
    uint64_t need = 2 * bw_bytes(ctx, BW_MEMORY, BW_ALL) * (uint64_t)ctx->node_size;
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    if (memory && need > memory / 2) {
        snprintf(err, errlen,
                 "shm.bandwidth: %d ranks x 2 x %llu bytes is more than half this node's memory "
                 "(%llu bytes); run fewer ranks per node",
                 ctx->node_size, (unsigned long long)bw_bytes(ctx, BW_MEMORY, BW_ALL),
                 (unsigned long long)memory);
        return -1;
    }
    size_t n = 0;
    for (int ranks = BW_ONE; ranks <= BW_ALL; ranks++)
        for (int where = BW_IN_CACHE; where <= BW_MEMORY; where++)
            for (int op = BW_READ; op <= BW_COPY_LOOP && n < max; op++)
                pts[n++] = (mb_point_t){.v = {op, where, ranks}};
    return (int)n;
}

static mb_scope_t bw_scope(const mb_point_t *pt)
{
    return pt->v[2] == BW_ALL ? MB_SCOPE_NODE_ALL : MB_SCOPE_SAMPLE_EACH;
}

static void bw_teardown(void *state)
{
    bw_state_t *s = state;
    if (!s)
        return;
    mb_workset_free(s->src);
    mb_workset_free(s->dst);
    free(s);
}

static int bw_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                    size_t errlen)
{
    uint64_t bytes = bw_bytes(ctx, (int)pt->v[1], (int)pt->v[2]);
    bw_state_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->op = (int)pt->v[0];
    int me;
    MB_MPI_CHECK(MPI_Comm_rank(ctx->measure_comm, &me));
    if (!mb_context_measures(ctx, me)) {
        *state = s; /* waits through the others' turns: no buffers */
        return 0;
    }
    s->words = bytes / sizeof(uint64_t);
    s->src = mb_workset_alloc(bytes, 4096, false);
    s->dst = mb_workset_alloc(bytes, 4096, false);
    if (!s->src || !s->dst)
        goto oom;
    for (size_t i = 0; i < s->words; i++)
        s->src[i] = i;
    memset(s->dst, 0, bytes);
    *state = s;
    return 0;
oom:
    bw_teardown(s);
    snprintf(err, errlen, "cannot allocate 2 x %llu bytes", (unsigned long long)bytes);
    return -1;
}

/* The read, as lmbench bw_mem's rd (the read bandwidth of seeds 003 and 004, and the
 * figure users compare with): of each 512-byte chunk one 4-byte int in four, summed in one
 * expression, so 32 loads touch every 64-byte line and every byte counts as read. A scalar
 * sum of every word (one chain of adds) read memory at 0.75x of rd (issue 15): the figure
 * depends on the loop, so it is the loop users compare with.
 * Unsigned sums: rd's int sum would overflow. src is page-aligned, whole pages. */
static uint64_t bw_read(const uint64_t *src, size_t words)
{
    const uint32_t *p = (const uint32_t *)(const void *)src;
    uint32_t sum = 0;
    for (size_t chunk = 0; chunk < words / 64; chunk++, p += 128) {
#define BW_RD4(i) p[i] + p[i + 4] + p[i + 8] + p[i + 12]
        sum += BW_RD4(0) + BW_RD4(16) + BW_RD4(32) + BW_RD4(48) + BW_RD4(64) + BW_RD4(80) +
               BW_RD4(96) + BW_RD4(112);
#undef BW_RD4
    }
    for (size_t i = words / 64 * 64; i < words; i++) /* a part chunk: never, with whole pages */
        sum += (uint32_t)src[i];
    return sum;
}

/* A plain loop, kept a loop: without this GCC turns it into a call to memcpy. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void
bw_copy_loop(uint64_t *restrict dst, const uint64_t *restrict src, size_t words)
{
    for (size_t i = 0; i < words; i++)
        dst[i] = src[i];
}

static void bw_run(void *state, uint64_t iters)
{
    bw_state_t *s = state;
    uint64_t sum = 0, *dst = s->dst;
    size_t words = s->words; /* in a local: a store to dst could alias s->words */
    for (uint64_t it = iters; it > 0; it--) {
        switch (s->op) {
        case BW_READ:
            sum += bw_read(s->src, words);
            break;
        case BW_WRITE:
            for (size_t i = 0; i < words; i++)
                dst[i] = it;
            break;
        case BW_COPY_MEMCPY:
            memcpy(s->dst, s->src, s->words * sizeof(uint64_t));
            break;
        default:
            bw_copy_loop(s->dst, s->src, s->words);
            break;
        }
        mb_use_pointer(s->dst);
    }
    mb_use_int(sum);
}

/* Bytes moved per pass: a copy reads and writes each byte (STREAM counts both). */
static uint64_t bw_bytes_per_op(const mb_context_t *ctx, const mb_point_t *pt)
{
    uint64_t bytes = bw_bytes(ctx, (int)pt->v[1], (int)pt->v[2]);
    return pt->v[0] >= BW_COPY_MEMCPY ? 2 * bytes : bytes;
}

/* Out of cache, a point's cost grows with the bytes of its passes. */
static uint64_t bw_touch_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    return pt->v[1] == BW_MEMORY ? bw_bytes_per_op(ctx, pt) : 0;
}

const mb_bench_t mb_bench_shm_bandwidth = {
    .name = "shm.bandwidth",
    .group = "shm",
    .summary = "memory read, write and copy bandwidth, in and out of cache, one rank and all",
    .measures = "one pass over the buffer: read (lmbench bw_mem's rd: one 4-byte int in four "
                "summed, every 64-byte line touched, every byte counted), write (store of words), copy (memcpy, or a plain loop); copies "
                "count bytes read plus bytes written (STREAM's counting; lmbench's bw_mem counts "
                "a copy's bytes once)",
    .scope_of = bw_scope,
    .dims = bw_dims,
    .ndims = MB_COUNT(bw_dims),
    .points = bw_points,
    .setup = bw_setup,
    .run = bw_run,
    .teardown = bw_teardown,
    .bytes_per_op = bw_bytes_per_op,
    .touch_bytes = bw_touch_bytes,
};
