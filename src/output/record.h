/* SPDX-License-Identifier: MIT */
/* A benchmark's record in results.json (schema in docs/results.md), read the way every
 * reader must: by the roles of its axes and its "model", "loggp" and point "status" fields,
 * never by benchmark, group or axis names. */
#ifndef MB_RECORD_H
#define MB_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "role.h"

/* The role of bench's axis `axis` (from "axes"), or MB_ROLE_NONE when not listed. */
mb_role_t mb_record_role(const json_t *bench, const char *axis);

/* The name of bench's first axis with role r (borrowed from bench), or NULL. */
const char *mb_record_axis(const json_t *bench, mb_role_t r);

/* The record of benchmark `name` in a results document's "benchmarks" (borrowed), or NULL. */
const json_t *mb_record_find(const json_t *root, const char *name);

/* Whether bench ran: "skipped" is absent or null. */
bool mb_record_ran(const json_t *bench);

/* Whether bench's "model" is the string m (e.g. "linear_pd"). */
bool mb_record_has_model(const json_t *bench, const char *m);

/* Whether pt was measured: its "status" is "ok", or absent (a partial document). A failed
 * point has no statistics and belongs in no table, fit or plot. */
bool mb_record_point_ok(const json_t *pt);

/* The series pt belongs to: {axis: value} for each of bench's label axes, in axis order
 * (new reference; {} when bench has none). */
json_t *mb_record_series(const json_t *bench, const json_t *pt);

/* Append to the array all each series of bench's points (of its ok points only when
 * ok_only) that all does not hold yet, in order of first appearance. */
void mb_record_series_add(const json_t *bench, json_t *all, bool ok_only);

/* A series' values joined by ",", e.g. "intra" or "read,cold"; "" for {}. */
void mb_record_series_text(const json_t *series, char *buf, size_t len);

/* The params (or a series) as "key=value" pairs joined by sep, e.g. "pair=intra"; "" for
 * none. Non-string values read "?". */
void mb_record_params_text(const json_t *params, const char *sep, char *buf, size_t len);

/* Whether the JSON array holds the string s (e.g. a fit's "variables" holds "p"). */
bool mb_record_has_string(const json_t *array, const char *s);

#endif
