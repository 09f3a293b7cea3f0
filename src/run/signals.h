/* SPDX-License-Identifier: MIT */
/* SIGTERM, SIGINT and SIGHUP end a run with its record: mpirun sends SIGTERM to the ranks
 * when a rank dies or when it is itself interrupted, then SIGKILL a second later
 * (odls_base_sigkill_timeout); a batch system's time limit does the same. */
#ifndef MB_SIGNALS_H
#define MB_SIGNALS_H

/* Block the three signals in this thread (and so in every thread created after, MPI's
 * included) and start a thread that waits for them: on one it has rank 0's open results
 * written as interrupted (results.h: mb_results_interrupt, with the benchmark in progress
 * as far as it went), then ends the process by the same signal. Call before MPI_Init.
 * Returns 0, or -1 (no thread: the signals keep their default action). */
int mb_signals_start(void);

/* Unblock the three in the calling thread, after the run: children it starts (gnuplot)
 * inherit its mask, and must keep the signals' default action. */
void mb_signals_unblock(void);

#endif
