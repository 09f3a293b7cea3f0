/* SPDX-License-Identifier: MIT */
/* The run's plan (plan.h): measuring one entry, with the drift probe around it, and
 * committing its record, raw samples first. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drift_probe.h"
#include "measure.h"
#include "measure_json.h"
#include "mpi_util.h"
#include "preflight.h"
#include "progress.h"
#include "timing.h"

/* Where entry i goes after (an index into plan), or -1 to keep its place. */
static long plan_pattern_anchor(const mb_context_t *ctx, const mb_plan_entry_t *plan, size_t nplan,
                                size_t i)
{
    const mb_bench_t *b = plan[i].bench;
    if (!b->compose || plan[i].skip_reason)
        return -1;
    mb_compose_t terms[MB_COMPOSE_MAX];
    size_t n = mb_measure_compose(b, ctx, terms);
    long anchor = -1;
    for (size_t t = 0; t < n; t++)
        for (size_t k = 0; terms[t].benchmark && k < nplan; k++)
            if (k != i && !plan[k].bench->compose &&
                strcmp(plan[k].bench->name, terms[t].benchmark) == 0 && (long)k > anchor)
                anchor = (long)k;
    return anchor;
}

/* mb_plan_order_patterns with its scratch: anchor, was and from of nplan entries each. */
static void plan_order_patterns_into(const mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan,
                                     long *anchor, mb_plan_entry_t *was, size_t *from)
{
    for (size_t i = 0; i < nplan; i++)
        anchor[i] = plan_pattern_anchor(ctx, plan, nplan, i);
    /* The new order: each entry that stays, then the patterns anchored to it. */
    size_t n = 0;
    for (size_t i = 0; i < nplan; i++) {
        if (anchor[i] >= 0)
            continue;
        from[n++] = i;
        for (size_t j = 0; j < nplan; j++)
            if (anchor[j] == (long)i)
                from[n++] = j;
    }
    memcpy(was, plan, nplan * sizeof *was);
    for (size_t k = 0; k < n; k++) {
        plan[k] = was[from[k]];
        /* A reason written into the entry's own buffer moves with it. */
        if (was[from[k]].skip_reason == plan[from[k]].skip_buf)
            plan[k].skip_reason = plan[k].skip_buf;
    }
}

void mb_plan_order_patterns(const mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan)
{
    long *anchor = malloc(nplan * sizeof *anchor);
    mb_plan_entry_t *was = malloc(nplan * sizeof *was);
    size_t *from = malloc(nplan * sizeof *from);
    if (anchor && was && from) /* else the registry's order, which measures as well */
        plan_order_patterns_into(ctx, plan, nplan, anchor, was, from);
    free(anchor);
    free(was);
    free(from);
}

bool mb_plan_root_ok(MPI_Comm comm, bool ok)
{
    int v = ok;
    MB_MPI_CHECK(MPI_Bcast(&v, 1, MPI_INT, 0, comm));
    return v != 0;
}

void mb_plan_record_timings(const mb_timings_t *timings, mb_results_t *results, bool now)
{
    if (!results)
        return;
    char err[512] = "out of memory";
    json_t *section = mb_timings_json(timings, mb_clock_elapsed_s(), mb_timings_peak_rss_bytes());
    int rc = !section ? -1
             : now    ? mb_results_set_section(results, "timings", section, err, sizeof err)
                      : mb_results_stage_section(results, "timings", section, err, sizeof err);
    if (rc != 0)
        mb_progress_note("mbsuite: warning: recording the timings: %s", err);
}

/* Rank 0: the benchmark's raw samples made durable, and results.json's "raw" section (written
 * with the benchmark) counting them. Returns 0, or -1 after saying why. */
static int plan_raw_commit(mb_raw_t *raw, mb_results_t *results)
{
    char err[512];
    if (mb_raw_commit(raw, err, sizeof err) != 0 ||
        mb_results_stage_section(results, "raw", mb_raw_json(raw), err, sizeof err) != 0) {
        mb_progress_note("mbsuite: error: %s", err);
        return -1;
    }
    return 0;
}

int mb_plan_commit_record(const mb_timings_t *timings, mb_results_t *results, mb_raw_t *raw,
                          json_t *record, bool again)
{
    char err[512];
    int rc = 0;
    mb_plan_record_timings(timings, results, false);
    if (raw && plan_raw_commit(raw, results) != 0)
        rc = -1;
    if ((again ? mb_results_replace_benchmark : mb_results_add_benchmark)(results, record, err,
                                                                          sizeof err) != 0) {
        mb_progress_note("mbsuite: error: %s", err);
        rc = -1;
    }
    return rc;
}

/* Whether plan entry p is probed for drift (drift_probe.h): only where ranks or cores talk;
 * a harness or os figure, or a single_core one, stays on its core. */
static bool plan_probed(const mb_plan_entry_t *p, bool by_process)
{
    return !by_process && !p->skip_reason && !p->bench->single_core &&
           (strcmp(p->bench->group, "mpi") == 0 || strcmp(p->bench->group, "shm") == 0);
}

/* The scale of the drift probe's readings around and during plan entry p's measurement (0:
 * its first, k: its k-th again; ctx->probe_scale). Test hook,
 * MBSUITE_INJECT_DRIFT=NAME[:K][,NAME[:K]...] (read on rank 0): those around each NAME's first
 * K measurements (K = 1 when not given), its points' too, read 10 times what they were
 * around the first, 12 times around the first again, 100 around the second again, as if the
 * node had been in another state then, and further from its usual one each time, so that
 * tests can see a flagged benchmark measured again (drift_remeasure), once more, and the
 * nearer of the two measurements again kept; else 1. Steps of 3x were taken by the VM's
 * own: its 2 vCPUs read 150-170 ns or 370-420 ns (under ASan), and a benchmark injected at
 * 3x sat with the others in the slower state, not flagged, one time in six. */
static double plan_probe_scale(const mb_context_t *ctx, const mb_plan_entry_t *p, int measurement)
{
    static const double scale[] = {10, 12, 100};
    const char *item = ctx->rank == 0 ? getenv("MBSUITE_INJECT_DRIFT") : NULL;
    for (; item && *item; item += strcspn(item, ","), item += *item == ',') {
        size_t len = strcspn(item, ":,");
        long times = item[len] == ':' ? strtol(item + len + 1, NULL, 10) : 1;
        if (strlen(p->bench->name) == len && strncmp(item, p->bench->name, len) == 0)
            return measurement < times && measurement < 3 ? scale[measurement] : 1;
    }
    return 1;
}

json_t *mb_plan_measure(mb_context_t *ctx, const mb_plan_entry_t *p, bool by_process,
                        const json_t *preflight, const char *progress, mb_raw_t *raw,
                        int measurement)
{
    /* The headline is node 0's (MB_SCOPE_ONE): its node's noise qualifies the figures. */
    json_t *noise = ctx->rank == 0 ? mb_preflight_node_noise(preflight, 0) : NULL;
    if (ctx->rank == 0)
        mb_results_live_extra("node_noise", noise);
    bool probed = plan_probed(p, by_process);
    if (ctx->rank == 0 && probed && p->npoints > 0) {
        /* The probe before it is the benchmark's first step: an interruption during it (a
         * rank killed just after the last record) records the benchmark, its first point
         * failed, as during its points, not nothing (mb_measure_bench begins its own). */
        json_t *header = mb_measure_json_header(p->bench, ctx->config);
        mb_results_live_begin(header);
        json_decref(header);
        mb_results_live_point(mb_measure_json_failed(p->bench, &p->points[0], "interrupted"), NULL);
    }
    ctx->probe_scale = plan_probe_scale(ctx, p, measurement);
    double before_ns = probed ? mb_drift_probe_ns(ctx) : NAN;
    json_t *result = mb_measure_bench(p->bench, ctx, p->points, p->npoints, progress, raw,
                                      probed && ctx->probe_points ? &before_ns : NULL);
    double after_ns = probed ? mb_drift_probe_ns(ctx) : NAN;
    ctx->probe_scale = 1;
    if (noise)
        json_object_set_new(result, "node_noise", noise);
    if (ctx->rank == 0 && isfinite(before_ns) && isfinite(after_ns))
        json_object_set_new(result, "drift_probe",
                            json_pack("{s:f, s:f}", "before_ns", before_ns, "after_ns", after_ns));
    return result;
}
