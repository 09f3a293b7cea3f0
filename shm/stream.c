/* SPDX-License-Identifier: MIT */
/* shm.stream_copy, _scale, _add, _triad: McCalpin's STREAM kernels (the node figure users
 * compare machines by; seed 004's memory bandwidth), one rank alone (MB_SCOPE_ONE: the
 * first rank of each node) and all of a node's ranks at once (MB_SCOPE_NODE_ALL: the
 * report's aggregate is the node's). Each array is STREAM's size, 4 x the last-level cache,
 * with the three arrays together at most [shm] memory_max (or the time budget's cut), as
 * every other working set is, shared out over the ranks when all run at once (sysinfo.h); "array_bytes" records what each rank used, and the report's
 * "memory figures" line says whether 4 x LLC was capped and to what.
 *
 * Bytes are counted as STREAM counts them: copy (c = a) and scale (b = s c) move 2 words
 * of 8 bytes per element, add (c = a + b) and triad (a = b + s c) 3; the write-allocate
 * read of the destination, which the memory also carries unless stores stream, is not
 * counted. lmbench's bw_mem counts otherwise: a copy (cp, fcp, bcopy) counts the bytes
 * copied once, i.e. 1 word per element where STREAM counts 2, so its copy MB/s is half of
 * STREAM's for the same time; its rd counts the whole buffer though it loads one word in
 * four; like STREAM it counts no write-allocate. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpi_util.h"
#include "sysinfo.h"
#include "workset.h"

enum { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD };
enum { STREAM_ONE, STREAM_ALL };
#define STREAM_SCALAR 3.0 /* stream.c's */
#define STREAM_UNKNOWN_LLC_SPAN ((uint64_t)32 << 20)

static const char *const stream_ranks_labels[] = {"one", "all", NULL};
static const mb_dim_t stream_dims[] = {
    {.name = "ranks", .labels = stream_ranks_labels},
    {.name = "array_bytes", .role = MB_ROLE_COUNT},
};

typedef struct stream_kernel {
    int kernel;
    unsigned words; /* 8-byte words STREAM counts per element */
} stream_kernel_t;

typedef struct stream_state {
    double *a, *b, *c;
    size_t n;
    int kernel;
} stream_state_t;

/* Bytes of each of the three arrays of one rank: 4 x LLC, the three within the working-set
 * cap (3 x 256 MiB a point, set up 8 times, would cost the default run's budget ~25 s). */
static uint64_t stream_array_bytes(const mb_context_t *ctx, int ranks)
{
    /* The span of three arrays: 3 x 4 x LLC, capped. */
    uint64_t span = mb_sysinfo_memory_span_shared_bytes(3 * ctx->llc_bytes, 3 * STREAM_UNKNOWN_LLC_SPAN,
                                                        ranks == STREAM_ALL ? ctx->node_size : 1);
    return span / 3 / 4096 * 4096;
}

static int stream_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                         size_t errlen)
{
    uint64_t need = 3 * stream_array_bytes(ctx, STREAM_ALL) * (uint64_t)ctx->node_size;
    uint64_t one = 3 * stream_array_bytes(ctx, STREAM_ONE);
    uint64_t memory = mb_sysinfo_memory_bytes(ctx->topology);
    if (memory && (need > memory / 2 || one > memory / 2)) {
        snprintf(err, errlen,
                 "%d ranks x 3 arrays of %llu bytes is more than half this node's memory (%llu "
                 "bytes); lower [shm] memory_max or run fewer ranks per node",
                 ctx->node_size, (unsigned long long)stream_array_bytes(ctx, STREAM_ALL),
                 (unsigned long long)memory);
        return -1;
    }
    size_t n = 0;
    for (int ranks = STREAM_ONE; ranks <= STREAM_ALL && n < max; ranks++)
        pts[n++] = (mb_point_t){.v = {ranks, (int64_t)stream_array_bytes(ctx, ranks)}};
    return (int)n;
}

static mb_scope_t stream_scope(const mb_point_t *pt)
{
    return pt->v[0] == STREAM_ALL ? MB_SCOPE_NODE_ALL : MB_SCOPE_ONE;
}

static void stream_teardown(void *state)
{
    stream_state_t *s = state;
    if (!s)
        return;
    mb_workset_free(s->a);
    mb_workset_free(s->b);
    mb_workset_free(s->c);
    free(s);
}

static int stream_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                        size_t errlen)
{
    const stream_kernel_t *k = ctx->arg;
    uint64_t bytes = (uint64_t)pt->v[1];
    stream_state_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->kernel = k->kernel;
    s->n = bytes / sizeof(double);
    s->a = mb_workset_alloc(bytes, 4096, false);
    s->b = mb_workset_alloc(bytes, 4096, false);
    s->c = mb_workset_alloc(bytes, 4096, false);
    if (!s->a || !s->b || !s->c)
        goto oom;
    /* stream.c's values; written here, so the pages are this rank's and faulted in now. */
    for (size_t j = 0; j < s->n; j++) {
        s->a[j] = 1.0;
        s->b[j] = 2.0;
        s->c[j] = 0.0;
    }
    *state = s;
    return 0;
oom:
    stream_teardown(s);
    snprintf(err, errlen, "cannot allocate 3 x %llu bytes", (unsigned long long)bytes);
    return -1;
}

/* The loops as stream.c writes them. Each kernel alone is idempotent (it never reads what
 * it writes), so passes repeat without the values drifting. simd: stream.c's kernels run
 * over static arrays of a compile-time length, which GCC vectorises at -O2; over these heap
 * arrays of a run-time length -O2's cost model leaves them scalar unless told (the scalar
 * triad at 128 MiB: 0-11% slower in 4 alternated runs). */
static void stream_copy(double *restrict c, const double *restrict a, size_t n)
{
#pragma omp simd
    for (size_t j = 0; j < n; j++)
        c[j] = a[j];
}

static void stream_scale(double *restrict b, const double *restrict c, size_t n)
{
#pragma omp simd
    for (size_t j = 0; j < n; j++)
        b[j] = STREAM_SCALAR * c[j];
}

static void stream_add(double *restrict c, const double *restrict a, const double *restrict b,
                       size_t n)
{
#pragma omp simd
    for (size_t j = 0; j < n; j++)
        c[j] = a[j] + b[j];
}

static void stream_triad(double *restrict a, const double *restrict b, const double *restrict c,
                         size_t n)
{
#pragma omp simd
    for (size_t j = 0; j < n; j++)
        a[j] = b[j] + STREAM_SCALAR * c[j];
}

/* A plain copy loop stays a loop (GCC would call memcpy), as in stream.c built without
 * its library tuning. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void
stream_pass(stream_state_t *s)
{
    switch (s->kernel) {
    case STREAM_COPY: stream_copy(s->c, s->a, s->n); break;
    case STREAM_SCALE: stream_scale(s->b, s->c, s->n); break;
    case STREAM_ADD: stream_add(s->c, s->a, s->b, s->n); break;
    default: stream_triad(s->a, s->b, s->c, s->n); break;
    }
}

static void stream_run(void *state, uint64_t iters)
{
    stream_state_t *s = state;
    for (uint64_t it = iters; it > 0; it--) {
        stream_pass(s);
        mb_use_pointer(s->a); /* each pass reads and writes memory again */
    }
}

/* STREAM's bytes per pass: words per element x 8 x elements (no write-allocate). */
static uint64_t stream_bytes_per_op(const mb_context_t *ctx, const mb_point_t *pt)
{
    const stream_kernel_t *k = ctx->arg;
    return (uint64_t)k->words * ((uint64_t)pt->v[1] / sizeof(double)) * sizeof(double);
}

/* Setup writes the three arrays; each pass touches two or three of them. */
static uint64_t stream_touch_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return 3 * (uint64_t)pt->v[1];
}

/* The family's size as bench_list.def gives it to the registry. */
enum {
#define MB_BENCH(ident)
#define MB_FAMILY(ident, n) STREAM_FAMILY_SIZE_##ident = n,
#include "bench_list.def"
#undef MB_BENCH
#undef MB_FAMILY
};

static const stream_kernel_t stream_k_copy = {STREAM_COPY, 2}, stream_k_scale = {STREAM_SCALE, 2},
                             stream_k_add = {STREAM_ADD, 3}, stream_k_triad = {STREAM_TRIAD, 3};

#define STREAM_COUNTING                                                                            \
    "; STREAM's byte counting: copy and scale 2 x 8 bytes per element, add and triad 3 x 8, "      \
    "no write-allocate (lmbench's bw_mem counts a copy's bytes once, half of STREAM's copy "       \
    "figure); each array 4 x the last-level cache, the three together at most [shm] "           \
    "memory_max (array_bytes), shared out over the ranks when all run"
#define STREAM_COMMON                                                                              \
    .group = "shm", .scope_of = stream_scope, .dims = stream_dims,                                 \
    .ndims = MB_COUNT(stream_dims), .points = stream_points, .setup = stream_setup,                \
    .run = stream_run, .teardown = stream_teardown, .bytes_per_op = stream_bytes_per_op,           \
    .touch_bytes = stream_touch_bytes

const mb_bench_t mb_bench_shm_stream[STREAM_FAMILY_SIZE_shm_stream] = {
    {STREAM_COMMON, .name = "shm.stream_copy", .arg = &stream_k_copy,
     .summary = "STREAM copy c = a over arrays out of cache, one rank and all",
     .measures = "one pass of c[j] = a[j] over the arrays" STREAM_COUNTING},
    {STREAM_COMMON, .name = "shm.stream_scale", .arg = &stream_k_scale,
     .summary = "STREAM scale b = 3 c over arrays out of cache, one rank and all",
     .measures = "one pass of b[j] = 3.0 * c[j] over the arrays" STREAM_COUNTING},
    {STREAM_COMMON, .name = "shm.stream_add", .arg = &stream_k_add,
     .summary = "STREAM add c = a + b over arrays out of cache, one rank and all",
     .measures = "one pass of c[j] = a[j] + b[j] over the arrays" STREAM_COUNTING},
    {STREAM_COMMON, .name = "shm.stream_triad", .arg = &stream_k_triad,
     .summary = "STREAM triad a = b + 3 c over arrays out of cache, one rank and all",
     .measures = "one pass of a[j] = b[j] + 3.0 * c[j] over the arrays" STREAM_COUNTING},
};
