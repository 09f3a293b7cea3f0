/* SPDX-License-Identifier: MIT */
/* os.daxpy: BOGOMFLOPS (seed 003 Table 9, "CPU-rates in BOGOMFLOPS", and its out-of-cache
 * graph; seed 001's CPU rates): y[i] += a * x[i] in single and double precision, with x
 * and y together filling half of the L1 data cache, half of L2, half of the last-level
 * cache (at most 8 MiB), and a memory working set (4 x the last-level cache, capped as
 * [shm] memory_max and at 32 MiB: on a node whose LLC is over 8 MiB that point may be
 * partly cached; its size is in the record).
 * One operation is one element (2 floating-point operations); derived
 * mflops_<precision>_<level> = 2000 / (ns per element). A level whose size this node does
 * not report, or that is the same cache as the level before (no L3), is left out. Compiled
 * at the suite's -O2: the compiler may vectorise the loop, as lmbench at -O may not; the
 * rate is the machine's for this code, not a peak. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sysinfo.h"

/* Every pass streams the whole working set, 51 experiments at worst: the memory point is
 * 4 x the last-level cache ([shm] memory_max) but at most DAXPY_MAX_BYTES, and the LLC point
 * half the LLC but at most DAXPY_LLC_MAX_BYTES, so the figure costs about a second. */
#define DAXPY_MAX_BYTES ((uint64_t)32 << 20)
#define DAXPY_LLC_MAX_BYTES ((uint64_t)8 << 20)

enum { DAXPY_SINGLE, DAXPY_DOUBLE };
enum { DAXPY_L1, DAXPY_L2, DAXPY_LLC, DAXPY_MEMORY };
static const char *const daxpy_precision_labels[] = {"single", "double", NULL};
static const char *const daxpy_level_labels[] = {"L1", "L2", "LLC", "memory", NULL};
static const mb_dim_t daxpy_dims[] = {
    {.name = "precision", .labels = daxpy_precision_labels},
    {.name = "level", .labels = daxpy_level_labels},
    {.name = "size_bytes", .role = MB_ROLE_WORKING_SET},
};

typedef struct daxpy_state {
    int precision;
    size_t n;
    void *x, *y;
} daxpy_state_t;

/* Size of the first data or unified cache object of a level, 0 if none. */
static uint64_t daxpy_cache_bytes(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    hwloc_obj_t obj = hwloc_get_next_obj_by_type(topo, type, NULL);
    return obj && obj->attr ? obj->attr->cache.size : 0;
}

static int daxpy_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                        size_t errlen)
{
    (void)err, (void)errlen;
    uint64_t l1 = daxpy_cache_bytes(ctx->topology, HWLOC_OBJ_L1CACHE);
    uint64_t l2 = daxpy_cache_bytes(ctx->topology, HWLOC_OBJ_L2CACHE);
    uint64_t llc = ctx->llc_bytes;
    uint64_t memory = mb_sysinfo_memory_span_bytes(llc, DAXPY_MAX_BYTES);
    if (memory > DAXPY_MAX_BYTES)
        memory = DAXPY_MAX_BYTES;
    uint64_t in_llc = llc / 2 < DAXPY_LLC_MAX_BYTES ? llc / 2 : DAXPY_LLC_MAX_BYTES;
    uint64_t sizes[4] = {l1 / 2, l2 / 2, llc > l2 && in_llc > l2 && in_llc < memory ? in_llc : 0,
                         memory};
    size_t n = 0;
    for (int64_t p = DAXPY_SINGLE; p <= DAXPY_DOUBLE; p++)
        for (int64_t l = DAXPY_L1; l <= DAXPY_MEMORY && n < max; l++)
            if (sizes[l] >= 1024)
                pts[n++] = (mb_point_t){.v = {p, l, (int64_t)sizes[l]}};
    return (int)n;
}

static size_t daxpy_elem_bytes(int64_t precision)
{
    return precision == DAXPY_SINGLE ? sizeof(float) : sizeof(double);
}

static double daxpy_elements(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (double)((uint64_t)pt->v[2] / (2 * daxpy_elem_bytes(pt->v[0])));
}

static void daxpy_teardown(void *state)
{
    daxpy_state_t *s = state;
    if (!s)
        return;
    free(s->x);
    free(s->y);
    free(s);
}

static int daxpy_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                       size_t errlen)
{
    (void)ctx;
    daxpy_state_t *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->precision = (int)pt->v[0];
    s->n = (size_t)daxpy_elements(ctx, pt);
    size_t bytes = (s->n * daxpy_elem_bytes(pt->v[0]) + 63) / 64 * 64;
    s->x = aligned_alloc(64, bytes);
    s->y = aligned_alloc(64, bytes);
    if (!s->x || !s->y)
        goto oom;
    for (size_t i = 0; i < s->n; i++) {
        if (s->precision == DAXPY_SINGLE) {
            ((float *)s->x)[i] = 1e-3f;
            ((float *)s->y)[i] = 1.0f;
        } else {
            ((double *)s->x)[i] = 1e-3;
            ((double *)s->y)[i] = 1.0;
        }
    }
    *state = s;
    return 0;
oom:
    snprintf(err, errlen, "cannot allocate 2 x %lld bytes", (long long)pt->v[2] / 2);
    daxpy_teardown(s);
    return -1;
}

/* omp simd: at -O2 GCC 12 vectorises no loop that needs a remainder (its very cheap cost
 * model), and a scalar loop measured single precision at half double's rate. */
static void daxpy_run(void *state, uint64_t iters)
{
    daxpy_state_t *s = state;
    size_t n = s->n;
    for (uint64_t it = iters; it > 0; it--) {
        if (s->precision == DAXPY_SINGLE) {
            float *restrict y = s->y;
            const float *restrict x = s->x;
            const float a = 0.5f;
#pragma omp simd
            for (size_t i = 0; i < n; i++)
                y[i] += a * x[i];
        } else {
            double *restrict y = s->y;
            const double *restrict x = s->x;
            const double a = 0.5;
#pragma omp simd
            for (size_t i = 0; i < n; i++)
                y[i] += a * x[i];
        }
        mb_use_pointer(s->y);
    }
}

static uint64_t daxpy_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    /* Per element: x read, y read and written. */
    return 3 * daxpy_elem_bytes(pt->v[0]);
}

static uint64_t daxpy_touch(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (uint64_t)pt->v[2];
}

static json_t *daxpy_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    json_t *out = json_object();
    for (size_t i = 0; i < n; i++) {
        double ns = ms[i].n ? ms[i].stats.median : NAN;
        if (!isfinite(ns) || ns <= 0)
            continue;
        char key[64];
        snprintf(key, sizeof key, "mflops_%s_%s", daxpy_precision_labels[pts[i].v[0]],
                 daxpy_level_labels[pts[i].v[1]]);
        json_object_set_new(out, key, json_real(2000.0 / ns));
    }
    if (json_object_size(out) == 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

const mb_bench_t mb_bench_os_daxpy = {
    .name = "os.daxpy",
    .group = "os",
    .summary = "BOGOMFLOPS: y += a*x, single and double precision, working sets in L1, L2, the "
               "last-level cache and memory (seed 003 Table 9)",
    .measures = "one element of y[i] += a * x[i] (2 flops), x and y together size_bytes; "
                "derived mflops_<precision>_<level> = 2000 / ns per element",
    .scope = MB_SCOPE_ONE,
    .dims = daxpy_dims,
    .ndims = MB_COUNT(daxpy_dims),
    .points = daxpy_points,
    .setup = daxpy_setup,
    .run = daxpy_run,
    .teardown = daxpy_teardown,
    .ops_per_iter_at = daxpy_elements,
    .bytes_per_op = daxpy_bytes,
    .touch_bytes = daxpy_touch,
    .derive = daxpy_derive,
};
