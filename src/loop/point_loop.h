/* SPDX-License-Identifier: MIT */
/* The point loop: every point of every benchmark is measured here, by one loop (seed 000
 * 6.4-6.5; ReproMPI's "sync, time, op, time"). Three orthogonal choices configure it:
 *   granularity  MB_GRAIN_LOOP: one interval around run(state, iters), auto-sized to last
 *                `enough` (lmbench); MB_GRAIN_CALL: every call timed on its own between
 *                untimed hooks, an experiment being as many calls as last `enough` and
 *                add up to 50 clock steps of timed time (or last 50 x enough);
 *   start        none, barrier or window (loop_start.h): how the ranks begin an interval;
 *   agreement    MB_AGREE_LOCAL: this rank alone decides everything; MB_AGREE_ALL: every
 *                rank of comm runs the same iteration counts and the same number of
 *                experiments, sized on the slowest rank, stopped by one decision.
 * One warm-up rule: experiments are sized and discarded until one lasts >= 95% of enough
 * and `warmup_ns` has passed. One stop rule (loop_rules.h): minimum, CI target, cap, time
 * budget. One place subtracts the overheads: the timing overhead from every interval, the
 * loop overhead per iteration where the work asks. A point fails, with the reason, when
 * its loop does no measurable work, memory runs out, the benchmark reports an error, or it
 * runs past `timeout_ns`. */
#ifndef MB_POINT_LOOP_H
#define MB_POINT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include <mpi.h>

#include "loop_rules.h"
#include "loop_start.h"
#include "timing.h"

/* Calls (seed 000 6.4's rule for per-call timing): an experiment lasts `enough` of wall
 * time, and its timed calls add up to MB_LOOP_CALL_TIMED_STEPS steps of the clock, or, where
 * that would take long, it lasts MB_LOOP_CALL_WALL_MAX x enough. Each call's reading is off
 * by up to a step either way, so n calls of c ns each are off by about resolution /
 * (c sqrt(6 n)): mpi.irecv1 posts a receive in ~30 ns between untimed 100 us transfers at
 * 4 MiB, and at one call per experiment its medians were multiples of a 20 ns clock step
 * (1, 11, 21, 51 or 61 ns from one size to the next). */
#define MB_LOOP_CALL_TIMED_STEPS 50.0
#define MB_LOOP_CALL_WALL_MAX 50.0

/* One call of an operation or of an untimed hook around it. */
typedef void (*mb_call_fn)(void *state);

typedef enum mb_granularity {
    MB_GRAIN_LOOP = 0, /* an auto-sized loop timed as a whole */
    MB_GRAIN_CALL,     /* each call timed on its own */
} mb_granularity_t;

typedef enum mb_agreement {
    MB_AGREE_LOCAL = 0, /* this rank alone; no MPI call */
    MB_AGREE_ALL,       /* every rank of comm, in step */
} mb_agreement_t;

/* Whose time is a point's headline. */
typedef enum mb_headline {
    MB_HEADLINE_OWN = 0, /* each rank's own */
    MB_HEADLINE_RANK0,   /* the measured side of a pair: rank 0 of comm */
    MB_HEADLINE_MAX,     /* per interval, the slowest rank's: a collective's time to completion */
    /* Per call, the mean over the ranks (MB_GRAIN_CALL, all ranks): a symmetric exchange's,
     * where a rank that leaves the barrier late finds its partner's message there and the
     * other waits as much longer (mpi.sendrecv). */
    MB_HEADLINE_MEAN,
} mb_headline_t;

/* What is measured. */
typedef struct mb_loop_work {
    mb_run_fn run;                          /* MB_GRAIN_LOOP: iters iterations */
    mb_call_fn prepare, settle, op, finish; /* MB_GRAIN_CALL: op timed; the hooks (may be
                                             * NULL) before the start, after it, after op */
    void *state;
    double ops_per_iter;         /* operations per iteration or call (0 means 1) */
    bool subtract_loop_overhead; /* MB_GRAIN_LOOP: subtract the loop overhead per iteration */
    const char *error;           /* the benchmark's error slot: non-empty fails the point */
    /* MB_GRAIN_LOOP: iterations run untimed at the start of every experiment, after the
     * start's synchronisation, so the timed ones start in step (pingpong: the first round
     * trip after the ranks' quiet wait between experiments is slow). */
    uint64_t lead_in;
} mb_loop_work_t;

/* How it is measured. */
typedef struct mb_loop {
    const mb_timing_t *timing;
    mb_measure_opts_t opts;
    mb_granularity_t grain;
    const mb_start_t *start; /* NULL: mb_start_none */
    mb_agreement_t agree;
    MPI_Comm comm; /* MB_AGREE_ALL: the ranks measuring together */
    mb_headline_t headline;
    double clock_offset_ns; /* added to this rank's clock gives world rank 0's */
    /* MB_GRAIN_LOOP under MB_AGREE_ALL: between experiments the ranks poll for the slowest
     * rather than sleep, where each has a processor of its own (bench.h's probe_points).
     * Asleep, they let the host move the vCPUs of a VM between its cores mid-run
     * (point_loop.c, loop_interval_combine). */
    bool poll_between;
} mb_loop_t;

typedef struct mb_loop_result {
    /* The point's figures: per experiment the headline time per operation. Filled on every
     * rank for OWN and MAX, on comm's rank 0 only for RANK0. */
    mb_measurement_t headline;
    mb_measurement_t own; /* this rank's own time per operation, every experiment */
    /* MB_GRAIN_CALL with MB_AGREE_ALL (else NAN): medians over experiments of the per-call
     * mean over ranks (OSU's and IMB's figure), slowest rank, and entry skew (latest minus
     * earliest start on offset-corrected clocks). */
    double avg_over_ranks_ns, max_over_ranks_ns, entry_skew_ns;
    char reason[320]; /* why the point failed (the same on every rank) */
} mb_loop_result_t;

/* Measure one point: collective over loop->comm under MB_AGREE_ALL. Returns 0 (out
 * filled), or -1 with out->reason set and no samples; under MB_AGREE_ALL the same on every
 * rank. */
int mb_loop_measure(const mb_loop_t *loop, const mb_loop_work_t *work, mb_loop_result_t *out);

void mb_loop_result_free(mb_loop_result_t *r);

#endif
