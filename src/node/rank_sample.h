/* SPDX-License-Identifier: MIT */
/* A bounded sample of a node's ranks, for the rows that report the slowest process:
 * measuring every rank of a 128-core node one after another does not scale, and a process
 * is slow mostly for where it runs. In order, the sample takes one rank per NUMA node
 * (each package's first NUMA node, package after package, then each package's second, and
 * so on), then the ranks farthest from those taken (sharing the highest topology object
 * with their nearest taken rank, then in the package, NUMA node, ... holding the fewest
 * taken ranks), until it has k. The lowest local rank wins every tie.
 * A rank whose binding is unknown, names PUs this topology lacks, or spans several NUMA
 * nodes has no place (the scheduler picks its cores and memory, so its figures could not
 * be told apart): it is taken only after every placed rank, lowest first, so a node with
 * no bindings at all samples its k lowest ranks. A rank free to run anywhere on a node of
 * one NUMA node is placed (on that NUMA node, spanning all cores). */
#ifndef MB_RANK_SAMPLE_H
#define MB_RANK_SAMPLE_H

#include <stddef.h>

#include <hwloc.h>

#define MB_RANK_SAMPLE_K 4 /* the default bound on ranks sampled per node */

typedef enum mb_rank_sample_why {
    MB_RANK_SAMPLE_NUMA,     /* the representative of its NUMA node */
    MB_RANK_SAMPLE_SPREAD,   /* the farthest from the ranks taken before it */
    MB_RANK_SAMPLE_UNPLACED, /* no place (see above), taken for want of placed ranks */
} mb_rank_sample_why_t;

/* Picks min(n, k) of a node's n local ranks, given each one's binding (cpusets as from
 * hwloc_get_cpubind or mb_rank_place_gather; NULL or empty: unknown; bindings NULL: all
 * unknown): writes them to ranks[] in ascending order and, unless why is NULL, why each
 * was taken to why[]. Deterministic. Returns the count, or -1 when topo is NULL, n or k
 * is negative, or memory runs out. */
int mb_rank_sample_pick(hwloc_topology_t topo, const hwloc_bitmap_t *bindings, int n, int k,
                        int *ranks, mb_rank_sample_why_t *why);

/* Says for the report where a rank bound to binding runs and why it was taken, in buf
 * (e.g. "NUMA 1, package 0", "spread, core 5 (NUMA 1, package 0)", "binding over NUMA 0-1";
 * logical indexes). Returns snprintf's count. */
int mb_rank_sample_describe(hwloc_topology_t topo, hwloc_const_cpuset_t binding,
                            mb_rank_sample_why_t why, char *buf, size_t len);

#endif
