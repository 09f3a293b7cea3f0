/* SPDX-License-Identifier: MIT */
/* Reading a run's raw samples back (raw_samples.h): raw.csv.gz, or for a run killed
 * half-way raw.csv.gz.part up to the bytes its results.json counted, as one table of
 * points, each with its experiments' times. */
#ifndef MB_RAW_READ_H
#define MB_RAW_READ_H

#include <stddef.h>

#include <jansson.h>

typedef struct mb_raw_point {
    char *bench;
    size_t point; /* index in the benchmark's "points" */
    double *samples_ns;
    size_t n;
    size_t member; /* the gzip member (one per benchmark measured) it was read from, from 0 */
} mb_raw_point_t;

typedef struct mb_raw_data {
    mb_raw_point_t *points; /* sorted by benchmark, then point */
    size_t npoints;
    size_t rows;     /* the samples kept */
    char path[4096]; /* the file read */
} mb_raw_data_t;

/* Read the raw samples of the run in dir, whose results.json has the "raw" section
 * `section` (an object with "file"; "writing" and "bytes" while unfinished); a benchmark
 * measured again (the driver's drift re-measure: a later gzip member of the same name) by
 * its last measurement alone. Returns 0, 1 when the run kept none (no section, or "file":
 * null; err says why), or -1 with err naming the file (missing, not gzip, not mbsuite's
 * columns, a malformed line). */
int mb_raw_read(const char *dir, const json_t *section, mb_raw_data_t *out, char *err,
                size_t errlen);

/* The samples of point `point` of benchmark bench, or NULL. */
const mb_raw_point_t *mb_raw_find(const mb_raw_data_t *d, const char *bench, size_t point);

void mb_raw_data_free(mb_raw_data_t *d);

#endif
