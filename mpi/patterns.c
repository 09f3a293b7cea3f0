/* SPDX-License-Identifier: MIT */
/* Composite patterns, measured directly so that the predictions made from the primitives'
 * tables can be checked against them (seed 001: microbenchmarks "used to generate
 * performance predictions of MPI programs"; seed 004: a predicted and a measured column
 * per operation). On the first p world ranks, over p and message size d:
 *   mpi.ring_shift         MPI_Sendrecv of d bytes to rank + 1, from rank - 1 (mod p);
 *   mpi.halo2              1-D periodic halo: Irecv + Isend with rank -1 and +1, Waitall;
 *   mpi.halo4              the same with the ring neighbours at -1, +1, -2 and +2;
 *   mpi.allreduce_compute  a compute phase of [mpi] pattern_compute, then MPI_Allreduce.
 * Iterations run back to back in one timed loop, as in an application's time step, with no
 * synchronisation between them (late ranks and imbalance carry over: that is the point);
 * the headline is the slowest rank's time per iteration. Each experiment's loop starts with
 * 3 untimed iterations (.lead_in, as mpi.pingpong's 10): the first after the harness's
 * quiet wait between experiments are slow, and with none the patterns read 6-37% over their
 * recipes at 4 KiB-1 MiB (the median over those sizes, -np 2, 4 runs) against -9 to +6% with
 * them. Each carries its prediction recipe (mb_compose_t); docs/mpi.md says why the naive
 * sums miss. At p < 5 halo4's neighbours coincide, as they would in an application on so
 * few ranks; a neighbour that would be the rank itself (+-2 at p = 2) is the one beyond it,
 * so that every message crosses to another rank, as the recipe counts. Setup checks one
 * iteration's data. */
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "mpi_util.h"

#define PATTERN_MAX_NEIGHBOURS 4
/* Untimed iterations at the start of each experiment (above), and the same in words. */
#define PATTERN_LEAD_IN 3
#define PATTERN_WORDS(x) #x
#define PATTERN_NUMBER_TEXT(x) PATTERN_WORDS(x)

typedef enum pattern_kind {
    PATTERN_RING_SHIFT,
    PATTERN_HALO2,
    PATTERN_HALO4,
    PATTERN_ALLREDUCE_COMPUTE,
} pattern_kind_t;

typedef struct pattern_state {
    const mb_context_t *ctx; /* the point's, for MB_OP_MPI */
    pattern_kind_t kind;
    MPI_Comm comm;
    int me, p;
    int bytes; /* d */
    int k;     /* neighbours (ring and halos) */
    int to[PATTERN_MAX_NEIGHBOURS], from[PATTERN_MAX_NEIGHBOURS];
    mb_msgbuf_t sbuf, rbuf; /* k blocks of d bytes (allreduce: one) */
    const mb_clock_t *clock;
    uint64_t compute_ns; /* allreduce_compute: W */
} pattern_state_t;

/* The ring offsets of each kind's neighbours: message j goes to rank + off[j] with tag j
 * and comes from rank - off[j]. */
static const int pattern_offsets[][PATTERN_MAX_NEIGHBOURS] = {
    [PATTERN_RING_SHIFT] = {1},
    [PATTERN_HALO2] = {1, -1},
    [PATTERN_HALO4] = {1, -1, 2, -2},
};
static const int pattern_neighbours[] = {[PATTERN_RING_SHIFT] = 1,
                                         [PATTERN_HALO2] = 2,
                                         [PATTERN_HALO4] = 4,
                                         [PATTERN_ALLREDUCE_COMPUTE] = 0};

static int pattern_mod(int a, int p)
{
    return ((a % p) + p) % p;
}

static void pattern_teardown(void *state)
{
    pattern_state_t *s = state;
    if (!s)
        return;
    mb_msgbuf_free(&s->sbuf);
    mb_msgbuf_free(&s->rbuf);
    free(s);
}

/* The compute phase: a spin on the harness clock until W ns have passed, so that the
 * phase lasts W whatever the core's speed and the prediction's constant term is exact. */
static void pattern_compute(const pattern_state_t *s)
{
    uint64_t t0 = mb_clock_now_ns(s->clock);
    while (mb_clock_now_ns(s->clock) - t0 < s->compute_ns)
        ;
}

/* One iteration on the buffers sb and rb. */
static void pattern_iteration(pattern_state_t *s, char *sb, char *rb)
{
    const mb_context_t *ctx = s->ctx;
    size_t d = (size_t)s->bytes;
    MPI_Request req[2 * PATTERN_MAX_NEIGHBOURS];
    switch (s->kind) {
    case PATTERN_RING_SHIFT:
        MB_OP_MPI(ctx, MPI_Sendrecv(sb, s->bytes, MPI_BYTE, s->to[0], 0, rb, s->bytes, MPI_BYTE,
                                    s->from[0], 0, s->comm, MPI_STATUS_IGNORE));
        break;
    case PATTERN_HALO2:
    case PATTERN_HALO4:
        for (int j = 0; j < s->k; j++)
            MB_OP_MPI(ctx, MPI_Irecv(rb + (size_t)j * d, s->bytes, MPI_BYTE, s->from[j], j, s->comm,
                                     &req[j]));
        for (int j = 0; j < s->k; j++)
            MB_OP_MPI(ctx, MPI_Isend(sb + (size_t)j * d, s->bytes, MPI_BYTE, s->to[j], j, s->comm,
                                     &req[s->k + j]));
        MB_OP_MPI(ctx, MPI_Waitall(2 * s->k, req, MPI_STATUSES_IGNORE));
        break;
    case PATTERN_ALLREDUCE_COMPUTE:
        pattern_compute(s);
        MB_OP_MPI(ctx, MPI_Allreduce(sb, rb, s->bytes / (int)sizeof(double), MPI_DOUBLE, MPI_SUM,
                                     s->comm));
        break;
    }
}

static void pattern_run(void *state, uint64_t iters)
{
    pattern_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--)
        pattern_iteration(s, mb_msgbuf_next(&s->sbuf), mb_msgbuf_next(&s->rbuf));
}

/* Allreduce: rank r contributes (r + 1) * (i + 1) at element i; the sum is exact. */
static bool pattern_check_allreduce(pattern_state_t *s, char *sb, char *rb)
{
    size_t n = (size_t)s->bytes / sizeof(double);
    for (size_t i = 0; i < n; i++) {
        double v = (double)(s->me + 1) * (double)(i + 1);
        memcpy(sb + i * sizeof v, &v, sizeof v);
    }
    pattern_iteration(s, sb, rb);
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, rb + i * sizeof v, sizeof v);
        if (v != (double)s->p * (s->p + 1) / 2 * (double)(i + 1))
            return false;
    }
    return true;
}

/* One iteration with known contents; whether this rank received the right ones. Message j
 * from rank r is filled as r * 8 + j. */
static bool pattern_check(pattern_state_t *s)
{
    size_t d = (size_t)s->bytes;
    char *sb = mb_msgbuf_first(&s->sbuf), *rb = mb_msgbuf_first(&s->rbuf);
    if (s->kind == PATTERN_ALLREDUCE_COMPUTE)
        return pattern_check_allreduce(s, sb, rb);
    memset(rb, 0, d * (size_t)s->k);
    for (int j = 0; j < s->k; j++)
        mb_message_fill(sb + (size_t)j * d, d, s->me * 8 + j);
    pattern_iteration(s, sb, rb);
    for (int j = 0; j < s->k; j++)
        if (!mb_message_ok(rb + (size_t)j * d, d, s->from[j] * 8 + j))
            return false;
    return true;
}

static int pattern_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    pattern_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    s->kind = *(const pattern_kind_t *)ctx->arg;
    s->comm = ctx->measure_comm;
    s->clock = ctx->timing->clock;
    s->compute_ns = ctx->config->mpi_pattern_compute;
    MB_MPI_CHECK(MPI_Comm_rank(s->comm, &s->me));
    MB_MPI_CHECK(MPI_Comm_size(s->comm, &s->p));
    s->bytes = (int)pt->v[0];
    s->k = pattern_neighbours[s->kind];
    for (int j = 0; j < s->k; j++) {
        int off = pattern_offsets[s->kind][j];
        if (pattern_mod(off, s->p) == 0) /* not to itself: one step further */
            off += off > 0 ? 1 : -1;
        s->to[j] = pattern_mod(s->me + off, s->p);
        s->from[j] = pattern_mod(s->me - off, s->p);
    }
    size_t blocks = s->k > 0 ? (size_t)s->k : 1;
    if (mb_msgbuf_init(&s->sbuf, ctx, (size_t)s->bytes * blocks, err, errlen) != 0 ||
        mb_msgbuf_init(&s->rbuf, ctx, (size_t)s->bytes * blocks, err, errlen) != 0) {
        pattern_teardown(s);
        return -1;
    }
    int mine = pattern_check(s) && !ctx->point_error[0], all = 0;
    MB_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, s->comm));
    if (!all) {
        snprintf(err, errlen, "a %d-byte iteration on %d ranks delivered wrong data%s", s->bytes,
                 s->p, mine ? " on another rank" : "");
        pattern_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

/* The collective sweep thinned to d = 0 and the powers of 4 from 16 bytes (whole doubles
 * for the reduction): a pattern is a check of the predictions, not a curve to fit, and the
 * default run's time is shared. */
static int pattern_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    int n = mb_message_coll_points(ctx, false, true, pts, max, err, errlen), kept = 0;
    for (int i = 0; i < n; i++) {
        int64_t d = pts[i].v[0];
        bool power_of_4 =
            d >= 16 && (d & (d - 1)) == 0 && __builtin_ctzll((unsigned long long)d) % 2 == 0;
        if (d == 0 || power_of_4)
            pts[kept++] = pts[i];
    }
    return n < 0 ? n : kept;
}

/* The point-to-point figures the recipes use: the intra-node pair's, and the inter-node
 * pair's at a point whose p ranks span nodes (when the run has an inter-node pair). */
static mb_compose_t pattern_sendrecv(const mb_context_t *ctx, double times)
{
    return (mb_compose_t){.benchmark = "mpi.sendrecv",
                          .times = times,
                          .series_axis = "pair",
                          .series_label = "intra",
                          .series_label_across = ctx->has_pair_inter ? "inter" : NULL};
}

/* Each message of an exchange costs one MPI_Sendrecv step (a send and a receive of d bytes
 * with a neighbour, one after the other): k neighbours are k steps. LogGP's one step and
 * k - 1 gaps predicted -np 2 nearer but p >= 3 worse on a 16-core VM (docs/mpi.md). */
static size_t pattern_compose(const mb_context_t *ctx, mb_compose_t *terms, size_t max)
{
    pattern_kind_t kind = *(const pattern_kind_t *)ctx->arg;
    if (max < 2)
        return 0;
    if (kind != PATTERN_ALLREDUCE_COMPUTE) {
        terms[0] = pattern_sendrecv(ctx, pattern_neighbours[kind]);
        return 1;
    }
    terms[0] = (mb_compose_t){.constant_ns = (double)ctx->config->mpi_pattern_compute,
                              .what = "compute phase ([mpi] pattern_compute)"};
    terms[1] = (mb_compose_t){.benchmark = "mpi.allreduce", .times = 1};
    return 2;
}

#define PATTERN_MEASURES_TAIL                                                                      \
    "; iterations back to back in one loop timed as a whole, the p ranks leaving a barrier "       \
    "together before it and running " PATTERN_NUMBER_TEXT(PATTERN_LEAD_IN) " untimed "           \
    "iterations; headline: the slowest rank's time per iteration"

#define PATTERN_COMMON                                                                             \
    .group = "mpi", .min_ranks = 2, .scope = MB_SCOPE_FIRST_RANKS, .model = MB_MODEL_NONE,         \
    .dims = mb_message_coll_dims, .ndims = 2, .ranks_dim = 1, .points = pattern_points,            \
    .setup = pattern_setup, .teardown = pattern_teardown, .run = pattern_run,                      \
    .headline = MB_HEADLINE_MAX, .compose = pattern_compose, .lead_in = PATTERN_LEAD_IN

static const pattern_kind_t pattern_ring = PATTERN_RING_SHIFT, pattern_halo2 = PATTERN_HALO2,
                            pattern_halo4 = PATTERN_HALO4,
                            pattern_allreduce = PATTERN_ALLREDUCE_COMPUTE;

/* The family's size as bench_list.def gives it (tests/test_registry). */
enum {
#define MB_BENCH(ident)
#define MB_FAMILY(ident, n) PATTERN_FAMILY_SIZE_##ident = n,
#include "bench_list.def"
#undef MB_BENCH
#undef MB_FAMILY
};

const mb_bench_t mb_bench_mpi_patterns[PATTERN_FAMILY_SIZE_mpi_patterns] = {
    {PATTERN_COMMON, .name = "mpi.ring_shift", .arg = &pattern_ring,
     .summary = "ring shift: every rank sends d bytes to the next and receives from the previous",
     .measures = "one MPI_Sendrecv per rank of d bytes to rank+1 and from rank-1 (mod "
                 "p)" PATTERN_MEASURES_TAIL},
    {PATTERN_COMMON, .name = "mpi.halo2", .arg = &pattern_halo2,
     .summary = "1-D periodic halo exchange of d bytes with 2 neighbours",
     .measures = "per rank MPI_Irecv from and MPI_Isend to rank-1 and rank+1 (mod p), d bytes "
                 "each, then MPI_Waitall" PATTERN_MEASURES_TAIL},
    {PATTERN_COMMON, .name = "mpi.halo4", .arg = &pattern_halo4,
     .summary = "periodic halo exchange of d bytes with the 4 ring neighbours at +-1 and +-2",
     .measures =
         "per rank MPI_Irecv from and MPI_Isend to rank-1, rank+1, rank-2 and rank+2 "
         "(mod p; at p < 5 some coincide, and one that would be the rank itself is the next), d bytes each, then MPI_Waitall" PATTERN_MEASURES_TAIL},
    {PATTERN_COMMON, .name = "mpi.allreduce_compute", .arg = &pattern_allreduce,
     .summary = "a compute phase of [mpi] pattern_compute, then an allreduce of d bytes",
     .measures = "per rank a spin of [mpi] pattern_compute on the clock, then MPI_Allreduce "
                 "(MPI_SUM of d/8 doubles)" PATTERN_MEASURES_TAIL},
};
