/* SPDX-License-Identifier: MIT */
/* shm.thread_create: POSIX thread creation and joining (seed 004 III.A.6, "Thread creation
 * and running time"; seed 001's "process creation and joining" for threads). One
 * iteration is pthread_create + pthread_join, default attributes (glibc reuses the freed
 * stack, as a program creating threads again and again would). The thread inherits rank
 * 0's one-core binding, so creator and thread share a core, as in the seed's 1-core runs. */
#include <pthread.h>
#include <stdlib.h>

#include "bench.h"

/* The "running" thread's fixed work: dependent adds the compiler must keep. */
#define THREAD_CREATE_LOOP_ITERS 1000

enum { THREAD_CREATE_EMPTY, THREAD_CREATE_RUNNING };
static const char *const thread_create_body_labels[] = {"empty", "running", NULL};
static const mb_dim_t thread_create_dims[] = {
    {.name = "body", .labels = thread_create_body_labels}};

typedef struct thread_create_state {
    void *(*body)(void *);
} thread_create_state_t;

static void *thread_create_empty(void *arg)
{
    return arg;
}

static void *thread_create_running(void *arg)
{
    uint64_t acc = 0;
    for (uint64_t i = 0; i < THREAD_CREATE_LOOP_ITERS; i++) {
        acc += i;
        __asm__ volatile("" : "+r"(acc));
    }
    mb_use_int(acc);
    return arg;
}

static int thread_create_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                                size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    int n = 0;
    for (int64_t body = THREAD_CREATE_EMPTY; body <= THREAD_CREATE_RUNNING && (size_t)n < max;
         body++)
        pts[n++] = (mb_point_t){.v = {body}};
    return n;
}

/* One create + join; 0 or the pthread error number. */
static int thread_create_once(thread_create_state_t *s)
{
    pthread_t t;
    int rc = pthread_create(&t, NULL, s->body, s);
    if (rc == 0)
        rc = pthread_join(t, NULL);
    return rc;
}

static int thread_create_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                               char *err, size_t errlen)
{
    (void)ctx;
    thread_create_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->body = pt->v[0] == THREAD_CREATE_RUNNING ? thread_create_running : thread_create_empty;
    /* run() cannot report an error: find out now whether threads can be made at all. */
    int rc = thread_create_once(s);
    if (rc != 0) {
        snprintf(err, errlen, "pthread_create/pthread_join failed: error %d", rc);
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void thread_create_run(void *state, uint64_t iters)
{
    /* Setup proved that threads can be made; run() has no way to report a later failure
     * (EAGAIN at a thread limit would need other threads, and all of ours are joined). */
    thread_create_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--)
        thread_create_once(s);
}

const mb_bench_t mb_bench_shm_thread_create = {
    .name = "shm.thread_create",
    .group = "shm",
    .summary =
        "pthread_create + pthread_join of a thread that returns at once or runs a short loop",
    .measures = "one pthread_create + pthread_join (default attributes) by rank 0; body empty: the "
                "thread returns at once; running: it first runs a loop of 1000 dependent adds; "
                "the thread inherits rank 0's one-core binding",
    .scope = MB_SCOPE_ONE,
    .dims = thread_create_dims,
    .ndims = MB_COUNT(thread_create_dims),
    .points = thread_create_points,
    .setup = thread_create_setup,
    .run = thread_create_run,
    .teardown = free,
};
