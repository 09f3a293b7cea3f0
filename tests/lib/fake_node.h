/* SPDX-License-Identifier: MIT */
/* Fake nodes for the unit tests: hwloc synthetic topologies (as hwloc's own tests use) and
 * the bindings a launcher would give n ranks on them, so topology-dependent choices can be
 * checked on a one-NUMA machine. */
#ifndef MB_FAKE_NODE_H
#define MB_FAKE_NODE_H

#include <hwloc.h>

/* A loaded synthetic topology ("pack:2 numa:2 core:4 pu:1"); NULL on failure. Destroy
 * with hwloc_topology_destroy. */
hwloc_topology_t mb_fake_node_topology(const char *synthetic);

/* n bindings, rank r on the whole of object (r mod count) of type, in logical order. */
hwloc_bitmap_t *mb_fake_node_in_order(hwloc_topology_t topo, hwloc_obj_type_t type, int n);

/* n bindings to cores round-robin over the packages: rank r on package r mod P, on that
 * package's (r / P)-th core (mod its cores), as `mpirun --map-by package` places them. */
hwloc_bitmap_t *mb_fake_node_round_robin(hwloc_topology_t topo, int n);

/* The binding of one rank to the whole of object idx of type (a new bitmap). */
hwloc_bitmap_t mb_fake_node_on(hwloc_topology_t topo, hwloc_obj_type_t type, unsigned idx);

/* Adds a NUMA latency matrix given by logical index (values[a * nnuma + b]), handing hwloc
 * the NUMA nodes in reverse order so callers must map them back. Returns 0 or -1. */
int mb_fake_node_add_latencies(hwloc_topology_t topo, const hwloc_uint64_t *values);

#endif
