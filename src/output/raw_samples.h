/* SPDX-License-Identifier: MIT */
/* raw.csv.gz: every kept experiment's time of every measured point, beside results.json, so
 * that users and `mbsuite compare` can redo the statistics (docs/results.md, "Raw samples").
 * One gzip member per benchmark, appended to raw.csv.gz.part and fsync'd before results.json
 * records the benchmark (its "raw" section counts the bytes written whole), so a run killed
 * at any instant keeps every finished benchmark's samples; closing renames the part to
 * raw.csv.gz. The samples are world rank 0's (the point's headline series as the harness
 * summarised it: src/loop/stats.c), never a gather over ranks. Rank 0 only.
 *
 * Columns: benchmark, params ("dim=value dim=value"), point (index in the record's
 * "points"), experiment (from 0, in the order run), time_ns (per operation). */
#ifndef MB_RAW_SAMPLES_H
#define MB_RAW_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define MB_RAW_FILE "raw.csv.gz"
#define MB_RAW_PART "raw.csv.gz.part"
#define MB_RAW_HEADER "benchmark,params,point,experiment,time_ns"

typedef struct mb_raw mb_raw_t;

/* Create dir/raw.csv.gz.part (replacing a leftover). Returns a handle, or NULL with err. */
mb_raw_t *mb_raw_open(const char *dir, char *err, size_t errlen);

/* Queue the n samples (ns per operation) of the point at index `point` of benchmark bench's
 * record, whose parameters read params. An error is kept and reported by mb_raw_commit. */
void mb_raw_add_point(mb_raw_t *r, const char *bench, const char *params, size_t point,
                      const double *samples_ns, size_t n);

/* End the current gzip member and make it durable (fsync). Returns 0, or -1 with err. */
int mb_raw_commit(mb_raw_t *r, char *err, size_t errlen);

/* Take back the rows queued since the last commit (a measurement that is not kept): the part
 * is cut back to its committed members. Returns 0, or -1 with err (a write error before it
 * too); after an error the handle only reports it. */
int mb_raw_discard(mb_raw_t *r, char *err, size_t errlen);

/* results.json's "raw" section for what is committed so far. New reference. */
json_t *mb_raw_json(const mb_raw_t *r);

/* Commit, close and rename the part to dir/raw.csv.gz; *section (may be NULL) gets the
 * final "raw" section (new reference). Frees r. Returns 0, or -1 with err (the part is then
 * left as it is, readable up to what results.json recorded). */
int mb_raw_close(mb_raw_t *r, json_t **section, char *err, size_t errlen);

/* The "raw" section of a run that keeps no raw samples, saying why. New reference. */
json_t *mb_raw_off_json(const char *why);

#endif
