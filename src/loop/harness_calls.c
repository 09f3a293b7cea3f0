/* SPDX-License-Identifier: MIT */
#include "harness_calls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_util.h"

#define CALLS_MIN 16

/* What a synchronisation strategy may use: the clock, its offset to world rank 0, and
 * the longest call seen so far (for a schedule of start times). */
typedef struct calls_schedule {
    const mb_clock_t *clock;
    double offset_ns;
    double call_ns;     /* the slowest rank's call time, from the warm-up */
    double window_ns;   /* window: time between scheduled starts */
    double t0_ns;       /* window: the experiment's first start, on world rank 0's clock */
} calls_schedule_t;

static void sync_barrier_wait(void *s, MPI_Comm comm, uint64_t i)
{
    (void)s;
    (void)i;
    MB_MPI_CHECK(MPI_Barrier(comm));
}

const mb_sync_t mb_sync_barrier = {
    .name = "barrier",
    .describe = "MPI_Barrier over the measuring ranks before every call",
    .wait = sync_barrier_wait,
};

/* ReproMPI's window scheme: every call starts at an agreed time on clocks corrected by
 * their offsets to world rank 0, windows apart, so no rank enters late by a barrier's
 * exit skew; the window is twice the slowest call of the warm-up plus 5 us. */
static void sync_window_begin(void *state, MPI_Comm comm, uint64_t iters)
{
    (void)iters;
    calls_schedule_t *s = state;
    s->window_ns = 2 * s->call_ns + 5000;
    int me;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    /* Far enough ahead that the broadcast reaches every rank before the first start. */
    double start = (double)mb_clock_now_ns(s->clock) + s->offset_ns + 100000;
    MB_MPI_CHECK(MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm));
    s->t0_ns = start;
}

static void sync_window_wait(void *state, MPI_Comm comm, uint64_t i)
{
    (void)comm;
    calls_schedule_t *s = state;
    double at = s->t0_ns + (double)i * s->window_ns;
    while ((double)mb_clock_now_ns(s->clock) + s->offset_ns < at)
        ;
}

const mb_sync_t mb_sync_window = {
    .name = "window",
    .describe = "every call starts at a common time on offset-corrected clocks (ReproMPI's "
                "window scheme), windows of twice the slowest warm-up call plus 5 us",
    .begin = sync_window_begin,
    .wait = sync_window_wait,
};

void mb_calls_result_free(mb_calls_result_t *r)
{
    mb_measurement_free(&r->headline);
    mb_measurement_free(&r->own);
}

static void calls_hook(mb_call_fn fn, void *state)
{
    if (fn)
        fn(state);
}

/* One experiment of iters calls: each call's start (on world rank 0's clock) and duration
 * on this rank, with the timing overhead subtracted. */
static double calls_experiment(const mb_timing_t *t, const mb_calls_t *c, const mb_sync_t *sync,
                               calls_schedule_t *sched, MPI_Comm comm, uint64_t iters,
                               double *start_ns, double *dur_ns)
{
    uint64_t began = mb_clock_now_ns(t->clock);
    if (sync->begin)
        sync->begin(sched, comm, iters);
    for (uint64_t i = 0; i < iters; i++) {
        calls_hook(c->prepare, c->state);
        sync->wait(sched, comm, i);
        calls_hook(c->settle, c->state);
        uint64_t t0 = mb_clock_now_ns(t->clock);
        c->op(c->state);
        uint64_t t1 = mb_clock_now_ns(t->clock);
        calls_hook(c->finish, c->state);
        start_ns[i] = (double)t0 + sched->offset_ns;
        dur_ns[i] = (double)(t1 - t0) - t->overhead_ns;
    }
    return (double)(mb_clock_now_ns(t->clock) - began);
}

/* Per-call figures over the ranks, summed over the experiment's calls: the slowest rank,
 * the mean over ranks, the entry skew, and this rank's own. All ranks get the same sums. */
typedef struct calls_sums {
    double max_ns, avg_ns, skew_ns, own_ns;
    double wall_ns; /* the slowest rank's experiment, synchronisation included */
} calls_sums_t;

static calls_sums_t calls_combine(MPI_Comm comm, int size, uint64_t iters, const double *start_ns,
                                  const double *dur_ns, double wall_ns, double *scratch)
{
    /* One MAX reduction carries durations, starts, negated starts and the experiment's
     * length: O(iters) per rank. */
    double *mine = scratch, *all = scratch + 3 * iters + 1;
    double own = 0;
    mine[3 * iters] = wall_ns;
    for (uint64_t i = 0; i < iters; i++) {
        mine[i] = dur_ns[i];
        mine[iters + i] = start_ns[i];
        mine[2 * iters + i] = -start_ns[i];
        own += dur_ns[i];
    }
    MB_MPI_CHECK(MPI_Allreduce(mine, all, (int)(3 * iters + 1), MPI_DOUBLE, MPI_MAX, comm));
    double total = 0;
    MB_MPI_CHECK(MPI_Allreduce(&own, &total, 1, MPI_DOUBLE, MPI_SUM, comm));
    calls_sums_t s = {.own_ns = own, .avg_ns = total / size, .wall_ns = all[3 * iters]};
    for (uint64_t i = 0; i < iters; i++) {
        s.max_ns += all[i];
        s.skew_ns += all[iters + i] + all[2 * iters + i];
    }
    return s;
}

static double calls_median(double *v, size_t n)
{
    mb_stats_t st;
    mb_stats_summarize(v, n, &st);
    return st.median;
}

int mb_harness_measure_calls(const mb_timing_t *t, const mb_measure_opts_t *opts,
                             const mb_calls_t *calls, const mb_sync_t *sync, MPI_Comm comm,
                             mb_headline_t headline, double clock_offset_ns,
                             mb_calls_result_t *out)
{
    int me, size;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    uint64_t cap = mb_harness_max_experiments(opts);
    double ops = opts->ops_per_iter > 0 ? opts->ops_per_iter : 1.0;
    memset(out, 0, sizeof *out);
    calls_schedule_t sched = {.clock = t->clock, .offset_ns = clock_offset_ns};
    /* With the window scheme a call costs two windows of wall time: at least CALLS_MIN
     * calls an experiment, or a few calls would make a coarse mean. */
    uint64_t room = 0, iters = sync->begin ? CALLS_MIN : 1;
    double *buf = NULL, *avg = malloc(cap * sizeof *avg), *skew = malloc(cap * sizeof *skew),
           *maxv = malloc(cap * sizeof *maxv);
    out->headline.samples_ns = malloc(cap * sizeof(double));
    out->own.samples_ns = malloc(cap * sizeof(double));
    int ok = avg && skew && maxv && out->headline.samples_ns && out->own.samples_ns, all_ok = 0;
    MB_MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm));
    if (!all_ok)
        goto fail;

    /* Warm-up and sizing: the same count on every rank at every step (the operation may
     * be a collective). An experiment lasts `enough` of the slowest rank's wall time,
     * synchronisation included (seed 000 6.4's rule applied to it): sizing on the timed
     * calls alone would, for a 30 ns call between 1 us barriers, make experiments 30
     * times longer for no gain in precision, since every call is timed on its own. */
    bool measuring = false;
    double warm_ns = 0;
    uint64_t began = mb_clock_now_ns(t->clock);
    for (;;) {
        if (iters > room) {
            /* start, duration, and 6 per call + 2 for the reduction */
            double *grown = realloc(buf, (8 * iters + 2) * sizeof *buf);
            ok = grown != NULL;
            MB_MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm));
            if (!all_ok) {
                free(grown ? grown : buf);
                buf = NULL;
                goto fail;
            }
            buf = grown;
            room = iters;
        }
        double wall = calls_experiment(t, calls, sync, &sched, comm, iters, buf, buf + iters);
        calls_sums_t s = calls_combine(comm, size, iters, buf, buf + iters, wall, buf + 2 * iters);
        sched.call_ns = s.max_ns / (double)iters;
        if (!measuring) {
            warm_ns += s.wall_ns;
            bool accepted;
            uint64_t next = mb_harness_resize(t, iters, s.wall_ns, &accepted);
            if (!accepted && next == 0)
                goto fail;
            if (!accepted)
                iters = next;
            else if (warm_ns >= opts->warmup_ns) {
                measuring = true;
                began = mb_clock_now_ns(t->clock);
            }
            continue;
        }
        /* A call quicker than the timing overhead can read as a few ns below zero; an
         * experiment's mean is floored at 0 (below the clock's resolution). */
        double per = (double)iters * ops;
        s.max_ns = fmax(s.max_ns, 0);
        s.own_ns = fmax(s.own_ns, 0);
        s.avg_ns = fmax(s.avg_ns, 0);
        size_t n = out->headline.n;
        out->headline.samples_ns[n] =
            (headline == MB_HEADLINE_MAX ? s.max_ns : me == 0 ? s.own_ns : 0) / per;
        out->own.samples_ns[n] = s.own_ns / per;
        avg[n] = s.avg_ns / per;
        maxv[n] = s.max_ns / per;
        skew[n] = s.skew_ns / (double)iters;
        out->headline.n = out->own.n = n + 1;
        out->headline.iters = out->own.iters = iters;
        /* Rank 0 decides whether to go on: a pair's headline is its own, and the time
         * budget reads its clock (the ranks' clocks would not agree to the ns). */
        double elapsed = (double)(mb_clock_now_ns(t->clock) - began);
        int more = mb_harness_want_more(opts, &out->headline, elapsed);
        MB_MPI_CHECK(MPI_Bcast(&more, 1, MPI_INT, 0, comm));
        if (!more || out->headline.n >= cap)
            break;
    }
    if (headline == MB_HEADLINE_RANK0) {
        /* The other ranks' headline is rank 0's: send them its samples, so all agree. */
        int trimmed = out->headline.trimmed;
        MB_MPI_CHECK(MPI_Bcast(out->headline.samples_ns, (int)out->headline.n, MPI_DOUBLE, 0, comm));
        MB_MPI_CHECK(MPI_Bcast(&trimmed, 1, MPI_INT, 0, comm));
        out->headline.trimmed = trimmed;
    }
    mb_harness_summarize(opts, &out->headline);
    mb_harness_summarize(opts, &out->own);
    out->avg_over_ranks_ns = calls_median(avg, out->headline.n);
    out->max_over_ranks_ns = calls_median(maxv, out->headline.n);
    out->entry_skew_ns = calls_median(skew, out->headline.n);
    free(buf);
    free(avg);
    free(skew);
    free(maxv);
    return 0;
fail:
    free(buf);
    free(avg);
    free(skew);
    free(maxv);
    mb_calls_result_free(out);
    return -1;
}
