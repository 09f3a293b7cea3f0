/* SPDX-License-Identifier: MIT */
/* mpi.send, mpi.ssend, mpi.rsend, mpi.isend (seed 001's table): the sender's cost of one
 * message whose receive is already posted. Per call: the partner posts MPI_Irecv, both
 * ranks synchronise (so the receive is surely posted), then rank 0's call alone is timed
 * while the partner waits for the message. What a model charges a sender: for send
 * and rsend the eager copy or the whole rendezvous; ssend adds the handshake; isend only
 * the posting (its MPI_Wait comes after the clock stops). */
#include "mpi_util.h"
#include "pair.h"

/* Partner: the receive, posted before the synchronisation. */
static void send_prepare(void *state)
{
    mb_pair_t *s = state;
    mb_pair_next_buffer(s);
    if (s->me == 1)
        MB_MPI_CHECK(MPI_Irecv(s->rcur, s->bytes, MPI_BYTE, 0, 0, s->comm, &s->req));
}

static void send_partner_wait(mb_pair_t *s)
{
    MB_OP_MPI(s->ctx, MPI_Wait(&s->req, MPI_STATUS_IGNORE));
}

static void send_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Send(s->cur, s->bytes, MPI_BYTE, 1, 0, s->comm));
    else
        send_partner_wait(s);
}

static void ssend_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Ssend(s->cur, s->bytes, MPI_BYTE, 1, 0, s->comm));
    else
        send_partner_wait(s);
}

static void rsend_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Rsend(s->cur, s->bytes, MPI_BYTE, 1, 0, s->comm));
    else
        send_partner_wait(s);
}

static void isend_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Isend(s->cur, s->bytes, MPI_BYTE, 1, 0, s->comm, &s->req));
    else
        send_partner_wait(s);
}

static void isend_finish(void *state)
{
    mb_pair_t *s = state;
    if (s->me == 0)
        MB_OP_MPI(s->ctx, MPI_Wait(&s->req, MPI_STATUS_IGNORE));
}

MB_PAIR_BENCH(send, "blocking send whose receive is already posted",
              "rank 0's MPI_Send, from after a barrier with its partner, whose MPI_Irecv was "
              "posted before the barrier, until MPI_Send returns",
              .setup = mb_pair_setup, .prepare = send_prepare, .op = send_op, .loggp = "o_s");

MB_PAIR_BENCH(ssend, "synchronous send whose receive is already posted",
              "rank 0's MPI_Ssend, from after a barrier with its partner, whose MPI_Irecv was "
              "posted before the barrier, until MPI_Ssend returns",
              .setup = mb_pair_setup, .prepare = send_prepare, .op = ssend_op);

MB_PAIR_BENCH(rsend, "ready send (the receive is posted, as MPI_Rsend requires)",
              "rank 0's MPI_Rsend, from after a barrier with its partner, whose MPI_Irecv was "
              "posted before the barrier, until MPI_Rsend returns",
              .setup = mb_pair_setup, .prepare = send_prepare, .op = rsend_op);

MB_PAIR_BENCH(isend, "posting a non-blocking send whose receive is already posted",
              "rank 0's MPI_Isend alone, from after a barrier with its partner, whose MPI_Irecv "
              "was posted before the barrier; the MPI_Wait that completes it is not timed",
              .setup = mb_pair_setup, .prepare = send_prepare, .op = isend_op,
              .finish = isend_finish, .transfer_untimed = true);
