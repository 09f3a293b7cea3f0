/* SPDX-License-Identifier: MIT */
/* shm.thread_barrier: time per barrier among threads (seed 001 "Shared memory": the
 * barrier row, 263 ns for two threads on a 2-processor workstation). omp: `#pragma omp
 * barrier` in one parallel region that runs a whole run(), so its fork/join is spread over
 * the iterations. pthread: pthread_barrier_wait by rank 0's thread and threads-1 persistent
 * workers made at setup. Thread t is bound to core (c0 + t) mod cores, c0 = rank 0's core. */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <omp.h>

#include "bench.h"

enum { BARRIER_OMP, BARRIER_PTHREAD };
static const char *const barrier_kind_labels[] = {"omp", "pthread", NULL};
static const mb_dim_t barrier_dims[] = {
    {.name = "kind", .labels = barrier_kind_labels},
    {.name = "threads", .labels = NULL},
};

/* pthread kind protocol. The workers wait in the same barrier as rank 0's thread, with no
 * other synchronisation: every episode needs all threads, so run(iters), which makes rank
 * 0's thread wait iters times, makes every worker complete exactly iters waits. Between runs
 * the workers sleep in their next wait. To stop, rank 0's thread publishes the number of the
 * one extra episode after which the workers return (stop_after), then waits once more:
 * a worker compares its own count with stop_after after each wait, and can see the new
 * value early only while its count is still below it. A semaphore holds the workers back
 * until all of them exist, so a failed setup can let them go without a barrier episode. */
typedef struct barrier_worker {
    struct barrier_state *s;
    pthread_t tid;
    uint64_t waits; /* measured episodes this worker completed, written when it returns */
} barrier_worker_t;

typedef struct barrier_state {
    int kind, threads;
    hwloc_topology_t topo;
    hwloc_obj_type_t unit; /* what a thread is bound to: a core, or a PU without core info */
    int units, first;      /* how many; the one rank 0 runs on */
    hwloc_bitmap_t saved;  /* rank 0's binding before setup, restored by teardown */
    /* pthread kind */
    pthread_barrier_t barrier;
    sem_t go;
    bool barrier_ready, go_ready;
    bool cancelled;              /* set before the workers are let go: return at once */
    int started;                 /* workers created */
    uint64_t episodes;           /* completed by rank 0's thread (measured ones) */
    _Atomic uint64_t stop_after; /* a worker returns after this many waits */
    barrier_worker_t *workers;   /* threads - 1 */
} barrier_state_t;

/* The node's cores (or PUs when the topology has no cores); sets *unit. */
static int barrier_cores(hwloc_topology_t topo, hwloc_obj_type_t *unit)
{
    *unit = HWLOC_OBJ_CORE;
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (n <= 0) {
        *unit = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    }
    return n > 0 ? n : 1;
}

static int barrier_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    hwloc_obj_type_t unit;
    uint64_t threads_max = ctx->config->shm_threads_max;
    if (threads_max == 0)
        threads_max = (uint64_t)barrier_cores(ctx->topology, &unit);
    if (threads_max < 2)
        return 0;
    if (2 * (threads_max - 1) > max) {
        snprintf(err, errlen,
                 "[shm] threads_max: %llu threads give more than the %zu points "
                 "a benchmark may have",
                 (unsigned long long)threads_max, max);
        return -1;
    }
    int n = 0;
    for (int64_t kind = BARRIER_OMP; kind <= BARRIER_PTHREAD; kind++)
        for (uint64_t t = 2; t <= threads_max; t++)
            pts[n++] = (mb_point_t){.v = {kind, (int64_t)t}};
    return n;
}

/* The binding of thread number t: its unit, or rank 0's saved binding. */
static hwloc_const_bitmap_t barrier_cpuset(const barrier_state_t *s, int t, bool restore)
{
    hwloc_obj_t obj =
        hwloc_get_obj_by_type(s->topo, s->unit, (unsigned)((s->first + t) % s->units));
    return restore ? s->saved : obj ? obj->cpuset : NULL;
}

static int barrier_bind_self(const barrier_state_t *s, int t, bool restore)
{
    hwloc_const_bitmap_t set = barrier_cpuset(s, t, restore);
    return set ? hwloc_set_cpubind(s->topo, set, HWLOC_CPUBIND_THREAD) : -1;
}

static void *barrier_worker_main(void *arg)
{
    barrier_worker_t *w = arg;
    barrier_state_t *s = w->s;
    while (sem_wait(&s->go) != 0)
        ;
    if (s->cancelled)
        return NULL;
    uint64_t k = 0;
    do {
        pthread_barrier_wait(&s->barrier);
        k++;
    } while (k != atomic_load_explicit(&s->stop_after, memory_order_acquire));
    w->waits = k - 1; /* the stopping episode is not a measured one */
    return NULL;
}

/* Let the created workers go: to run, or (cancel) to return at once. */
static void barrier_release(barrier_state_t *s, bool cancel)
{
    s->cancelled = cancel;
    for (int i = 0; i < s->started; i++)
        sem_post(&s->go);
}

/* Stop and join the workers of a set-up pthread point; their waits are then final. */
static void barrier_stop(barrier_state_t *s)
{
    atomic_store_explicit(&s->stop_after, s->episodes + 1, memory_order_release);
    pthread_barrier_wait(&s->barrier);
    for (int i = 0; i < s->started; i++)
        pthread_join(s->workers[i].tid, NULL);
    s->started = 0;
}

/* Free everything; the workers must have returned. */
static void barrier_free(barrier_state_t *s)
{
    if (!s)
        return;
    if (s->barrier_ready)
        pthread_barrier_destroy(&s->barrier);
    if (s->go_ready)
        sem_destroy(&s->go);
    if (s->saved) {
        if (s->kind == BARRIER_OMP) {
#pragma omp parallel num_threads(s->threads)
            barrier_bind_self(s, omp_get_thread_num(), true);
        } else {
            barrier_bind_self(s, 0, true);
        }
        hwloc_bitmap_free(s->saved);
    }
    free(s->workers);
    free(s);
}

static void barrier_teardown(void *state)
{
    barrier_state_t *s = state;
    if (s && s->started)
        barrier_stop(s);
    barrier_free(s);
}

/* libgomp spins only briefly when it started with fewer CPUs than threads: see omp_fork.c. */
static int barrier_setup_omp(barrier_state_t *s, char *err, size_t errlen)
{
    int failed = 0, got = 0;
#pragma omp parallel num_threads(s->threads) reduction(+ : failed)
    {
        failed += barrier_bind_self(s, omp_get_thread_num(), false) != 0;
        if (omp_get_thread_num() == 0)
            got = omp_get_num_threads();
    }
    if (got != s->threads) {
        snprintf(err, errlen, "asked for %d OpenMP threads, got %d", s->threads, got);
        return -1;
    }
    if (failed) {
        snprintf(err, errlen, "cannot bind %d of %d OpenMP threads to cores", failed, s->threads);
        return -1;
    }
    return 0;
}

static int barrier_setup_pthread(barrier_state_t *s, char *err, size_t errlen)
{
    int nworkers = s->threads - 1;
    if (barrier_bind_self(s, 0, false) != 0) {
        snprintf(err, errlen, "cannot bind rank 0's thread to a core");
        return -1;
    }
    if (!(s->workers = calloc((size_t)nworkers, sizeof *s->workers))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pthread_barrier_init(&s->barrier, NULL, (unsigned)s->threads) != 0) {
        snprintf(err, errlen, "pthread_barrier_init for %d threads failed", s->threads);
        return -1;
    }
    s->barrier_ready = true;
    if (sem_init(&s->go, 0, 0) != 0) {
        snprintf(err, errlen, "sem_init failed");
        return -1;
    }
    s->go_ready = true;
    atomic_init(&s->stop_after, UINT64_MAX);
    for (int i = 0; i < nworkers; i++) {
        barrier_worker_t *w = &s->workers[i];
        w->s = s;
        int rc = pthread_create(&w->tid, NULL, barrier_worker_main, w);
        if (rc != 0) {
            snprintf(err, errlen, "pthread_create failed for worker %d of %d: error %d", i + 1,
                     nworkers, rc);
            goto cancel;
        }
        s->started++;
        if (hwloc_set_thread_cpubind(s->topo, w->tid, barrier_cpuset(s, i + 1, false), 0) != 0) {
            snprintf(err, errlen, "cannot bind worker %d of %d to a core", i + 1, nworkers);
            goto cancel;
        }
    }
    barrier_release(s, false);
    return 0;
cancel:
    barrier_release(s, true);
    for (int i = 0; i < s->started; i++)
        pthread_join(s->workers[i].tid, NULL);
    s->started = 0;
    return -1;
}

static int barrier_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    barrier_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->saved = hwloc_bitmap_alloc())) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    s->kind = (int)pt->v[0];
    s->threads = (int)pt->v[1];
    s->topo = ctx->topology;
    s->units = barrier_cores(s->topo, &s->unit);
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
    int rc = s->kind == BARRIER_OMP ? barrier_setup_omp(s, err, errlen)
                                    : barrier_setup_pthread(s, err, errlen);
    if (rc != 0)
        goto fail;
    *state = s;
    return 0;
fail:
    barrier_free(s);
    return -1;
}

static void barrier_run(void *state, uint64_t iters)
{
    barrier_state_t *s = state;
    if (s->kind == BARRIER_OMP) {
#pragma omp parallel num_threads(s->threads)
        for (uint64_t i = iters; i > 0; i--) {
#pragma omp barrier
        }
    } else {
        for (uint64_t i = iters; i > 0; i--)
            pthread_barrier_wait(&s->barrier);
        s->episodes += iters;
    }
}

const mb_bench_t mb_bench_shm_thread_barrier = {
    .name = "shm.thread_barrier",
    .group = "shm",
    .summary = "time per barrier among threads: OpenMP barrier and pthread_barrier_wait",
    .measures = "one barrier episode among `threads` threads, each bound to its own core, seen "
                "from rank 0's thread; omp: `#pragma omp barrier` inside one parallel region per "
                "run (its fork/join amortised over the iterations); pthread: pthread_barrier_wait "
                "with threads-1 persistent workers waiting in lockstep",
    .scope = MB_SCOPE_ROOT,
    .dims = barrier_dims,
    .ndims = MB_COUNT(barrier_dims),
    .points = barrier_points,
    .setup = barrier_setup,
    .run = barrier_run,
    .teardown = barrier_teardown,
};
