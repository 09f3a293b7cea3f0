/* SPDX-License-Identifier: MIT */
/* SIGTERM, SIGINT and SIGHUP end a run with its record: mpirun sends SIGTERM to the ranks
 * when a rank dies or when it is itself interrupted, then SIGKILL a second later
 * (odls_base_sigkill_timeout), or as soon as one rank has ended; a batch system's time
 * limit does the same. */
#ifndef MB_SIGNALS_H
#define MB_SIGNALS_H

#include <stdbool.h>

/* Block the three signals in this thread (and so in every thread created after, MPI's
 * included) and start a thread that waits for them: on one it has rank 0's open results
 * written as interrupted (results.h: mb_results_interrupt, with the benchmark in progress
 * as far as it went), then ends the process by the same signal. writes_record: this
 * process is rank 0, which holds the record; every other rank ends a few seconds later
 * (unless killed first), so that its end does not make mpirun kill rank 0 mid-write.
 * Call before MPI_Init. Returns 0, or -1 (no thread: the signals keep their default
 * action). */
int mb_signals_start(bool writes_record);

/* Unblock the three in the calling thread, after the run: children it starts (gnuplot)
 * inherit its mask, and must keep the signals' default action. */
void mb_signals_unblock(void);

#endif
