/* SPDX-License-Identifier: MIT */
/* A benchmark is a descriptor: what it measures, what it needs, its parameter space and the
 * loop that performs the operation. The driver owns everything else (timing, repetition,
 * statistics, output). Adding a benchmark is one file and one line in bench_list.def. */
#ifndef MB_BENCH_H
#define MB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>
#include <jansson.h>
#include <mpi.h>

#include "config.h"
#include "loop_rules.h"
#include "point_loop.h"
#include "role.h"
#include "timing.h"

#define MB_MAX_DIMS 4
#define MB_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* How a time budget's share holds a benchmark's points (mb_context_t.budget_order). */
typedef enum mb_budget_order {
    MB_BUDGET_ORDER_THINNED = 0,  /* their own order, the finest skipped if late (point_order.h) */
    MB_BUDGET_ORDER_COARSE_FIRST, /* coarse to fine, the finest dropped where the share ends */
} mb_budget_order_t;

/* What a benchmark may look at; owned by the driver. */
typedef struct mb_context {
    const mb_config_t *config;
    const mb_timing_t *timing;
    hwloc_topology_t topology;
    uint64_t llc_bytes; /* last-level cache of this node, 0 if unknown */
    MPI_Comm comm;      /* all ranks of the run */
    int rank, size;
    MPI_Comm node_comm; /* the ranks of this rank's node */
    MPI_Comm leaders;   /* the first rank of every node; MPI_COMM_NULL on the others */
    int node, node_rank, node_size;
    /* Point-to-point pairs: communicators of 2 ranks (MPI_COMM_NULL on the other ranks),
     * and whether the run has such a pair at all (the same on every rank). */
    MPI_Comm pair_intra, pair_inter;
    bool has_pair_intra, has_pair_inter;
    /* The drift probe after every point too (measure.h), the same on every rank: where no
     * host has more ranks than processors. Where one has, the probe reads the scheduler (a
     * quick run at -np 8 on 2 cores spent 24 s of its 75 in 2231 probes, 0.26 s in 1062 at
     * -np 2), and it is taken only around each benchmark. */
    bool probe_points;
    /* Test hook (plan.c's MBSUITE_INJECT_DRIFT): the drift probe's readings on rank 0 are this
     * many times what they were, before, during and after a benchmark, as if the node had
     * been in another state then; 0 or 1: as read. */
    double probe_scale;
    double clock_offset_ns; /* added to this rank's clock gives world rank 0's */
    /* --time-budget: when (mb_clock_elapsed_s on world rank 0) this benchmark's share of it
     * ends; 0: no budget. budget_order says how the share holds its points (point_order.h):
     * in their own order, skipping the finest where the time left cannot hold them, so that
     * a drift of the machine shows as one step in d, not as a zig-zag between the grid's
     * levels; or coarse to fine (a benchmark with working sets, mb_budget_coarse_first), the
     * finest dropped where the share ends. budget_slowness: how many times slower than
     * estimated the run's points have been (budget.h), for the least each point costs. */
    double budget_deadline_s;
    mb_budget_order_t budget_order;
    double budget_slowness;
    /* During a point's setup and measurement: the communicator of the ranks measuring it
     * (the pair, the node, the first p ranks, or all). */
    MPI_Comm measure_comm;
    /* During a point's setup: the ranks of measure_comm that measure it one at a time
     * (MB_SCOPE_SAMPLE_EACH; the rest only wait), or nsample 0 when all measure at once. */
    const int *sample_ranks;
    int nsample;
    /* The os phase (node_runs.h): on a node's first rank, its fresh process's reply
     * ({"benchmarks": [...]}, or {"error": why} when that process gave none), whose
     * MB_SCOPE_ONE points the rank records instead of measuring them itself; NULL: the rank
     * measures (on the other ranks, and for the benchmarks outside that phase). */
    const json_t *node_process;
    const void *arg;   /* the descriptor's arg */
    char *point_error; /* MB_POINT_ERROR_LEN bytes: text written here by a benchmark's
                        * run or op fails the point with that reason (mb_point_fail) */
} mb_context_t;

#define MB_POINT_ERROR_LEN 256

/* The model family fitted to a benchmark's points (docs/results.md). */
typedef enum mb_model {
    MB_MODEL_NONE = 0,
    MB_MODEL_LINEAR_PD, /* time = sum of fit.h's bases in p and d, with breaks in d */
} mb_model_t;

/* One axis of the parameter space. A numeric axis carries its unit in its name
 * ("size_bytes"); a categorical one (MB_ROLE_LABEL) lists its labels and stores the
 * label's index. */
typedef struct mb_dim {
    const char *name;
    mb_role_t role;
    const char *const *labels; /* NULL-terminated, or NULL for a numeric axis */
} mb_dim_t;

/* One point of the parameter space: a value per dimension of the descriptor. */
typedef struct mb_point {
    int64_t v[MB_MAX_DIMS];
} mb_point_t;

/* Which ranks measure a point; the measuring loop (measure.h) carries it out, and ranks
 * with nothing to do wait without spinning. The node scopes use the ranks of node 0 (rank
 * 0's node), which set each point up together (e.g. an MPI-3 shared-memory window). */
typedef enum mb_scope {
    MB_SCOPE_ONE = 0,    /* one representative per node (its first rank), all nodes at once;
                          * the headline is node 0's, "over_nodes" the spread */
    MB_SCOPE_SAMPLE_EACH, /* a bounded sample of node 0's ranks, one at a time (the "max over
                           * processes" rows); the report names the ranks measured */
    MB_SCOPE_NODE_ALL,   /* node 0's ranks measure at the same time (contention) */
    MB_SCOPE_WORLD_ALL,  /* every rank measures at the same time */
    MB_SCOPE_PAIR_INTRA, /* world rank 0 and the next rank of its node, together */
    MB_SCOPE_PAIR_INTER, /* world rank 0 and the first rank of node 1, together */
    MB_SCOPE_FIRST_RANKS, /* world ranks 0..p-1 together, p = the point's ranks_dim value */
} mb_scope_t;

/* One term of a composite benchmark's prediction recipe (seeds 001 and 004: a pattern
 * predicted from the tables of its primitives, beside its measured time): `times` x the
 * fitted model of `benchmark` at the pattern point's p and d, in the component's series
 * series_axis = series_label (NULL: its first), or series_axis = series_label_across at a
 * point whose ranks span nodes (NULL: series_label everywhere); or, with benchmark NULL,
 * constant_ns. */
typedef struct mb_compose {
    const char *benchmark;
    double times;
    const char *series_axis, *series_label, *series_label_across;
    double constant_ns;
    const char *what; /* a constant term in words, e.g. "compute phase" */
} mb_compose_t;

#define MB_COMPOSE_MAX 4

typedef struct mb_bench {
    const char *name;     /* "group.function" */
    const char *group;
    const char *summary;  /* one line for --list */
    const char *measures; /* exactly which interval is timed, and in what state */
    int min_ranks;        /* skipped (with the reason) when the run has fewer ranks */
    const void *arg;      /* per-benchmark argument for a family sharing code (ctx->arg) */
    mb_model_t model;     /* what the fits make of the points */
    const char *loggp; /* the LogGP term its small-message figure is ("L", "o_s", "o_r", "g") */
    mb_scope_t scope;
    mb_scope_t (*scope_of)(const mb_point_t *pt); /* when the scope depends on the point */
    const mb_dim_t *dims;
    size_t ndims;
    /* Fill at most max points from the config; return how many, or -1 with err set.
     * NULL: a single point with no parameters. */
    int (*points)(const mb_context_t *ctx, mb_point_t *points, size_t max, char *err, size_t errlen);
    /* Prepare one point; return 0, or -1 with err set (the point then fails with it). */
    int (*setup)(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err, size_t errlen);
    int ranks_dim;                 /* MB_SCOPE_FIRST_RANKS: the dimension holding p */
    mb_run_fn run;                 /* iters iterations of ops_per_iter operations */
    /* Or, instead of run, one operation timed per call with untimed hooks around it
     * (point_loop.h); headline says whose time the point reports. */
    mb_call_fn prepare, settle, op, finish;
    /* op: the message moves outside the timed call (in finish or settle), so an experiment
     * takes as many untimed transfers as it needs calls to time (point_loop.h's rule for
     * calls); the time budget's estimate counts them (point_cost.h), and the points have no
     * bandwidth (measure_json.c). */
    bool transfer_untimed;
    mb_headline_t headline;
    void (*teardown)(void *state);
    double ops_per_iter;           /* 0 means 1 */
    /* Or, where it depends on the configuration (a window of messages): at pt. */
    double (*ops_per_iter_at)(const mb_context_t *ctx, const mb_point_t *pt);
    bool windowed; /* streams [mpi] window messages per iteration: its record says how many */
    mb_summary_kind_t statistic;   /* the headline figure: median (default) or minimum */
    bool subtract_loop_overhead;
    /* run: iterations run untimed at the start of every experiment, after the ranks'
     * synchronisation (point_loop.h); 0: none. */
    uint64_t lead_in;
    /* Bytes moved per operation at pt, for bandwidth (NULL: a latency benchmark). */
    uint64_t (*bytes_per_op)(const mb_context_t *ctx, const mb_point_t *pt);
    /* Messages per operation at pt, for a message rate (messages_per_s; NULL: none). */
    uint64_t (*messages_per_op)(const mb_context_t *ctx, const mb_point_t *pt);
    /* Why the run or this node cannot measure it (one node, no /bin/sh, fork refused, no
     * loopback): NULL, or the reason (written into buf, or a constant), which skips the
     * benchmark with it rather than failing its points; beside min_ranks. Rank 0's answer
     * holds for the run. */
    const char *(*skip_reason)(const mb_context_t *ctx, char *buf, size_t len);
    /* Bytes a point sets up and walks in memory (a working set beyond cache, cold buffers),
     * per measuring rank: what its cost grows with, for the time budget's estimate
     * (budget.h). NULL: none worth counting. */
    uint64_t (*touch_bytes)(const mb_context_t *ctx, const mb_point_t *pt);
    /* What a byte of a point's working set costs once its pages are mapped, where it is
     * more than a write's (a random chase's untimed lap waits on every load); 0: the
     * budget's MB_BUDGET_TOUCH_NS_PER_BYTE. */
    double touch_ns_per_byte;
    /* Extra figures derived from all points (e.g. loop overhead from 1 and 2 instances);
     * a failed point's measurement has n == 0. NULL or returns a new JSON object merged
     * into the benchmark's result. */
    json_t *(*derive)(const mb_point_t *pts, const mb_measurement_t *ms, size_t n);
    /* A composite pattern's prediction recipe (mb_compose_t), written into its record as
     * "composed_of" so that readers predict it from the JSON alone: fill at most max terms
     * (MB_COMPOSE_MAX) for ctx's configuration and nodes, return how many. NULL: none. */
    size_t (*compose)(const mb_context_t *ctx, mb_compose_t *terms, size_t max);
    /* A peer tool's method kept for comparison with that tool (mpi.pingpong_one_buffer:
     * NetPIPE's), not one of the suite's figures: run only when --only names it in full,
     * never in a default run nor by a wildcard. */
    bool on_request;
    /* One core works alone while a point is timed (one rank, the others asleep, no thread on
     * another core): nothing two cores share moves it, so the drift probe, which times two
     * cores talking, is not taken around it (plan.c; README, "Drift probe"). */
    bool single_core;
} mb_bench_t;

/* Whether rank r of ctx->measure_comm measures the point: all do, unless they take turns
 * and r is not in the sample. A setup may then leave out what only a measuring rank needs. */
bool mb_context_measures(const mb_context_t *ctx, int r);

/* Fail the point being measured with a reason (printf-style), from a benchmark's setup,
 * run or op: ctx is the context its setup was given, which it may keep in its state. */
void mb_point_fail(const mb_context_t *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
