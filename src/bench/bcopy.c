/* SPDX-License-Identifier: MIT */
/* harness.bcopy: bcopy() bandwidth, warm and cold cache (seed 000 Appendix, "Measuring
 * bandwidth"). Warm copies the same `size` bytes again and again, so after the first pass
 * both buffers sit in cache when they fit. Cold walks through a span much larger than the
 * last-level cache, size bytes at a time, so each copy finds its data in memory (the
 * seed's 16-segment example, with the span sized from the hardware). Pages are touched
 * before timing so page faults are not counted. Both buffers are page-aligned: copies
 * whose source and destination differ by a few bytes modulo 4 KiB run several times
 * slower on some CPUs (seen on AMD Zen at 64 KiB), which measures malloc's layout, not
 * the copy. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "sysinfo.h"
#include "workset.h"

#define BCOPY_PAGE 4096

enum { BCOPY_WARM, BCOPY_COLD };
static const char *const bcopy_cache_labels[] = {"warm", "cold", NULL};
static const mb_dim_t bcopy_dims[] = {
    {.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
    {.name = "cache", .labels = bcopy_cache_labels},
};

typedef struct bcopy_state {
    char *src, *dst;
    size_t size, span, offset;
} bcopy_state_t;

/* Bytes cycled through for cold copies of `size`: the configured span, or at least 16
 * segments and 4x the last-level cache, whichever is larger. */
static uint64_t bcopy_span(const mb_context_t *ctx, uint64_t size)
{
    uint64_t span = ctx->config->harness_bcopy_cold_span;
    if (span == 0) {
        span = 16 * size;
        uint64_t memory = mb_sysinfo_memory_span_bytes(ctx->llc_bytes, 0);
        if (memory > span)
            span = memory;
    }
    if (span < 2 * size)
        span = 2 * size;
    return span / size * size;
}

static int bcopy_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                        size_t errlen)
{
    const mb_size_list_t *sizes = &ctx->config->harness_bcopy_sizes;
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    size_t n = 0;
    for (size_t i = 0; i < sizes->n; i++) {
        uint64_t size = sizes->bytes[i]; /* > 0: the config parser refuses 0 in size lists */
        uint64_t need = 2 * bcopy_span(ctx, size);
        if (memory && need > memory / 2) {
            snprintf(err, errlen,
                     "[harness] bcopy_sizes: %llu bytes needs %llu bytes of buffers for the cold "
                     "case, more than half this node's memory (%llu bytes)",
                     (unsigned long long)size, (unsigned long long)need,
                     (unsigned long long)memory);
            return -1;
        }
        for (int64_t cache = BCOPY_WARM; cache <= BCOPY_COLD && n < max; cache++)
            pts[n++] = (mb_point_t){.v = {(int64_t)size, cache}};
    }
    return (int)n;
}

static void bcopy_teardown(void *state)
{
    bcopy_state_t *s = state;
    if (!s)
        return;
    mb_workset_free(s->src);
    mb_workset_free(s->dst);
    free(s);
}

static int bcopy_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                       size_t errlen)
{
    bcopy_state_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->size = (size_t)pt->v[0];
    s->span = pt->v[1] == BCOPY_COLD ? (size_t)bcopy_span(ctx, s->size) : s->size;
    size_t alloc = (s->span + BCOPY_PAGE - 1) / BCOPY_PAGE * BCOPY_PAGE;
    s->src = mb_workset_alloc(alloc, BCOPY_PAGE, false);
    s->dst = mb_workset_alloc(alloc, BCOPY_PAGE, false);
    if (!s->src || !s->dst)
        goto oom;
    memset(s->src, 1, s->span);
    memset(s->dst, 2, s->span);
    *state = s;
    return 0;
oom:
    snprintf(err, errlen, "cannot allocate 2 x %llu bytes",
             (unsigned long long)(s ? s->span : sizeof *s));
    bcopy_teardown(s);
    return -1;
}

static void bcopy_run(void *state, uint64_t iters)
{
    bcopy_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--) {
        bcopy(s->src + s->offset, s->dst + s->offset, s->size);
        s->offset += s->size;
        if (s->offset >= s->span)
            s->offset = 0;
    }
    mb_use_pointer(s->dst);
}

static uint64_t bcopy_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (uint64_t)pt->v[0];
}

/* A cold point fills both spans in its setup and cycles through them. */
static uint64_t bcopy_touch_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    return pt->v[1] == BCOPY_COLD ? 2 * bcopy_span(ctx, (uint64_t)pt->v[0]) : 0;
}

const mb_bench_t mb_bench_harness_bcopy = {
    .name = "harness.bcopy",
    .group = "harness",
    .summary = "bcopy() bandwidth, warm and cold cache (seed 000's bandwidth example)",
    .measures = "one bcopy() of size_bytes; warm: the same buffers each time; cold: the next "
                "segment of a span of at least 4x the last-level cache",
    .dims = bcopy_dims,
    .ndims = MB_COUNT(bcopy_dims),
    .points = bcopy_points,
    .setup = bcopy_setup,
    .run = bcopy_run,
    .teardown = bcopy_teardown,
    .bytes_per_op = bcopy_bytes,
    .touch_bytes = bcopy_touch_bytes,
};
