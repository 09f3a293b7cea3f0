/* SPDX-License-Identifier: MIT */
/* The per-node pre-flight, before the parallel suite: mhz (seed 000 4-7) on one rank per
 * node while the node's other ranks wait, then the perturbation test (seed 002) and the
 * detour test (detour.h) on every rank at once, each on its own core, so a core that takes
 * the interrupts shows up. Rank 0 gathers a cluster table and flags nodes whose clock is
 * off the cluster median or whose noise is above the threshold. */
#ifndef MB_PREFLIGHT_H
#define MB_PREFLIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "bench.h"
#include "node_layout.h"

/* Collective over ctx->comm. On rank 0 returns the "preflight" object of results.json:
 * {"nodes": [{"node", "host", "ranks", "cores", "mhz", "tick_ns", "cycles", "mhz_ok", "mhz_why",
 * "perturb": {"p50_pct", "p90_pct", "p99_pct", "max_pct"} (the node's noisiest rank;
 * slower% against each rank's p10 run, perturb.h), "perturb_memory": the same of the memory
 * mode (when perturb_memory_count > 0), "per_rank": [{"rank", "cpus", "p50_pct", "p90_pct",
 * "p99_pct", "max_pct", "fastest_ms", "reference_ms", "detour": the detour test's figures
 * (detour.h; when detour_duration > 0), "memory": {"mem_bytes", the same}}], "detour": the
 * per-rank detour figures of the rank that lost the largest share, with its "rank",
 * "flagged", "why"}], "median_mhz", "flagged_nodes", "mhz_tolerance_pct",
 * "noise_threshold_pct", "perturb_duration_ms", "perturb_count", "perturb_memory_count",
 * "detour_duration_ms", "perturb_reference" ("p10"), "elapsed_s"}; NULL on the other
 * ranks. Progress goes to stderr from rank 0. The verdict goes by the spin loop's figures.
 * share_s > 0: the pre-flight's share of a time budget; where the perturbation test's runs
 * would not fit what mhz leaves of it, they are cut (mb_preflight_fit_counts, rank 0's
 * figures for every rank), "perturb_count" and "perturb_memory_count" are the runs made and
 * "cut_by_budget" {"share_s", "perturb_count", "perturb_memory_count"} the configured ones. */
json_t *mb_preflight_run(const mb_context_t *ctx, const mb_node_layout_t *layout, double share_s);

/* The fewest runs a time budget leaves the perturbation test's spin and memory modes (or as
 * many as configured, when fewer): p1bench's percentiles need some runs beyond p90. */
#define MB_PREFLIGHT_BUDGET_MIN_RUNS 20
#define MB_PREFLIGHT_BUDGET_MIN_MEMORY_RUNS 5

/* Cut *count spin runs and *memory_count memory runs of duration_s each, and a detour test
 * of detour_s, to fit left_s: both by the same fraction, down to the floors above, never
 * raised. Returns whether either changed. Pure: for tests. */
bool mb_preflight_fit_counts(uint64_t *count, uint64_t *memory_count, double duration_s,
                             double detour_s, double left_s);

/* Flag the nodes of `nodes` (the array above, without "flagged"/"why"): MHz further than
 * mhz_tolerance (a fraction) from the median of the nodes whose mhz succeeded, or mhz that
 * failed, or p99 noise above noise_threshold (a fraction). Sets "flagged" and "why" on
 * every node and returns the median MHz (0 when no node has one); *flagged gets the count.
 * Pure: for tests. */
double mb_preflight_verdict(json_t *nodes, double mhz_tolerance, double noise_threshold, int *flagged);

/* The noise figures of node `node` for a benchmark result: {"node", "host", "p50_pct",
 * "p99_pct", "flagged"}; NULL when the pre-flight did not run. New reference. */
json_t *mb_preflight_node_noise(const json_t *preflight, int node);

#endif
