/* SPDX-License-Identifier: MIT */
/* --runs K: the per-node phase (the os benchmarks) repeated K times, each in a fresh
 * process, for each figure's mean and standard error over independent runs (seed 003: "the
 * mean values and error estimates were generated from averaging ten independent runs of
 * the full benchmark"). Each node's representative rank starts mbsuite again
 * (/proc/self/exe, posix_spawn) in a node-only mode that never starts MPI: the request
 * (configuration text, the node's calibration, the benchmarks and their points) is its
 * standard input, its reply (each point's median, the derived figures) JSON on its
 * standard output. node_runs_combine.c turns the replies into results.json's records. */
#ifndef MB_NODE_RUNS_H
#define MB_NODE_RUNS_H

#include <stddef.h>

#include <jansson.h>

#include "bench.h"

/* argv[1] of the node-only child: internal, not a command of --help. */
#define MB_NODE_RUNS_CHILD_ARG "--node-runs-child"

/* One benchmark of the phase and the points the run planned for it. */
typedef struct mb_node_runs_bench {
    const mb_bench_t *bench;
    const mb_point_t *points;
    size_t npoints;
} mb_node_runs_bench_t;

/* Collective over ctx->comm: each node's first rank runs the n benchmarks k times, one
 * fresh child process per run, one after another, while the other ranks wait asleep;
 * config_text is the run's configuration. share_s > 0: the phase's share of a time budget
 * (budget.h, MB_BUDGET_OS_SHARE a run), each run an equal part of what is left of it, within which
 * the child cuts its points' repetitions alike where they would not fit (at least
 * MB_LOOP_BUDGET_FLOOR experiments; "trimmed" in their measurements); 0: no limit. The child runs
 * on every CPU the node allows (hwloc's allowed cpuset), not on its rank's core. On world rank 0
 * returns one entry per node, {"node", "host", "replies": [a child's reply per run that gave one],
 * "errors": [why a run gave none]} (new reference); NULL on the other ranks. *own is this node's
 * entry on its first rank (new reference), NULL on the others. Rank 0 says on stderr which run
 * starts. A reply is {"benchmarks": [{"name", "medians", "reasons", "measurements":
 * [mb_measure_to_json or null per point], "derived"}], "cpus": the child's CPUs, "pid"}. */
json_t *mb_node_runs_phase(const mb_context_t *ctx, const char *host, const char *config_text,
                           const mb_node_runs_bench_t *benches, size_t n, int k, double share_s,
                           json_t **own);

/* main() of the child (argv[1] == MB_NODE_RUNS_CHILD_ARG): reads the request on standard
 * input, measures, writes the reply on standard output. Returns the exit status. */
int mb_node_runs_child_main(void);

/* From the replies of mb_node_runs_phase (one entry per node): the "runs" record of each of
 * result's points (matched by index) and result's "derived_runs", for the benchmark named
 * in result (rank 0, before the record is written). Does nothing when per_node is NULL. */
void mb_node_runs_attach(json_t *result, const json_t *per_node);

/* {"k": n, "mean", "stderr" (null below 2 values), "values": [...]} of the n values: the
 * mean and its standard error, the sample standard deviation / sqrt(n) (GSL). New
 * reference. */
json_t *mb_node_runs_stat(const double *values, size_t n);

#endif
