/* SPDX-License-Identifier: MIT */
/* Local communication latency (seed 003 Table 4), lmbench 3's lat_pipe, lat_unix, lat_udp
 * and lat_tcp: a round trip of a small message between the rank and a forked peer that
 * echoes it, the figure being one round trip as lmbench reports it. Message sizes are
 * lmbench's defaults: 1 byte for pipe, AF_UNIX and TCP, 4 bytes (a sequence number) for
 * UDP. Over 127.0.0.1 for UDP and TCP, default socket options (lmbench's lat_tcp sets
 * none either). Each at three placements of the two ends (placement.h): unpinned, lmbench's
 * default and the figure of seed 003's Table 4, one_cpu and two_cores. os.tcp_connect is
 * lat_connect: connect() to a peer on 127.0.0.1 that accept()s and closes, then close(), at
 * the same three placements. The peer never returns into MPI. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "channel.h"
#include "os_util.h"

#define LAT_LOCAL_MAX_MSG 4

typedef struct lat_local_state {
    const mb_context_t *ctx;
    mb_os_transport_t transport;
    mb_os_channel_t ch;
    size_t msg_bytes;
} lat_local_state_t;

static size_t lat_local_msg_bytes(mb_os_transport_t t)
{
    return t == MB_OS_UDP ? 4 : 1;
}

/* The peer: echo every message until the channel breaks. */
static void lat_local_echo(mb_os_end_t end, void *arg)
{
    size_t n = *(const size_t *)arg;
    char buf[LAT_LOCAL_MAX_MSG];
    for (;;) {
        if (mb_os_read_full(end.rd, buf, n) != 0 || mb_os_write_full(end.wr, buf, n) != 0)
            _exit(0);
    }
}

static void lat_local_teardown(void *state)
{
    lat_local_state_t *s = state;
    if (!s)
        return;
    mb_os_channel_close(&s->ch);
    free(s);
}

static int lat_local_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen)
{
    lat_local_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    s->transport = *(const mb_os_transport_t *)ctx->arg;
    s->msg_bytes = lat_local_msg_bytes(s->transport);
    if (mb_os_channel_open(&s->ch, s->transport, 0, err, errlen) != 0) {
        free(s);
        return -1;
    }
    if (mb_os_place(&s->ch.place, ctx->topology, (mb_os_placement_t)pt->v[0], err, errlen) != 0 ||
        mb_os_channel_fork(&s->ch, lat_local_echo, &s->msg_bytes, err, errlen) != 0) {
        lat_local_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void lat_local_run(void *state, uint64_t iters)
{
    lat_local_state_t *s = state;
    char buf[LAT_LOCAL_MAX_MSG] = {0};
    for (uint64_t i = iters; i > 0; i--)
        if (mb_os_write_full(s->ch.mine.wr, buf, s->msg_bytes) != 0 ||
            mb_os_read_full(s->ch.mine.rd, buf, s->msg_bytes) != 0) {
            mb_point_fail(s->ctx, "%s round trip failed: %s",
                          mb_os_transport_name(s->transport), strerror(errno));
            return;
        }
}

#define LAT_LOCAL(ident, t, what, lm)                                                              \
    {                                                                                              \
        .name = "os." ident, .group = "os",                                                        \
        .summary = what " round-trip latency to a forked echo peer (lmbench " lm ")",              \
        .measures = "one round trip of a " what " message (1 byte; UDP 4 bytes) between the "      \
                    "rank and a forked peer that echoes it; placement: unpinned (lmbench's "       \
                    "default), both on one CPU, or on two cores",                                  \
        .scope = MB_SCOPE_ONE, .dims = mb_os_placement_dims, .ndims = 1,                           \
        .points = mb_os_placement_points, .arg = &mb_os_transports[t], .setup = lat_local_setup,   \
        .run = lat_local_run, .teardown = lat_local_teardown,                                      \
        .skip_reason = mb_os_channel_unavailable,                                                  \
    }

const mb_bench_t mb_bench_os_lat_local[4] = {
    LAT_LOCAL("lat_pipe", MB_OS_PIPE, "pipe", "lat_pipe"),
    LAT_LOCAL("lat_unix", MB_OS_UNIX, "AF_UNIX stream", "lat_unix"),
    LAT_LOCAL("lat_udp", MB_OS_UDP, "UDP over 127.0.0.1", "lat_udp"),
    LAT_LOCAL("lat_tcp", MB_OS_TCP, "TCP over 127.0.0.1", "lat_tcp"),
};

/* --- os.tcp_connect --- */

typedef struct connect_state {
    const mb_context_t *ctx;
    struct sockaddr_in addr;
    pid_t pid;
    mb_os_place_t place;
} connect_state_t;

typedef struct connect_peer {
    int lis;
    const mb_os_place_t *place;
} connect_peer_t;

/* The peer: accept and close, forever (lat_connect's server). */
static void connect_server(void *arg)
{
    const connect_peer_t *peer = arg;
    int lis = peer->lis;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (mb_os_place_peer(peer->place) != 0)
        _exit(1); /* the rank's connect() then fails, refused */
    for (;;) {
        int fd = accept(lis, NULL, NULL);
        if (fd >= 0)
            close(fd);
        else if (errno != EINTR && errno != ECONNABORTED)
            _exit(0);
    }
}

static void connect_teardown(void *state)
{
    connect_state_t *s = state;
    if (!s)
        return;
    mb_os_reap(s->pid);
    mb_os_unplace(&s->place);
    free(s);
}

static int connect_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    connect_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    if (mb_os_place(&s->place, ctx->topology, (mb_os_placement_t)pt->v[0], err, errlen) != 0) {
        free(s);
        return -1;
    }
    int lis = socket(AF_INET, SOCK_STREAM, 0);
    s->addr = (struct sockaddr_in){.sin_family = AF_INET};
    s->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof s->addr;
    if (lis < 0 || bind(lis, (struct sockaddr *)&s->addr, sizeof s->addr) != 0 ||
        getsockname(lis, (struct sockaddr *)&s->addr, &len) != 0 || listen(lis, SOMAXCONN) != 0) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1: %s", strerror(errno));
        if (lis >= 0)
            close(lis);
        connect_teardown(s);
        return -1;
    }
    connect_peer_t peer = {lis, &s->place};
    s->pid = mb_os_spawn(connect_server, &peer, err, errlen);
    close(lis);
    if (s->pid < 0) {
        s->pid = 0;
        connect_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void connect_run(void *state, uint64_t iters)
{
    connect_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&s->addr, sizeof s->addr) != 0) {
            mb_point_fail(s->ctx, "connect to 127.0.0.1 failed: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            return;
        }
        close(fd);
    }
}

const mb_bench_t mb_bench_os_tcp_connect = {
    .name = "os.tcp_connect",
    .group = "os",
    .summary = "TCP connection to 127.0.0.1 (lmbench lat_connect)",
    .measures = "one socket() + connect() to a forked peer on 127.0.0.1 that accept()s and "
                "closes, then close(); placement: unpinned (lmbench's default), both on one "
                "CPU, or on two cores",
    .scope = MB_SCOPE_ONE,
    .dims = mb_os_placement_dims,
    .ndims = 1,
    .points = mb_os_placement_points,
    .arg = &mb_os_transports[MB_OS_TCP], /* its skip reason's: a forked peer over TCP */
    .setup = connect_setup,
    .run = connect_run,
    .teardown = connect_teardown,
    .skip_reason = mb_os_channel_unavailable,
};
