/* SPDX-License-Identifier: MIT */
/* mpi.pingpong (seed 001's "pingpong"): half a blocking round trip, MPI_Send then MPI_Recv
 * on rank 0 and MPI_Recv then MPI_Send on its partner, round trips back to back in one
 * timed loop (as NetPIPE and OSU's latency test do), for an intra-node pair and, when the
 * job spans nodes, an inter-node pair. Each round trip waits for the previous one, so no
 * two overlap; the loop is timed as a whole, so no per-call clock reads disturb it. Each rank
 * sends from one buffer and receives into another, as OSU and IMB do: sending a buffer
 * that the last receive just wrote made the round trip 2.3-2.8x slower at 64 KiB-1 MiB
 * here (issue 15). Every experiment starts with 10 untimed round trips (.lead_in; OSU's
 * warm-up count above 8 KiB): the first after the harness's quiet wait between experiments
 * are slow (point_loop.c) and at 1 MiB an experiment is one round trip; 1 MiB medians side
 * by side: no lead-in 136-307 us (minima 79-85), 1 round trip 66-71, 10 62-64, as a barrier
 * and one round trip without the sleeping wait (62-65); 30 no better. */
#include "mpi_util.h"
#include "pair.h"

/* iters round trips; one_buffer: each rank receives into the buffer it sends from, as
 * NetPIPE does by default (its "cache" mode: netpipe.c points the send buffer at the receive
 * buffer), so every send reads what the last receive wrote. A constant at each call below,
 * so each run function's loop is compiled for its own case. */
static inline void pingpong_round_trips(mb_pair_t *s, uint64_t iters, bool one_buffer)
{
    for (uint64_t i = iters; i > 0; i--) {
        char *out = mb_msgbuf_next(&s->buf);
        char *in = one_buffer ? out : mb_msgbuf_next(&s->rbuf);
        if (s->me == 0) {
            MB_OP_MPI(s->ctx, MPI_Send(out, s->bytes, MPI_BYTE, 1, 0, s->comm));
            MB_OP_MPI(s->ctx, MPI_Recv(in, s->bytes, MPI_BYTE, 1, 0, s->comm, MPI_STATUS_IGNORE));
        } else {
            MB_OP_MPI(s->ctx, MPI_Recv(in, s->bytes, MPI_BYTE, 0, 0, s->comm, MPI_STATUS_IGNORE));
            MB_OP_MPI(s->ctx, MPI_Send(out, s->bytes, MPI_BYTE, 0, 0, s->comm));
        }
    }
}

static void pingpong_run(void *state, uint64_t iters)
{
    pingpong_round_trips(state, iters, false);
}

/* Kept on request only, so that make bench can set mbsuite beside NetPIPE like for like; the
 * suite's pingpong is OSU's and IMB's. */
static void pingpong_one_buffer_run(void *state, uint64_t iters)
{
    pingpong_round_trips(state, iters, true);
}

MB_PAIR_BENCH(pingpong, "half a blocking round trip between two ranks, by message size",
              "half of one MPI_Send + MPI_Recv round trip between world rank 0 and its partner "
              "(intra: next rank on its node; inter: first rank of node 1), round trips back "
              "to back in a loop timed as a whole on rank 0, each experiment's loop after 10 "
              "untimed round trips",
              .setup = mb_pair_setup, .run = pingpong_run, .ops_per_iter = 2, .loggp = "L",
              .lead_in = 10);

MB_PAIR_BENCH(pingpong_one_buffer, "mpi.pingpong with one buffer per rank, as NetPIPE by default",
              "as mpi.pingpong, but each rank receives into the buffer it sends from, so every "
              "send reads what the last receive wrote (NetPIPE's default; OSU and IMB use two "
              "buffers, as mpi.pingpong does)",
              .setup = mb_pair_setup, .run = pingpong_one_buffer_run, .ops_per_iter = 2,
              .lead_in = 10, .on_request = true);
