/* SPDX-License-Identifier: MIT */
/* The state every point-to-point benchmark shares: a pair of ranks (rank 0 of the pair is
 * world rank 0, the measured side; rank 1 its partner), message buffers, the pending
 * request, and, for one-sided benchmarks, an MPI-3 window. Setup checks one message each
 * way for contents, so a wrong receive is an error and not a fast one. */
#ifndef MB_MPI_PAIR_H
#define MB_MPI_PAIR_H

#include "message.h"

typedef struct mb_pair {
    const mb_context_t *ctx; /* the point's, for MB_OP_MPI */
    MPI_Comm comm;
    int me, peer;
    int bytes;
    /* Sends read buf, receives (and gets) write rbuf, never the same memory: OSU's and
     * IMB's s_buf and r_buf (issue 15). */
    mb_msgbuf_t buf, rbuf;
    char *cur, *rcur;    /* this call's send and receive buffers */
    MPI_Request req;
    const mb_clock_t *clock;
    double compute_ns;   /* irecvoverlap: computation between posting and waiting */
    MPI_Win win;         /* put/get: d bytes exposed by each rank, then a loop counter */
    char *win_base;
    MPI_Aint loop_disp;  /* put/get: where the counter is, pages past the d bytes */
    unsigned char loops; /* put/get: loops rank 0 has ended (mod 256), this rank's count */
    int window;          /* bw, bibw: messages in flight ([mpi] window) */
    MPI_Request *reqs;   /* bw, bibw: 2 x window requests */
} mb_pair_t;

/* Setup of a two-sided benchmark over ctx->measure_comm. Returns 0, or -1 with err. */
int mb_pair_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                  size_t errlen);
/* Setup of a one-sided one: also a window of d bytes on each rank and a loop counter,
 * locked for passive target access (MPI_Win_lock_all), its contents checked by a put and a
 * get; the MPI-3 unified memory model is required (the partner polls its counter). */
int mb_pair_setup_window(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen);
/* Setup of a windowed one (bw, bibw): also [mpi] window and 2 x window requests. */
int mb_pair_setup_windowed(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen);
void mb_pair_teardown(void *state);

/* Bytes of the message at pt, for the bandwidth column. */
uint64_t mb_pair_bytes(const mb_context_t *ctx, const mb_point_t *pt);

/* prepare hook: take the next buffer (a new one each call when buffers are cold). */
void mb_pair_next_buffer(void *state);

/* A point-to-point descriptor: the sweep of message.h, per-call timing with headline_ as the
 * headline (point_loop.h); the rest (.setup, the hooks) in the arguments. */
#define MB_PAIR_BENCH_HEADLINE(ident, headline_, summary_, measures_, ...)                         \
    const mb_bench_t mb_bench_mpi_##ident = {.name = "mpi." #ident,                                \
                                             .group = "mpi",                                       \
                                             .summary = summary_,                                  \
                                             .measures = measures_,                                \
                                             .min_ranks = 2,                                       \
                                             .scope_of = mb_message_pair_scope,                    \
                                             .dims = mb_message_pair_dims,                         \
                                             .ndims = 2,                                           \
                                             .points = mb_message_pair_points,                     \
                                             .teardown = mb_pair_teardown,                         \
                                             .bytes_per_op = mb_pair_bytes,                        \
                                             .headline = headline_,                                \
                                             .model = MB_MODEL_LINEAR_PD,                          \
                                             __VA_ARGS__}

/* The same with rank 0 of the pair, the measured side, as the headline. */
#define MB_PAIR_BENCH(ident, summary_, measures_, ...)                                             \
    MB_PAIR_BENCH_HEADLINE(ident, MB_HEADLINE_RANK0, summary_, measures_, __VA_ARGS__)

#endif
