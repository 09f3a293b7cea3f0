/* SPDX-License-Identifier: MIT */
/* What the numbers were measured on: per node, the system description of seed 003's
 * Table 1 (from hwloc, uname, /proc and /sys), each rank's binding, and the MPI library
 * and its tuning environment. */
#ifndef MB_SYSINFO_H
#define MB_SYSINFO_H

#include <stdint.h>

#include <hwloc.h>
#include <jansson.h>
#include <mpi.h>

#include "clock.h"

/* This node as a JSON object: "host", "cpu_model", "sockets", "numa_nodes", "cores", "pus",
 * "caches": [{"level", "type" ("data", "instruction", "unified"), "size_bytes", "count"}],
 * "memory_bytes", "os", "kernel", "governor", "thp", "clocksource"; mb_sysinfo_gather adds
 * "clock_resolution_ns" and "clock_overhead_ns", measured on the node with the run's clock. A field that cannot be
 * read is null; never fails. New reference. */
json_t *mb_sysinfo_node(hwloc_topology_t topo);

/* Physical memory of this node in bytes: the larger of the kernel's total and hwloc's sum
 * over NUMA nodes; 0 if neither is known. */
uint64_t mb_sysinfo_memory_bytes(hwloc_topology_t topo);

/* Size in bytes of the largest (last-level) data or unified cache; 0 if unknown. */
uint64_t mb_sysinfo_llc_bytes(hwloc_topology_t topo);

/* This process's current CPU binding as a list like "0-3,8"; malloc'd, caller frees. */
char *mb_sysinfo_binding(hwloc_topology_t topo);

/* The MPI tuning environment of envp: every variable whose name starts with OMPI_MCA_,
 * PMIX_MCA_, UCX_, FI_, PSM2_, HCOLL_, I_MPI_, MV2_ or MPICH_, as {"NAME": "value"}. */
json_t *mb_sysinfo_mpi_env(char **envp);

/* Collective over comm: the ranks of this rank's node, ordered by rank in comm, as a new
 * communicator in *node_comm (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)). For tests of
 * multi-node logic on one machine, MB_PSEUDO_NODES=K (K >= 1) splits comm instead into K
 * contiguous blocks of ranks (rank * K / size). Returns 0 for a shared-memory split, K for a
 * pseudo-node split, or -1 (*node_comm = MPI_COMM_NULL) when MB_PSEUDO_NODES is set but not
 * a whole number >= 1. Every module splits nodes with this function. */
int mb_sysinfo_node_comm(MPI_Comm comm, MPI_Comm *node_comm);

/* Collective over comm. On rank 0 returns {"ranks", "nodes", "bindings": [{"rank", "node",
 * "host", "cpus"}], "node_list": [mb_sysinfo_node of each node, in node order]}; NULL on the
 * other ranks. Nodes are found with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED); only one
 * rank per node describes it, and rank 0 receives O(ranks + nodes) data. */
json_t *mb_sysinfo_gather(MPI_Comm comm, hwloc_topology_t topo, const mb_clock_t *clock);

#endif
