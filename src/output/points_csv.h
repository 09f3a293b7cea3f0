/* SPDX-License-Identifier: MIT */
/* points.csv: every point of every benchmark as one row of one tidy table, because pandas,
 * R and spreadsheets read a flat table in one call where results.json needs a loop over
 * benchmarks, points and their params. Written beside results.json from the same document
 * every time it is (results.c), atomically; results.json stays the complete record.
 *
 * Columns: benchmark; one per axis name of any benchmark (the union, in order of first
 * appearance: axes, then any other point params), holding the value (a label axis its
 * label text), empty where the benchmark has no such axis; status (ok or failed); unit
 * and statistic (the benchmark's unit and headline statistic); n, min, median, mean, max,
 * stddev, p90, p99, ci95_lo, ci95_hi (the median's 95% CI), in the unit; bytes_per_op;
 * bandwidth_bytes_per_s (its median); iterations (per experiment); reason (why a point
 * failed). A figure a point lacks is an empty cell; a failed point has none. Fields are
 * quoted per RFC 4180 where they hold a comma, a quote or a line break; lines end in LF. */
#ifndef MB_POINTS_CSV_H
#define MB_POINTS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Write the table of doc's points (a results document, docs/results.md) to f. Returns 0,
 * or -1 when doc has no "benchmarks" array or writing fails. */
int mb_points_csv_write(FILE *f, const json_t *doc);

/* Atomically replace path with doc's table (temporary file beside it, then rename: no
 * half-written file and none left behind). Returns 0, or -1 with err naming path. */
int mb_points_csv_write_file(const json_t *doc, const char *path, char *err, size_t errlen);

#endif
