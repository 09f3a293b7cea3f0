/* SPDX-License-Identifier: MIT */
/* mpi.bw and mpi.bibw: streaming bandwidth between the pair of a point-to-point benchmark
 * (intra-node, and inter-node when the run spans nodes), with a window of messages in
 * flight, as osu_bw and osu_bibw (and IMB's Uniband and Biband) measure it: the figure users
 * quote for a link.
 *   bw    the sender posts [mpi] window MPI_Isends, the receiver as many MPI_Irecvs; both
 *         MPI_Waitall, then the receiver answers with an empty acknowledgement, so no window
 *         starts before the last one has arrived (osu_bw);
 *   bibw  both ranks post window MPI_Irecvs, then window MPI_Isends, then MPI_Waitall
 *         (osu_bibw): the two directions at once; no acknowledgement.
 * The loop of messages is timed as a whole on the pair's rank 0, its time per message (per
 * message each way for bibw) is the figure; bytes per operation d (bibw: 2d, both ways) give
 * the bandwidth, and 1 (bibw: 2) messages the message rate. An iteration of the loop is a
 * whole window, so every experiment streams at least one (a short `enough` would otherwise
 * time single messages). As OSU does, every message of a window
 * goes out of one send buffer and into one receive buffer (both cycle per window when
 * [mpi] buffers = cold): the figure is the transport's, not the memory's. */
#include "mpi_util.h"
#include "pair.h"

static void bw_run(void *state, uint64_t iters)
{
    mb_pair_t *s = state;
    char ack = 0;
    int w = s->window;
    for (uint64_t i = iters; i > 0; i--) {
        char *out = mb_msgbuf_next(&s->buf), *in = mb_msgbuf_next(&s->rbuf);
        if (s->me == 0) {
            for (int j = 0; j < w; j++)
                MB_OP_MPI(s->ctx, MPI_Isend(out, s->bytes, MPI_BYTE, 1, 0, s->comm, &s->reqs[j]));
            MB_OP_MPI(s->ctx, MPI_Waitall(w, s->reqs, MPI_STATUSES_IGNORE));
            MB_OP_MPI(s->ctx, MPI_Recv(&ack, 0, MPI_BYTE, 1, 1, s->comm, MPI_STATUS_IGNORE));
        } else {
            for (int j = 0; j < w; j++)
                MB_OP_MPI(s->ctx, MPI_Irecv(in, s->bytes, MPI_BYTE, 0, 0, s->comm, &s->reqs[j]));
            MB_OP_MPI(s->ctx, MPI_Waitall(w, s->reqs, MPI_STATUSES_IGNORE));
            MB_OP_MPI(s->ctx, MPI_Send(&ack, 0, MPI_BYTE, 0, 1, s->comm));
        }
    }
}

static void bibw_run(void *state, uint64_t iters)
{
    mb_pair_t *s = state;
    int w = s->window;
    for (uint64_t i = iters; i > 0; i--) {
        char *out = mb_msgbuf_next(&s->buf), *in = mb_msgbuf_next(&s->rbuf);
        for (int j = 0; j < w; j++)
            MB_OP_MPI(s->ctx, MPI_Irecv(in, s->bytes, MPI_BYTE, s->peer, 0, s->comm, &s->reqs[j]));
        for (int j = 0; j < w; j++)
            MB_OP_MPI(s->ctx,
                      MPI_Isend(out, s->bytes, MPI_BYTE, s->peer, 0, s->comm, &s->reqs[w + j]));
        MB_OP_MPI(s->ctx, MPI_Waitall(2 * w, s->reqs, MPI_STATUSES_IGNORE));
    }
}

/* Operations per iteration: the window's messages ([mpi] window, checked by the points). */
static double window_ops(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)pt;
    return (double)ctx->config->mpi_window;
}

static uint64_t bw_messages(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx, (void)pt;
    return 1;
}

static uint64_t bibw_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return 2 * (uint64_t)pt->v[0];
}

static uint64_t bibw_messages(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx, (void)pt;
    return 2;
}

const mb_bench_t mb_bench_mpi_bw = {
    .name = "mpi.bw", .group = "mpi",
    .summary = "streaming bandwidth, one direction, a window of messages in flight (osu_bw)",
    .measures = "one message of a stream from world rank 0 to its partner in windows of [mpi] "
                "window non-blocking sends (the partner posting as many receives), each window "
                "completed by MPI_Waitall and acknowledged by an empty message; the loop timed "
                "as a whole on rank 0, per message",
    .min_ranks = 2, .scope_of = mb_message_pair_scope, .dims = mb_message_pair_dims,
    .ndims = 2, .points = mb_message_window_pair_points, .setup = mb_pair_setup_windowed,
    .run = bw_run, .ops_per_iter_at = window_ops, .windowed = true, .teardown = mb_pair_teardown, .bytes_per_op = mb_pair_bytes,
    .messages_per_op = bw_messages, .headline = MB_HEADLINE_RANK0,
};

const mb_bench_t mb_bench_mpi_bibw = {
    .name = "mpi.bibw", .group = "mpi",
    .summary = "streaming bandwidth, both directions at once, a window of messages in flight "
               "(osu_bibw)",
    .measures = "one message each way of two streams between world rank 0 and its partner, "
                "each rank posting [mpi] window non-blocking receives, then as many sends, then "
                "MPI_Waitall; the loop timed as a whole on rank 0, per message each way (bytes: "
                "2d)",
    .min_ranks = 2, .scope_of = mb_message_pair_scope, .dims = mb_message_pair_dims,
    .ndims = 2, .points = mb_message_window_pair_points, .setup = mb_pair_setup_windowed,
    .run = bibw_run, .ops_per_iter_at = window_ops, .windowed = true, .teardown = mb_pair_teardown, .bytes_per_op = bibw_bytes,
    .messages_per_op = bibw_messages, .headline = MB_HEADLINE_RANK0,
};
