/* SPDX-License-Identifier: MIT */
/* Howell's table (seed 001, "Shared memory"): each process's buffer is its segment of an
 * MPI_Win_allocate_shared window on the node, first touched by its owner, so "neighbour"
 * is really another process's memory: the next rank on the reader's NUMA node; on a node
 * with several NUMA nodes, "neighbour_far" is a rank on the NUMA node farthest by hwloc's
 * distances. Cache and memory sizes come from hwloc: half the L1 data cache, and 4 x the
 * last-level cache (shared out over the ranks when all run at once; when they take turns,
 * only the measuring ranks' targets are full size). Latency is a dependent pointer chase in random order (the prefetcher cannot
 * help); stream is successive 8-byte words. The chase of a neighbour's segment is built by
 * the reader, since the window maps at a different address in each process. */
#include "howell_access.h"

#include <stdlib.h>
#include <string.h>

#include "mpi_util.h"
#include "pointer_chase.h"
#include "rank_place.h"
#include "rank_sample.h"
#include "sysinfo.h"

#define HOWELL_LINE 64

const char *const mb_howell_target_labels[] = {"localcache", "local", "neighbour", "neighbour_far",
                                                NULL};
const char *const mb_howell_access_labels[] = {"latency", "stream", NULL};

typedef struct howell_state {
    MPI_Win win;
    MPI_Comm comm;
    uint64_t *words; /* the region this rank walks (its own or its neighbour's) */
    size_t nwords, pos;
    void *chase;     /* where the pointer chase stands */
    int access;
    uint64_t sink;
} howell_state_t;

static uint64_t howell_l1d_bytes(hwloc_topology_t topo)
{
    hwloc_obj_t l1 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L1CACHE, 0);
    return l1 && l1->attr->cache.size ? l1->attr->cache.size : 32768;
}

int mb_howell_peer(const int *numa, int n, int me, const uint64_t *dist, int nnuma, bool far)
{
    int nearest = (me + 1) % n;
    for (int k = 1; k < n; k++) {
        if (numa[(me + k) % n] == numa[me]) {
            nearest = (me + k) % n;
            break;
        }
    }
    if (!far)
        return nearest;
    int best = -1;
    uint64_t best_dist = 0;
    for (int k = 1; k < n; k++) {
        int r = (me + k) % n;
        if (numa[r] == numa[me])
            continue;
        uint64_t d = dist && numa[r] < nnuma && numa[me] < nnuma
                         ? dist[(size_t)numa[me] * (size_t)nnuma + (size_t)numa[r]]
                         : 1;
        if (best < 0 || d > best_dist) {
            best = r;
            best_dist = d;
        }
    }
    return best >= 0 ? best : nearest;
}

/* Collective over the node: the rank whose segment this rank reads as its (far) neighbour,
 * from every rank's binding and hwloc's NUMA latency matrix where the platform gives one;
 * *read_by_sampled tells whether a rank that measures (ctx's sample) reads this rank's. */
static int howell_neighbour(const mb_context_t *ctx, MPI_Comm comm, bool far, bool *read_by_sampled)
{
    int me, n, nnuma;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    hwloc_bitmap_t *bindings = mb_rank_place_gather(ctx->topology, comm, &n);
    int *numa = calloc((size_t)n, sizeof *numa);
    if (!numa)
        mb_mpi_fail("calloc in howell_neighbour", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    uint64_t *dist = mb_rank_place_peer_inputs(ctx->topology, bindings, n, numa, &nnuma);
    int peer = mb_howell_peer(numa, n, me, dist, nnuma, far);
    *read_by_sampled = ctx->nsample == 0;
    for (int i = 0; i < ctx->nsample; i++)
        if (mb_howell_peer(numa, n, ctx->sample_ranks[i], dist, nnuma, far) == me)
            *read_by_sampled = true;
    free(dist);
    free(numa);
    mb_rank_place_free(bindings, n);
    return peer;
}

uint64_t mb_howell_bytes(const mb_context_t *ctx, int target, int sharers)
{
    if (target == HOWELL_LOCALCACHE)
        return howell_l1d_bytes(ctx->topology) / 2;
    return mb_sysinfo_memory_span_shared_bytes(ctx->llc_bytes, 32u << 20, sharers);
}

int mb_howell_points(const mb_context_t *ctx, bool write, mb_point_t *pts, size_t max, char *err,
                     size_t errlen)
{
    /* The most at once: every rank's share, or the sampled readers' and their targets'. */
    uint64_t share = mb_howell_bytes(ctx, HOWELL_LOCAL, ctx->node_size);
    uint64_t need = (uint64_t)ctx->node_size * share;
    uint64_t turns = 2 * MB_RANK_SAMPLE_K * mb_howell_bytes(ctx, HOWELL_LOCAL, 1);
    need = need > turns ? need : turns;
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    if (memory && need > memory / 2) {
        snprintf(err, errlen,
                 "shm: %d ranks need %llu bytes of working sets, more than half this node's "
                 "memory (%llu bytes); run fewer ranks per node",
                 ctx->node_size, (unsigned long long)need, (unsigned long long)memory);
        return -1;
    }
    size_t n = 0;
    int nnuma = hwloc_get_nbobjs_by_type(ctx->topology, HWLOC_OBJ_NUMANODE);
    for (int target = HOWELL_LOCALCACHE; target <= HOWELL_NEIGHBOUR_FAR; target++) {
        if (target >= HOWELL_NEIGHBOUR && ctx->node_size < 2)
            continue; /* no neighbour: the table says so */
        if (target == HOWELL_NEIGHBOUR_FAR && nnuma < 2)
            continue; /* one NUMA node: every neighbour is as near as the nearest */
        for (int access = write ? HOWELL_STREAM : HOWELL_LATENCY; access <= HOWELL_STREAM; access++)
            if (n < max)
                pts[n++] = (mb_point_t){.v = {target, access}};
    }
    return (int)n;
}

int mb_howell_setup(const mb_context_t *ctx, const mb_point_t *pt, bool write, void **state,
                    char *err, size_t errlen)
{
    (void)write;
    int target = (int)pt->v[0], me;
    howell_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->comm = ctx->node_comm;
    s->access = (int)pt->v[1];
    MB_MPI_CHECK(MPI_Comm_rank(s->comm, &me));
    /* Who reads whose segment is known before the window is made: when ranks take turns,
     * only a measuring rank's target is a full working set; the others keep one page. */
    bool measures = mb_context_measures(ctx, me), wanted = measures;
    int peer = me;
    if (target >= HOWELL_NEIGHBOUR) {
        peer = howell_neighbour(ctx, s->comm, target == HOWELL_NEIGHBOUR_FAR, &wanted);
    }
    uint64_t bytes = mb_howell_bytes(ctx, target, ctx->nsample ? 1 : ctx->node_size);
    if (!wanted && bytes > 4096)
        bytes = 4096;
    MPI_Info info;
    MB_MPI_CHECK(MPI_Info_create(&info));
    /* Each segment on its owner's pages, not one contiguous block placed by rank 0. */
    MB_MPI_CHECK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    uint64_t *mine = NULL;
    int rc = MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, s->comm, &mine, &s->win);
    MB_MPI_CHECK(MPI_Info_free(&info));
    if (rc != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Win_allocate_shared of %llu bytes per rank failed",
                 (unsigned long long)bytes);
        free(s);
        return -1;
    }
    memset(mine, 0, bytes); /* first touch by the owner */
    MB_MPI_CHECK(MPI_Barrier(s->comm));

    MPI_Aint target_bytes = (MPI_Aint)bytes;
    s->words = mine;
    if (peer != me) {
        int disp;
        MB_MPI_CHECK(MPI_Win_shared_query(s->win, peer, &target_bytes, &disp, &s->words));
    }
    /* A rank that only waits touches nothing more. */
    s->nwords = measures ? (size_t)target_bytes / sizeof(uint64_t) : 0;
    /* Map every page of the target in this process now: a neighbour's pages, touched only
     * by their owner so far, would otherwise fault in during the measurement. */
    uint64_t sum = 0;
    for (size_t w = 0; w < s->nwords; w += 4096 / sizeof(uint64_t))
        sum += ((volatile uint64_t *)s->words)[w];
    mb_use_int(sum);
    if (s->access == HOWELL_LATENCY && s->nwords > 0) {
        mb_chase_build(s->words, s->nwords * sizeof(uint64_t), HOWELL_LINE, MB_CHASE_RANDOM,
                       12345 + (uint64_t)target);
        s->chase = s->words;
    }
    MB_MPI_CHECK(MPI_Barrier(s->comm));
    *state = s;
    return 0;
}

void mb_howell_teardown(void *state)
{
    howell_state_t *s = state;
    MB_MPI_CHECK(MPI_Barrier(s->comm));
    MB_MPI_CHECK(MPI_Win_free(&s->win));
    free(s);
}

void mb_howell_read(void *state, uint64_t iters)
{
    howell_state_t *s = state;
    if (s->access == HOWELL_LATENCY) {
        void **p = s->chase;
        for (uint64_t i = iters; i > 0; i--)
            p = (void **)*p;
        s->chase = p;
        mb_use_pointer(p);
        return;
    }
    uint64_t sum = 0;
    while (iters > 0) {
        size_t n = s->nwords - s->pos < iters ? s->nwords - s->pos : (size_t)iters;
        const volatile uint64_t *w = s->words + s->pos;
        for (size_t k = 0; k < n; k++)
            sum += w[k];
        s->pos = s->pos + n == s->nwords ? 0 : s->pos + n;
        iters -= n;
    }
    mb_use_int(sum);
}

void mb_howell_write(void *state, uint64_t iters)
{
    howell_state_t *s = state;
    uint64_t v = ++s->sink;
    while (iters > 0) {
        size_t n = s->nwords - s->pos < iters ? s->nwords - s->pos : (size_t)iters;
        volatile uint64_t *w = s->words + s->pos;
        for (size_t k = 0; k < n; k++)
            w[k] = v;
        s->pos = s->pos + n == s->nwords ? 0 : s->pos + n;
        iters -= n;
    }
    mb_use_pointer(s->words);
}

uint64_t mb_howell_touch_one(const mb_context_t *ctx, const mb_point_t *pt)
{
    return pt->v[0] == HOWELL_LOCALCACHE ? 0 : mb_howell_bytes(ctx, (int)pt->v[0], 1);
}

uint64_t mb_howell_touch_all(const mb_context_t *ctx, const mb_point_t *pt)
{
    return pt->v[0] == HOWELL_LOCALCACHE ? 0 : mb_howell_bytes(ctx, (int)pt->v[0], ctx->node_size);
}

uint64_t mb_howell_word_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx, (void)pt;
    return sizeof(uint64_t);
}
