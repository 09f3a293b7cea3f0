/* SPDX-License-Identifier: MIT */
/* The receiving side (seed 001's table), rank 0 receiving from its partner:
 *   recv          MPI_Recv entered as the partner starts its MPI_Send (both leave a
 *                 barrier together): waiting for the message plus taking it in;
 *   recvmin       MPI_Recv of a message that has already arrived (MPI_Probe saw it before
 *                 the clock started): the least a receive costs. Above the eager limit only
 *                 the envelope has arrived, so the transfer is in it (the seed's 80*d);
 *   irecv1        posting MPI_Irecv; the message is sent after the clock stops;
 *   irecv2        the MPI_Wait completing a posted receive, entered as the send starts;
 *   irecvoverlap  the MPI_Wait after posting MPI_Irecv, telling the partner to send and
 *                 computing, without MPI calls, for as long as the message would take at
 *                 1 GB/s plus 2 us: the part of a transfer that computation does not hide
 *                 (0 when MPI progresses alone). */
#include "mpi_util.h"
#include "pair.h"

/* irecvoverlap: rank 0's word to its partner that it may send (irecvoverlap_settle). */
#define IRECVOVERLAP_GO_TAG 1

static void recv_partner_send(mb_pair_t *s)
{
    MB_OP_MPI(s->ctx, MPI_Send(s->cur, s->bytes, MPI_BYTE, 0, 0, s->comm));
}

static void recv_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Recv(s->rcur, s->bytes, MPI_BYTE, 1, 0, s->comm, MPI_STATUS_IGNORE));
    else
        recv_partner_send(s);
}

/* recvmin: the partner's message is on its way (a non-blocking send, so a rendezvous does
 * not hold the partner up) and rank 0 has seen it arrive. */
static void recvmin_prepare(void *state)
{
    mb_pair_t *s = state;
    mb_pair_next_buffer(s);
    if (s->me == 1)
        MB_MPI_CHECK(MPI_Isend(s->cur, s->bytes, MPI_BYTE, 0, 0, s->comm, &s->req));
    else
        MB_MPI_CHECK(MPI_Probe(1, 0, s->comm, MPI_STATUS_IGNORE));
}

static void recvmin_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Recv(s->rcur, s->bytes, MPI_BYTE, 1, 0, s->comm, MPI_STATUS_IGNORE));
}

static void recvmin_finish(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 1)
        MB_OP_MPI(s->ctx, MPI_Wait(&s->req, MPI_STATUS_IGNORE));
}

/* irecv1: post, then (untimed) the partner sends and rank 0 completes the receive. */
static void irecv1_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Irecv(s->rcur, s->bytes, MPI_BYTE, 1, 0, s->comm, &s->req));
}

/* The partner, whose op is empty, would send as it leaves the start; its message could then
 * arrive while MPI_Irecv runs, which matches and takes it in: 10 ns or 120 ns at up to
 * 256 B, 20 ns or 1 us above 4 KiB, experiment by experiment (Howell's irecv1 is the
 * posting alone, 70 + 0*d). A barrier after the clock stops holds the send back. */
static void irecv1_finish(void *state)
{
    mb_pair_t *s = state;
    MB_OP_MPI(s->ctx, MPI_Barrier(s->comm));
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Wait(&s->req, MPI_STATUS_IGNORE));
    else
        recv_partner_send(s);
}

/* irecv2 and irecvoverlap: the receive is posted before the barrier. */
static void irecv2_prepare(void *state)
{
    mb_pair_t *s = state;
    mb_pair_next_buffer(s);
    if (s->me == 0)
        MB_MPI_CHECK(MPI_Irecv(s->rcur, s->bytes, MPI_BYTE, 1, 0, s->comm, &s->req));
}

static void irecv2_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Wait(&s->req, MPI_STATUS_IGNORE));
    else
        recv_partner_send(s);
}

/* Rank 0 tells its partner to send, then computes without MPI calls, so that the library
 * gets no chance to progress the transfer before the timed MPI_Wait. The partner sends on
 * that word, not as it leaves the barrier: rank 0, still polling in the barrier, would take
 * in a message sent then (a rendezvous's whole single copy included) and its MPI_Wait would
 * find the transfer done. Sent as the partner left the barrier, 130 of 2962 experiments of
 * 4 KiB-4 MiB in 4 runs read under 0.6x their point's median in the node's far state (a
 * 0-byte pingpong of 350 ns against 100), 11 of 4843 in 10 runs in the near one; on the
 * word, none of 10082 in 20 runs (2-core KVM VM, 2026-12-04; docs/mpi.md). The word's
 * one-way latency comes out of the 2 us of computation over the transfer's own time. */
static void irecvoverlap_settle(void *state)
{
    mb_pair_t *s = state;
    if (s->me != 0) {
        MB_MPI_CHECK(
            MPI_Recv(NULL, 0, MPI_BYTE, 0, IRECVOVERLAP_GO_TAG, s->comm, MPI_STATUS_IGNORE));
        return;
    }
    MB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 1, IRECVOVERLAP_GO_TAG, s->comm));
    uint64_t until = mb_clock_now_ns(s->clock) + (uint64_t)s->compute_ns;
    while (mb_clock_now_ns(s->clock) < until)
        ;
}

MB_PAIR_BENCH(recv, "blocking receive entered as the matching send starts",
              "rank 0's MPI_Recv, from after a barrier with its partner, which then calls "
              "MPI_Send, until MPI_Recv returns",
              .setup = mb_pair_setup, .prepare = mb_pair_next_buffer, .op = recv_op);

MB_PAIR_BENCH(recvmin, "blocking receive of a message that has already arrived",
              "rank 0's MPI_Recv of a message that MPI_Probe saw arrive before the clock "
              "started (sent with MPI_Isend by the partner), until MPI_Recv returns",
              .setup = mb_pair_setup, .prepare = recvmin_prepare, .op = recvmin_op,
              .finish = recvmin_finish, .loggp = "o_r");

MB_PAIR_BENCH(irecv1, "posting a non-blocking receive",
              "rank 0's MPI_Irecv alone, after a barrier; the partner sends, and rank 0 "
              "waits, after the clock stops and a second barrier",
              .setup = mb_pair_setup, .prepare = mb_pair_next_buffer, .op = irecv1_op,
              .finish = irecv1_finish, .transfer_untimed = true);

MB_PAIR_BENCH(irecv2, "the MPI_Wait completing a posted receive",
              "rank 0's MPI_Wait on an MPI_Irecv posted before a barrier with its partner, "
              "which calls MPI_Send as rank 0 enters MPI_Wait, until MPI_Wait returns",
              .setup = mb_pair_setup, .prepare = irecv2_prepare, .op = irecv2_op);

MB_PAIR_BENCH(irecvoverlap, "what computation does not hide of a non-blocking receive",
              "rank 0's MPI_Wait on an MPI_Irecv posted before a barrier, after telling its "
              "partner to send (an empty message) and computing without MPI calls for 2 us + "
              "1 ns per byte while the partner sends: the transfer time left over (0 if the "
              "transfer progressed during the computation)",
              .setup = mb_pair_setup, .prepare = irecv2_prepare, .settle = irecvoverlap_settle,
              .op = irecv2_op, .transfer_untimed = true);
