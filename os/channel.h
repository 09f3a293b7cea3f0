/* SPDX-License-Identifier: MIT */
/* A two-way local channel between the rank and a forked peer, for lmbench's lat_pipe,
 * lat_unix, lat_udp, lat_tcp and bw_pipe, bw_unix, bw_tcp: two pipes, an AF_UNIX stream
 * socketpair, a pair of connected UDP sockets on 127.0.0.1, or a TCP connection over
 * 127.0.0.1 (accepted before the fork, so the peer needs no listening socket). */
#ifndef MB_OS_CHANNEL_H
#define MB_OS_CHANNEL_H

#include <hwloc.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bench.h"

typedef enum mb_os_transport {
    MB_OS_PIPE = 0,
    MB_OS_UNIX,
    MB_OS_UDP,
    MB_OS_TCP,
} mb_os_transport_t;

/* lmbench's name for each ("pipe", "AF_UNIX", "UDP", "TCP"). */
const char *mb_os_transport_name(mb_os_transport_t t);

/* One end: the descriptor it reads and the one it writes (the same for a socket). */
typedef struct mb_os_end {
    int rd, wr;
} mb_os_end_t;

/* Where the rank and its forked peer run. On a 2-vCPU KVM VM lmbench's unbound lat_pipe
 * read 17-65 us run to run (the scheduler left the two ends on one vCPU or on two, where
 * each wake-up is an interrupt to a halted vCPU), 6.3 us on one CPU in five runs of five:
 * an unbound figure says where the scheduler put the ends, a bound one what the node does.
 * lmbench 3 binds too, when asked (LMBENCH_SCHED). unpinned: lmbench's default, both ends
 * on any CPU the process may use; one_cpu: both on the CPU the rank runs on; two_cores: the
 * rank there, the peer on a CPU of another core (what two bound ranks of a node see). */
typedef enum mb_os_placement {
    MB_OS_UNPINNED = 0,
    MB_OS_ONE_CPU,
    MB_OS_TWO_CORES,
} mb_os_placement_t;

/* "unpinned", "one_cpu", "two_cores", NULL: the labels of a placement axis. */
extern const char *const mb_os_placement_labels[];

/* The one axis of a benchmark measured at each placement ("placement"). */
extern const mb_dim_t mb_os_placement_dims[1];

typedef struct mb_os_channel {
    mb_os_end_t mine, peer;
    pid_t pid;    /* the forked peer, or 0 */
    int peer_cpu; /* the CPU the peer binds itself to, or -1 (mb_os_channel_place) */
    bool restore; /* the rank's affinity was changed: saved holds it */
    cpu_set_t saved;
} mb_os_channel_t;

/* Open both ends; 0, or -1 with err set and nothing left open. tcp_sockbuf_bytes > 0 sets
 * both TCP sockets' send and receive buffers before they connect (lmbench's SOCKOPT_READ
 * and SOCKOPT_WRITE; Linux caps them at net.core.rmem_max/wmem_max and stops tuning them);
 * 0 leaves the system's. */
int mb_os_channel_open(mb_os_channel_t *ch, mb_os_transport_t t, int tcp_sockbuf_bytes, char *err,
                       size_t errlen);

/* The placements this node allows, in order (unpinned, one_cpu, then two_cores where the
 * process's CPUs span two cores) into out[3]; returns their count. */
size_t mb_os_placements(hwloc_topology_t topo, mb_os_placement_t out[3]);

/* A benchmark's points, one per placement of mb_os_placements (its only axis). */
int mb_os_placement_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen);

/* Bind the rank for placement p and choose the peer's CPU (after mb_os_channel_open,
 * before mb_os_channel_fork; mb_os_channel_close gives the rank its affinity back). 0, or
 * -1 with err set. */
int mb_os_channel_place(mb_os_channel_t *ch, hwloc_topology_t topo, mb_os_placement_t p, char *err,
                        size_t errlen);

/* Fork the peer: it closes the rank's end and runs fn(end, arg), then _exit()s; the rank
 * closes the peer's end. 0, or -1 with err set. */
int mb_os_channel_fork(mb_os_channel_t *ch, void (*fn)(mb_os_end_t end, void *arg), void *arg,
                       char *err, size_t errlen);

/* Kill and reap the peer, close what is open, restore the rank's affinity. */
void mb_os_channel_close(mb_os_channel_t *ch);

#endif
