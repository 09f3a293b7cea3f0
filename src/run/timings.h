/* SPDX-License-Identifier: MIT */
/* Where a run's time went: named phases' wall times in seconds (mb_clock_elapsed_s(), never
 * the measuring clock), kept in the order each was first recorded, and the "timings"
 * section of results.json built from them (docs/results.md). A phase recorded again adds
 * to its time, so a phase interrupted by another (setup around calibration) stays one row.
 * Phases recorded as laps from one moving mark cover the run without gaps or overlaps, so
 * their sum never exceeds the total. Plain data, no MPI: rank 0's copy is the one written. */
#ifndef MB_TIMINGS_H
#define MB_TIMINGS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define MB_TIMINGS_MAX_PHASES 16
#define MB_TIMINGS_NAME_LEN 32

typedef struct mb_timings_phase {
    char name[MB_TIMINGS_NAME_LEN];
    double wall_s;
} mb_timings_phase_t;

typedef struct mb_timings {
    double began_s; /* mb_clock_elapsed_s() when the run began; total_s counts from here */
    mb_timings_phase_t phases[MB_TIMINGS_MAX_PHASES];
    size_t nphases;
} mb_timings_t;

/* Start an empty record of a run that began at began_s (mb_clock_elapsed_s() seconds). */
void mb_timings_init(mb_timings_t *t, double began_s);

/* Add wall_s seconds (>= 0) to phase `name` (non-empty, shorter than MB_TIMINGS_NAME_LEN),
 * appending it if new. Returns 0, or -1 (nothing recorded) for a bad name or time, or when
 * MB_TIMINGS_MAX_PHASES phases are recorded already. */
int mb_timings_add(mb_timings_t *t, const char *name, double wall_s);

/* Close a lap: add (now - since_s) to phase `name`, now being mb_clock_elapsed_s(). Returns
 * now, the mark for the next lap. */
double mb_timings_lap(mb_timings_t *t, const char *name, double since_s);

/* Seconds recorded for phase `name`, or -1 if it was never recorded. */
double mb_timings_phase_s(const mb_timings_t *t, const char *name);

/* The "timings" section as of now_s (mb_clock_elapsed_s() seconds): {"total_s": now_s -
 * began_s, "phases": [{"name", "wall_s"}, ...] in recording order, "rank0_peak_rss_bytes"}.
 * New reference, NULL when out of memory. */
json_t *mb_timings_json(const mb_timings_t *t, double now_s, int64_t peak_rss_bytes);

/* This process's peak resident memory so far in bytes (getrusage's ru_maxrss), 0 if unknown.
 * Children (gnuplot) are not counted. */
int64_t mb_timings_peak_rss_bytes(void);

#endif
