/* SPDX-License-Identifier: MIT */
/* The run's result directory: results.json (the machine-readable record, written with
 * jansson), points.csv (its points as one table, points_csv.h), report.txt (human
 * tables rendered from the same JSON) and report.html (the same on one page with the
 * plots, report_html.h). results.json is rewritten atomically after every finished
 * benchmark, so a run killed half-way leaves a valid record holding everything finished
 * ("complete": false until the end); points.csv and report.txt with it as often as they
 * take at most a fiftieth of the run (mb_results_set_derived_wait), each also atomically,
 * and whole at every section and at the close; report.html at the start and the close.
 * Rank 0 only.
 *
 * results.json, schema "mbsuite-results/2", documented in docs/results.md (benchmark
 * records: axes and their roles, model, loggp, measured_by, point status, failed_points):
 *   { "schema", "complete": bool, "incomplete_reason" (while complete is false: why),
 *     "started_utc", "finished_utc" (null until complete),
 *     "system": { "suite": {"name","version"}, "command_line": [..], "compiler", "cflags",
 *                 "mpi": {"name", "version", "library", "standard", "env": {VAR: value}},
 *                 "ranks", "nodes", "bindings": [{"rank","node","host","cpus"}],
 *                 "node_list": [node descriptions, see sysinfo.h],
 *                 "clock": {"name","nominal_resolution_ns","resolution_ns","overhead_ns",
 *                           "enough_ns","enough_verified","enough_source","loop_overhead_ns"} },
 *     "config": { section: { key: value } },
 *     optional "preflight": { "nodes": [ { "host", "mhz", "tick_ns", "cycles": {..},
 *                             "perturb": {"p50_pct","p90_pct","p99_pct","max_pct"},
 *                             "flagged", "why", ... } ], ... } (see preflight.h),
 *     "benchmarks": [ records, see docs/results.md; optional "derived": {..} and
 *                     "node_noise": the pre-flight noise of the node it ran on ],
 *     "fits" and "loggp" (see fit_results.h), "failed_points": the run's total,
 *     "timings": each phase's wall time and rank 0's peak memory (see timings.h) }
 * All times are ns per operation. */
#ifndef MB_RESULTS_H
#define MB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define MB_RESULTS_SCHEMA "mbsuite-results/2"

typedef struct mb_results mb_results_t;

/* Start a run's output in the existing directory dir: writes results.json, points.csv and
 * report.txt at once with no benchmarks and "complete": false. Takes references to system and config.
 * Returns a handle, or NULL with a message in err. */
mb_results_t *mb_results_open(const char *dir, json_t *system, json_t *config, char *err, size_t errlen);

/* Append one finished benchmark (reference stolen) and rewrite the files atomically.
 * Returns 0, or -1 with err (the files on disk keep their previous valid content). */
int mb_results_add_benchmark(mb_results_t *r, json_t *benchmark, char *err, size_t errlen);

/* Replace the record of the benchmark named as benchmark's "name" (reference stolen): a
 * benchmark measured again (the driver's drift re-measure). The failed points are counted
 * anew, and the files rewritten atomically. Returns 0, or -1 with err (no record of that
 * name: benchmark freed). */
int mb_results_replace_benchmark(mb_results_t *r, json_t *benchmark, char *err, size_t errlen);

/* After a benchmark, points.csv and report.txt are rewritten only where the time since
 * their last write is at least times what that write took (49 unless set: at most a
 * fiftieth of the run goes to them); 0: after every benchmark. Sections and the close
 * always rewrite them. For tests, which need one or the other. */
void mb_results_set_derived_wait(mb_results_t *r, double times);

/* The points that failed in the benchmarks added so far (results.json's "failed_points"). */
size_t mb_results_failed_points(const mb_results_t *r);

/* Set the top-level section `key` (e.g. "preflight"; reference stolen) and rewrite both
 * files atomically. Returns 0, or -1 with err. */
int mb_results_set_section(mb_results_t *r, const char *key, json_t *value, char *err, size_t errlen);

/* Set the top-level section `key` (reference stolen) without writing: the next write
 * (a benchmark, a section or close) carries it. For bookkeeping that changes with every
 * benchmark, such as "timings", where a write of its own would double the writes. Returns 0,
 * or -1 with err. */
int mb_results_stage_section(mb_results_t *r, const char *key, json_t *value, char *err,
                             size_t errlen);

/* Mark the run complete (or not, with why: "incomplete_reason"; NULL keeps "the run did
 * not finish"), stamp finished_utc, rewrite the files, free r. After mb_results_interrupt
 * it writes nothing and returns -1. */
int mb_results_close(mb_results_t *r, bool complete, const char *why, char *err, size_t errlen);

/* The benchmark being measured, for mb_results_interrupt (rank 0; no-ops while no results
 * are open): live_begin with its record's header (copied), then for each point
 * live_point(its record as failed, reason to come: stolen; NULL) as it begins and
 * live_point(NULL, its finished record: copied) as it ends. mb_results_add_benchmark (or
 * _replace_benchmark) ends it. A benchmark measured again that is interrupted leaves its
 * earlier record as it was: the interrupted one is not added beside it. */
void mb_results_live_begin(const json_t *header);
void mb_results_live_point(json_t *failed_record, const json_t *finished);

/* Before the benchmark is measured: a key its record gets afterwards from the driver
 * (value copied), for the interrupted record too. */
void mb_results_live_extra(const char *key, const json_t *value);

/* From any thread, once (a signal, a hung point): the open results, with the benchmark
 * being measured as far as it went (its point in progress failed with reason), marked
 * "complete": false with "incomplete_reason": reason, rewritten now. Later writes of the
 * run are refused, so the record stays. Returns 0, 1 when there is nothing to write (no
 * results open, or already done), or -1 with err. */
int mb_results_interrupt(const char *reason, char *err, size_t errlen);

/* After the run, with no handle: replace (or add) the top-level section `key` of
 * dir/results.json (value stolen) and rewrite results.json, points.csv and report.txt
 * atomically, as a run does. Returns 0, or -1 with err naming the file (unreadable or malformed
 * results.json, or a failed write: the files on disk are then unchanged). */
int mb_results_update_section(const char *dir, const char *key, json_t *value, char *err,
                              size_t errlen);

/* The whole document (borrowed reference), e.g. for tests. */
const json_t *mb_results_json(const mb_results_t *r);

#endif
