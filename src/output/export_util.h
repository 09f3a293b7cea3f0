/* SPDX-License-Identifier: MIT */
/* What every simulator export shares: the run's latency benchmark and its fit for a pair,
 * a line naming the run, and writing a set of files so that an error leaves none of them
 * (each written atomically, the ones already written removed again). */
#ifndef MB_EXPORT_UTIL_H
#define MB_EXPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "fileutil.h"

/* The fit in `fits` of the run's latency benchmark (the first that ran with loggp "L", e.g.
 * mpi.pingpong) for the series with label value `pair` (NULL: its first fit). *bench gets
 * the benchmark's name. Returns the fit (borrowed), or NULL with err. */
const json_t *mb_export_latency_fit(const json_t *root, const json_t *fits, const char *pair,
                                    const char **bench, char *err, size_t errlen);

/* "the run of <started_utc>" into buf. */
void mb_export_run_text(const json_t *root, char *buf, size_t len);

/* One file of an export: its name in the directory and its writer. */
typedef struct mb_export_file {
    const char *name;
    mb_file_writer_fn write;
} mb_export_file_t;

/* mkdir -p dir, then write each file atomically with write(f, arg). On an error the files
 * this call wrote are removed again. Returns 0, or -1 with err. */
int mb_export_write_files(const char *dir, const mb_export_file_t *files, size_t n, void *arg,
                          char *err, size_t errlen);

#endif
