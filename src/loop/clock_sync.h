/* SPDX-License-Identifier: MIT */
/* Clock offsets between nodes, so that start times on different ranks can be compared
 * (a collective's entry skew, ReproMPI's common start times). Cristian's method: the
 * exchange with the shortest round trip of several gives the offset, within half that
 * round trip. Ranks on one node read one kernel clock and share their leader's offset. */
#ifndef MB_CLOCK_SYNC_H
#define MB_CLOCK_SYNC_H

#include <mpi.h>

#include "clock.h"

/* Collective over comm (node_comm: this rank's node; node_rank its rank there; world rank
 * 0 is node_rank 0 of node 0). Returns the ns to add to this rank's clock to read world
 * rank 0's; *uncertainty_ns gets half the shortest round trip (0 on rank 0's node). */
double mb_clock_sync_offset(const mb_clock_t *clock, MPI_Comm comm, MPI_Comm node_comm,
                            double *uncertainty_ns);

#endif
