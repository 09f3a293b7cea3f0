/* SPDX-License-Identifier: MIT */
/* mpi.pingpong (seed 001's "pingpong"): half a blocking round trip, MPI_Send then MPI_Recv
 * on one rank and MPI_Recv then MPI_Send on its partner, for an intra-node pair and, when
 * the job spans nodes, an inter-node pair. Sizes: 0 bytes, then powers of two and the
 * midpoints between them up to [mpi] max_size, so protocol switches show. Each size's
 * message contents are checked once in setup: a wrong receive is an error, not a fast one. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpi_util.h"
#include "sysinfo.h"

enum { PINGPONG_INTRA, PINGPONG_INTER };
static const char *const pingpong_pair_labels[] = {"intra", "inter", NULL};
static const mb_dim_t pingpong_dims[] = {
    {.name = "size_bytes", .labels = NULL},
    {.name = "pair", .labels = pingpong_pair_labels},
};

typedef struct pingpong_state {
    MPI_Comm comm;
    int me;
    char *buf;
    int bytes;
} pingpong_state_t;

/* 0, 1, 2, 3, 4, 6, 8, 12, ... up to max: powers of two and the midpoints between them. */
static int pingpong_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    uint64_t top = ctx->config->mpi_max_size;
    if (top > (uint64_t)1 << 30) {
        snprintf(err, errlen, "[mpi] max_size: %llu bytes is over the 1 GiB a message may have here",
                 (unsigned long long)top);
        return -1;
    }
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    if (memory && 2 * top > memory / 4) {
        snprintf(err, errlen, "[mpi] max_size: %llu bytes is more than this node's memory allows",
                 (unsigned long long)top);
        return -1;
    }
    size_t n = 0;
    for (int pair = PINGPONG_INTRA; pair <= PINGPONG_INTER; pair++) {
        if ((pair == PINGPONG_INTRA && !ctx->has_pair_intra) ||
            (pair == PINGPONG_INTER && !ctx->has_pair_inter))
            continue;
        if (n < max)
            pts[n++] = (mb_point_t){.v = {0, pair}};
        for (uint64_t p = 1; p <= top && n < max; p *= 2) {
            pts[n++] = (mb_point_t){.v = {(int64_t)p, pair}};
            if (p >= 2 && p + p / 2 <= top && p * 2 > p + p / 2 && n < max)
                pts[n++] = (mb_point_t){.v = {(int64_t)(p + p / 2), pair}};
        }
    }
    return (int)n;
}

static mb_scope_t pingpong_scope(const mb_point_t *pt)
{
    return pt->v[1] == PINGPONG_INTRA ? MB_SCOPE_PAIR_INTRA : MB_SCOPE_PAIR_INTER;
}

static void pingpong_fill(char *buf, int bytes, int who)
{
    for (int i = 0; i < bytes; i++)
        buf[i] = (char)(i * 7 + bytes + 31 * who);
}

static int pingpong_check(const char *buf, int bytes, int who)
{
    for (int i = 0; i < bytes; i++)
        if (buf[i] != (char)(i * 7 + bytes + 31 * who))
            return -1;
    return 0;
}

static void pingpong_teardown(void *state)
{
    pingpong_state_t *s = state;
    if (s)
        free(s->buf);
    free(s);
}

/* Collective over the pair: one verified exchange each way. */
static int pingpong_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                          size_t errlen)
{
    pingpong_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc((size_t)pt->v[0] + 1))) {
        pingpong_teardown(s);
        snprintf(err, errlen, "cannot allocate %lld bytes", (long long)pt->v[0]);
        return -1;
    }
    s->comm = pt->v[1] == PINGPONG_INTRA ? ctx->pair_intra : ctx->pair_inter;
    s->bytes = (int)pt->v[0];
    MB_MPI_CHECK(MPI_Comm_rank(s->comm, &s->me));
    int bad = 0;
    for (int sender = 0; sender < 2; sender++) {
        if (s->me == sender) {
            pingpong_fill(s->buf, s->bytes, sender);
            MB_MPI_CHECK(MPI_Send(s->buf, s->bytes, MPI_BYTE, 1 - sender, 1, s->comm));
        } else {
            memset(s->buf, 0, (size_t)s->bytes);
            MB_MPI_CHECK(MPI_Recv(s->buf, s->bytes, MPI_BYTE, sender, 1, s->comm, MPI_STATUS_IGNORE));
            bad |= pingpong_check(s->buf, s->bytes, sender) != 0;
        }
    }
    if (bad) {
        snprintf(err, errlen, "a %d-byte message arrived with the wrong contents", s->bytes);
        pingpong_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void pingpong_run(void *state, uint64_t iters)
{
    pingpong_state_t *s = state;
    int peer = 1 - s->me;
    for (uint64_t i = iters; i > 0; i--) {
        if (s->me == 0) {
            MPI_Send(s->buf, s->bytes, MPI_BYTE, peer, 0, s->comm);
            MPI_Recv(s->buf, s->bytes, MPI_BYTE, peer, 0, s->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(s->buf, s->bytes, MPI_BYTE, peer, 0, s->comm, MPI_STATUS_IGNORE);
            MPI_Send(s->buf, s->bytes, MPI_BYTE, peer, 0, s->comm);
        }
    }
}

static uint64_t pingpong_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (uint64_t)pt->v[0];
}

const mb_bench_t mb_bench_mpi_pingpong = {
    .name = "mpi.pingpong",
    .group = "mpi",
    .summary = "half a blocking round trip between two ranks, by message size",
    .measures = "half of one MPI_Send + MPI_Recv round trip between world rank 0 and its "
                "partner (intra: next rank on its node; inter: first rank of node 1), warm "
                "buffers, both ranks looping together",
    .min_ranks = 2,
    .scope_of = pingpong_scope,
    .dims = pingpong_dims,
    .ndims = MB_COUNT(pingpong_dims),
    .points = pingpong_points,
    .setup = pingpong_setup,
    .run = pingpong_run,
    .teardown = pingpong_teardown,
    .ops_per_iter = 2,
    .bytes_per_op = pingpong_bytes,
};
