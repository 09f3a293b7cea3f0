/* SPDX-License-Identifier: MIT */
/* os.pagefault: page-fault service time (seed 004 III.B.3), lmbench 3's lat_pagefault: a
 * scratch file in the page cache is mapped, one byte of every page read in a shuffled
 * order (so no prefetch streams along), and unmapped; lmbench subtracts the mmap/munmap
 * cost measured apart, so here op "map" times mmap + munmap alone and the derived
 * pagefault_ns is (touch - map) per page. Linux's fault-around maps up to 16 cached
 * neighbours of a faulting page, so a touch may find its page mapped already: the figure
 * is per page touched, as lmbench's is. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "os_util.h"

#define PAGEFAULT_FILE_BYTES ((uint64_t)8 << 20)

enum { PAGEFAULT_TOUCH, PAGEFAULT_MAP };
static const char *const pagefault_labels[] = {"touch", "map", NULL};
static const mb_dim_t pagefault_dims[] = {{.name = "op", .labels = pagefault_labels}};

typedef struct pagefault_state {
    const mb_context_t *ctx;
    int op, fd;
    char path[256];
    size_t pages, page_bytes;
    size_t *order;
} pagefault_state_t;

static size_t pagefault_page_bytes(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static int pagefault_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                            size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t op = PAGEFAULT_TOUCH; op <= PAGEFAULT_MAP && n < max; op++)
        pts[n++] = (mb_point_t){.v = {op}};
    return (int)n;
}

static void pagefault_teardown(void *state)
{
    pagefault_state_t *s = state;
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    if (s->path[0])
        unlink(s->path);
    free(s->order);
    free(s);
}

static int pagefault_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen)
{
    pagefault_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    s->op = (int)pt->v[0];
    s->page_bytes = pagefault_page_bytes();
    s->pages = PAGEFAULT_FILE_BYTES / s->page_bytes;
    s->order = malloc(s->pages * sizeof *s->order);
    if (!s->order) {
        snprintf(err, errlen, "out of memory");
        s->fd = -1;
        pagefault_teardown(s);
        return -1;
    }
    /* A fixed shuffle (Fisher-Yates on a simple LCG): the same order on every run. */
    for (size_t i = 0; i < s->pages; i++)
        s->order[i] = i;
    uint64_t x = 12345;
    for (size_t i = s->pages - 1; i > 0; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t j = (size_t)((x >> 33) % (i + 1));
        size_t t = s->order[i];
        s->order[i] = s->order[j];
        s->order[j] = t;
    }
    s->fd = mb_os_scratch_file(PAGEFAULT_FILE_BYTES, s->path, sizeof s->path, err, errlen);
    if (s->fd < 0) {
        s->path[0] = '\0';
        pagefault_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void pagefault_run(void *state, uint64_t iters)
{
    pagefault_state_t *s = state;
    uint64_t sum = 0;
    for (uint64_t i = iters; i > 0; i--) {
        const volatile char *m =
            mmap(NULL, PAGEFAULT_FILE_BYTES, PROT_READ, MAP_SHARED, s->fd, 0);
        if (m == MAP_FAILED) {
            mb_point_fail(s->ctx, "mmap of %s failed: %s", s->path, strerror(errno));
            return;
        }
        if (s->op == PAGEFAULT_TOUCH)
            for (size_t p = 0; p < s->pages; p++)
                sum += (unsigned char)m[s->order[p] * s->page_bytes];
        munmap((void *)m, PAGEFAULT_FILE_BYTES);
    }
    mb_use_int(sum);
}

/* Per page: an iteration maps, (touches,) and unmaps every page of the file. */
static double pagefault_pages(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    (void)pt;
    return (double)(PAGEFAULT_FILE_BYTES / pagefault_page_bytes());
}

static json_t *pagefault_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    double touch_ns = NAN, map_ns = NAN;
    for (size_t i = 0; i < n; i++) {
        if (ms[i].n == 0)
            continue;
        if (pts[i].v[0] == PAGEFAULT_TOUCH)
            touch_ns = ms[i].stats.median;
        else
            map_ns = ms[i].stats.median;
    }
    double v = mb_os_subtract_ns(touch_ns, map_ns);
    return isfinite(v) ? json_pack("{s:f}", "pagefault_ns", v) : NULL;
}

const mb_bench_t mb_bench_os_pagefault = {
    .name = "os.pagefault",
    .group = "os",
    .summary = "page-fault service time: first touch of each page of a mapped file in the page "
               "cache (lmbench lat_pagefault)",
    .measures = "per page of an 8 MiB file in the page cache: touch: mmap, read one byte of "
                "every page in a fixed shuffled order, munmap; map: mmap + munmap alone; "
                "derived pagefault_ns = touch - map (lmbench subtracts the mapping cost)",
    .scope = MB_SCOPE_ONE,
    .dims = pagefault_dims,
    .ndims = MB_COUNT(pagefault_dims),
    .points = pagefault_points,
    .setup = pagefault_setup,
    .run = pagefault_run,
    .teardown = pagefault_teardown,
    .ops_per_iter_at = pagefault_pages,
    .derive = pagefault_derive,
};
