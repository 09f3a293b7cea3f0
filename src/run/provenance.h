/* SPDX-License-Identifier: MIT */
/* Where figures came from: the "system" object of results.json (suite version, command line,
 * compiler and flags, MPI library, every node's description, the clock, who bound the
 * ranks). */
#ifndef MB_PROVENANCE_H
#define MB_PROVENANCE_H

#include <stdbool.h>

#include <hwloc.h>
#include <jansson.h>
#include <mpi.h>

#include "node_layout.h"
#include "timing.h"

/* Collective over comm: the "system" object on rank 0 (new reference; NULL if gathering
 * failed), NULL elsewhere. t is the calibrated timing; self_bound says whether mbsuite (not
 * the launcher) bound this rank; argc/argv are the command line as given. */
json_t *mb_provenance_gather(MPI_Comm comm, const mb_node_layout_t *layout, hwloc_topology_t topo,
                             const mb_timing_t *t, bool self_bound, int argc, char **argv);

#endif
