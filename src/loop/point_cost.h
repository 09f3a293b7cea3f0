/* SPDX-License-Identifier: MIT */
/* What measuring one point is expected to cost, before it runs: the time budget's estimate
 * of a benchmark (budget.h) is the sum over its points, and within the benchmark each point
 * gets a share of the time left in proportion to its own (measure.c).
 * A point is a warm-up and up to max_experiments experiments: counted at max_experiments,
 * since most points of a noisy machine run to it (the median's CI not within ci_target); an
 * estimate at min_experiments + 1, as before, left the message-passing benchmarks of a
 * default run 0.4-0.6 of the time they took unconstrained, so the memory benchmarks before
 * them took the rest and 142 of their points were dropped, 204 trimmed (2-core KVM VM).
 * An experiment lasts at least enough, at least one loop iteration, and its untimed lead-in
 * iterations (mb_bench_t.lead_in) besides. An iteration's length is known before the run
 * only from the bytes it moves: a large message takes longer than enough (a 4 MiB pingpong
 * round trip with its 10 lead-in round trips: about 5 ms, against a 20 us enough). Memory
 * benchmarks' bytes are their working sets, which the budget counts apart (touch_bytes).
 * A call timed between untimed transfers (mb_bench_t.transfer_untimed: mpi.isend, irecv1,
 * irecvoverlap) takes as many transfers as its experiment needs calls: counted at
 * MB_LOOP_CALL_TIMED_STEPS of them, up to MB_LOOP_CALL_WALL_MAX x enough. Unconstrained, those
 * three took 1.25-1.34 s each against 0.6-0.74 s for mpi.send, and under the default run's
 * budget they lost the most sizes (mpi.isend 9 of 45 dropped and 22 cut short). */
#ifndef MB_POINT_COST_H
#define MB_POINT_COST_H

#include "bench.h"

/* Estimated ns per byte a message moves: shared-memory and InfiniBand transfers of large
 * messages run at 10-25 GB/s (mpi.pingpong at 1-4 MiB: 0.042-0.055 ns per byte on the
 * 2-core KVM VM). A rough figure: the budget scales its estimates by how the run has gone. */
#define MB_POINT_COST_NS_PER_MESSAGE_BYTE 0.05

/* One iteration of b's loop at pt, in ns, from the bytes it moves; 0 when b states none or
 * its bytes are a working set (touch_bytes). */
double mb_point_iteration_ns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt);

/* The expected length of one experiment of pt, in ns: max(enough, one iteration, and for
 * transfer_untimed min(MB_LOOP_CALL_TIMED_STEPS iterations, MB_LOOP_CALL_WALL_MAX x
 * enough)) + lead_in iterations. */
double mb_point_experiment_ns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt);

/* The expected wall time of one measurement of pt, in seconds: a later point's warm-up
 * (mb_measure_warmup_ns; budget.h adds the first point's longer one) and
 * max(min_experiments, max_experiments) experiments of mb_point_experiment_ns. Working sets
 * and ranks taking turns are not in it (budget.h adds them). */
double mb_point_cost_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt);

/* The same with the fewest experiments a time budget leaves a point (MB_LOOP_BUDGET_FLOOR,
 * loop_rules.h): the least the point costs once it is measured at all. */
double mb_point_floor_cost_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt);

/* A point's time limit under a budget (mb_measure_opts_t.time_limit_ns), in ns: of left_s
 * seconds left, the part in proportion to its expected cost cost_s among among_s, the
 * expected cost of the points still to come (its own included), so that a large message's
 * point is not held to a small one's time; its repetitions get half of that, the rest being
 * warm-up and sizing. 1 (the fewest experiments a budget allows) when nothing is left. */
double mb_point_time_limit_ns(double left_s, double cost_s, double among_s);

/* How many times pt is measured: once, or once by each rank a node samples where they take
 * turns (MB_SCOPE_SAMPLE_EACH, at most MB_RANK_SAMPLE_K of them). */
double mb_point_turns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt);

#endif
