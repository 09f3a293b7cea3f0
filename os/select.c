/* SPDX-License-Identifier: MIT */
/* os.select and os.select_tcp: select() on 10 and 100 descriptors, lmbench 3's lat_select
 * (seed 003 Table 2 "select", which lmbench's summary takes from lat_select -n 100 tcp). As
 * lat_select does: n dup()s of one descriptor, selected for writing with a zero timeout,
 * the set copied from a saved one before every call; os.select dups a regular scratch file
 * (lat_select file), os.select_tcp a TCP socket connected over 127.0.0.1 whose far end is
 * accepted and kept open with nothing sent (lat_select tcp). Every descriptor is ready, so
 * the kernel polls each. The dups matter: 100 separately opened files took 1.57 us per
 * select against 1.45 us for 100 dups, in one process on the development VM. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include "bench.h"
#include "channel.h"
#include "os_util.h"

#define SELECT_MAX_FDS 100

static const mb_dim_t select_dims[] = {{.name = "fds", .role = MB_ROLE_COUNT}};

typedef struct select_state {
    const mb_context_t *ctx;
    int fds[SELECT_MAX_FDS];
    int n, maxfd;
    mb_os_channel_t tcp; /* os.select_tcp: the connection whose near end is dup()ed */
    bool has_tcp;
    fd_set saved;
    char path[256];
} select_state_t;

static int select_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                         size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    static const int64_t counts[] = {10, 100};
    size_t n = 0;
    for (size_t i = 0; i < MB_COUNT(counts) && n < max; i++)
        pts[n++] = (mb_point_t){.v = {counts[i]}};
    return (int)n;
}

static void select_teardown(void *state)
{
    select_state_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        close(s->fds[i]);
    if (s->has_tcp)
        mb_os_channel_close(&s->tcp);
    if (s->path[0])
        unlink(s->path);
    free(s);
}

static int select_setup_kind(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                             char *err, size_t errlen, bool tcp)
{
    select_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    int want = (int)pt->v[0];
    int one; /* the descriptor dup()ed; the file's is closed after, the socket's channel kept */
    if (tcp) {
        if (mb_os_channel_open(&s->tcp, MB_OS_TCP, 0, err, errlen) != 0)
            goto fail;
        s->has_tcp = true;
        one = s->tcp.mine.rd;
    } else {
        one = mb_os_scratch_file(1, s->path, sizeof s->path, err, errlen);
        if (one < 0) {
            s->path[0] = '\0';
            goto fail;
        }
    }
    FD_ZERO(&s->saved);
    bool dups_failed = false;
    for (; s->n < want; s->n++) {
        int fd = dup(one);
        if (fd < 0 || fd >= FD_SETSIZE) {
            snprintf(err, errlen, "cannot dup descriptor %d of %d for select(): %s", s->n + 1,
                     want, fd < 0 ? strerror(errno) : "over FD_SETSIZE");
            if (fd >= 0)
                close(fd);
            dups_failed = true;
            break;
        }
        s->fds[s->n] = fd;
        FD_SET(fd, &s->saved);
        if (fd > s->maxfd)
            s->maxfd = fd;
    }
    if (!tcp)
        close(one);
    if (dups_failed)
        goto fail;
    /* Every descriptor ready for writing, as lat_select's are: a select() that found fewer
     * would time another path through the kernel. */
    fd_set set = s->saved;
    struct timeval tv = {0, 0};
    int ready = select(s->maxfd + 1, NULL, &set, NULL, &tv);
    if (ready != s->n) {
        snprintf(err, errlen, "select() found %d of %d descriptors ready for writing%s%s", ready,
                 s->n, ready < 0 ? ": " : "", ready < 0 ? strerror(errno) : "");
        goto fail;
    }
    *state = s;
    return 0;
fail:
    select_teardown(s);
    return -1;
}

static int select_file_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                             char *err, size_t errlen)
{
    return select_setup_kind(ctx, pt, state, err, errlen, false);
}

static int select_tcp_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                            char *err, size_t errlen)
{
    return select_setup_kind(ctx, pt, state, err, errlen, true);
}

static void select_run(void *state, uint64_t iters)
{
    select_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--) {
        fd_set set = s->saved;
        struct timeval tv = {0, 0};
        if (select(s->maxfd + 1, NULL, &set, NULL, &tv) < 0) {
            mb_point_fail(s->ctx, "select() on %d descriptors failed: %s", s->n, strerror(errno));
            return;
        }
    }
}

static const char *select_tcp_unavailable(const mb_context_t *ctx, char *buf, size_t len)
{
    (void)ctx;
    return mb_os_loopback_unavailable(buf, len);
}

const mb_bench_t mb_bench_os_select = {
    .name = "os.select",
    .group = "os",
    .summary = "select() on 10 and 100 file descriptors (lmbench lat_select file)",
    .measures = "one select() for writing, zero timeout, on `fds` dup()s of one regular "
                "scratch file (all ready), the set copied from a saved one first",
    .scope = MB_SCOPE_ONE,
    .dims = select_dims,
    .ndims = MB_COUNT(select_dims),
    .points = select_points,
    .setup = select_file_setup,
    .run = select_run,
    .teardown = select_teardown,
};

const mb_bench_t mb_bench_os_select_tcp = {
    .name = "os.select_tcp",
    .group = "os",
    .summary = "select() on 10 and 100 TCP sockets (lmbench lat_select tcp)",
    .measures = "one select() for writing, zero timeout, on `fds` dup()s of one TCP socket "
                "connected over 127.0.0.1 (all ready), the set copied from a saved one first",
    .scope = MB_SCOPE_ONE,
    .dims = select_dims,
    .ndims = MB_COUNT(select_dims),
    .points = select_points,
    .setup = select_tcp_setup,
    .run = select_run,
    .teardown = select_teardown,
    .skip_reason = select_tcp_unavailable,
};
