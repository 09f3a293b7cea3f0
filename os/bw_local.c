/* SPDX-License-Identifier: MIT */
/* Local communication bandwidth (seed 003 Table 7), lmbench 3's bw_pipe, bw_unix and
 * bw_tcp: a forked peer writes 64 KiB chunks (lmbench's XFERSIZE) as fast as it can and
 * the rank reads them; one operation is 64 KiB read, so the figure is the reader's rate
 * in steady state. TCP over 127.0.0.1 with both sockets' buffers set to 1 MiB before they
 * connect, as lmbench's SOCKBUF (Linux caps them at net.core.rmem_max and wmem_max and then
 * stops tuning them). The buffers are page-aligned as lmbench's valloc()s, the pipe reader's
 * 128 bytes into its page as bw_pipe's ("destroy page alignment"). UDP has no bandwidth
 * figure, as in seed 003 ("not available"). Each at three placements of the reader and the
 * writer (placement.h), as lat_local.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "channel.h"
#include "os_util.h"

#define BW_LOCAL_XFER_BYTES (64 << 10)
#define BW_LOCAL_TCP_SOCKBUF_BYTES (1 << 20)
#define BW_LOCAL_PIPE_READ_OFFSET 128

typedef struct bw_local_state {
    const mb_context_t *ctx;
    mb_os_transport_t transport;
    mb_os_channel_t ch;
    char *space; /* page-aligned */
    char *buf;   /* where reads go, in space */
} bw_local_state_t;

/* The peer: write chunks until the channel breaks. */
static void bw_local_writer(mb_os_end_t end, void *arg)
{
    (void)arg;
    static _Alignas(4096) char chunk[BW_LOCAL_XFER_BYTES];
    memset(chunk, 0x5a, sizeof chunk);
    for (;;)
        if (mb_os_write_full(end.wr, chunk, sizeof chunk) != 0)
            _exit(0);
}

static void bw_local_teardown(void *state)
{
    bw_local_state_t *s = state;
    if (!s)
        return;
    mb_os_channel_close(&s->ch);
    free(s->space);
    free(s);
}

static int bw_local_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                          char *err, size_t errlen)
{
    bw_local_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->space = aligned_alloc(4096, BW_LOCAL_XFER_BYTES + 4096))) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return -1;
    }
    s->ctx = ctx;
    s->transport = *(const mb_os_transport_t *)ctx->arg;
    s->buf = s->space + (s->transport == MB_OS_PIPE ? BW_LOCAL_PIPE_READ_OFFSET : 0);
    memset(s->space, 0, BW_LOCAL_XFER_BYTES + 4096); /* touched, as lmbench's touch() */
    if (mb_os_channel_open(&s->ch, s->transport, BW_LOCAL_TCP_SOCKBUF_BYTES, err,
                           errlen) != 0) {
        free(s->space);
        free(s);
        return -1;
    }
    if (mb_os_place(&s->ch.place, ctx->topology, (mb_os_placement_t)pt->v[0], err, errlen) != 0 ||
        mb_os_channel_fork(&s->ch, bw_local_writer, NULL, err, errlen) != 0) {
        bw_local_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void bw_local_run(void *state, uint64_t iters)
{
    bw_local_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--)
        if (mb_os_read_full(s->ch.mine.rd, s->buf, BW_LOCAL_XFER_BYTES) != 0) {
            mb_point_fail(s->ctx, "%s read failed: %s", mb_os_transport_name(s->transport),
                          strerror(errno));
            return;
        }
}

static uint64_t bw_local_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx, (void)pt;
    return BW_LOCAL_XFER_BYTES;
}

#define BW_LOCAL(ident, t, what, lm)                                                               \
    {                                                                                              \
        .name = "os." ident, .group = "os",                                                        \
        .summary = what " bandwidth from a forked writer (lmbench " lm ")",                        \
        .measures = "one 64 KiB read from a " what " whose forked peer writes 64 KiB chunks "      \
                    "without pause (steady state); placement: unpinned (lmbench's default), "      \
                    "both on one CPU, or on two cores",                                            \
        .scope = MB_SCOPE_ONE, .dims = mb_os_placement_dims, .ndims = 1,                           \
        .points = mb_os_placement_points, .arg = &mb_os_transports[t], .setup = bw_local_setup,    \
        .run = bw_local_run, .teardown = bw_local_teardown, .bytes_per_op = bw_local_bytes,        \
        .skip_reason = mb_os_channel_unavailable,                                                  \
    }

const mb_bench_t mb_bench_os_bw_local[3] = {
    BW_LOCAL("bw_pipe", MB_OS_PIPE, "pipe", "bw_pipe"),
    BW_LOCAL("bw_unix", MB_OS_UNIX, "AF_UNIX stream socket", "bw_unix"),
    BW_LOCAL("bw_tcp", MB_OS_TCP, "TCP connection over 127.0.0.1", "bw_tcp"),
};
