/* SPDX-License-Identifier: MIT */
/* How the ranks of a point start each timed interval together: a named strategy (STYLE.md),
 * one of three, chosen per point by the measuring loop (point_loop.h) from the descriptor
 * and [mpi] sync:
 *   none     nothing: one rank alone, or ranks that need no common start;
 *   barrier  MPI_Barrier over the measuring ranks before every interval;
 *   window   ReproMPI's scheme: every interval starts at an agreed time on clocks
 *            corrected by their offsets to world rank 0 (clock_sync.h), windows apart, so
 *            no rank enters late by a barrier's exit skew. A rank that reaches its start
 *            after the agreed time started late: the loop discards that experiment, counts
 *            it, and the window doubles (ReproMPI marks such measurements invalid). */
#ifndef MB_LOOP_START_H
#define MB_LOOP_START_H

#include <stdbool.h>
#include <stdint.h>

#include <mpi.h>

#include "clock.h"

/* What a strategy keeps between intervals; owned by the loop. */
typedef struct mb_start_state {
    const mb_clock_t *clock;
    double offset_ns; /* added to this rank's clock gives world rank 0's */
    double call_ns;   /* the slowest rank's interval so far, for the window's length */
    double growth;    /* window: multiplier, doubled after each late experiment (1 to
                       * MB_START_GROWTH_MAX) */
    double window_ns; /* window: time between scheduled starts */
    double t0_ns;     /* window: the experiment's first start, on world rank 0's clock */
} mb_start_state_t;

/* The most the window (and its lead) grows: 256 x (2 calls + 5 us) and a 25.6 ms lead cover
 * a scheduler's time slice. Beyond it, doubling would only make every call wait seconds
 * while the machine stays as busy (a run that never ends): the loop keeps late experiments
 * then, counted as late starts, rather than discarding them. */
#define MB_START_GROWTH_MAX 256.0

typedef struct mb_start {
    const char *name;
    const char *describe;   /* one line for the results' "scheme" */
    uint64_t min_intervals; /* fewest intervals an experiment of timed calls should have */
    /* Before each experiment (may be NULL); collective over comm. */
    void (*begin)(mb_start_state_t *s, MPI_Comm comm);
    /* Before interval i (0-based) of the experiment: returns when this rank should start
     * it, true when it arrived after its agreed start (late). */
    bool (*wait)(mb_start_state_t *s, MPI_Comm comm, uint64_t i);
} mb_start_t;

extern const mb_start_t mb_start_none;
extern const mb_start_t mb_start_barrier;
extern const mb_start_t mb_start_window;

#endif
