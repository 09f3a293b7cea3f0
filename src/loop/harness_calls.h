/* SPDX-License-Identifier: MIT */
/* Per-call timing for operations between ranks (ReproMPI's "sync, time, op, time"; seed 001
 * "Message passing"): every iteration is prepare (untimed) → synchronisation of the
 * measuring ranks → settle (untimed) → op, timed alone on every rank → finish (untimed).
 * The call intervals are summed into experiments that last at least `enough` (seed 000
 * 6.4), repeated as the harness does (6.5). Per call, the ranks' times are combined: the
 * slowest rank's (a collective's time to completion), the mean over ranks (what OSU and
 * IMB report), and the entry skew (latest minus earliest start, on clocks corrected by
 * their offsets to world rank 0). No back-to-back pipelining: no call starts before every
 * rank finished the previous one and synchronised. */
#ifndef MB_HARNESS_CALLS_H
#define MB_HARNESS_CALLS_H

#include <stdbool.h>

#include <mpi.h>

#include "harness.h"

typedef void (*mb_call_fn)(void *state);

/* One operation timed per call, with its untimed surroundings (any hook may be NULL). */
typedef struct mb_calls {
    mb_call_fn prepare; /* before the synchronisation: post a receive, send the data ahead */
    mb_call_fn settle;  /* after it, before the clock starts: compute for a while */
    mb_call_fn op;      /* the timed operation */
    mb_call_fn finish;  /* after the clock stops: complete what op left pending */
    void *state;
} mb_calls_t;

/* How the measuring ranks start each call together; a named strategy (STYLE.md). */
typedef struct mb_sync {
    const char *name;
    const char *describe; /* one line for the results' "scheme" */
    /* Before each experiment of iters calls; may agree on a schedule. */
    void (*begin)(void *sync_state, MPI_Comm comm, uint64_t iters);
    /* Before call i (0-based): return when this rank should start it. */
    void (*wait)(void *sync_state, MPI_Comm comm, uint64_t i);
} mb_sync_t;

/* MPI_Barrier before every call. */
extern const mb_sync_t mb_sync_barrier;
/* Common start times on offset-corrected clocks (ReproMPI's window scheme). */
extern const mb_sync_t mb_sync_window;

/* Which rank's time is the point's headline. */
typedef enum mb_headline {
    MB_HEADLINE_RANK0 = 0, /* the measured side of a pair: the rank 0 of comm */
    MB_HEADLINE_MAX,       /* the slowest rank per call: time to completion */
} mb_headline_t;

typedef struct mb_calls_result {
    mb_measurement_t headline; /* per experiment: mean over calls of the headline time */
    mb_measurement_t own;      /* this rank's own mean call time per experiment */
    double avg_over_ranks_ns;  /* median over experiments of the per-call mean over ranks */
    double max_over_ranks_ns;  /* median over experiments of the per-call slowest rank */
    double entry_skew_ns;      /* median over experiments of the mean per-call entry skew */
} mb_calls_result_t;

/* Collective over comm: measure calls on every rank of comm with the same counts.
 * clock_offset_ns is added to this rank's clock to give world rank 0's (for the skew).
 * Returns 0 on every rank (out filled on every rank), or -1 on every rank when the op
 * does no measurable work or memory ran out. */
int mb_harness_measure_calls(const mb_timing_t *t, const mb_measure_opts_t *opts,
                             const mb_calls_t *calls, const mb_sync_t *sync, MPI_Comm comm,
                             mb_headline_t headline, double clock_offset_ns,
                             mb_calls_result_t *out);

void mb_calls_result_free(mb_calls_result_t *r);

#endif
