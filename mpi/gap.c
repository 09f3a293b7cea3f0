/* SPDX-License-Identifier: MIT */
/* mpi.gap (LogGP's g, netgauge's method): the time per message of a stream of blocking sends
 * from world rank 0 to its partner, back to back, the partner receiving them in order and
 * answering every GAP_BURST-th with an empty acknowledgement, so that the sender runs ahead
 * of the receiver by up to a burst and the stream's rate, not one message's latency, sets
 * the time. LogP spaces such sends max(g, o_s) apart; at large d the stream runs at 1/G. The
 * acknowledgements add 1/64 of a round trip per message. A loop of one message (the largest
 * sizes, each longer than enough) is acknowledged message by message: its time is then one
 * message's, which at such sizes is mostly d x G. Every experiment starts with 10 untimed
 * messages (.lead_in), as mpi.pingpong's: the first after the harness's quiet wait between
 * experiments are slow (point_loop.c); side by side on the loaded 2-core VM, 1 MiB read
 * 85-97 us without a lead-in, 66-68 us after 1 message, 62-65 us after 10; 4 KiB
 * 1.66-1.91 us without, 1.41-1.55 us with. */
#include "mpi_util.h"
#include "pair.h"

#define GAP_BURST 64

static void gap_run(void *state, uint64_t iters)
{
    mb_pair_t *s = state;
    char ack = 0;
    for (uint64_t i = 0; i < iters; i++) {
        bool acked = i % GAP_BURST == GAP_BURST - 1 || i + 1 == iters;
        if (s->me == 0) {
            MB_OP_MPI(s->ctx, MPI_Send(mb_msgbuf_next(&s->buf), s->bytes, MPI_BYTE, 1, 0, s->comm));
            if (acked)
                MB_OP_MPI(s->ctx, MPI_Recv(&ack, 0, MPI_BYTE, 1, 1, s->comm, MPI_STATUS_IGNORE));
        } else {
            MB_OP_MPI(s->ctx, MPI_Recv(mb_msgbuf_next(&s->rbuf), s->bytes, MPI_BYTE, 0, 0, s->comm,
                                       MPI_STATUS_IGNORE));
            if (acked)
                MB_OP_MPI(s->ctx, MPI_Send(&ack, 0, MPI_BYTE, 0, 1, s->comm));
        }
    }
}

MB_PAIR_BENCH(gap, "time per message of a stream of back-to-back sends (LogGP's g)",
              "one MPI_Send of a stream from world rank 0 to its partner, which receives them "
              "in order and acknowledges every 64th with an empty message; the loop of sends "
              "timed as a whole on rank 0, per message, each experiment's loop after 10 untimed "
              "messages",
              .setup = mb_pair_setup, .run = gap_run, .loggp = "g", .lead_in = 10);
