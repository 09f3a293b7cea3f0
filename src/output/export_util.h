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

/* What every export starts from: the run's fits (its own, or computed now), the fit of
 * its latency benchmark for the pair, and what the files say of where they come from. */
typedef struct mb_export_run {
    json_t *own; /* fits computed here; released by mb_export_run_close */
    const json_t *fits;
    const json_t *fit;  /* the latency benchmark's (loggp "L", e.g. mpi.pingpong) for the pair */
    const char *bench;  /* its benchmark's name */
    char series[128];   /* the fit's label values, or "all" */
    char source[96];    /* "the run of <started_utc>" */
    int ranks;          /* the run's ranks, at least 2 */
} mb_export_run_t;

/* Fill run for root and pair (NULL: the latency benchmark's first fit). Returns 0, or -1
 * with err (run then needs no closing). */
int mb_export_run_open(const json_t *root, const char *pair, mb_export_run_t *run, char *err,
                       size_t errlen);

void mb_export_run_close(mb_export_run_t *run);

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
