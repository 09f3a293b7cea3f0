/* SPDX-License-Identifier: MIT */
/* The harness for operations that several ranks perform at the same time (all processes
 * reading memory at once, a barrier): every experiment starts on all ranks of a
 * communicator together, with the same iteration count, and all ranks run the same number
 * of experiments. */
#ifndef MB_HARNESS_TOGETHER_H
#define MB_HARNESS_TOGETHER_H

#include <mpi.h>

#include "harness.h"

/* Collective over comm. After a warm-up, each rank's own auto-sized count (seed 000 6.4)
 * is raised to the largest over the ranks, so every interval lasts at least enough on
 * every rank; each experiment starts after an MPI_Barrier; experiments repeat while any
 * rank still wants more (opts' minimum, CI target and cap, seed 000 6.5). Each rank gets
 * its own samples in out (ns per operation). Returns 0 on every rank, or -1 on every rank
 * when one failed (out is then empty). */
int mb_harness_measure_together(const mb_timing_t *t, const mb_measure_opts_t *opts,
                                mb_run_fn run, void *state, MPI_Comm comm, mb_measurement_t *out);

#endif
