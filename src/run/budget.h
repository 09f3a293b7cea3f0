/* SPDX-License-Identifier: MIT */
/* How a time budget (--time-budget, [run] time_budget) is shared out among the benchmarks.
 * Each benchmark's cost is estimated before it runs: its points (point_cost.h: a warm-up and
 * max_experiments experiments of enough, or of its messages' time where that is longer),
 * plus the bytes its points set up and walk in memory (mb_bench_t.touch_bytes) at a fixed
 * rate; the estimates are scaled by how much slower than estimated the run has gone so far.
 * A benchmark gets all of the slack when everything fits, so a run that fits loses nothing;
 * when it does not, the points' grids are kept first and the memory work is cut: a
 * benchmark whose share is shorter than its memory work needs runs on smaller working sets
 * ("the largest that fits the time"), and says so.
 * Pure arithmetic; the driver applies it and rank 0's clock decides. */
#ifndef MB_BUDGET_H
#define MB_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* The share of a budget kept for what follows the benchmarks (fits, report, plots). */
#define MB_BUDGET_RESERVE 0.08
/* Estimated ns per byte of a benchmark's largest working set (each rank's that measures), for
 * the first touch of its pages: a page fault each, 3.7-4.5 ns a byte on the 2-core KVM
 * machine. Its other points reuse those pages (workset.h) and pay only the next rate. */
#define MB_BUDGET_FIRST_TOUCH_NS_PER_BYTE 4.0
/* Estimated ns per byte a point writes and walks in its working set beyond cache, its pages
 * already mapped (a benchmark whose walk costs more says so: mb_bench_t.touch_ns_per_byte):
 * writing it costs 0.07 ns a byte at memory speed, and with their experiments harness.bcopy
 * and shm.bandwidth spent under 1 ns per byte of their working sets. */
#define MB_BUDGET_TOUCH_NS_PER_BYTE 1.0
/* Working sets are cut only when less than this fraction of them fits the share: a cut of
 * a few percent changes no figure, and the budget's reserve absorbs the difference. */
#define MB_BUDGET_SPAN_KEEP 0.9
/* A benchmark with working sets whose share is under this many times its expected time is
 * measured coarse to fine (mb_budget_coarse_first). */
#define MB_BUDGET_ORDER_ROOM 2.0
/* The smallest working set a budget may leave a memory figure with. */
#define MB_BUDGET_SPAN_FLOOR_BYTES ((uint64_t)8 << 20)

/* The most of a budget each per-node phase before the parallel suite may take
 * (mb_budget_phase_share_s): the pre-flight (preflight.h: mhz, then the perturbation test's
 * runs cut to fit) and the os phase (node_runs.h: the os figures in a fresh process, their
 * repetitions cut to fit; the share is a run's, --runs K asks for K of them). A default
 * run's took 3.4-3.8 s and 7.5-7.7 s of its 80 (4.5%, 9.5%), and as much of a 15 s one,
 * which left the parallel suite 3.6 s of the 15. */
#define MB_BUDGET_PREFLIGHT_SHARE 0.10
#define MB_BUDGET_OS_SHARE 0.15

/* A benchmark's cost estimate, in two parts: per-point experiments and memory work. */
typedef struct mb_budget_estimate {
    double points_s; /* warm-up and experiments of every point (point_cost.h) */
    double touch_s;  /* setting up and walking the points' working sets */
} mb_budget_estimate_t;

/* How many times slower than estimated each part has run so far (mb_budget_slowness). */
typedef struct mb_budget_slowness {
    double points, touch;
} mb_budget_slowness_t;

typedef struct mb_budget {
    double budget_s; /* 0: no budget */
    double began_s;  /* the run's start, on mb_clock_elapsed_s() */
    /* The benchmarks done so far: estimates and wall times, those with working sets apart
     * (their wall time less their points' estimate counts as memory work), so that one
     * part's error does not skew the other's share. */
    mb_budget_estimate_t estimated;
    double points_spent_s, touch_spent_s;
} mb_budget_t;

/* The estimate of npts points of b under ctx's configuration and calibration: its points'
 * costs (point_cost.h) at max_experiments and its first point's longer warm-up. */
mb_budget_estimate_t mb_budget_estimate(const mb_context_t *ctx, const mb_bench_t *b,
                                        const mb_point_t *pts, size_t npts);

/* How many times slower than estimated the benchmarks done so far ran, points and memory
 * work apart (1 before any), each within [0.25, 20], so one odd benchmark cannot starve or
 * flood the rest. */
mb_budget_slowness_t mb_budget_slowness(const mb_budget_t *bg);

/* The seconds from now_s that a benchmark estimated at own may use, when those still to run
 * after it are estimated at rest (both before slowness): everything left less the rest when
 * all fits; else its points' time, and the time left after every benchmark's points shared
 * in proportion to the working sets' (which then get cut); when even the points do not
 * fit, the time left in proportion to points and working sets together (both cut alike:
 * fewer repetitions, coarser grids, smaller working sets). 0 when nothing is left.
 * *span_fraction: the fraction of the working sets' time that fits (1 when all does), the
 * same for every benchmark, for mb_budget_span_cap. */
double mb_budget_share_s(const mb_budget_t *bg, double now_s, mb_budget_estimate_t own,
                         mb_budget_estimate_t rest, double *span_fraction);

/* The seconds from now_s that a phase may take under bg: fraction of the budget
 * (MB_BUDGET_PREFLIGHT_SHARE, MB_BUDGET_OS_SHARE), at most what is left of it less its
 * reserve (0 when nothing is). */
double mb_budget_phase_share_s(const mb_budget_t *bg, double now_s, double fraction);

/* The time a benchmark estimated at est should take at the run's slowness so far. */
double mb_budget_expected_s(const mb_budget_t *bg, mb_budget_estimate_t est);

/* Whether a benchmark estimated at est and given share_s is measured coarse to fine
 * (point_order.h), ready to have its finest points cut where the share ends: one with
 * working sets whose share is under MB_BUDGET_ORDER_ROOM times its expected time (coarse to
 * fine measures the largest first, and the smaller points reuse its pages, workset.h, where
 * their own order would touch each larger one anew). Every other benchmark keeps its points'
 * own order, thinned where the time left cannot hold them (mb_point_thin_keep). Why not
 * coarse to fine for those: it measures the finest half of the size grid last, so a node
 * changing state during the benchmark reads those sizes in the other state, a zig-zag
 * between the grid's levels where its own order gives one step. In a default run at -np 2
 * (2-vCPU VM, 2026-12-01) mpi.isend read 21-125 ns at 0, 2, 4, 8, ... 2048 B and 74-323 ns
 * at 1, 3, 6, 12, ... 3072 B (the probe 157-178 ns around the former, 180-204 around the
 * latter): a held-out error of 64%, though no point of that run was dropped; and where the
 * rule still chose it for shares under twice the points' least time, mpi.send and
 * mpi.ssend zig-zagged so, whole (docs/fitting.md, "Point order under a budget"). */
bool mb_budget_coarse_first(const mb_budget_t *bg, mb_budget_estimate_t est, double share_s);

/* The working-set cap for a share whose working sets fit span_fraction of their time
 * (mb_budget_share_s): cap_bytes scaled by it, rounded down to a MiB, at least
 * MB_BUDGET_SPAN_FLOOR_BYTES; cap_bytes itself when it is 1, or nearly
 * (MB_BUDGET_SPAN_KEEP). */
uint64_t mb_budget_span_cap(uint64_t cap_bytes, double span_fraction);

/* Record a benchmark done: its estimate, the share it had (0: no budget) and its wall time.
 * One that ended on its share's deadline before its estimate says nothing of the rates. */
void mb_budget_done(mb_budget_t *bg, mb_budget_estimate_t est, double share_s, double spent_s);

#endif
