/* SPDX-License-Identifier: MIT */
/* Every rank runs bound to a core: an unbound process that the scheduler moves, or that
 * shares a core with a helper thread, measures the scheduler (seen here: 5.7 vs 9.0 ns for
 * the same lrand48 loop, unbound, in different runs; 5.85 ns every time when bound). */
#ifndef MB_BINDING_H
#define MB_BINDING_H

#include <stdbool.h>

#include <hwloc.h>
#include <mpi.h>

/* Collective over comm. A rank the launcher already bound keeps its binding; a rank free
 * to run anywhere on the machine is bound to core (node-local rank mod cores) of its node.
 * Returns true when mbsuite bound this rank, false when it kept the launcher's binding
 * (or binding is not supported, which the report then shows as the whole machine). */
bool mb_binding_ensure(MPI_Comm comm, hwloc_topology_t topo);

#endif
