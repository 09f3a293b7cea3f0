/* SPDX-License-Identifier: MIT */
/* shm.omp_fork: OpenMP fork/join, by team size (seed 001 "Shared memory": thread creation
 * and joining; seed 004 III.A.6 for threads). One iteration is one empty parallel region
 * of `threads` threads. The runtime keeps its pool between regions (libgomp: idle threads
 * spin a while, then sleep), so this is the re-use cost real codes pay, not thread
 * creation. Thread t is bound to core (c0 + t) mod cores, c0 being rank 0's own core. */
#include <stdlib.h>

#include <omp.h>

#include "bench.h"

static const mb_dim_t omp_fork_dims[] = {{.name = "threads", .labels = NULL}};

typedef struct omp_fork_state {
    int threads;
    hwloc_topology_t topo;
    hwloc_obj_type_t unit; /* what a thread is bound to: a core, or a PU without core info */
    int units, first;      /* how many; the one rank 0 runs on */
    hwloc_bitmap_t saved;  /* rank 0's binding before setup, restored by teardown */
} omp_fork_state_t;

/* The node's cores (or PUs when the topology has no cores); sets *unit. */
static int omp_fork_cores(hwloc_topology_t topo, hwloc_obj_type_t *unit)
{
    *unit = HWLOC_OBJ_CORE;
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (n <= 0) {
        *unit = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    }
    return n > 0 ? n : 1;
}

static int omp_fork_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    hwloc_obj_type_t unit;
    uint64_t threads_max = ctx->config->shm_threads_max;
    if (threads_max == 0)
        threads_max = (uint64_t)omp_fork_cores(ctx->topology, &unit);
    if (threads_max > max) {
        snprintf(err, errlen,
                 "[shm] threads_max: %llu team sizes are more than the %zu points "
                 "a benchmark may have",
                 (unsigned long long)threads_max, max);
        return -1;
    }
    for (uint64_t t = 1; t <= threads_max; t++)
        pts[t - 1] = (mb_point_t){.v = {(int64_t)t}};
    return (int)threads_max;
}

/* Bind the calling thread to the unit of thread number t, or restore the saved binding. */
static int omp_fork_bind_self(const omp_fork_state_t *s, int t, bool restore)
{
    hwloc_obj_t obj =
        hwloc_get_obj_by_type(s->topo, s->unit, (unsigned)((s->first + t) % s->units));
    hwloc_const_bitmap_t set = restore ? s->saved : obj ? obj->cpuset : NULL;
    return set ? hwloc_set_cpubind(s->topo, set, HWLOC_CPUBIND_THREAD) : -1;
}

static void omp_fork_teardown(void *state)
{
    omp_fork_state_t *s = state;
    if (!s)
        return;
    if (s->saved) {
#pragma omp parallel num_threads(s->threads)
        omp_fork_bind_self(s, omp_get_thread_num(), true);
        hwloc_bitmap_free(s->saved);
    }
    free(s);
}

/* What can fool it: libgomp sizes its idle spinning from the CPUs the process could use when
 * it started. A process started bound to one core (mpirun --bind-to core, Open MPI's default
 * for up to 2 ranks) has team threads spin ~100 times and then sleep, so a fork after any
 * pause pays a futex wake-up (34-60 us on a 2-core VM instead of 0.65 us). Under mpirun
 * --bind-to none mbsuite binds each rank itself, after the runtime has seen the cores. */
static int omp_fork_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                          size_t errlen)
{
    omp_fork_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->saved = hwloc_bitmap_alloc())) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    s->threads = (int)pt->v[0];
    s->topo = ctx->topology;
    s->units = omp_fork_cores(s->topo, &s->unit);
    if (hwloc_get_cpubind(s->topo, s->saved, HWLOC_CPUBIND_THREAD) != 0) {
        snprintf(err, errlen, "cannot read rank 0's binding");
        hwloc_bitmap_free(s->saved);
        s->saved = NULL;
        goto fail;
    }
    for (int u = 0; u < s->units; u++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(s->topo, s->unit, (unsigned)u);
        if (obj && hwloc_bitmap_intersects(obj->cpuset, s->saved)) {
            s->first = u;
            break;
        }
    }
    /* The first region makes the team and binds each member; later regions reuse the pool
     * in the same order (libgomp gives team member t the same pool thread each time). */
    int failed = 0, got = 0;
#pragma omp parallel num_threads(s->threads) reduction(+ : failed)
    {
        failed += omp_fork_bind_self(s, omp_get_thread_num(), false) != 0;
        if (omp_get_thread_num() == 0)
            got = omp_get_num_threads();
    }
    if (got != s->threads) {
        snprintf(err, errlen, "asked for %d OpenMP threads, got %d", s->threads, got);
        goto fail;
    }
    if (failed) {
        snprintf(err, errlen, "cannot bind %d of %d OpenMP threads to cores", failed, s->threads);
        goto fail;
    }
    *state = s;
    return 0;
fail:
    omp_fork_teardown(s);
    return -1;
}

static void omp_fork_run(void *state, uint64_t iters)
{
    omp_fork_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--) {
#pragma omp parallel num_threads(s->threads)
        mb_use_pointer(s);
    }
}

const mb_bench_t mb_bench_shm_omp_fork = {
    .name = "shm.omp_fork",
    .group = "shm",
    .summary = "OpenMP fork/join: one empty parallel region, by team size",
    .measures = "one `#pragma omp parallel num_threads(threads)` region with an empty body, seen "
                "from rank 0's thread; the runtime's thread pool persists between regions, as in "
                "real codes; team member t is bound to core (c0 + t) mod cores, c0 = rank 0's core",
    .scope = MB_SCOPE_ROOT,
    .dims = omp_fork_dims,
    .ndims = MB_COUNT(omp_fork_dims),
    .points = omp_fork_points,
    .setup = omp_fork_setup,
    .run = omp_fork_run,
    .teardown = omp_fork_teardown,
};
