/* SPDX-License-Identifier: MIT */
/* Where the rank and a forked peer run, for the benchmarks that time the two together
 * (os.lat_pipe/unix/udp/tcp, os.bw_pipe/unix/tcp, os.tcp_connect). */
#ifndef MB_OS_PLACEMENT_H
#define MB_OS_PLACEMENT_H

#include <hwloc.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/* On a 2-vCPU KVM VM lmbench's unbound lat_pipe read 17-65 us run to run (the scheduler
 * left the two ends on one vCPU or on two, where each wake-up is an interrupt to a halted
 * vCPU), 6.3 us on one CPU in five runs of five: an unbound figure says where the
 * scheduler put the ends, a bound one what the node does. lmbench 3 binds too, when asked
 * (LMBENCH_SCHED). unpinned: lmbench's default, both ends on any CPU the process may use;
 * one_cpu: both on the CPU the rank runs on; two_cores: the rank there, the peer on a CPU
 * of another core (what two bound ranks of a node see). */
typedef enum mb_os_placement {
    MB_OS_UNPINNED = 0,
    MB_OS_ONE_CPU,
    MB_OS_TWO_CORES,
} mb_os_placement_t;

/* "unpinned", "one_cpu", "two_cores", NULL: the labels of a placement axis. */
extern const char *const mb_os_placement_labels[];

/* The one axis of a benchmark measured at each placement ("placement"). */
extern const mb_dim_t mb_os_placement_dims[1];

/* The placements this node allows, in order (unpinned, one_cpu, then two_cores where the
 * process's CPUs span two cores) into out[3]; returns their count. */
size_t mb_os_placements(hwloc_topology_t topo, mb_os_placement_t out[3]);

/* A benchmark's points, one per placement of mb_os_placements (its only axis). */
int mb_os_placement_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen);

/* One placement in force: the peer's CPU, and the rank's affinity to give back. */
typedef struct mb_os_place {
    int peer_cpu; /* the CPU the peer binds itself to (mb_os_place_peer), or -1 */
    bool restore; /* the rank's affinity was changed: saved holds it */
    cpu_set_t saved;
} mb_os_place_t;

/* Nothing placed: what a place holds before mb_os_place and after mb_os_unplace. */
#define MB_OS_PLACE_NONE ((mb_os_place_t){.peer_cpu = -1})

/* Bind the rank for placement p and choose the peer's CPU, before the peer is forked.
 * 0, or -1 with err set and nothing changed. */
int mb_os_place(mb_os_place_t *pl, hwloc_topology_t topo, mb_os_placement_t p, char *err,
                size_t errlen);

/* In the forked peer, first: bind it to its CPU (a no-op when unpinned). 0, or -1. */
int mb_os_place_peer(const mb_os_place_t *pl);

/* Give the rank its affinity back (after the peer is reaped); *pl is then NONE. */
void mb_os_unplace(mb_os_place_t *pl);

#endif
