/* SPDX-License-Identifier: MIT */
/* mpi.mbw_mr and mpi.mbw_mr_nodes: aggregate bandwidth and message rate of many pairs
 * streaming at once, as osu_mbw_mr measures them: every pair runs mpi.bw's windowed stream
 * ([mpi] window non-blocking sends, as many receives, MPI_Waitall, an empty
 * acknowledgement), all pairs together after a common start.
 *   mbw_mr        within node 0: its first half of ranks send, each to the rank half the
 *                 node further on (osu_mbw_mr's pairing; an odd last rank sits out);
 *   mbw_mr_nodes  between nodes: node 0's k-th rank sends to the k-th rank outside node 0
 *                 (world order), as many pairs as the smaller side has ranks; skipped, with
 *                 the reason, when the run has one node.
 * The figure is the slowest rank's interval per message of every pair (one operation is one
 * message from each pair): bytes per operation pairs x d give the aggregate bandwidth, and
 * pairs messages the aggregate message rate. */
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "mpi_util.h"

enum { MULTI_IDLE, MULTI_SENDER, MULTI_RECEIVER };

typedef struct multi {
    const mb_context_t *ctx;
    MPI_Comm comm;
    int role, peer, bytes, window;
    mb_msgbuf_t sbuf, rbuf;
    MPI_Request *reqs;
} multi_t;

static const mb_dim_t multi_dims[1] = {{.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE}};

/* The pairs of each variant, from world rank 0's context (node 0's): what bytes_per_op and
 * messages_per_op count. */
static int multi_pairs_node(const mb_context_t *ctx) { return ctx->node_size / 2; }

static int multi_pairs_nodes(const mb_context_t *ctx)
{
    int others = ctx->size - ctx->node_size;
    return ctx->node_size < others ? ctx->node_size : others;
}

static int multi_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                        size_t errlen)
{
    mb_point_t probe[1];
    if (mb_message_pair_points(ctx, probe, 0, err, errlen) < 0 ||
        mb_message_window(ctx, err, errlen) < 0)
        return -1;
    uint64_t sizes[64];
    size_t n = mb_message_window_sizes(ctx->config->mpi_max_size, sizes, MB_COUNT(sizes));
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        pts[i] = (mb_point_t){.v = {(int64_t)sizes[i]}};
    return (int)n;
}

static void multi_teardown(void *state)
{
    multi_t *s = state;
    if (!s)
        return;
    mb_msgbuf_free(&s->sbuf);
    mb_msgbuf_free(&s->rbuf);
    free(s->reqs);
    free(s);
}

/* This rank's role and peer in measure_comm: node pairs when across is false, else node 0's
 * ranks against the rest. */
static void multi_pair_up(multi_t *s, const mb_context_t *ctx, bool across)
{
    int me, n;
    MB_MPI_CHECK(MPI_Comm_rank(s->comm, &me));
    MB_MPI_CHECK(MPI_Comm_size(s->comm, &n));
    s->role = MULTI_IDLE;
    s->peer = MPI_PROC_NULL;
    if (!across) {
        int pairs = n / 2;
        if (me < pairs)
            s->role = MULTI_SENDER, s->peer = me + pairs;
        else if (me < 2 * pairs)
            s->role = MULTI_RECEIVER, s->peer = me - pairs;
        return;
    }
    int *on0 = malloc((size_t)n * sizeof *on0), mine = ctx->node == 0;
    if (!on0)
        mb_mpi_fail("malloc in multi_pair_up", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    MB_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT, on0, 1, MPI_INT, s->comm));
    /* My index among my side, then the rank of that index on the other side. */
    int k = 0;
    for (int r = 0; r < me; r++)
        k += on0[r] == mine;
    int seen = 0;
    for (int r = 0; r < n && s->peer == MPI_PROC_NULL; r++)
        if (on0[r] != mine && seen++ == k)
            s->peer = r;
    if (s->peer != MPI_PROC_NULL)
        s->role = mine ? MULTI_SENDER : MULTI_RECEIVER;
    free(on0);
}

/* One message of each pair, its contents checked on arrival. */
static int multi_check(multi_t *s)
{
    int bad = 0, any = 0;
    char *out = mb_msgbuf_first(&s->sbuf), *in = mb_msgbuf_first(&s->rbuf);
    if (s->role == MULTI_SENDER) {
        mb_message_fill(out, (size_t)s->bytes, 40);
        MB_MPI_CHECK(MPI_Send(out, s->bytes, MPI_BYTE, s->peer, 1, s->comm));
    } else if (s->role == MULTI_RECEIVER) {
        memset(in, 0, (size_t)s->bytes);
        MB_MPI_CHECK(MPI_Recv(in, s->bytes, MPI_BYTE, s->peer, 1, s->comm, MPI_STATUS_IGNORE));
        bad = !mb_message_ok(in, (size_t)s->bytes, 40);
    }
    MB_MPI_CHECK(MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, s->comm));
    return any ? -1 : 0;
}

static int multi_setup_with(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                            char *err, size_t errlen, bool across)
{
    multi_t *s = calloc(1, sizeof *s);
    int window = mb_message_window(ctx, err, errlen);
    if (!s || window < 0) {
        if (!s)
            snprintf(err, errlen, "out of memory");
        free(s);
        return -1;
    }
    s->ctx = ctx;
    s->comm = ctx->measure_comm;
    s->bytes = (int)pt->v[0];
    s->window = window;
    multi_pair_up(s, ctx, across);
    s->reqs = malloc((size_t)window * sizeof *s->reqs);
    if (!s->reqs) {
        snprintf(err, errlen, "out of memory");
        multi_teardown(s);
        return -1;
    }
    if (mb_msgbuf_init(&s->sbuf, ctx, (size_t)s->bytes, err, errlen) != 0 ||
        mb_msgbuf_init(&s->rbuf, ctx, (size_t)s->bytes, err, errlen) != 0) {
        multi_teardown(s);
        return -1;
    }
    if (multi_check(s) != 0) {
        snprintf(err, errlen, "a %d-byte message of a pair arrived with the wrong contents",
                 s->bytes);
        multi_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int multi_setup_node(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                            char *err, size_t errlen)
{
    return multi_setup_with(ctx, pt, state, err, errlen, false);
}

static int multi_setup_nodes(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                             char *err, size_t errlen)
{
    return multi_setup_with(ctx, pt, state, err, errlen, true);
}

/* mpi.bw's stream, a window per iteration, on every pair at once; idle ranks return. */
static void multi_run(void *state, uint64_t iters)
{
    multi_t *s = state;
    if (s->role == MULTI_IDLE)
        return;
    char ack = 0;
    int w = s->window;
    for (uint64_t i = iters; i > 0; i--) {
        char *out = mb_msgbuf_next(&s->sbuf), *in = mb_msgbuf_next(&s->rbuf);
        if (s->role == MULTI_SENDER) {
            for (int j = 0; j < w; j++)
                MB_OP_MPI(s->ctx,
                          MPI_Isend(out, s->bytes, MPI_BYTE, s->peer, 0, s->comm, &s->reqs[j]));
            MB_OP_MPI(s->ctx, MPI_Waitall(w, s->reqs, MPI_STATUSES_IGNORE));
            MB_OP_MPI(s->ctx, MPI_Recv(&ack, 0, MPI_BYTE, s->peer, 1, s->comm, MPI_STATUS_IGNORE));
        } else {
            for (int j = 0; j < w; j++)
                MB_OP_MPI(s->ctx,
                          MPI_Irecv(in, s->bytes, MPI_BYTE, s->peer, 0, s->comm, &s->reqs[j]));
            MB_OP_MPI(s->ctx, MPI_Waitall(w, s->reqs, MPI_STATUSES_IGNORE));
            MB_OP_MPI(s->ctx, MPI_Send(&ack, 0, MPI_BYTE, s->peer, 1, s->comm));
        }
    }
}

/* Operations per iteration: a window of messages from each pair. */
static double multi_ops(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)pt;
    return (double)ctx->config->mpi_window;
}

static uint64_t multi_bytes_node(const mb_context_t *ctx, const mb_point_t *pt)
{
    return (uint64_t)multi_pairs_node(ctx) * (uint64_t)pt->v[0];
}

static uint64_t multi_messages_node(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)pt;
    return (uint64_t)multi_pairs_node(ctx);
}

static uint64_t multi_bytes_nodes(const mb_context_t *ctx, const mb_point_t *pt)
{
    return (uint64_t)multi_pairs_nodes(ctx) * (uint64_t)pt->v[0];
}

static uint64_t multi_messages_nodes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)pt;
    return (uint64_t)multi_pairs_nodes(ctx);
}

static const char *multi_skip_node(const mb_context_t *ctx, char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return ctx->has_pair_intra ? NULL : "needs 2 ranks on node 0, the run has 1 there";
}

static const char *multi_skip_nodes(const mb_context_t *ctx, char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return ctx->has_pair_inter ? NULL : "needs ranks on 2 nodes, the run has one node";
}

const mb_bench_t mb_bench_mpi_mbw_mr = {
    .name = "mpi.mbw_mr", .group = "mpi",
    .summary = "aggregate bandwidth and message rate of all pairs of a node streaming at once "
               "(osu_mbw_mr)",
    .measures = "one message from every pair of node 0 (its first half of ranks each sending to "
                "the rank half the node further on, mpi.bw's windowed stream), all pairs "
                "started together; the loop timed as a whole, the slowest rank's interval, per "
                "message of each pair",
    .min_ranks = 2, .skip_reason = multi_skip_node, .scope = MB_SCOPE_NODE_ALL,
    .dims = multi_dims, .ndims = 1, .points = multi_points, .setup = multi_setup_node,
    .run = multi_run, .ops_per_iter_at = multi_ops, .windowed = true, .teardown = multi_teardown, .bytes_per_op = multi_bytes_node,
    .messages_per_op = multi_messages_node, .headline = MB_HEADLINE_MAX,
};

const mb_bench_t mb_bench_mpi_mbw_mr_nodes = {
    .name = "mpi.mbw_mr_nodes", .group = "mpi",
    .summary = "aggregate bandwidth and message rate of pairs spanning nodes streaming at once "
               "(osu_mbw_mr across nodes)",
    .measures = "one message from every pair (node 0's k-th rank sending to the k-th rank "
                "outside node 0, mpi.bw's windowed stream), all pairs started together; the "
                "loop timed as a whole, the slowest rank's interval, per message of each pair",
    .min_ranks = 2, .skip_reason = multi_skip_nodes, .scope = MB_SCOPE_WORLD_ALL,
    .dims = multi_dims, .ndims = 1, .points = multi_points, .setup = multi_setup_nodes,
    .run = multi_run, .ops_per_iter_at = multi_ops, .windowed = true, .teardown = multi_teardown, .bytes_per_op = multi_bytes_nodes,
    .messages_per_op = multi_messages_nodes, .headline = MB_HEADLINE_MAX,
};
