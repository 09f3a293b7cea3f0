/* SPDX-License-Identifier: MIT */
/* What every message-passing benchmark shares (seed 001 "Message passing"): the sweeps of
 * message size d and process count p, message buffers (warm, or cycled through more than
 * the last-level cache when [mpi] buffers = cold), and contents that can be checked, so a
 * wrong receive is an error and not a fast one. */
#ifndef MB_MPI_MESSAGE_H
#define MB_MPI_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* The pair of a point-to-point point: dimension 1 of every point-to-point benchmark. */
enum { MB_PAIR_INTRA, MB_PAIR_INTER };
extern const mb_dim_t mb_message_pair_dims[2];    /* size_bytes, pair */
extern const mb_dim_t mb_message_coll_dims[2];    /* size_bytes, ranks */

/* The point-to-point sweep: d = 0, then powers of two and the midpoints between them up to
 * [mpi] max_size, for the intra-node pair and, when the run spans nodes, the inter-node
 * pair. Returns the count, or -1 with err when max_size is over 1 GiB or memory. */
int mb_message_pair_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen);

/* The streaming bandwidth benchmarks' sizes (mpi.bw, bibw, mbw_mr): powers of 4 from 1 byte
 * up to [mpi] max_size, and max_size itself: a dozen sizes at the default 4 MiB, where the
 * latency sweep has 45, since each point moves a window of messages. Returns the count. */
size_t mb_message_window_sizes(uint64_t top, uint64_t *out, size_t max);

/* [mpi] window (the configuration checked it: 1 to MB_CONFIG_WINDOW_MAX); -1 with err when a
 * configuration built in code has another value. */
int mb_message_window(const mb_context_t *ctx, char *err, size_t errlen);

/* The pair sweep of mb_message_pair_points over mb_message_window_sizes. */
int mb_message_window_pair_points(const mb_context_t *ctx, mb_point_t *pts, size_t max,
                                  char *err, size_t errlen);

/* The scope of a point-to-point point: its pair. */
mb_scope_t mb_message_pair_scope(const mb_point_t *pt);

/* Most process counts a collective sweep measures. */
#define MB_MESSAGE_P_MAX 12

/* The process counts of the collective sweep up to most (>= 2) into ps (MB_MESSAGE_P_MAX
 * entries): 2, 3, ..., 8, then powers of two, then most; when that is more than
 * MB_MESSAGE_P_MAX values, MB_MESSAGE_P_MAX of them spaced evenly in log p from 2 to most.
 * Returns how many, ascending. */
int mb_message_p_sweep(int most, int *ps);

/* The collective sweep: the p values of mb_message_p_sweep (up to every rank, or [mpi]
 * max_ranks), each with d = 0 (when zero_size), then powers of two and midpoints up to
 * [mpi] collective_max_size. A rank's send or receive buffer holds a d-byte block per peer
 * (block_per_peer: alltoall, gather) or one (bcast); the largest must fit in a quarter
 * of a node's memory shared by its ranks, or -1 with err naming the key to lower. */
int mb_message_coll_points(const mb_context_t *ctx, bool block_per_peer,
                           bool zero_size, mb_point_t *pts, size_t max, char *err,
                           size_t errlen);

/* Message buffers of `bytes` each: one (warm), or enough to span 4 x the last-level cache
 * (cold), used in turn. */
typedef struct mb_msgbuf {
    char *base;
    size_t bytes, stride, count, next;
} mb_msgbuf_t;

/* Allocate for ctx's [mpi] buffers. Returns 0, or -1 with err. */
int mb_msgbuf_init(mb_msgbuf_t *b, const mb_context_t *ctx, size_t bytes, char *err, size_t errlen);
/* The buffer to use for the next call (the same one when warm). Inline: it is in every
 * timed loop, on both ends of a round trip. */
static inline char *mb_msgbuf_next(mb_msgbuf_t *b)
{
    char *p = b->base + b->next * b->stride;
    b->next = b->next + 1 == b->count ? 0 : b->next + 1;
    return p;
}
/* The first buffer (for the contents check). */
static inline char *mb_msgbuf_first(mb_msgbuf_t *b) { return b->base; }
void mb_msgbuf_free(mb_msgbuf_t *b);

/* An MPI call inside a measured operation or its hooks: an error fails the point, with the
 * call's name and MPI's words, and the run goes on (the measuring ranks' communicator
 * returns errors while a point is measured). One compare in the timed path. */
#define MB_OP_MPI(ctx, call)                                                                       \
    do {                                                                                           \
        int mb_op_rc_ = (call);                                                                    \
        if (__builtin_expect(mb_op_rc_ != MPI_SUCCESS, 0))                                         \
            mb_message_op_fail((ctx), mb_op_rc_, #call);                                           \
    } while (0)
void mb_message_op_fail(const mb_context_t *ctx, int rc, const char *call);

/* Fill bytes with a pattern that depends on who sent it and the size; check it. */
void mb_message_fill(char *buf, size_t bytes, int who);
bool mb_message_ok(const char *buf, size_t bytes, int who);

#endif
