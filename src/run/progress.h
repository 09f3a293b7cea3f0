/* SPDX-License-Identifier: MIT */
/* What a run says on stderr while the benchmarks run (world rank 0 only). A default run
 * measures about 1,200 points: a line each buried the warnings among them. On a terminal
 * there is one updating line instead (benchmark, [i/n], a bar of its points, elapsed time,
 * "~" time left), replaced at each benchmark's end by a permanent line (points measured and
 * failed, wall time); in a log (a file, a pipe, CI) only the permanent lines, with no
 * carriage returns. Any other message during the run goes through mb_progress_note, which
 * clears the updating line first, so warnings and errors keep lines of their own.
 * MB_PROGRESS=tty|log forces a mode; else a terminal is detected (mb_progress_mode_detect).
 * The state is the process's one: stderr is one per process, and so is the line on it;
 * code with no context at hand (mb_mpi_fail) must reach it. */
#ifndef MB_PROGRESS_H
#define MB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum mb_progress_mode {
    MB_PROGRESS_LOG, /* one permanent line per benchmark, nothing per point */
    MB_PROGRESS_TTY, /* and one line, redrawn in place, while a benchmark runs */
} mb_progress_mode_t;

/* A benchmark about to run, for mb_progress_bench_begin. Times in seconds. */
typedef struct mb_progress_bench {
    size_t index; /* from 0, of nbench given to mb_progress_start */
    const char *name;
    size_t npoints;
    /* The budget's estimates (budget.h, slowness applied) of this benchmark and of those
     * that run after it; negative without a budget (the average per benchmark so far is
     * used then). */
    double own_s, rest_s;
    double budget_end_s; /* when the budget says the run ends (mb_clock_elapsed_s); 0: none */
    size_t runs_after;   /* benchmarks after this one that will run (not skipped) */
} mb_progress_bench_t;

/* What the time left is estimated from; see mb_progress_left_s. Times in seconds. */
typedef struct mb_progress_left {
    double bench_elapsed_s; /* the current benchmark's, so far */
    size_t points_done, points;
    double own_s, rest_s; /* as in mb_progress_bench_t; negative: no budget */
    double budget_left_s; /* to the budget's end; negative: no budget */
    size_t timed;         /* benchmarks finished so far (skipped ones not counted) */
    double timed_s;       /* their wall time in total */
    size_t runs_after;
} mb_progress_left_t;

/* The mode for stderr: MB_PROGRESS (env, "tty" or "log") where set, else TTY when stderr is
 * a terminal or, under an MPI launcher that forwards it through a pipe (Open MPI's mpirun),
 * when the launcher's own stderr is one. An unknown MB_PROGRESS is reported in why (NULL
 * or "" when fine) and ignored. */
mb_progress_mode_t mb_progress_mode_detect(char *why, size_t whylen);

/* The mode named by text ("tty", "log"); -1 for anything else. */
int mb_progress_mode_parse(const char *text);

/* Begin reporting a run of nbench benchmarks to out in mode; began_s is the run's start and
 * now_s the clock (seconds; NULL: mb_clock_elapsed_s). Only world rank 0 calls this and
 * the bench and point functions below; elsewhere they print nothing. */
void mb_progress_start(FILE *out, mb_progress_mode_t mode, size_t nbench, double began_s,
                       double (*now_s)(void));

/* Stop reporting: an updating line is cleared; later notes print plainly. */
void mb_progress_finish(void);

/* A benchmark begins; in TTY mode its line is drawn. */
void mb_progress_bench_begin(const mb_progress_bench_t *bench);

/* A point of the current benchmark begins (label: its parameters, shown on the line). */
void mb_progress_point_begin(const char *label);

/* A point of the current benchmark ended, failed or not. */
void mb_progress_point_end(bool failed);

/* The current benchmark is done, wall_s its wall time: its permanent line, "mbsuite: [i/n]
 * NAME: M points measured, F failed[, D dropped by the budget], T s". */
void mb_progress_bench_end(double wall_s);

/* Benchmark index (from 0) is skipped: "mbsuite: [i/n] NAME skipped: REASON". */
void mb_progress_bench_skipped(size_t index, const char *name, const char *reason);

/* Print a message of its own on a line to stderr (out, during a run), after clearing the
 * updating line, which is drawn again below it. On any rank; fmt without the newline. */
void mb_progress_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The estimated seconds left in the run, or -1 when there is nothing to go on yet (no
 * budget and no benchmark done). With a budget: what is left of the current benchmark's
 * estimate (of its time or, if more, of its points) plus the rest's, at most the time to
 * the budget's end; else the average benchmark's time for each one to run, less what the
 * current one has used. */
double mb_progress_left_s(const mb_progress_left_t *in);

/* s as a duration for people: "42s", "5m03s", "1h02m"; into buf of len bytes. */
void mb_progress_duration(char *buf, size_t len, double s);

/* A bar of width cells, done of total filled: "[####......]"; into buf of len bytes. */
void mb_progress_bar(char *buf, size_t len, size_t done, size_t total, int width);

#endif
