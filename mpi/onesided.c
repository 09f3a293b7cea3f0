/* SPDX-License-Identifier: MIT */
/* mpi.put, mpi.get: MPI-3 one-sided transfers in a passive-target epoch (MPI_Win_lock_all
 * for the whole point). Rank 0 is the origin; an operation is the transfer plus the
 * MPI_Win_flush that completes it at the target, so the figure is the time until the data
 * is in the partner's window (put) or in rank 0's buffer (get). Operations run back to back
 * in one loop timed as a whole, as seed 001 times shmem_get and shmem_put (and OSU's
 * osu_put_latency and osu_get_latency time theirs); each experiment's loop after one
 * untimed operation (.lead_in, as pingpong's: the first transfer after the harness's quiet
 * wait between experiments is slow). Timed one by one after a barrier, each a few steps of
 * a 20 ns clock, points of put and get spread by tens of % and their held-out errors were
 * 7-21% (in a loop: 1-4%); 4 MiB transfers read 7-10% slower without the lead-in.
 *
 * The partner makes no transfer: it sits in MPI until rank 0's loop has ended, as OSU's
 * target sits in MPI_Barrier, so an MPI whose one-sided transfers need the target's
 * progress (Open MPI's osc/pt2pt, over TCP) gets it. Rank 0 ends each loop by putting its
 * count of loops into a byte a page past the partner's d bytes (pair.c: next to them, the
 * partner's polling slowed puts of whole lines 2.5x): one more 1-byte put per loop, a few ns
 * in loops of at least `enough`. A count and not a flag: with the lead-in, rank 0
 * starts its timed loop while the partner may still be reading the end of the untimed one. */
#include "mpi_util.h"
#include "pair.h"

/* Rank 0: tell the partner this loop has ended. */
static void onesided_loop_ended(mb_pair_t *s)
{
    s->loops++;
    MB_OP_MPI(s->ctx, MPI_Put(&s->loops, 1, MPI_BYTE, 1, s->loop_disp, 1, MPI_BYTE, s->win));
    MB_OP_MPI(s->ctx, MPI_Win_flush(1, s->win));
}

/* The partner: make progress in MPI until rank 0's count reaches this loop's (the count
 * wraps at 256; rank 0 is never more than the lead-in's loop ahead). MPI_Iprobe drives the
 * progress engine. It spins, as a rank waiting in MPI does: with a sched_yield() in the
 * loop, a put over Open MPI's osc/pt2pt took 24 us instead of 0.5-1.8 us here. */
static void onesided_wait_loop_end(mb_pair_t *s)
{
    s->loops++;
    volatile unsigned char *count = (volatile unsigned char *)s->win_base + s->loop_disp;
    for (;;) {
        MB_OP_MPI(s->ctx, MPI_Win_sync(s->win));
        if ((signed char)(*count - s->loops) >= 0) /* reached, or passed in the next loop */
            return;
        int any;
        MB_OP_MPI(s->ctx, MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, s->comm, &any, MPI_STATUS_IGNORE));
    }
}

static void put_run(void *state, uint64_t iters)
{
    mb_pair_t *s = state;
    if (s->me != 0) {
        onesided_wait_loop_end(s);
        return;
    }
    for (uint64_t i = iters; i > 0; i--) {
        MB_OP_MPI(s->ctx, MPI_Put(mb_msgbuf_next(&s->buf), s->bytes, MPI_BYTE, 1, 0, s->bytes,
                                  MPI_BYTE, s->win));
        MB_OP_MPI(s->ctx, MPI_Win_flush(1, s->win));
    }
    onesided_loop_ended(s);
}

static void get_run(void *state, uint64_t iters)
{
    mb_pair_t *s = state;
    if (s->me != 0) {
        onesided_wait_loop_end(s);
        return;
    }
    for (uint64_t i = iters; i > 0; i--) {
        MB_OP_MPI(s->ctx, MPI_Get(mb_msgbuf_next(&s->rbuf), s->bytes, MPI_BYTE, 1, 0, s->bytes,
                                  MPI_BYTE, s->win));
        MB_OP_MPI(s->ctx, MPI_Win_flush(1, s->win));
    }
    onesided_loop_ended(s);
}

MB_PAIR_BENCH(put, "one-sided put completed at the target (MPI-3, passive target)",
              "rank 0's MPI_Put of d bytes into its partner's window followed by "
              "MPI_Win_flush, back to back in a loop timed as a whole on rank 0 (ended by one "
              "1-byte put telling the partner), after 1 untimed put, inside one "
              "MPI_Win_lock_all epoch; the partner polls in MPI meanwhile",
              .setup = mb_pair_setup_window, .run = put_run, .lead_in = 1);

MB_PAIR_BENCH(get, "one-sided get (MPI-3, passive target)",
              "rank 0's MPI_Get of d bytes from its partner's window followed by "
              "MPI_Win_flush, back to back in a loop timed as a whole on rank 0 (ended by one "
              "1-byte put telling the partner), after 1 untimed get, inside one "
              "MPI_Win_lock_all epoch; the partner polls in MPI meanwhile",
              .setup = mb_pair_setup_window, .run = get_run, .lead_in = 1);
