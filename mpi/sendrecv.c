/* SPDX-License-Identifier: MIT */
/* mpi.sendrecv (seed 001's table): both ranks of a pair exchange d bytes with one
 * MPI_Sendrecv each, leaving a barrier together; each rank's call is timed and the figure is
 * their mean, as IMB's t_avg. A model's cost of one exchange step between two neighbours.
 * Why the mean: the ranks leave a barrier up to a one-way latency apart, and the one that
 * leaves later finds its partner's message there and returns at once while the other waits
 * as much longer; one rank's time is then one of two levels, call by call, and the mean of
 * the two is the exchange's. Rank 0's time alone read 46-56 ns in 6-20 of 51 experiments
 * of 1-8 B, 372-431 ns in the median, against 399-411 ns for the mean (the node's far
 * state, default run, 2-core KVM VM, 2026-12-04; docs/mpi.md). */
#include "mpi_util.h"
#include "pair.h"

static void sendrecv_op(void *state)
{
    mb_pair_t *s = state;
    MB_OP_MPI(s->ctx, MPI_Sendrecv(s->cur, s->bytes, MPI_BYTE, s->peer, 0, s->rcur, s->bytes,
                                   MPI_BYTE, s->peer, 0, s->comm, MPI_STATUS_IGNORE));
}

MB_PAIR_BENCH_HEADLINE(sendrecv, MB_HEADLINE_MEAN, "simultaneous exchange between two ranks",
                       "MPI_Sendrecv of d bytes each way between rank 0 and its partner, both "
                       "leaving a barrier together, each until its call returns: the mean of "
                       "the two ranks' times",
                       .setup = mb_pair_setup, .prepare = mb_pair_next_buffer, .op = sendrecv_op);
