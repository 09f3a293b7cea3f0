/* SPDX-License-Identifier: MIT */
/* The suite run: configuration, calibration, validation of every benchmark's parameters,
 * the output directory, then each selected benchmark in turn, results written as they
 * finish. */
#ifndef MB_DRIVER_H
#define MB_DRIVER_H

#include <stdbool.h>

#include <hwloc.h>

#include "options.h"
#include "timings.h"

/* Collective over MPI_COMM_WORLD (MPI initialised). topo is this node's loaded topology;
 * self_bound says whether mbsuite (not the launcher) bound this rank. The run's phases
 * (setup, calibration, preflight, clock_sync, benchmarks, fits) are added to timings as laps
 * from the call on, and rank 0 records them in results.json's "timings" as each ends.
 * Returns the exit status, the same on every rank: 0 done, 1 failed while running, 2 bad
 * configuration. On rank 0, out_dir gets the result directory once it exists ("" otherwise). */
int mb_driver_run(const mb_options_t *opts, hwloc_topology_t topo, bool self_bound, int argc,
                  char **argv, mb_timings_t *timings, char *out_dir, size_t out_dir_len);

#endif
