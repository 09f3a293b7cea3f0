/* SPDX-License-Identifier: MIT */
/* A two-way local channel between the rank and a forked peer, for lmbench's lat_pipe,
 * lat_unix, lat_udp, lat_tcp and bw_pipe, bw_unix, bw_tcp: two pipes, an AF_UNIX stream
 * socketpair, a pair of connected UDP sockets on 127.0.0.1, or a TCP connection over
 * 127.0.0.1 (accepted before the fork, so the peer needs no listening socket); the two ends
 * at a placement (placement.h). */
#ifndef MB_OS_CHANNEL_H
#define MB_OS_CHANNEL_H

#include <stddef.h>
#include <sys/types.h>

#include "placement.h"

typedef enum mb_os_transport {
    MB_OS_PIPE = 0,
    MB_OS_UNIX,
    MB_OS_UDP,
    MB_OS_TCP,
} mb_os_transport_t;

/* lmbench's name for each ("pipe", "AF_UNIX", "UDP", "TCP"). */
const char *mb_os_transport_name(mb_os_transport_t t);

/* Each transport, indexed by its value: what a benchmark over a channel points its
 * descriptor's arg at. */
extern const mb_os_transport_t mb_os_transports[4];

/* A benchmark's skip_reason over a channel whose transport ctx->arg points at: why no peer
 * can be forked here, or, for UDP and TCP, why 127.0.0.1 cannot be reached; NULL when
 * nothing is in the way. */
const char *mb_os_channel_unavailable(const mb_context_t *ctx, char *buf, size_t len);

/* One end: the descriptor it reads and the one it writes (the same for a socket). */
typedef struct mb_os_end {
    int rd, wr;
} mb_os_end_t;

typedef struct mb_os_channel {
    mb_os_end_t mine, peer;
    pid_t pid;           /* the forked peer, or 0 */
    mb_os_place_t place; /* where the two ends run: mb_os_place it before the fork */
} mb_os_channel_t;

/* Open both ends; 0, or -1 with err set and nothing left open. tcp_sockbuf_bytes > 0 sets
 * both TCP sockets' send and receive buffers before they connect (lmbench's SOCKOPT_READ
 * and SOCKOPT_WRITE; Linux caps them at net.core.rmem_max/wmem_max and stops tuning them);
 * 0 leaves the system's. */
int mb_os_channel_open(mb_os_channel_t *ch, mb_os_transport_t t, int tcp_sockbuf_bytes, char *err,
                       size_t errlen);

/* Fork the peer: it binds itself as ch->place says, closes the rank's end and runs
 * fn(end, arg), then _exit()s; the rank closes the peer's end. 0, or -1 with err set. */
int mb_os_channel_fork(mb_os_channel_t *ch, void (*fn)(mb_os_end_t end, void *arg), void *arg,
                       char *err, size_t errlen);

/* Kill and reap the peer, close what is open, give the rank its affinity back. */
void mb_os_channel_close(mb_os_channel_t *ch);

#endif
