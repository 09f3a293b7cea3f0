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
#include "thread_team.h"

enum { BARRIER_OMP, BARRIER_PTHREAD };
static const char *const barrier_kind_labels[] = {"omp", "pthread", NULL};
static const mb_dim_t barrier_dims[] = {
    {.name = "kind", .labels = barrier_kind_labels},
    {.name = "threads", .role = MB_ROLE_THREADS},
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
    mb_team_t team;
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

static int barrier_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    uint64_t threads_max = mb_team_threads_max(ctx);
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
    mb_team_free(&s->team, s->kind == BARRIER_OMP ? s->threads : 0);
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

static int barrier_setup_pthread(barrier_state_t *s, char *err, size_t errlen)
{
    int nworkers = s->threads - 1;
    if (mb_team_bind_self(&s->team, 0, false) != 0) {
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
        if (hwloc_set_thread_cpubind(s->team.topo, w->tid, mb_team_cpuset(&s->team, i + 1, false), 0) != 0) {
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

/* libgomp spins only briefly when it started with fewer CPUs than threads: see omp_fork.c. */
static int barrier_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    barrier_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->kind = (int)pt->v[0];
    s->threads = (int)pt->v[1];
    int rc = mb_team_init(&s->team, ctx->topology, err, errlen);
    if (rc == 0)
        rc = s->kind == BARRIER_OMP ? mb_team_bind_omp(&s->team, s->threads, err, errlen)
                                    : barrier_setup_pthread(s, err, errlen);
    if (rc != 0) {
        barrier_free(s);
        return -1;
    }
    *state = s;
    return 0;
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
    .scope = MB_SCOPE_ONE,
    .dims = barrier_dims,
    .ndims = MB_COUNT(barrier_dims),
    .points = barrier_points,
    .setup = barrier_setup,
    .run = barrier_run,
    .teardown = barrier_teardown,
};
