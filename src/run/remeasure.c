/* SPDX-License-Identifier: MIT */
/* The drift re-measure (remeasure.h): waiting for the node's usual state, measuring a
 * flagged benchmark again through the plan (plan.h), and the notes on those it could not. */
#include "remeasure.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "budget.h"
#include "drift.h"
#include "drift_probe.h"
#include "mpi_util.h"
#include "progress.h"
#include "record.h"
#include "sysinfo.h"
#include "timing.h"

/* How long the drift re-measure waits at most for the probe to read the usual state again
 * before it gives up (and less where the budget ends sooner), and its nap between probes:
 * the VMs' states lasted 16-30 s at a time (drift_probe.h); with 10 s, two of four default
 * runs gave up while the node sat in the other state. */
#define REMEASURE_WAIT_S 30.0
#define REMEASURE_NAP_NS 500000000L

/* Why a flagged benchmark the time left could not hold was not measured again. */
#define REMEASURE_NO_TIME_WHY "the time budget left no room to measure it again"
/* Why a flagged benchmark was not measured again where the run turned the re-measure off. */
#define REMEASURE_OFF_WHY "[run] drift_remeasure is off"

/* Rank 0: note on the record of benchmark name that it was not measured again, and why. */
static int remeasure_note_not_remeasured(mb_results_t *results, const char *name, const char *why)
{
    char err[512];
    const json_t *b = mb_record_find(mb_results_json(results), name);
    if (!b)
        return 0;
    json_t *noted = json_deep_copy(b);
    json_object_set_new(noted, "drift_remeasure", mb_drift_not_remeasured_json(why));
    if (mb_results_replace_benchmark(results, noted, err, sizeof err) != 0) {
        mb_progress_note("mbsuite: error: %s", err);
        return -1;
    }
    return 0;
}

/* Rank 0, the re-measure off: every flagged benchmark's record says it was not measured
 * again, and why, as where the re-measure is on but could not. -1 on a write error. */
static int remeasure_note_off(mb_results_t *results)
{
    json_t *summary = mb_drift_summary(mb_results_json(results), "", NULL);
    const json_t *f;
    size_t i;
    int rc = 0;
    json_array_foreach(json_object_get(summary, "flagged"), i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        if (name && remeasure_note_not_remeasured(results, name, REMEASURE_OFF_WHY) != 0)
            rc = -1;
    }
    json_decref(summary);
    return rc;
}

/* Rank 0, after the re-measures: a benchmark that the final readings flag but that was not
 * flagged when the re-measures were chosen has no note yet. The measurements again replaced
 * off-state readings with usual ones and so moved the run's usual reading (their median, or
 * the larger state's), and a benchmark just inside the flag ratio of the old one can fall
 * outside it (1.28x of 109 ns, then 1.31x of 106 in a default run here). Its record says
 * so, as every flagged one not measured again says why. -1 on a write error. */
static int remeasure_note_late_flags(mb_results_t *results, double chosen_usual_ns)
{
    json_t *summary = mb_drift_summary(mb_results_json(results), "", NULL);
    json_t *late = mb_drift_unnoted_flags(summary, mb_results_json(results));
    const json_t *name;
    char why[256];
    snprintf(why, sizeof why,
             "flagged only after the re-measures, which moved the run's usual reading from %.0f "
             "to %.0f ns",
             chosen_usual_ns, json_number_value(json_object_get(summary, "usual_ns")));
    size_t i;
    int rc = 0;
    json_array_foreach(late, i, name)
    {
        if (remeasure_note_not_remeasured(results, json_string_value(name), why) != 0)
            rc = -1;
    }
    json_decref(late);
    json_decref(summary);
    return rc;
}

/* How a wait for the node's usual state ended (remeasure_wait_usual_state). */
enum {
    REMEASURE_WAIT_BACK,
    REMEASURE_WAIT_NAP,
    REMEASURE_WAIT_OFF,         /* its limit ran out, the node off its usual state */
    REMEASURE_WAIT_OFF_NO_TIME, /* the budget ended it, the node off its usual state */
    REMEASURE_WAIT_NO_TIME,     /* the node back, but the budget cannot hold the measurement */
};

/* Collective: probe until the reading is back within the flag ratio of usual_ns (rank 0's:
 * the run's usual state, drift.h), napping between tries, for REMEASURE_WAIT_S at
 * most and, with a budget, while need_s still fits before end_s (rank 0's clock and need_s
 * decide). Returns REMEASURE_WAIT_BACK; REMEASURE_WAIT_OFF when it gave up with the probe
 * still off the usual state after REMEASURE_WAIT_S, REMEASURE_WAIT_OFF_NO_TIME when the
 * budget ended it sooner; REMEASURE_WAIT_NO_TIME when the probe read the usual state but the
 * budget could not hold need_s (a measurement again never starts where the budget cannot
 * hold it). The same on every rank. *ns: the last reading (rank 0), *waited_s: how long it
 * waited. Test hook, MBSUITE_INJECT_DRIFT_WAIT (read on rank 0): every reading of the wait
 * reads 3 times usual_ns, as if the node had stayed in another state. */
static int remeasure_wait_usual_state(const mb_context_t *ctx, double usual_ns, double end_s,
                                      double need_s, double *ns, double *waited_s)
{
    double start_s = mb_clock_elapsed_s();
    bool inject = ctx->rank == 0 && getenv("MBSUITE_INJECT_DRIFT_WAIT");
    for (;;) {
        *ns = mb_drift_probe_ns(ctx);
        if (inject)
            *ns = 3 * usual_ns;
        double now_s = mb_clock_elapsed_s(), nap_s = REMEASURE_NAP_NS / 1e9;
        *waited_s = now_s - start_s;
        bool off = ctx->rank == 0 && mb_drift_off(*ns, usual_ns);
        /* back, it would start now; else after a nap at least */
        bool budget_ended = end_s > 0 && now_s + (off ? nap_s : 0) + need_s > end_s;
        int state = REMEASURE_WAIT_BACK;
        if (ctx->rank == 0 && !off)
            state = budget_ended ? REMEASURE_WAIT_NO_TIME : REMEASURE_WAIT_BACK;
        else if (ctx->rank == 0)
            state = budget_ended                           ? REMEASURE_WAIT_OFF_NO_TIME
                    : *waited_s + nap_s > REMEASURE_WAIT_S ? REMEASURE_WAIT_OFF
                                                           : REMEASURE_WAIT_NAP;
        MB_MPI_CHECK(MPI_Bcast(&state, 1, MPI_INT, 0, ctx->comm));
        if (state != REMEASURE_WAIT_NAP)
            return state;
        if (ctx->rank == 0)
            nanosleep(&(struct timespec){.tv_nsec = REMEASURE_NAP_NS}, NULL);
        mb_mpi_wait_quietly(ctx->comm);
    }
}

/* Rank 0: the plan entries to measure again (their indices into which, their working-set
 * caps into caps; returns how many) and the probe's reading in the run's usual state; the flagged
 * ones the time left does not cover are noted so on their records. -1 on a write error. */
static int remeasure_choose(const mb_plan_entry_t *plan, size_t nplan, mb_results_t *results,
                            double end_s, int *which, unsigned long long *caps, double *usual_ns)
{
    const json_t *root = mb_results_json(results), *f;
    json_t *summary = mb_drift_summary(root, "", NULL);
    double left_s = end_s > 0 ? fmax(end_s - mb_clock_elapsed_s(), 0) : -1; /* -1: no limit */
    json_t *names = mb_drift_remeasure_names(summary, root, left_s);
    int n = 0, rc = 0;
    size_t i, k;
    *usual_ns = json_number_value(json_object_get(summary, "usual_ns"));
    json_array_foreach(json_object_get(summary, "flagged"), i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        bool chosen = false;
        for (k = 0; k < json_array_size(names); k++)
            chosen = chosen || strcmp(json_string_value(json_array_get(names, k)), name) == 0;
        for (k = 0; chosen && k < nplan && strcmp(plan[k].bench->name, name) != 0; k++)
            ;
        if (!chosen || k == nplan) {
            if (remeasure_note_not_remeasured(results, name, REMEASURE_NO_TIME_WHY) != 0)
                rc = -1;
            continue;
        }
        const json_t *cap = json_object_get(mb_record_find(root, name), "memory_span_cap_bytes");
        caps[n] = cap ? (unsigned long long)json_integer_value(cap) : 0;
        which[n++] = (int)k;
    }
    json_decref(names);
    json_decref(summary);
    return rc < 0 ? -1 : n;
}

/* A measurement again whose own probe readings are still off the usual state (the node
 * changed state during it: 4 of 18 in three default runs on the 2-vCPU VM, 2026-11-27) is
 * measured once more, after the other flagged benchmarks' first measurement again, where the
 * budget still holds it: this many measurements again at most. */
#define REMEASURE_TRIES 2

/* A flagged benchmark to measure again (mb_remeasure_run). */
typedef struct remeasure_again {
    const mb_plan_entry_t *p;
    json_t *first;          /* rank 0: its first measurement's record */
    double need_s;          /* rank 0: its last measurement's wall time */
    double last_ns;         /* rank 0: its last's reading (mb_drift_record_state_ns) */
    double usual_ns, end_s; /* the run's usual state; the budget's end (0: none) */
    unsigned long long cap; /* its first measurement's working-set cap, 0: none */
    int index, n;           /* its place among the n measured again */
    bool retry;             /* disturbed again: once more (on every rank) */
    char why[256];          /* rank 0: why the wait gave up */
} remeasure_again_t;

/* Whether the probe's reading now_ns around a measurement again is nearer the usual state
 * usual_ns than last_ns, the one around the measurement before it (by their ratios). */
static bool remeasure_nearer(double now_ns, double last_ns, double usual_ns)
{
    return now_ns > 0 &&
           (!(last_ns > 0) || fabs(log(now_ns / usual_ns)) < fabs(log(last_ns / usual_ns)));
}

/* Whether a measurement again after the first again (off: measured off the usual state,
 * mb_drift_record_off; now_ns: its reading, mb_drift_record_state_ns) is to replace the one
 * before it, read at last_ns, which was off the usual state (else it had not been measured
 * again). One in the usual state does, as its points' readings say where it has them; one off
 * it too, where nearer by ratio. By the two readings around each alone, a second
 * measurement with 43 of its 45 points off the usual state (156 ns around it, 1.1x the usual)
 * was kept over a third read at 140 ns (0.98x), and ring_shift and the halos were predicted
 * from its fit 63-95% off (make bench, 2026-12-03). */
static bool remeasure_better(bool off, double now_ns, double last_ns, double usual_ns)
{
    return !off || remeasure_nearer(now_ns, last_ns, usual_ns);
}

/* Rank 0: a->p's measurement number attempt, off the usual state like the one before it, read
 * further from it (now_ns; remeasure_better): that one's record stays, its note counting both
 * and which is kept, and the rows of this one come off raw.csv.gz. 0, or -1 on a write error. */
static int remeasure_keep_before(const remeasure_again_t *a, int attempt, double now_ns,
                                 mb_results_t *results, mb_raw_t *raw, const mb_timings_t *timings)
{
    char err[512];
    const char *name = a->p->bench->name;
    mb_progress_note("mbsuite: %s keeps measurement again %d: the probe read %.0f ns around "
                     "attempt %d, %.0f around the one before, the run's usual state %.0f ns "
                     "(both off it)",
                     name, attempt - 1, now_ns, attempt, a->last_ns, a->usual_ns);
    if (raw && mb_raw_discard(raw, err, sizeof err) != 0) {
        mb_progress_note("mbsuite: error: %s", err);
        return -1;
    }
    json_t *kept = json_deep_copy(mb_record_find(mb_results_json(results), name));
    json_t *note = json_object_get(kept, "drift_remeasure");
    json_object_set_new(note, "attempts", json_integer(attempt));
    json_object_set_new(note, "kept_attempt", json_integer(attempt - 1));
    json_object_set_new(note, "not_kept_probe_ns", json_real(now_ns));
    return mb_plan_commit_record(timings, results, raw, kept, true);
}

/* Measure a->p again (attempt 1, 2, ...) once the probe reads the usual state, and replace its
 * record (attempt 2's only where it is better than attempt 1: remeasure_better,
 * remeasure_keep_before). Collective; the same on every rank: 0 when done, 1 when measured
 * but its readings were still off the usual state and another attempt fits (REMEASURE_TRIES,
 * the budget), 2 when the wait's own limit ran out with the node off its usual state, 3 when
 * the budget could not hold it, the node back in its usual state or not (a->why, rank 0, for
 * both), -1 on a write error. */
static int remeasure_once(mb_context_t *ctx, remeasure_again_t *a, int attempt,
                          const json_t *preflight, mb_results_t *results, mb_raw_t *raw,
                          const mb_timings_t *timings)
{
    double ns = 0, waited_s = 0;
    int waited = remeasure_wait_usual_state(ctx, a->usual_ns, a->end_s, a->need_s, &ns, &waited_s);
    if (waited == REMEASURE_WAIT_NO_TIME) {
        if (ctx->rank == 0)
            snprintf(a->why, sizeof a->why, "%s", REMEASURE_NO_TIME_WHY);
        return 3;
    }
    if (waited == REMEASURE_WAIT_OFF || waited == REMEASURE_WAIT_OFF_NO_TIME) {
        bool no_time = waited == REMEASURE_WAIT_OFF_NO_TIME;
        if (ctx->rank == 0)
            snprintf(a->why, sizeof a->why,
                     "the probe still read %.0f ns after %.1f s, off the %.0f ns of the run's "
                     "usual state%s",
                     ns, waited_s, a->usual_ns,
                     no_time ? ", when the time budget had no more room" : "");
        /* Ended by the budget, the wait may still fit a shorter one after it. */
        return no_time ? 3 : 2;
    }
    double began_s = mb_clock_elapsed_s();
    uint64_t span_cap = mb_sysinfo_memory_span_cap();
    ctx->budget_deadline_s = a->end_s;
    /* In its points' own order; its first measurement's wall time fits what is left, so the
     * points are thinned only where this one runs slower. */
    ctx->budget_order = MB_BUDGET_ORDER_THINNED;
    if (a->cap > 0)
        mb_sysinfo_set_memory_span_cap(a->cap);
    if (ctx->rank == 0) {
        double was_ns = 0;
        mb_drift_record_ns(a->first, &was_ns);
        if (attempt == 1)
            mb_progress_note("mbsuite: measuring %s again: the drift probe read %.0f ns around "
                             "it, the run's usual state %.0f ns; now %.0f ns",
                             a->p->bench->name, was_ns, a->usual_ns, ns);
        else
            mb_progress_note("mbsuite: measuring %s again, attempt %d: the probe read %.0f ns "
                             "around the last, the run's usual state %.0f ns; now %.0f ns",
                             a->p->bench->name, attempt, a->last_ns, a->usual_ns, ns);
        mb_progress_bench_begin(&(mb_progress_bench_t){.index = (size_t)a->index,
                                                       .name = a->p->bench->name,
                                                       .npoints = a->p->npoints,
                                                       .own_s = -1,
                                                       .rest_s = -1});
    }
    char progress[32];
    snprintf(progress, sizeof progress, "[again %d/%d]", a->index + 1, a->n);
    json_t *result = mb_plan_measure(ctx, a->p, false, preflight, progress, raw, attempt);
    mb_sysinfo_set_memory_span_cap(span_cap);
    ctx->budget_deadline_s = 0;
    int rc = 0;
    if (ctx->rank == 0) {
        double wall_s = mb_clock_elapsed_s() - began_s, now_ns = 0;
        bool off =
            mb_drift_record_state_ns(result, &now_ns) && mb_drift_record_off(result, a->usual_ns);
        if (attempt > 1 && !remeasure_better(off, now_ns, a->last_ns, a->usual_ns)) {
            rc = remeasure_keep_before(a, attempt, now_ns, results, raw, timings);
            json_decref(result);
            off = false; /* the one before kept: no attempt after this one */
        } else {
            json_object_set_new(result, "drift_remeasure",
                                mb_drift_remeasured_json(a->first, ns, attempt));
            if (a->cap > 0)
                json_object_set_new(result, "memory_span_cap_bytes",
                                    json_integer((json_int_t)a->cap));
            if (a->end_s > 0)
                json_object_set_new(result, "budget_share_s", json_real(a->end_s - began_s));
            json_object_set_new(result, "wall_s", json_real(wall_s));
            if (mb_plan_commit_record(timings, results, raw, result, true) != 0)
                rc = -1;
        }
        mb_progress_bench_end(wall_s);
        if (rc == 0 && off && attempt < REMEASURE_TRIES &&
            (a->end_s <= 0 || mb_clock_elapsed_s() + wall_s <= a->end_s)) {
            rc = 1;
            a->need_s = wall_s;
            a->last_ns = now_ns;
        }
    }
    MB_MPI_CHECK(MPI_Bcast(&rc, 1, MPI_INT, 0, ctx->comm));
    return rc;
}

/* Rank 0: a's first measurement's record and wall time, from the results. */
static void remeasure_first(const mb_results_t *results, remeasure_again_t *a)
{
    a->first = json_deep_copy(mb_record_find(mb_results_json(results), a->p->bench->name));
    a->need_s = json_number_value(json_object_get(a->first, "wall_s"));
}

/* Rank 0: the wait before again[k]'s measurement number attempt gave up: its own limit ran
 * out with the node off its usual state (stop: the rest would wait as long), or the budget
 * could not hold it (only this one: a shorter one may fit). On the first pass those benchmarks are
 * noted not measured again, with why; on the second they keep their measurement again. Returns 0,
 * or -1 on a write error. */
static int remeasure_gave_up(const mb_plan_entry_t *plan, const int *which, int n,
                             const remeasure_again_t *again, int k, int attempt, bool stop,
                             mb_results_t *results)
{
    const char *name = again[k].p->bench->name, *why = again[k].why;
    int more = 0; /* the others given up with it */
    for (int rest = k + 1; stop && rest < n; rest++)
        more += attempt == 1 || again[rest].retry;
    if (attempt == 1) {
        if (more > 0)
            mb_progress_note("mbsuite: %s and %d more not measured again: %s", name, more, why);
        else
            mb_progress_note("mbsuite: %s not measured again: %s", name, why);
        /* those measured again, disturbed, and now not a third time */
        for (int before = 0; stop && before < k; before++)
            if (again[before].retry)
                mb_progress_note("mbsuite: %s keeps its measurement again (not measured a third "
                                 "time): %s",
                                 again[before].p->bench->name, why);
        for (int rest = k; rest <= k + more; rest++)
            if (remeasure_note_not_remeasured(results, plan[which[rest]].bench->name, why) != 0)
                return -1;
        return 0;
    }
    if (more > 0)
        mb_progress_note("mbsuite: %s and %d more keep their measurement again (not measured a "
                         "third time): %s",
                         name, more, why);
    else
        mb_progress_note("mbsuite: %s keeps its measurement again (not measured a third time): %s",
                         name, why);
    return 0;
}

int mb_remeasure_run(mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan,
                     const json_t *preflight, mb_results_t *results, mb_raw_t *raw, double budget_s,
                     double began_s, const mb_timings_t *timings)
{
    if (!mb_drift_probe_pair(ctx))
        return 0;
    if (!ctx->config->run_drift_remeasure) {
        bool failed_off = ctx->rank == 0 && remeasure_note_off(results) != 0;
        return mb_plan_root_ok(ctx->comm, !failed_off) ? 0 : -1;
    }
    double end_s = budget_s > 0 ? began_s + budget_s * (1 - MB_BUDGET_RESERVE) : 0;
    double usual_ns = 0;
    int n = 0, failed = 0;
    int *which = calloc(nplan ? nplan : 1, sizeof *which);
    unsigned long long *caps = calloc(nplan ? nplan : 1, sizeof *caps);
    if (!which || !caps)
        mb_mpi_fail("calloc in mb_remeasure_run", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    if (ctx->rank == 0) {
        n = remeasure_choose(plan, nplan, results, end_s, which, caps, &usual_ns);
        failed = n < 0;
    }
    if (!mb_plan_root_ok(ctx->comm, !failed))
        goto out;
    /* Rank 0's clock decides, as for the budget's shares. */
    MB_MPI_CHECK(MPI_Bcast(&end_s, 1, MPI_DOUBLE, 0, ctx->comm));
    MB_MPI_CHECK(MPI_Bcast(&n, 1, MPI_INT, 0, ctx->comm));
    MB_MPI_CHECK(MPI_Bcast(which, n, MPI_INT, 0, ctx->comm));
    MB_MPI_CHECK(MPI_Bcast(caps, n, MPI_UNSIGNED_LONG_LONG, 0, ctx->comm));
    if (ctx->rank == 0 && n > 0) {
        char why[256];
        mb_progress_start(stderr, mb_progress_mode_detect(why, sizeof why), (size_t)n, began_s,
                          NULL);
    }
    /* First every flagged benchmark once, then those whose measurement again was disturbed
     * once more: a third measurement of one never takes the time of another's second. */
    remeasure_again_t *again = calloc(n ? (size_t)n : 1, sizeof *again);
    if (!again)
        mb_mpi_fail("calloc in mb_remeasure_run", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    int rc = 0;
    for (int attempt = 1; attempt <= REMEASURE_TRIES && rc == 0; attempt++) {
        for (int k = 0; k < n; k++) {
            remeasure_again_t *a = &again[k];
            if (attempt == 1) {
                *a = (remeasure_again_t){.p = &plan[which[k]],
                                         .usual_ns = usual_ns,
                                         .end_s = end_s,
                                         .cap = caps[k],
                                         .index = k,
                                         .n = n};
                if (ctx->rank == 0)
                    remeasure_first(results, a);
            } else if (!a->retry) {
                continue;
            }
            rc = remeasure_once(ctx, a, attempt, preflight, results, raw, timings);
            a->retry = rc == 1;
            if ((rc == 2 || rc == 3) && ctx->rank == 0 &&
                remeasure_gave_up(plan, which, n, again, k, attempt, rc == 2, results) != 0)
                rc = -1;
            if (rc == 1 || rc == 3) /* on to the next: a shorter one may fit */
                rc = 0;
            if (!mb_plan_root_ok(ctx->comm, rc != -1)) {
                failed = 1;
                rc = -1;
            }
            if (rc != 0)
                break;
        }
    }
    for (int k = 0; k < n; k++)
        json_decref(again[k].first);
    free(again);
    if (n > 0 && !failed && rc != -1 &&
        !mb_plan_root_ok(ctx->comm,
                         ctx->rank != 0 || remeasure_note_late_flags(results, usual_ns) == 0))
        failed = 1;
    if (ctx->rank == 0)
        mb_progress_finish();
out:
    free(which);
    free(caps);
    return failed ? -1 : 0;
}
