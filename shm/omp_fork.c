/* SPDX-License-Identifier: MIT */
/* shm.omp_fork: OpenMP fork/join, by team size (seed 001 "Shared memory": thread creation
 * and joining; seed 004 III.A.6 for threads). One iteration is one empty parallel region
 * of `threads` threads. The runtime keeps its pool between regions (libgomp: idle threads
 * spin a while, then sleep), so this is the re-use cost real codes pay, not thread
 * creation. Thread t is bound to core (c0 + t) mod cores, c0 being rank 0's own core. */
#include <stdlib.h>

#include <omp.h>

#include "bench.h"
#include "thread_team.h"

static const mb_dim_t omp_fork_dims[] = {{.name = "threads", .role = MB_ROLE_THREADS}};

typedef struct omp_fork_state {
    int threads;
    mb_team_t team;
} omp_fork_state_t;

static int omp_fork_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    uint64_t threads_max = mb_team_threads_max(ctx);
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

static void omp_fork_teardown(void *state)
{
    omp_fork_state_t *s = state;
    if (!s)
        return;
    mb_team_free(&s->team, s->threads);
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
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->threads = (int)pt->v[0];
    if (mb_team_init(&s->team, ctx->topology, err, errlen) != 0 ||
        mb_team_bind_omp(&s->team, s->threads, err, errlen) != 0) {
        omp_fork_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
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
    .scope = MB_SCOPE_ONE,
    .dims = omp_fork_dims,
    .ndims = MB_COUNT(omp_fork_dims),
    .points = omp_fork_points,
    .setup = omp_fork_setup,
    .run = omp_fork_run,
    .teardown = omp_fork_teardown,
};
