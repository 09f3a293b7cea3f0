/* SPDX-License-Identifier: MIT */
/* Every rank runs bound to a core: an unbound process that the scheduler moves, or that
 * shares a core with the MPI library's helper processes, measures the scheduler. Binding
 * happens before MPI_Init, so what MPI_Init starts (e.g. a singleton's orted) inherits it
 * (seen here: harness.lrand48 bound after MPI_Init gave 5.85 ns in some runs and 8.8-9.2 ns
 * in others; bound before, 5.85 ns every time). */
#ifndef MB_BINDING_H
#define MB_BINDING_H

#include <stdbool.h>

#include <hwloc.h>

/* This process's rank among the ranks of its node, from the launcher's environment
 * (Open MPI, MPICH/Hydra, Slurm); 0 when there is no launcher. */
int mb_binding_local_rank(void);

/* A process the launcher already bound keeps its binding; one free to run anywhere on the
 * machine is bound to core (local_rank mod cores). Returns true when mbsuite bound it. */
bool mb_binding_ensure(hwloc_topology_t topo, int local_rank);

/* A process mb_binding_ensure bound runs on the whole machine again, as the launcher left
 * it: after the measurements, for the plots, whose gnuplots run several at once on the
 * CPUs the process may use (plot_gnuplot.h). A launcher's binding is never touched. */
void mb_binding_release(hwloc_topology_t topo);

#endif
