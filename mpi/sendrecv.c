/* SPDX-License-Identifier: MIT */
/* mpi.sendrecv (seed 001's table): both ranks of a pair exchange d bytes with one
 * MPI_Sendrecv each, leaving a barrier together; rank 0's call is timed. A model's cost
 * of one exchange step between two neighbours. */
#include "mpi_util.h"
#include "pair.h"

static void sendrecv_op(void *state)
{
    mb_pair_t *s = state;
    MB_OP_MPI(s->ctx, MPI_Sendrecv(s->cur, s->bytes, MPI_BYTE, s->peer, 0, s->rcur, s->bytes,
                                   MPI_BYTE, s->peer, 0, s->comm, MPI_STATUS_IGNORE));
}

MB_PAIR_BENCH(sendrecv, "simultaneous exchange between two ranks",
              "rank 0's MPI_Sendrecv of d bytes each way with its partner, which makes the "
              "same call, both leaving a barrier together, until it returns",
              .setup = mb_pair_setup, .prepare = mb_pair_next_buffer, .op = sendrecv_op);
