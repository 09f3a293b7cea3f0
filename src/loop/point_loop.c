/* SPDX-License-Identifier: MIT */
#include "point_loop.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_util.h"

/* One experiment's raw figures on this rank, and, under MB_AGREE_ALL, over the ranks. */
typedef struct loop_exp {
    double sizing_ns; /* what the sizing rule judges: the interval (loop), or the wall time
                       * of the experiment, synchronisation included, bounded by its timed
                       * total (calls: loop_calls_sizing); slowest rank */
    double own_ns;    /* this rank's timed total */
    double max_ns;    /* the slowest rank's: the interval (loop) or sum of per-call maxima */
    double avg_ns;    /* calls: sum of per-call means over ranks */
    double skew_ns;   /* calls: sum of per-call entry skews */
    double timed_ns;  /* calls: the headline's timed total (rank 0's own, the slowest rank's,
                       * or, for each rank's own, the least), for loop_calls_sizing */
    bool late;        /* some rank started some interval late */
} loop_exp_t;

/* Scratch of the per-call grain: starts and durations, and room for their reduction. */
typedef struct loop_buf {
    double *v;
    uint64_t room;
} loop_buf_t;

/* The decision after each experiment; under MB_AGREE_ALL one MAX reduction makes it the
 * same on every rank. Items only rank 0 may set are those read on its clock. */
enum { LOOP_WANT, LOOP_WARM, LOOP_BUDGET, LOOP_TIMEOUT, LOOP_ERROR_RANK, LOOP_NDECIDE };

static void loop_hook(mb_call_fn fn, void *state)
{
    if (fn)
        fn(state);
}

static bool loop_all(const mb_loop_t *L)
{
    return L->agree == MB_AGREE_ALL;
}

/* Collective under MB_AGREE_ALL: whether every rank's ok is true. */
static bool loop_all_ok(const mb_loop_t *L, bool ok)
{
    if (!loop_all(L))
        return ok;
    int mine = ok, every = 0;
    MB_MPI_CHECK(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, L->comm));
    return every != 0;
}

static bool loop_grow(const mb_loop_t *L, loop_buf_t *b, uint64_t iters)
{
    bool ok = true;
    if (iters > b->room) {
        /* start and duration, then 3 per call + 4 twice for the reduction */
        double *grown = realloc(b->v, (8 * iters + 8) * sizeof *grown);
        ok = grown != NULL;
        if (grown) {
            b->v = grown;
            b->room = iters;
        }
    }
    return loop_all_ok(L, ok);
}

/* MB_GRAIN_LOOP: one interval around run(iters), timing overhead subtracted. */
static void loop_interval(const mb_loop_t *L, const mb_loop_work_t *W, mb_start_state_t *s,
                          uint64_t iters, loop_exp_t *e)
{
    const mb_clock_t *clk = L->timing->clock;
    if (L->start->begin)
        L->start->begin(s, L->comm);
    e->late = L->start->wait(s, L->comm, 0);
    /* Untimed iterations first (W->lead_in): after a wait asleep between experiments
     * (loop_interval_combine, where ranks share cores; every wait before 2026-12-02), on
     * the 2-core KVM VM the first 1 MiB round trip took 88-112 us against 64-70 us for the
     * next ones (medians over 200 experiments; after a spinning wait: no difference), the
     * next few still a few us more; at 1 MiB an experiment is one round trip, which made
     * mpi.pingpong 1.24x OSU's loop of 1000 (issue 15). */
    if (W->lead_in)
        W->run(W->state, W->lead_in);
    uint64_t t0 = mb_clock_now_ns(clk);
    W->run(W->state, iters);
    uint64_t t1 = mb_clock_now_ns(clk);
    e->own_ns = e->max_ns = e->sizing_ns = (double)(t1 - t0) - L->timing->overhead_ns;
}

/* MB_GRAIN_CALL: iters calls, each timed alone; their starts (on world rank 0's clock) and
 * durations go to b, the experiment's wall time to e. */
static void loop_calls(const mb_loop_t *L, const mb_loop_work_t *W, mb_start_state_t *s,
                       uint64_t iters, double *start_ns, double *dur_ns, loop_exp_t *e)
{
    const mb_clock_t *clk = L->timing->clock;
    uint64_t began = mb_clock_now_ns(clk);
    if (L->start->begin)
        L->start->begin(s, L->comm);
    double own = 0;
    bool late = false;
    for (uint64_t i = 0; i < iters; i++) {
        loop_hook(W->prepare, W->state);
        late |= L->start->wait(s, L->comm, i);
        loop_hook(W->settle, W->state);
        /* A full fence before the clock starts, so that the call does not pay for what the
         * synchronisation left in flight. Without it, in the node's far state (a 0-byte
         * pingpong of 340 ns against 100), MPI_Irecv right after a barrier read 62-104 ns
         * up to 256 B in 15 of 15 runs, against 13-16 ns in 9 of 9 with it, and 12-16 ns in
         * the near state either way (2-core KVM VM, 2026-11-28; docs/mpi.md). A window
         * start, spinning on the clock, showed no such cost. */
        atomic_thread_fence(memory_order_seq_cst);
        uint64_t t0 = mb_clock_now_ns(clk);
        W->op(W->state);
        uint64_t t1 = mb_clock_now_ns(clk);
        loop_hook(W->finish, W->state);
        start_ns[i] = (double)t0 + s->offset_ns;
        dur_ns[i] = (double)(t1 - t0) - L->timing->overhead_ns;
        own += dur_ns[i];
    }
    *e = (loop_exp_t){.sizing_ns = (double)(mb_clock_now_ns(clk) - began),
                      .own_ns = own,
                      .max_ns = own,
                      .avg_ns = own,
                      .timed_ns = own,
                      .late = late};
}

/* Per call over the ranks, summed over the experiment: the slowest rank, the mean, the
 * entry skew; the slowest rank's wall time, whether any rank was late, and the headline's
 * timed total. One MAX reduction of O(iters) per rank carries durations, starts, negated
 * starts, the wall time, the late flag, rank 0's own total and the negated own totals; one
 * SUM the own totals. */
static void loop_calls_combine(const mb_loop_t *L, uint64_t iters, const double *start_ns,
                               const double *dur_ns, double *scratch, loop_exp_t *e)
{
    int size;
    MB_MPI_CHECK(MPI_Comm_size(L->comm, &size));
    int me;
    MB_MPI_CHECK(MPI_Comm_rank(L->comm, &me));
    double *mine = scratch, *all = scratch + 3 * iters + 4;
    mine[3 * iters] = e->sizing_ns;
    mine[3 * iters + 1] = e->late;
    mine[3 * iters + 2] = me == 0 ? e->own_ns : -INFINITY;
    mine[3 * iters + 3] = -e->own_ns;
    for (uint64_t i = 0; i < iters; i++) {
        mine[i] = dur_ns[i];
        mine[iters + i] = start_ns[i];
        mine[2 * iters + i] = -start_ns[i];
    }
    MB_MPI_CHECK(MPI_Allreduce(mine, all, (int)(3 * iters + 4), MPI_DOUBLE, MPI_MAX, L->comm));
    double total = 0;
    MB_MPI_CHECK(MPI_Allreduce(&e->own_ns, &total, 1, MPI_DOUBLE, MPI_SUM, L->comm));
    e->sizing_ns = all[3 * iters];
    e->late = all[3 * iters + 1] != 0;
    e->avg_ns = total / size;
    e->max_ns = e->skew_ns = 0;
    for (uint64_t i = 0; i < iters; i++) {
        e->max_ns += all[i];
        e->skew_ns += all[iters + i] + all[2 * iters + i];
    }
    e->timed_ns = L->headline == MB_HEADLINE_RANK0  ? all[3 * iters + 2]
                  : L->headline == MB_HEADLINE_MAX  ? e->max_ns
                  : L->headline == MB_HEADLINE_MEAN ? e->avg_ns
                                                    : -all[3 * iters + 3];
}

/* The slowest rank's interval and whether any rank was late (MB_GRAIN_LOOP). Ranks done
 * early wait asleep where ranks share cores, as a polling one would slow the others, and
 * poll where each has its own (L->poll_between), as MB_GRAIN_CALL's reduction does: on the
 * 2-vCPU KVM VM (AMD EPYC family 25, 2026-12-02) the naps between experiments let the host
 * move the vCPUs between its cores, and the drift probe read both of the node's states in
 * 15 of 22 runs of `--only mpi.pingpong` up to 16 KiB (0 B: about 140 or 390 ns); polling,
 * none of 8 changed state (docs/measuring.md, "Polling between experiments"). */
static void loop_interval_combine(const mb_loop_t *L, loop_exp_t *e)
{
    double mine[2] = {e->own_ns, e->late}, all[2];
    if (L->poll_between)
        MB_MPI_CHECK(MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, L->comm));
    else
        mb_mpi_allreduce_quietly(mine, all, 2, MPI_DOUBLE, MPI_MAX, L->comm);
    e->sizing_ns = e->max_ns = all[0];
    e->late = all[1] != 0;
}

/* Calls (point_loop.h's MB_LOOP_CALL_TIMED_STEPS): the value returned is the sizing rule's
 * elapsed time: it reaches enough just when the experiment is long enough, and grows with
 * the number of calls, so the rule's scaling finds the count. */
static double loop_calls_sizing(const mb_timing_t *t, const loop_exp_t *e)
{
    double timed_min = MB_LOOP_CALL_TIMED_STEPS * fmax(t->resolution_ns, 1);
    double by_timed = e->timed_ns / timed_min * t->enough_ns;
    return fmin(e->sizing_ns, fmax(by_timed, e->sizing_ns / MB_LOOP_CALL_WALL_MAX));
}

/* Under MB_AGREE_ALL, make d the same on every rank: the MAX of every rank's items. */
static void loop_agree(const mb_loop_t *L, int *d)
{
    if (loop_all(L))
        MB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, d, LOOP_NDECIDE, MPI_INT, MPI_MAX, L->comm));
}

static void loop_fail(mb_loop_result_t *out, const char *why)
{
    snprintf(out->reason, sizeof out->reason, "%s", why);
}

/* The benchmark's error text from the rank (1-based in error_rank) that reported one. */
static void loop_fail_reported(const mb_loop_t *L, const mb_loop_work_t *W, int error_rank,
                               mb_loop_result_t *out)
{
    char text[sizeof out->reason] = "";
    if (W->error)
        snprintf(text, sizeof text, "%s", W->error);
    if (loop_all(L))
        MB_MPI_CHECK(MPI_Bcast(text, (int)sizeof text, MPI_CHAR, error_rank - 1, L->comm));
    loop_fail(out, text);
}

static int loop_alloc(const mb_loop_t *L, mb_loop_result_t *out, double **avg, double **maxv,
                      double **skew)
{
    size_t cap = mb_loop_max_experiments(&L->opts);
    out->headline.samples_ns = malloc(cap * sizeof(double));
    out->own.samples_ns = malloc(cap * sizeof(double));
    *avg = malloc(cap * sizeof **avg);
    *maxv = malloc(cap * sizeof **maxv);
    *skew = malloc(cap * sizeof **skew);
    return loop_all_ok(L, out->headline.samples_ns && out->own.samples_ns && *avg && *maxv && *skew)
               ? 0
               : -1;
}

static double loop_median(double *v, size_t n)
{
    mb_stats_t st;
    return n && mb_stats_summarize(v, n, &st) == 0 ? st.median : NAN;
}

int mb_loop_measure(const mb_loop_t *loop, const mb_loop_work_t *W, mb_loop_result_t *out)
{
    mb_loop_t L = *loop;
    if (!L.start || !loop_all(&L))
        L.start = &mb_start_none;
    /* Ranks in step size on one rule: each node calibrates its own clock (timing.h), so
     * the ranks agree on the longest enough and the coarsest resolution first. */
    mb_timing_t agreed = *L.timing;
    if (loop_all(&L)) {
        double mine[2] = {agreed.enough_ns, agreed.resolution_ns}, most[2];
        MB_MPI_CHECK(MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, L.comm));
        agreed.enough_ns = most[0];
        agreed.resolution_ns = most[1];
    }
    const mb_timing_t *t = &agreed;
    const mb_measure_opts_t *opts = &L.opts;
    int me = 0;
    if (loop_all(&L))
        MB_MPI_CHECK(MPI_Comm_rank(L.comm, &me));
    double ops = W->ops_per_iter > 0 ? W->ops_per_iter : 1.0;
    memset(out, 0, sizeof *out);
    out->avg_over_ranks_ns = out->max_over_ranks_ns = out->entry_skew_ns = NAN;

    double *avg = NULL, *maxv = NULL, *skew = NULL;
    loop_buf_t buf = {0};
    int rc = -1;
    if (loop_alloc(&L, out, &avg, &maxv, &skew) != 0) {
        loop_fail(out, "out of memory for the samples");
        goto done;
    }
    /* Only timed calls over all ranks have a mean over the ranks (loop_calls_combine). */
    if (L.headline == MB_HEADLINE_MEAN && (L.grain != MB_GRAIN_CALL || !loop_all(&L))) {
        loop_fail(out, "the mean over ranks as headline needs calls timed on every rank");
        goto done;
    }

    mb_start_state_t s = {.clock = t->clock, .offset_ns = L.clock_offset_ns, .growth = 1};
    uint64_t iters = L.grain == MB_GRAIN_CALL ? L.start->min_intervals : 1;
    bool warm = false;
    uint64_t began = mb_clock_now_ns(t->clock), measuring_since = began;
    for (;;) {
        loop_exp_t e;
        if (L.grain == MB_GRAIN_CALL) {
            if (!loop_grow(&L, &buf, iters)) {
                loop_fail(out, "out of memory for the call times");
                goto done;
            }
            double *start_ns = buf.v, *dur_ns = buf.v + iters;
            loop_calls(&L, W, &s, iters, start_ns, dur_ns, &e);
            if (loop_all(&L))
                loop_calls_combine(&L, iters, start_ns, dur_ns, buf.v + 2 * iters, &e);
            e.sizing_ns = loop_calls_sizing(t, &e);
            s.call_ns = e.max_ns / (double)iters;
        } else {
            loop_interval(&L, W, &s, iters, &e);
            if (loop_all(&L))
                loop_interval_combine(&L, &e);
            s.call_ns = e.max_ns;
        }
        uint64_t now = mb_clock_now_ns(t->clock);
        int d[LOOP_NDECIDE] = {0};
        if (W->error && W->error[0])
            d[LOOP_ERROR_RANK] = me + 1;
        if (me == 0 && opts->timeout_ns > 0 && (double)(now - began) > opts->timeout_ns)
            d[LOOP_TIMEOUT] = 1;

        /* The sizing rule (seed 000 6.4) on the agreed interval, the same on every rank. */
        bool accepted;
        uint64_t next = mb_loop_resize(t, iters, e.sizing_ns, &accepted);
        if (!accepted && next == 0) {
            loop_fail(out, "the loop does no measurable work (2^50 iterations under enough: "
                           "optimised away?)");
            goto done;
        }
        /* Kept: an accepted interval of the measuring phase where every rank started on time. */
        /* At the window's largest growth a late experiment is kept (loop_start.h). */
        bool keep = warm && accepted && (!e.late || s.growth >= MB_START_GROWTH_MAX);
        if (keep) {
            /* A call quicker than the timing overhead, or a loop's work within the error of
             * the loop overhead subtracted from it, can read a little below zero: floored at 0
             * (below what the clock resolves). os.ops's int64 add throughput, 0.1 ns an
             * operation, read -0.0096 ns in one experiment of a CI run when it still had the
             * overhead subtracted (os/ops.c). */
            double per = (double)iters * ops, loop_o = 0;
            if (L.grain == MB_GRAIN_LOOP && W->subtract_loop_overhead)
                loop_o = t->loop_overhead_ns * (double)iters;
            double own = fmax((e.own_ns - loop_o) / per, 0);
            double mx = fmax((e.max_ns - loop_o) / per, 0);
            size_t n = out->own.n;
            out->own.samples_ns[n] = own;
            avg[n] = fmax(e.avg_ns, 0) / per;
            out->headline.samples_ns[n] = L.headline == MB_HEADLINE_MAX    ? mx
                                          : L.headline == MB_HEADLINE_MEAN ? avg[n]
                                                                           : own;
            maxv[n] = mx;
            skew[n] = e.skew_ns / (double)iters;
            out->own.n = out->headline.n = n + 1;
            out->own.iters = out->headline.iters = iters;
            /* The stop rule (seed 000 6.5): every rank votes on the series it reports; rank
             * 0 alone reads the budget on its clock. */
            mb_measurement_t *voter =
                L.headline == MB_HEADLINE_RANK0 && me != 0 ? NULL : &out->headline;
            d[LOOP_WANT] = voter && mb_loop_unsettled(opts, voter);
            d[LOOP_BUDGET] = me == 0 && mb_loop_budget_spent(opts, out->headline.n,
                                                             (double)(now - measuring_since));
        } else if (warm) {
            if (e.late) {
                out->headline.late++;
                s.growth = fmin(s.growth * 2, MB_START_GROWTH_MAX);
            }
            d[LOOP_WANT] = 1;
        } else {
            /* Warm-up (one rule for every loop): discard until an experiment is accepted
             * and warmup_ns has passed on rank 0's clock. */
            d[LOOP_WARM] = me == 0 && accepted && (double)(now - began) >= opts->warmup_ns;
            d[LOOP_WANT] = 1;
        }
        loop_agree(&L, d);
        if (d[LOOP_ERROR_RANK]) {
            loop_fail_reported(&L, W, d[LOOP_ERROR_RANK], out);
            goto done;
        }
        if (d[LOOP_TIMEOUT]) {
            char why[128];
            snprintf(why, sizeof why, "timed out: still unfinished after %.3g s",
                     opts->timeout_ns / 1e9);
            loop_fail(out, why);
            goto done;
        }
        if (!warm && d[LOOP_WARM]) {
            warm = true;
            measuring_since = mb_clock_now_ns(t->clock);
        }
        if (!accepted)
            iters = next;
        else if (e.sizing_ns > 1.2 * t->enough_ns)
            /* An interval well past enough wastes time: start the next one nearer to it. */
            iters = mb_loop_scale(iters, 1.1 * t->enough_ns / e.sizing_ns);
        if (L.grain == MB_GRAIN_CALL && iters < L.start->min_intervals)
            iters = L.start->min_intervals;
        if (keep && (!d[LOOP_WANT] || d[LOOP_BUDGET])) {
            out->headline.trimmed = out->own.trimmed = d[LOOP_BUDGET] && d[LOOP_WANT];
            break;
        }
    }
    if (L.headline == MB_HEADLINE_RANK0 && me != 0)
        out->headline.n = 0; /* only the measured side's series is the headline */
    if ((out->headline.n && mb_loop_summarize(opts, &out->headline) != 0) ||
        mb_loop_summarize(opts, &out->own) != 0) {
        loop_fail(out, "a sample is not a number");
        goto done;
    }
    if (L.grain == MB_GRAIN_CALL && loop_all(&L)) {
        out->avg_over_ranks_ns = loop_median(avg, out->own.n);
        out->max_over_ranks_ns = loop_median(maxv, out->own.n);
        out->entry_skew_ns = loop_median(skew, out->own.n);
    }
    rc = 0;
done:
    free(buf.v);
    free(avg);
    free(maxv);
    free(skew);
    if (rc != 0) {
        mb_measurement_free(&out->headline);
        mb_measurement_free(&out->own);
    }
    return rc;
}

void mb_loop_result_free(mb_loop_result_t *r)
{
    mb_measurement_free(&r->headline);
    mb_measurement_free(&r->own);
}
