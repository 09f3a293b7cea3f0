/* SPDX-License-Identifier: MIT */
/* The collectives (seed 001's table: alltoall, gather, allgather, reduce, allreduce, bcast;
 * and barrier, scatter, reduce_scatter), on the first p world ranks, over p and message
 * size d. d is what one rank contributes or receives per peer, as in IMB: a block per
 * rank for alltoall, (all)gather, scatter and reduce_scatter; the whole vector for bcast,
 * reduce and allreduce. Reductions sum doubles, so their d is a multiple of 8. Root: rank 0.
 * Per call, all p ranks are synchronised ([mpi] sync) and each rank's call is timed; the
 * headline is the slowest rank's time (time to completion), beside the mean over ranks and
 * the entry skew (point_loop.h). Setup checks one call's result on every rank. */
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "mpi_util.h"

typedef enum coll_kind {
    COLL_BARRIER,
    COLL_BCAST,
    COLL_REDUCE,
    COLL_ALLREDUCE,
    COLL_GATHER,
    COLL_ALLGATHER,
    COLL_SCATTER,
    COLL_ALLTOALL,
    COLL_REDUCE_SCATTER,
} coll_kind_t;

typedef struct coll_state {
    const mb_context_t *ctx; /* the point's, for MB_OP_MPI */
    coll_kind_t kind;
    MPI_Comm comm;
    int me, p;
    int bytes; /* d */
    mb_msgbuf_t sbuf, rbuf;
    char *scur, *rcur;
} coll_state_t;

/* d-byte blocks in the larger of a rank's send and receive buffers. */
static int coll_blocks(coll_kind_t kind, int p)
{
    switch (kind) {
    case COLL_GATHER:
    case COLL_ALLGATHER:
    case COLL_SCATTER:
    case COLL_ALLTOALL:
    case COLL_REDUCE_SCATTER: return p;
    default: return 1;
    }
}

static bool coll_is_reduction(coll_kind_t kind)
{
    return kind == COLL_REDUCE || kind == COLL_ALLREDUCE || kind == COLL_REDUCE_SCATTER;
}

static void coll_teardown(void *state)
{
    coll_state_t *s = state;
    if (!s)
        return;
    mb_msgbuf_free(&s->sbuf);
    mb_msgbuf_free(&s->rbuf);
    free(s);
}

static void coll_prepare(void *state)
{
    coll_state_t *s = state;
    s->scur = mb_msgbuf_next(&s->sbuf);
    s->rcur = mb_msgbuf_next(&s->rbuf);
}

static void coll_call(coll_state_t *s, char *sb, char *rb)
{
    int d = s->bytes, n = d / (int)sizeof(double);
    switch (s->kind) {
    case COLL_BARRIER: MB_OP_MPI(s->ctx, MPI_Barrier(s->comm)); break;
    case COLL_BCAST: MB_OP_MPI(s->ctx, MPI_Bcast(sb, d, MPI_BYTE, 0, s->comm)); break;
    case COLL_REDUCE:
        MB_OP_MPI(s->ctx, MPI_Reduce(sb, rb, n, MPI_DOUBLE, MPI_SUM, 0, s->comm));
        break;
    case COLL_ALLREDUCE:
        MB_OP_MPI(s->ctx, MPI_Allreduce(sb, rb, n, MPI_DOUBLE, MPI_SUM, s->comm));
        break;
    case COLL_GATHER:
        MB_OP_MPI(s->ctx, MPI_Gather(sb, d, MPI_BYTE, rb, d, MPI_BYTE, 0, s->comm));
        break;
    case COLL_ALLGATHER:
        MB_OP_MPI(s->ctx, MPI_Allgather(sb, d, MPI_BYTE, rb, d, MPI_BYTE, s->comm));
        break;
    case COLL_SCATTER:
        MB_OP_MPI(s->ctx, MPI_Scatter(sb, d, MPI_BYTE, rb, d, MPI_BYTE, 0, s->comm));
        break;
    case COLL_ALLTOALL:
        MB_OP_MPI(s->ctx, MPI_Alltoall(sb, d, MPI_BYTE, rb, d, MPI_BYTE, s->comm));
        break;
    case COLL_REDUCE_SCATTER:
        MB_OP_MPI(s->ctx, MPI_Reduce_scatter_block(sb, rb, n, MPI_DOUBLE, MPI_SUM, s->comm));
        break;
    }
}

static void coll_op(void *state)
{
    coll_state_t *s = state;
    coll_call(s, s->scur, s->rcur);
}

/* Reductions: rank r contributes (r + 1) * (i + 1) at element i, exact in a double. */
static void coll_fill_doubles(char *buf, size_t n, int r)
{
    for (size_t i = 0; i < n; i++) {
        double v = (double)(r + 1) * (double)(i + 1);
        memcpy(buf + i * sizeof v, &v, sizeof v);
    }
}

static bool coll_sum_ok(const char *buf, size_t n, size_t first, int p)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, buf + i * sizeof v, sizeof v);
        if (v != (double)p * (p + 1) / 2 * (double)(first + i + 1))
            return false;
    }
    return true;
}

/* One call with known inputs; whether this rank's output is right. Block pattern: the
 * block from rank r to rank q is filled as message r * 1000 + q. */
static bool coll_check(coll_state_t *s)
{
    size_t d = (size_t)s->bytes, n = d / sizeof(double);
    int me = s->me, p = s->p;
    char *sb = mb_msgbuf_first(&s->sbuf), *rb = mb_msgbuf_first(&s->rbuf);
    memset(rb, 0, d * (size_t)coll_blocks(s->kind, p));
    switch (s->kind) {
    case COLL_BARRIER: coll_call(s, sb, rb); return true;
    case COLL_BCAST:
        if (me == 0)
            mb_message_fill(sb, d, 1000);
        else
            memset(sb, 0, d);
        coll_call(s, sb, rb);
        return mb_message_ok(sb, d, 1000);
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
        coll_fill_doubles(sb, n, me);
        coll_call(s, sb, rb);
        return (s->kind == COLL_REDUCE && me != 0) || coll_sum_ok(rb, n, 0, p);
    case COLL_REDUCE_SCATTER:
        coll_fill_doubles(sb, n * (size_t)p, me);
        coll_call(s, sb, rb);
        return coll_sum_ok(rb, n, n * (size_t)me, p);
    case COLL_GATHER:
    case COLL_ALLGATHER:
        mb_message_fill(sb, d, me * 1000);
        coll_call(s, sb, rb);
        if (s->kind == COLL_GATHER && me != 0)
            return true;
        for (int r = 0; r < p; r++)
            if (!mb_message_ok(rb + (size_t)r * d, d, r * 1000))
                return false;
        return true;
    case COLL_SCATTER:
        for (int q = 0; me == 0 && q < p; q++)
            mb_message_fill(sb + (size_t)q * d, d, q);
        coll_call(s, sb, rb);
        return mb_message_ok(rb, d, me);
    case COLL_ALLTOALL:
        for (int q = 0; q < p; q++)
            mb_message_fill(sb + (size_t)q * d, d, me * 1000 + q);
        coll_call(s, sb, rb);
        for (int r = 0; r < p; r++)
            if (!mb_message_ok(rb + (size_t)r * d, d, r * 1000 + me))
                return false;
        return true;
    }
    return false;
}

static int coll_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                      size_t errlen)
{
    coll_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    coll_kind_t kind = *(const coll_kind_t *)ctx->arg;
    s->ctx = ctx;
    s->kind = kind;
    s->comm = ctx->measure_comm;
    MB_MPI_CHECK(MPI_Comm_rank(s->comm, &s->me));
    MB_MPI_CHECK(MPI_Comm_size(s->comm, &s->p));
    s->bytes = kind == COLL_BARRIER ? 0 : (int)pt->v[0];
    size_t block_bytes = (size_t)s->bytes * (size_t)coll_blocks(kind, s->p);
    if (mb_msgbuf_init(&s->sbuf, ctx, block_bytes, err, errlen) != 0 ||
        mb_msgbuf_init(&s->rbuf, ctx, block_bytes, err, errlen) != 0) {
        coll_teardown(s);
        return -1;
    }
    int mine = coll_check(s), all = 0;
    MB_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, s->comm));
    if (!all) {
        snprintf(err, errlen, "a %d-byte call on %d ranks gave a wrong result%s", s->bytes, s->p,
                 mine ? " on another rank" : "");
        coll_teardown(s);
        return -1;
    }
    s->scur = mb_msgbuf_first(&s->sbuf);
    s->rcur = mb_msgbuf_first(&s->rbuf);
    *state = s;
    return 0;
}

/* The sweep of message.h at d > 0 too; reductions keep the sizes that are whole doubles. */
static int coll_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                       size_t errlen)
{
    coll_kind_t kind = *(const coll_kind_t *)ctx->arg;
    int n = mb_message_coll_points(ctx, coll_blocks(kind, 2) > 1, true, pts, max, err, errlen);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!coll_is_reduction(kind) || pts[i].v[0] % (int64_t)sizeof(double) == 0)
            pts[kept++] = pts[i];
    return n < 0 ? n : kept;
}

static const mb_dim_t coll_barrier_dims[] = {{.name = "ranks", .role = MB_ROLE_RANKS}};

/* Barrier: one point per p, from the collective sweep at d = 0. */
static int barrier_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    int n = mb_message_coll_points(ctx, false, true, pts, max, err, errlen), kept = 0;
    for (int i = 0; i < n; i++)
        if (pts[i].v[0] == 0)
            pts[kept++] = (mb_point_t){.v = {pts[i].v[1]}};
    return n < 0 ? n : kept;
}

#define COLL_MEASURES_TAIL                                                                         \
    ", from the synchronisation of the p ranks ([mpi] sync) until it returns, on every rank; "     \
    "headline: the slowest rank"

/* What every collective shares: the first p ranks, per-call timing, the slowest rank. */
#define COLL_COMMON                                                                                \
    .group = "mpi", .min_ranks = 2, .scope = MB_SCOPE_FIRST_RANKS, .model = MB_MODEL_LINEAR_PD,    \
    .setup = coll_setup, .teardown = coll_teardown, .prepare = coll_prepare, .op = coll_op,        \
    .headline = MB_HEADLINE_MAX
/* ... and all but the barrier: the sweep over d and p. */
#define COLL_SWEEP                                                                                 \
    COLL_COMMON, .dims = mb_message_coll_dims, .ndims = 2, .ranks_dim = 1, .points = coll_points

static const coll_kind_t coll_barrier = COLL_BARRIER, coll_bcast = COLL_BCAST,
                         coll_reduce = COLL_REDUCE, coll_allreduce = COLL_ALLREDUCE,
                         coll_gather = COLL_GATHER, coll_allgather = COLL_ALLGATHER,
                         coll_scatter = COLL_SCATTER, coll_alltoall = COLL_ALLTOALL,
                         coll_reduce_scatter = COLL_REDUCE_SCATTER;

/* The family's size as bench_list.def gives it to the registry: an entry too many does not
 * compile, one too few leaves a descriptor without a name (tests/test_registry). */
enum {
#define MB_BENCH(ident)
#define MB_FAMILY(ident, n) COLL_FAMILY_SIZE_##ident = n,
#include "bench_list.def"
#undef MB_BENCH
#undef MB_FAMILY
};

/* The family, one entry per collective (the barrier has no d). */
const mb_bench_t mb_bench_mpi_collectives[COLL_FAMILY_SIZE_mpi_collectives] = {
    {COLL_COMMON, .name = "mpi.barrier", .summary = "MPI_Barrier over p ranks",
     .measures = "each rank's MPI_Barrier" COLL_MEASURES_TAIL, .arg = &coll_barrier,
     .dims = coll_barrier_dims, .ndims = 1, .ranks_dim = 0, .points = barrier_points},
    {COLL_SWEEP, .name = "mpi.bcast", .arg = &coll_bcast,
     .summary = "broadcast of d bytes from rank 0 to p ranks",
     .measures = "each rank's MPI_Bcast of d bytes from rank 0" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.reduce", .arg = &coll_reduce,
     .summary = "sum of d bytes of doubles onto rank 0 over p ranks",
     .measures = "each rank's MPI_Reduce (MPI_SUM of d/8 doubles) to rank 0" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.allreduce", .arg = &coll_allreduce,
     .summary = "sum of d bytes of doubles onto all p ranks",
     .measures = "each rank's MPI_Allreduce (MPI_SUM of d/8 doubles)" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.gather", .arg = &coll_gather,
     .summary = "gather of d bytes from each of p ranks onto rank 0",
     .measures = "each rank's MPI_Gather of d bytes per rank to rank 0" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.allgather", .arg = &coll_allgather,
     .summary = "gather of d bytes from each of p ranks onto all",
     .measures = "each rank's MPI_Allgather of d bytes per rank" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.scatter", .arg = &coll_scatter,
     .summary = "scatter of d bytes to each of p ranks from rank 0",
     .measures = "each rank's MPI_Scatter of d bytes per rank from rank 0" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.alltoall", .arg = &coll_alltoall,
     .summary = "personalised exchange of d bytes between every two of p ranks",
     .measures = "each rank's MPI_Alltoall of d bytes per pair of ranks" COLL_MEASURES_TAIL},
    {COLL_SWEEP, .name = "mpi.reduce_scatter", .arg = &coll_reduce_scatter,
     .summary = "sum of p blocks of d bytes of doubles, block i onto rank i",
     .measures =
         "each rank's MPI_Reduce_scatter_block (MPI_SUM, d/8 doubles per rank)" COLL_MEASURES_TAIL},
};
