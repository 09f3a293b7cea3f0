/* SPDX-License-Identifier: MIT */
#include "message.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sysinfo.h"

static const char *const message_pair_labels[] = {"intra", "inter", NULL};
const mb_dim_t mb_message_pair_dims[2] = {
    {.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
    {.name = "pair", .labels = message_pair_labels},
};
const mb_dim_t mb_message_coll_dims[2] = {
    {.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
    {.name = "ranks", .role = MB_ROLE_RANKS},
};

/* 0 (when wanted), 1, 2, 3, 4, 6, 8, 12, ... up to top: powers of two and the midpoints
 * between them, so a protocol switch shows within half an octave. */
static size_t message_sizes(uint64_t top, bool zero, uint64_t *out, size_t max)
{
    size_t n = 0;
    if (zero && n < max)
        out[n++] = 0;
    for (uint64_t p = 1; p <= top && n < max; p *= 2) {
        out[n++] = p;
        if (p >= 2 && p + p / 2 <= top && n < max)
            out[n++] = p + p / 2;
    }
    return n;
}

/* A quarter of the node's memory, shared by the node's ranks. */
static uint64_t message_memory_share(const mb_context_t *ctx)
{
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    return memory ? memory / 4 / (uint64_t)(ctx->node_size > 0 ? ctx->node_size : 1) : 0;
}

/* The points (size, pair) of each of the nsizes sizes, for each pair the run has (intra, then
 * inter), at most max; returns how many. */
static int message_pairs_at(const mb_context_t *ctx, const uint64_t *sizes, size_t nsizes,
                            mb_point_t *pts, size_t max)
{
    size_t n = 0;
    for (int pair = MB_PAIR_INTRA; pair <= MB_PAIR_INTER; pair++) {
        if ((pair == MB_PAIR_INTRA && !ctx->has_pair_intra) ||
            (pair == MB_PAIR_INTER && !ctx->has_pair_inter))
            continue;
        for (size_t i = 0; i < nsizes && n < max; i++)
            pts[n++] = (mb_point_t){.v = {(int64_t)sizes[i], pair}};
    }
    return (int)n;
}

int mb_message_pair_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    uint64_t top = ctx->config->mpi_max_size, share = message_memory_share(ctx);
    if (top > (uint64_t)1 << 30) {
        snprintf(err, errlen, "[mpi] max_size: %llu bytes is over the 1 GiB a message may have here",
                 (unsigned long long)top);
        return -1;
    }
    if (share && 2 * top > share) {
        snprintf(err, errlen,
                 "[mpi] max_size: %llu bytes is more than this node's memory allows per rank "
                 "(at most %llu)",
                 (unsigned long long)top, (unsigned long long)(share / 2));
        return -1;
    }
    uint64_t sizes[128];
    return message_pairs_at(ctx, sizes, message_sizes(top, true, sizes, MB_COUNT(sizes)), pts, max);
}

size_t mb_message_window_sizes(uint64_t top, uint64_t *out, size_t max)
{
    size_t n = 0;
    uint64_t p = 1;
    for (; p <= top && n < max; p *= 4)
        out[n++] = p;
    if (n > 0 && out[n - 1] != top && n < max)
        out[n++] = top;
    return n;
}

int mb_message_window(const mb_context_t *ctx, char *err, size_t errlen)
{
    uint64_t w = ctx->config->mpi_window;
    if (w < 1 || w > MB_CONFIG_WINDOW_MAX) {
        snprintf(err, errlen, "[mpi] window: %llu messages is not between 1 and %d",
                 (unsigned long long)w, MB_CONFIG_WINDOW_MAX);
        return -1;
    }
    return (int)w;
}

int mb_message_window_pair_points(const mb_context_t *ctx, mb_point_t *pts, size_t max,
                                  char *err, size_t errlen)
{
    /* The latency sweep's checks of max_size (1 GiB, memory) hold here too. */
    mb_point_t probe[1];
    if (mb_message_pair_points(ctx, probe, 0, err, errlen) < 0 ||
        mb_message_window(ctx, err, errlen) < 0)
        return -1;
    uint64_t sizes[64];
    return message_pairs_at(
        ctx, sizes, mb_message_window_sizes(ctx->config->mpi_max_size, sizes, MB_COUNT(sizes)), pts,
        max);
}

mb_scope_t mb_message_pair_scope(const mb_point_t *pt)
{
    return pt->v[1] == MB_PAIR_INTRA ? MB_SCOPE_PAIR_INTRA : MB_SCOPE_PAIR_INTER;
}

int mb_message_coll_points(const mb_context_t *ctx, bool block_per_peer,
                           bool zero_size, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    uint64_t top = ctx->config->mpi_collective_max_size, share = message_memory_share(ctx);
    int most = ctx->size;
    if (ctx->config->mpi_max_ranks > 0 && ctx->config->mpi_max_ranks < (uint64_t)most)
        most = (int)ctx->config->mpi_max_ranks;
    if (top > (uint64_t)1 << 30) {
        snprintf(err, errlen,
                 "[mpi] collective_max_size: %llu bytes is over the 1 GiB a message may have here",
                 (unsigned long long)top);
        return -1;
    }
    /* Send and receive buffers, each a block of the largest d per peer or one. */
    uint64_t need = 2 * top * (uint64_t)(block_per_peer ? most : 1);
    if (share && need > share) {
        snprintf(err, errlen,
                 "[mpi] collective_max_size: %llu bytes at %d ranks needs %llu bytes of buffers "
                 "per rank, more than this node's memory allows (%llu); lower it or [mpi] max_ranks",
                 (unsigned long long)top, most, (unsigned long long)need,
                 (unsigned long long)share);
        return -1;
    }
    uint64_t sizes[128];
    size_t nsizes = message_sizes(top, zero_size, sizes, MB_COUNT(sizes)), n = 0;
    int ps[MB_MESSAGE_P_MAX];
    int np = mb_message_p_sweep(most, ps);
    for (int k = 0; k < np; k++)
        for (size_t i = 0; i < nsizes && n < max; i++)
            pts[n++] = (mb_point_t){.v = {(int64_t)sizes[i], ps[k]}};
    return (int)n;
}

int mb_message_p_sweep(int most, int *ps)
{
    int all[64], n = 0;
    for (int p = 2; p <= most && n < 64; p++)
        if (p <= 8 || (p & (p - 1)) == 0 || p == most) /* every p to 8, powers of two, most */
            all[n++] = p;
    if (n <= MB_MESSAGE_P_MAX) {
        memcpy(ps, all, (size_t)n * sizeof *ps);
        return n;
    }
    /* Log-spaced from 2 to most, each the nearest of the full sweep's values (in log), no
     * value twice: the cost of the sweep grows as log p, not p. */
    int k = 0;
    for (int j = 0; j < MB_MESSAGE_P_MAX; j++) {
        double want = log(2.0) + (log((double)most) - log(2.0)) * j / (MB_MESSAGE_P_MAX - 1);
        int best = all[0];
        for (int i = 1; i < n; i++)
            if (fabs(log((double)all[i]) - want) < fabs(log((double)best) - want))
                best = all[i];
        if (k == 0 || best > ps[k - 1])
            ps[k++] = best;
    }
    return k;
}

int mb_msgbuf_init(mb_msgbuf_t *b, const mb_context_t *ctx, size_t bytes, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->bytes = bytes;
    /* Page-aligned large buffers: copies between buffers at equal offsets modulo 4 KiB are
     * slow on some CPUs (seen on AMD Zen with harness.bcopy). */
    b->stride = bytes >= 4096 ? (bytes + 4095) / 4096 * 4096 : (bytes + 63) / 64 * 64;
    if (b->stride == 0)
        b->stride = 64;
    b->count = 1;
    if (ctx->config->mpi_buffers == MB_BUFFERS_COLD) {
        uint64_t span = mb_sysinfo_memory_span_bytes(ctx->llc_bytes, (uint64_t)128 << 20);
        b->count = (span + b->stride - 1) / b->stride;
        if (b->count < 2)
            b->count = 2;
    }
    /* A mapping of its own, on fresh pages of the base size, as a fresh process's large
     * malloc (OSU's, IMB's): from malloc, after shm.* had freed its working sets (which
     * raises glibc's mmap threshold) the buffers came from the heap, where a working set
     * had asked for transparent huge pages, and mpi.bw read 1 MiB at 45-53 GB/s in 40 of
     * 43 stored default runs (31-40 in the others) against 11.5-15.9 GB/s in 52 runs of
     * mpi.* alone (2-core KVM VM, Open MPI 4.1, 2026-11-28): a figure that followed what ran
     * before it (docs/mpi.md). */
    void *base = mmap(NULL, b->stride * b->count, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %zu bytes of message buffers: %s", b->stride * b->count,
                 strerror(errno));
        return -1;
    }
    b->base = base;
    /* Touch every page now, so no call pays for a first-touch page fault. */
    memset(b->base, 0, b->stride * b->count);
    return 0;
}

void mb_msgbuf_free(mb_msgbuf_t *b)
{
    if (b->base)
        munmap(b->base, b->stride * b->count);
    memset(b, 0, sizeof *b);
}

void mb_message_fill(char *buf, size_t bytes, int who)
{
    for (size_t i = 0; i < bytes; i++)
        buf[i] = (char)(i * 7 + bytes + 31 * (size_t)who);
}

bool mb_message_ok(const char *buf, size_t bytes, int who)
{
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != (char)(i * 7 + bytes + 31 * (size_t)who))
            return false;
    return true;
}

void mb_message_op_fail(const mb_context_t *ctx, int rc, const char *call)
{
    char words[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, words, &len);
    int name = (int)strcspn(call, "(");
    mb_point_fail(ctx, "%.*s failed: %s", name, call, words);
}
