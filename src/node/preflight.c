/* SPDX-License-Identifier: MIT */
#include "preflight.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "clock.h"
#include "detour.h"
#include "mhz.h"
#include "mpi_util.h"
#include "perturb.h"
#include "sysinfo.h"

static const char *const preflight_pct_keys[] = {"p50_pct", "p90_pct", "p99_pct", "max_pct"};
#define PREFLIGHT_NPCT 4

/* Working set of the memory mode when the last-level cache is unknown. */
#define PREFLIGHT_MEMORY_UNKNOWN_LLC ((uint64_t)32 << 20)

/* One perturbation test's figures into rec: slower% (against the reference run,
 * perturb.h) and the reference and fastest runs; or an error. */
static void preflight_perturb_figures(const mb_context_t *ctx, const mb_perturb_opts_t *opts,
                                      json_t *rec)
{
    mb_perturb_result_t r;
    if (mb_perturb_run(ctx->timing->clock, opts, NULL, &r) != 0) {
        json_object_set_new(rec, "error", json_string("the perturbation test could not run"));
        return;
    }
    const double pct[PREFLIGHT_NPCT] = {r.p50_pct, r.p90_pct, r.p99_pct, r.max_pct};
    for (int k = 0; k < PREFLIGHT_NPCT; k++)
        json_object_set_new(rec, preflight_pct_keys[k], json_real(pct[k]));
    json_object_set_new(rec, "fastest_ms", json_real(r.fastest_ns / 1e6));
    json_object_set_new(rec, "reference_ms", json_real(r.reference_ns / 1e6));
    mb_perturb_free(&r);
}

/* This rank's perturbation figures, as one small record for its node leader: the spin loop,
 * then (seed 002's -m) the memory read loop over the node's memory working set shared out
 * over its ranks, all ranks at once, as "memory". */
static json_t *preflight_perturb_rank(const mb_context_t *ctx)
{
    const mb_config_t *cfg = ctx->config;
    mb_perturb_opts_t opts = {.target_ms = (double)cfg->preflight_perturb_duration / 1e6,
                              .count = cfg->preflight_perturb_count};
    char *cpus = mb_sysinfo_binding(ctx->topology);
    json_t *rec = json_pack("{s:i, s:o}", "rank", ctx->rank, "cpus",
                            cpus ? json_string(cpus) : json_null());
    free(cpus);
    preflight_perturb_figures(ctx, &opts, rec);
    if (cfg->preflight_detour_duration > 0) {
        mb_detour_result_t d;
        if (mb_detour_run(ctx->timing->clock, ctx->timing->resolution_ns,
                          (double)cfg->preflight_detour_duration, &d) == 0)
            json_object_set_new(rec, "detour", mb_detour_json(&d));
        else
            json_object_set_new(rec, "detour", json_pack("{s:s}", "error", "out of memory"));
    }
    if (cfg->preflight_perturb_memory_count > 0) {
        opts.count = cfg->preflight_perturb_memory_count;
        opts.mem_bytes = mb_sysinfo_memory_span_shared_bytes(
            ctx->llc_bytes, PREFLIGHT_MEMORY_UNKNOWN_LLC, ctx->node_size);
        json_t *mem = json_pack("{s:I}", "mem_bytes", (json_int_t)opts.mem_bytes);
        preflight_perturb_figures(ctx, &opts, mem);
        json_object_set_new(rec, "memory", mem);
    }
    return rec;
}

/* The node's noise is its noisiest rank's: one bad core is what spoils a measurement. With
 * mode "memory", of the ranks' memory-mode figures. */
static json_t *preflight_node_perturb(const json_t *per_rank, const char *mode)
{
    json_t *worst = json_object();
    for (int k = 0; k < PREFLIGHT_NPCT; k++) {
        double max = -1;
        size_t i;
        json_t *rec;
        json_array_foreach(per_rank, i, rec) {
            const json_t *from = mode ? json_object_get(rec, mode) : rec;
            const json_t *v = json_object_get(from, preflight_pct_keys[k]);
            if (json_is_number(v) && json_number_value(v) > max)
                max = json_number_value(v);
        }
        json_object_set_new(worst, preflight_pct_keys[k], max >= 0 ? json_real(max) : json_null());
    }
    return worst;
}

/* The node's detour figures: its rank that lost the largest share of its time, with that
 * rank's number; NULL when no rank has them. New reference. */
static json_t *preflight_node_detour(const json_t *per_rank)
{
    const json_t *worst = NULL, *rec;
    double most = -1;
    size_t i;
    json_array_foreach(per_rank, i, rec)
    {
        const json_t *v = json_object_get(json_object_get(rec, "detour"), "lost_pct");
        if (json_is_number(v) && json_number_value(v) > most) {
            most = json_number_value(v);
            worst = rec;
        }
    }
    if (!worst)
        return NULL;
    json_t *out = json_deep_copy(json_object_get(worst, "detour"));
    json_object_set(out, "rank", json_object_get(worst, "rank"));
    return out;
}

static json_t *preflight_node_json(const mb_context_t *ctx, const mb_node_layout_t *layout,
                                   const mb_mhz_result_t *mhz, json_t *per_rank)
{
    json_t *cycles = json_object(), *unused = json_array();
    for (int e = 0; e < MB_MHZ_NEXPR; e++) {
        json_object_set_new(cycles, mb_mhz_expr_text[e],
                            mhz->ok ? json_real(mhz->expr_cycles[e]) : json_null());
        if (mhz->ok && !mhz->expr_used[e])
            json_array_append_new(unused, json_string(mb_mhz_expr_text[e]));
    }
    json_t *node = json_pack("{s:i, s:s, s:i, s:o, s:o, s:o, s:b, s:s?, s:i}", "node",
                             layout->node, "host", layout->host, "ranks", layout->local_size,
                             "mhz", mhz->ok ? json_real(mhz->mhz) : json_null(), "tick_ns",
                             mhz->ok ? json_real(mhz->tick_ns) : json_null(), "cycles", cycles,
                             "mhz_ok", mhz->ok, "mhz_why", mhz->ok ? NULL : mhz->why,
                             "mhz_attempts", mhz->attempts);
    /* The expressions left out of the tick: filter_data's outliers, or the one off the
     * others' ticks (mb_mhz_tick). */
    if (json_array_size(unused) > 0)
        json_object_set_new(node, "mhz_unused", unused);
    else
        json_decref(unused);
    json_object_set_new(node, "cores", json_integer(hwloc_get_nbobjs_by_type(ctx->topology, HWLOC_OBJ_CORE)));
    json_object_set_new(node, "perturb", preflight_node_perturb(per_rank, NULL));
    json_t *detour = preflight_node_detour(per_rank);
    if (detour)
        json_object_set_new(node, "detour", detour);
    if (json_object_get(json_array_get(per_rank, 0), "memory"))
        json_object_set_new(node, "perturb_memory", preflight_node_perturb(per_rank, "memory"));
    json_object_set_new(node, "per_rank", per_rank);
    return node;
}

double mb_preflight_verdict(json_t *nodes, double mhz_tolerance, double noise_threshold, int *flagged)
{
    size_t n = json_array_size(nodes), have = 0, i;
    double *mhz = calloc(n ? n : 1, sizeof *mhz), median = 0;
    json_t *node;
    json_array_foreach(nodes, i, node) {
        const json_t *v = json_object_get(node, "mhz");
        if (mhz && json_is_number(v))
            mhz[have++] = json_number_value(v);
    }
    if (have > 0) {
        gsl_sort(mhz, 1, have);
        median = gsl_stats_median_from_sorted_data(mhz, 1, have);
    }
    free(mhz);

    *flagged = 0;
    json_array_foreach(nodes, i, node) {
        char why[512] = "";
        size_t used = 0;
        const json_t *v = json_object_get(node, "mhz");
        if (!json_is_number(v)) {
            const char *reason = json_string_value(json_object_get(node, "mhz_why"));
            used += (size_t)snprintf(why + used, sizeof why - used, "mhz failed (%s)",
                                     reason ? reason : "no figure");
        } else if (median > 0 && fabs(json_number_value(v) - median) > mhz_tolerance * median) {
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     "clock %.1f MHz is %+.1f%% off the cluster median %.1f MHz",
                                     json_number_value(v),
                                     (json_number_value(v) - median) / median * 100, median);
        }
        const json_t *p99 = json_object_get(json_object_get(node, "perturb"), "p99_pct");
        if (json_is_number(p99) && json_number_value(p99) > noise_threshold * 100 && used < sizeof why)
            snprintf(why + used, sizeof why - used,
                     "%snoisy: p99 %.2f%% slower than the " MB_PERTURB_REFERENCE_NAME " run > %.2f%%",
                     used ? "; " : "", json_number_value(p99), noise_threshold * 100);
        bool bad = why[0] != '\0';
        *flagged += bad;
        json_object_set_new(node, "flagged", json_boolean(bad));
        json_object_set_new(node, "why", bad ? json_string(why) : json_null());
    }
    return median;
}

json_t *mb_preflight_node_noise(const json_t *preflight, int node)
{
    const json_t *n = json_array_get(json_object_get(preflight, "nodes"), (size_t)node);
    if (!n)
        return NULL;
    const json_t *p = json_object_get(n, "perturb");
    return json_pack("{s:i, s:O?, s:O?, s:O?, s:O?}", "node", node, "host", json_object_get(n, "host"),
                     "p50_pct", json_object_get(p, "p50_pct"), "p99_pct",
                     json_object_get(p, "p99_pct"), "flagged", json_object_get(n, "flagged"));
}

bool mb_preflight_fit_counts(uint64_t *count, uint64_t *memory_count, double duration_s,
                             double detour_s, double left_s)
{
    double runs_s = (double)(*count + *memory_count) * duration_s;
    double fraction = runs_s > 0 ? (left_s - detour_s) / runs_s : 1;
    if (fraction >= 1)
        return false;
    fraction = fmax(fraction, 0);
    uint64_t floor = *count < MB_PREFLIGHT_BUDGET_MIN_RUNS ? *count : MB_PREFLIGHT_BUDGET_MIN_RUNS;
    uint64_t memory_floor = *memory_count < MB_PREFLIGHT_BUDGET_MIN_MEMORY_RUNS
                                ? *memory_count
                                : MB_PREFLIGHT_BUDGET_MIN_MEMORY_RUNS;
    uint64_t cut = (uint64_t)((double)*count * fraction),
             memory_cut = (uint64_t)((double)*memory_count * fraction);
    cut = cut > floor ? cut : floor;
    memory_cut = memory_cut > memory_floor ? memory_cut : memory_floor;
    bool changed = cut != *count || memory_cut != *memory_count;
    *count = cut;
    *memory_count = memory_cut;
    return changed;
}

/* Under a budget, cfg's perturbation runs cut to fit left_s (rank 0's figures for every
 * rank) into *scaled; the configured counts, with the share, as JSON when they were cut. */
static json_t *preflight_fit_budget(const mb_context_t *ctx, mb_config_t *scaled, double share_s,
                                    double left_s)
{
    uint64_t counts[2] = {scaled->preflight_perturb_count, scaled->preflight_perturb_memory_count};
    int cut = 0;
    if (ctx->rank == 0)
        cut = mb_preflight_fit_counts(&counts[0], &counts[1],
                                      (double)scaled->preflight_perturb_duration / 1e9,
                                      (double)scaled->preflight_detour_duration / 1e9, left_s);
    MB_MPI_CHECK(MPI_Bcast(&cut, 1, MPI_INT, 0, ctx->comm));
    MB_MPI_CHECK(MPI_Bcast(counts, 2, MPI_UINT64_T, 0, ctx->comm));
    if (!cut)
        return NULL;
    json_t *was = json_pack("{s:f, s:I, s:I}", "share_s", share_s, "perturb_count",
                            (json_int_t)scaled->preflight_perturb_count, "perturb_memory_count",
                            (json_int_t)scaled->preflight_perturb_memory_count);
    scaled->preflight_perturb_count = counts[0];
    scaled->preflight_perturb_memory_count = counts[1];
    return was;
}

json_t *mb_preflight_run(const mb_context_t *ctx, const mb_node_layout_t *layout, double share_s)
{
    double began = mb_clock_elapsed_s();
    mb_config_t scaled = *ctx->config;
    mb_context_t scaled_ctx = *ctx;
    scaled_ctx.config = &scaled;
    const mb_config_t *cfg = &scaled;

    /* mhz: one rank per node, the node's other ranks asleep so they do not disturb it. */
    if (ctx->rank == 0)
        fprintf(stderr, "mbsuite: pre-flight: mhz on one rank of each of %d node(s)\n",
                layout->nnodes);
    mb_mhz_result_t mhz = {0};
    mb_mhz_opts_t opts = {.measurements = (int)cfg->preflight_mhz_measurements, .max_attempts = 3};
    /* Real nodes measure at once; pseudo-nodes share one machine's cores, so they take turns
     * as separate machines would not need to. */
    int turns = layout->pseudo ? layout->nnodes : 1;
    for (int turn = 0; turn < turns; turn++) {
        if (layout->local_rank == 0 && (!layout->pseudo || layout->node == turn))
            mb_mhz_measure(ctx->timing, &opts, &mhz);
        mb_mpi_wait_quietly(ctx->comm);
    }

    /* Perturbation test: every rank of every node at once, in what mhz left of the share. */
    json_t *cut = share_s > 0 ? preflight_fit_budget(ctx, &scaled, share_s,
                                                     share_s - (mb_clock_elapsed_s() - began))
                              : NULL;
    ctx = &scaled_ctx;
    if (ctx->rank == 0) {
        fprintf(stderr, "mbsuite: pre-flight: perturbation test, %llu runs of %.0f ms on every rank",
                (unsigned long long)cfg->preflight_perturb_count,
                (double)cfg->preflight_perturb_duration / 1e6);
        if (cfg->preflight_detour_duration > 0)
            fprintf(stderr, ", then the detour test (%.0f ms of clock reads)",
                    (double)cfg->preflight_detour_duration / 1e6);
        if (cfg->preflight_perturb_memory_count > 0)
            fprintf(stderr, ", then %llu of the memory mode over %llu MiB per rank",
                    (unsigned long long)cfg->preflight_perturb_memory_count,
                    (unsigned long long)(mb_sysinfo_memory_span_shared_bytes(
                                             ctx->llc_bytes, PREFLIGHT_MEMORY_UNKNOWN_LLC,
                                             ctx->node_size) >> 20));
        if (cut)
            fprintf(stderr, " (cut from %lld and %lld runs to fit the time budget's %.2f s)",
                    (long long)json_integer_value(json_object_get(cut, "perturb_count")),
                    (long long)json_integer_value(json_object_get(cut, "perturb_memory_count")),
                    share_s);
        fprintf(stderr, "; slower%% against each rank's %s run\n", MB_PERTURB_REFERENCE_NAME);
    }
    json_t *mine = preflight_perturb_rank(ctx);
    json_t *per_rank = mb_mpi_gather_json(layout->node_comm, mine);
    json_decref(mine);

    json_t *nodes = NULL;
    if (layout->leaders != MPI_COMM_NULL) {
        json_t *node = preflight_node_json(ctx, layout, &mhz, per_rank);
        nodes = mb_mpi_gather_json(layout->leaders, node);
        json_decref(node);
    }
    if (ctx->rank != 0) {
        json_decref(nodes);
        json_decref(cut);
        return NULL;
    }
    int flagged = 0;
    double median = mb_preflight_verdict(nodes, cfg->preflight_mhz_tolerance,
                                         cfg->preflight_noise_threshold, &flagged);
    json_t *rec =
        json_pack("{s:o, s:o, s:i, s:f, s:f, s:f, s:I, s:I, s:f, s:s, s:f}", "nodes", nodes,
                  "median_mhz", median > 0 ? json_real(median) : json_null(), "flagged_nodes",
                  flagged, "mhz_tolerance_pct", cfg->preflight_mhz_tolerance * 100,
                  "noise_threshold_pct", cfg->preflight_noise_threshold * 100,
                  "perturb_duration_ms", (double)cfg->preflight_perturb_duration / 1e6,
                  "perturb_count", (json_int_t)cfg->preflight_perturb_count, "perturb_memory_count",
                  (json_int_t)cfg->preflight_perturb_memory_count, "detour_duration_ms",
                  (double)cfg->preflight_detour_duration / 1e6, "perturb_reference",
                  MB_PERTURB_REFERENCE_NAME, "elapsed_s", mb_clock_elapsed_s() - began);
    if (rec && cut)
        json_object_set_new(rec, "cut_by_budget", cut);
    else
        json_decref(cut);
    return rec;
}
