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
#include "node_layout.h"

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

/* Largest working set a memory-resident figure cycles through per rank: 4 x the last-level
 * cache is out of every cache, but a node with a huge LLC (hundreds of MiB) would then spend
 * minutes touching memory for no better figure. */
#define MB_MEMORY_SPAN_CAP_BYTES ((uint64_t)256 << 20)

/* The working set that is "memory" on this node: 4 x llc_bytes (unknown_bytes when the LLC
 * is unknown, 0), at most the cap ([shm] memory_max; MB_MEMORY_SPAN_CAP_BYTES by default). */
uint64_t mb_sysinfo_memory_span_bytes(uint64_t llc_bytes, uint64_t unknown_bytes);

/* Set the cap of mb_sysinfo_memory_span_bytes for this process (the driver, from the
 * configuration, before anything is measured); 0 restores the default. */
void mb_sysinfo_set_memory_span_cap(uint64_t cap_bytes);

/* The cap in force. */
uint64_t mb_sysinfo_memory_span_cap(void);

/* Fewest bytes a rank's memory working set has when many share the span: several times any
 * core's private L2 (1-2 MiB today), so a rank's own caches never hold it. */
#define MB_MEMORY_SPAN_FLOOR_BYTES ((uint64_t)8 << 20)

/* Each rank's working set when `sharers` ranks of a node stream memory at once: STREAM's
 * rule applied to their sum (mb_sysinfo_memory_span_bytes between them: 4 x the last-level
 * cache they share, capped), at least MB_MEMORY_SPAN_FLOOR_BYTES each. So 64 ranks on a
 * node touch 4 x LLC between them, not 64 x 4 x LLC, and the point costs no more time. */
uint64_t mb_sysinfo_memory_span_shared_bytes(uint64_t llc_bytes, uint64_t unknown_bytes,
                                             int sharers);

/* This process's current CPU binding as a list like "0-3,8"; malloc'd, caller frees. */
char *mb_sysinfo_binding(hwloc_topology_t topo);

/* The MPI tuning environment of envp: every variable whose name starts with OMPI_MCA_,
 * PMIX_MCA_, UCX_, FI_, PSM2_, HCOLL_, I_MPI_, MV2_, MPICH_ or MPIR_CVAR_, as {"NAME": "value"},
 * less the launcher's own plumbing (OMPI_MCA_orte_*, OMPI_MCA_ess*, URIs, session dirs). */
json_t *mb_sysinfo_mpi_env(char **envp);

/* Collective over comm, with its node layout. On rank 0 returns {"ranks", "nodes",
 * "bindings": [{"rank", "node", "host", "cpus"}], "node_list": [mb_sysinfo_node of each node,
 * in node order]}; NULL on the other ranks. */
json_t *mb_sysinfo_gather(MPI_Comm comm, const mb_node_layout_t *layout, hwloc_topology_t topo,
                          const mb_clock_t *clock);

#endif
