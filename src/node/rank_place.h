/* SPDX-License-Identifier: MIT */
/* Where a node's ranks sit: each rank's binding (a cpuset, i.e. OS PU numbers, so it means
 * the same in every process of the node), the NUMA node local to it, and hwloc's NUMA
 * distances. Pure functions take the topology and bindings as arguments, so tests can pass
 * synthetic topologies; only mb_rank_place_gather talks to MPI. */
#ifndef MB_RANK_PLACE_H
#define MB_RANK_PLACE_H

#include <stdint.h>

#include <hwloc.h>
#include <mpi.h>

/* Collective over comm: every rank's binding (hwloc_get_cpubind of the process; empty when
 * unknown), in rank order; *n gets comm's size. Aborts the run when out of memory. Free
 * with mb_rank_place_free. */
hwloc_bitmap_t *mb_rank_place_gather(hwloc_topology_t topo, MPI_Comm comm, int *n);

/* Frees the n bitmaps of bindings and the array; NULL is fine. */
void mb_rank_place_free(hwloc_bitmap_t *bindings, int n);

/* The logical index of the NUMA node whose CPUs hold all of binding (the lowest such when
 * several share those CPUs, e.g. DRAM and HBM); -1 when binding is NULL, empty, has PUs
 * outside topo, or spans several NUMA nodes. */
int mb_rank_place_numa(hwloc_topology_t topo, hwloc_const_cpuset_t binding);

/* The inputs of mb_howell_peer for n ranks: numa[i] (caller's array of n) is
 * mb_rank_place_numa of bindings[i], else the first NUMA node it touches, else 0. Returns
 * the NUMA latency matrix, dist[a * *nnuma + b] by logical index (malloc'd; free it), or
 * NULL when the platform gives none or not exactly one; *nnuma gets the NUMA node count. */
uint64_t *mb_rank_place_peer_inputs(hwloc_topology_t topo, const hwloc_bitmap_t *bindings, int n,
                                    int *numa, int *nnuma);

#endif
