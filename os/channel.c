/* SPDX-License-Identifier: MIT */
#include "channel.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os_util.h"

const char *mb_os_transport_name(mb_os_transport_t t)
{
    switch (t) {
    case MB_OS_PIPE: return "pipe";
    case MB_OS_UNIX: return "AF_UNIX";
    case MB_OS_UDP: return "UDP";
    default: return "TCP";
    }
}

const mb_os_transport_t mb_os_transports[4] = {MB_OS_PIPE, MB_OS_UNIX, MB_OS_UDP, MB_OS_TCP};

const char *mb_os_channel_unavailable(const mb_context_t *ctx, char *buf, size_t len)
{
    mb_os_transport_t t = *(const mb_os_transport_t *)ctx->arg;
    const char *why = mb_os_fork_unavailable(buf, len);
    if (!why && (t == MB_OS_UDP || t == MB_OS_TCP))
        why = mb_os_loopback_unavailable(buf, len);
    return why;
}

static void channel_close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void channel_close_end(mb_os_end_t *e)
{
    if (e->wr != e->rd)
        channel_close_fd(&e->wr);
    channel_close_fd(&e->rd);
    e->wr = -1;
}

/* A socket of `type` bound to an ephemeral port of 127.0.0.1, its address in *a; or -1. */
static int channel_loopback(int type, struct sockaddr_in *a)
{
    int fd = socket(AF_INET, type, 0);
    if (fd < 0)
        return -1;
    *a = (struct sockaddr_in){.sin_family = AF_INET};
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof *a;
    if (bind(fd, (struct sockaddr *)a, sizeof *a) != 0 ||
        getsockname(fd, (struct sockaddr *)a, &len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int channel_udp(mb_os_channel_t *ch)
{
    struct sockaddr_in a, b;
    int x = channel_loopback(SOCK_DGRAM, &a), y = channel_loopback(SOCK_DGRAM, &b);
    if (x < 0 || y < 0 || connect(x, (struct sockaddr *)&b, sizeof b) != 0 ||
        connect(y, (struct sockaddr *)&a, sizeof a) != 0) {
        int saved = errno;
        if (x >= 0)
            close(x);
        if (y >= 0)
            close(y);
        errno = saved;
        return -1;
    }
    ch->mine = (mb_os_end_t){x, x};
    ch->peer = (mb_os_end_t){y, y};
    return 0;
}

/* Send and receive buffers of bytes on fd (0: as they are); 0 or -1. */
static int channel_sockbuf(int fd, int bytes)
{
    return bytes <= 0 || (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) == 0 &&
                          setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) == 0)
               ? 0
               : -1;
}

/* The accepted end inherits the listening socket's buffers. */
static int channel_tcp(mb_os_channel_t *ch, int sockbuf_bytes)
{
    struct sockaddr_in a;
    int lis = channel_loopback(SOCK_STREAM, &a);
    if (lis < 0)
        return -1;
    int c = -1, s = -1;
    if (channel_sockbuf(lis, sockbuf_bytes) == 0 && listen(lis, 1) == 0 &&
        (c = socket(AF_INET, SOCK_STREAM, 0)) >= 0 && channel_sockbuf(c, sockbuf_bytes) == 0 &&
        connect(c, (struct sockaddr *)&a, sizeof a) == 0)
        s = accept(lis, NULL, NULL);
    int saved = errno;
    close(lis);
    if (s < 0) {
        if (c >= 0)
            close(c);
        errno = saved;
        return -1;
    }
    ch->mine = (mb_os_end_t){c, c};
    ch->peer = (mb_os_end_t){s, s};
    return 0;
}

int mb_os_channel_open(mb_os_channel_t *ch, mb_os_transport_t t, int tcp_sockbuf_bytes, char *err,
                       size_t errlen)
{
    *ch = (mb_os_channel_t){.mine = {-1, -1}, .peer = {-1, -1}, .place = MB_OS_PLACE_NONE};
    int rc, sv[2];
    switch (t) {
    case MB_OS_PIPE: {
        int to_peer[2], to_me[2];
        rc = pipe(to_peer);
        if (rc == 0 && (rc = pipe(to_me)) != 0) {
            close(to_peer[0]);
            close(to_peer[1]);
        }
        if (rc == 0) {
            ch->mine = (mb_os_end_t){to_me[0], to_peer[1]};
            ch->peer = (mb_os_end_t){to_peer[0], to_me[1]};
        }
        break;
    }
    case MB_OS_UNIX:
        rc = socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
        if (rc == 0) {
            ch->mine = (mb_os_end_t){sv[0], sv[0]};
            ch->peer = (mb_os_end_t){sv[1], sv[1]};
        }
        break;
    case MB_OS_UDP: rc = channel_udp(ch); break;
    default: rc = channel_tcp(ch, tcp_sockbuf_bytes); break;
    }
    if (rc != 0) {
        snprintf(err, errlen, "cannot open a %s channel: %s", mb_os_transport_name(t),
                 strerror(errno));
        return -1;
    }
    return 0;
}

typedef struct channel_child {
    mb_os_channel_t *ch;
    void (*fn)(mb_os_end_t end, void *arg);
    void *arg;
} channel_child_t;

static void channel_child_main(void *arg)
{
    channel_child_t *c = arg;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (mb_os_place_peer(&c->ch->place) != 0)
        _exit(1); /* the rank's first read or write then fails, naming the channel */
    channel_close_end(&c->ch->mine);
    c->fn(c->ch->peer, c->arg);
}

int mb_os_channel_fork(mb_os_channel_t *ch, void (*fn)(mb_os_end_t end, void *arg), void *arg,
                       char *err, size_t errlen)
{
    channel_child_t c = {ch, fn, arg};
    ch->pid = mb_os_spawn(channel_child_main, &c, err, errlen);
    if (ch->pid < 0) {
        ch->pid = 0;
        return -1;
    }
    channel_close_end(&ch->peer);
    return 0;
}

void mb_os_channel_close(mb_os_channel_t *ch)
{
    channel_close_end(&ch->mine);
    channel_close_end(&ch->peer);
    mb_os_reap(ch->pid);
    ch->pid = 0;
    mb_os_unplace(&ch->place);
}
