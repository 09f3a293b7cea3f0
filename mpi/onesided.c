/* SPDX-License-Identifier: MIT */
/* mpi.put, mpi.get: MPI-3 one-sided transfers in a passive-target epoch (MPI_Win_lock_all
 * for the whole point). Rank 0 is the origin; the timed call is the transfer plus the
 * MPI_Win_flush that completes it at the target, so the figure is the time until the data
 * is in the partner's window (put) or in rank 0's buffer (get). The partner makes no call
 * for it: it sits in the harness's barrier, as a busy target would sit in MPI. */
#include "mpi_util.h"
#include "pair.h"

static void put_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me != 0)
        return;
    MB_OP_MPI(s->ctx, MPI_Put(s->cur, s->bytes, MPI_BYTE, 1, 0, s->bytes, MPI_BYTE, s->win));
    MB_OP_MPI(s->ctx, MPI_Win_flush(1, s->win));
}

static void get_op(void *state)
{
    mb_pair_t *s = state;
    if (s->me != 0)
        return;
    MB_OP_MPI(s->ctx, MPI_Get(s->rcur, s->bytes, MPI_BYTE, 1, 0, s->bytes, MPI_BYTE, s->win));
    MB_OP_MPI(s->ctx, MPI_Win_flush(1, s->win));
}

MB_PAIR_BENCH(put, "one-sided put completed at the target (MPI-3, passive target)",
              "rank 0's MPI_Put of d bytes into its partner's window followed by MPI_Win_flush, "
              "after a barrier, inside one MPI_Win_lock_all epoch",
              .setup = mb_pair_setup_window, .prepare = mb_pair_next_buffer, .op = put_op);

MB_PAIR_BENCH(get, "one-sided get (MPI-3, passive target)",
              "rank 0's MPI_Get of d bytes from its partner's window followed by MPI_Win_flush, "
              "after a barrier, inside one MPI_Win_lock_all epoch",
              .setup = mb_pair_setup_window, .prepare = mb_pair_next_buffer, .op = get_op);
