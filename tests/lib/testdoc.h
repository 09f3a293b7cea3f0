/* SPDX-License-Identifier: MIT */
/* Results documents for the unit tests (schema 2, docs/results.md), read from tests/data or
 * built in code: records with given axes and roles, ok points, and failed points that
 * carry a bogus median, which a reader would show if it looked at the figures instead of
 * the status. The builders abort when out of memory. */
#ifndef MB_TESTDOC_H
#define MB_TESTDOC_H

#include <stdio.h>

#include <jansson.h>

/* A record in group "mpi" with no points yet: axes given as "name:role", or for a label
 * axis "name:label:a,b,...", one string per axis up to a NULL; model and loggp may be NULL
 * (null in the record). New reference. */
json_t *mb_testdoc_bench(const char *name, const char *model, const char *loggp, ...);

/* Append an ok point with params (stolen), n 11, the median in ns and a CI of +-0.5%. */
void mb_testdoc_point(json_t *bench, json_t *params, double median_ns);

/* Append a failed point with params (stolen) and a bogus median; count it in
 * failed_points. */
void mb_testdoc_failed(json_t *bench, json_t *params, double bogus_median_ns);

/* mpi.pingpong: intra t = 500 + 0.1 d ns, inter 2000 + 0.05 d, over the pingpong sweep to
 * 64 KiB (loggp L); mpi.allgather: 1000 + 2000 p + 0.5 d for p = 2..8; mpi.send (o_s) and
 * mpi.recvmin (o_r), intra only: 150 + 0.05 d and 100 + 0.02 d; mpi.barrier, skipped;
 * harness.timer without a model, 21.5 ns. Failed points: send intra 0 B, pingpong intra
 * 128 KiB, allgather p = 9. New reference. */
json_t *mb_testdoc_mpi(void);

/* x.transfer in group "other": axes route (label near, far), procs (ranks), bytes
 * (message_size); near t = 300 + 100 p + 0.25 d ns, far 900 + 100 p + 0.25 d, p = 2..6,
 * d = 0..4096 by 1024. New reference. */
json_t *mb_testdoc_transfer(void);

/* The fixture tests/data/NAME (new reference), or NULL with the reason on stderr. */
json_t *mb_testdoc_fixture(const char *name);

/* A run's DIR/results.json as written (duplicate keys refused; new reference), or NULL with
 * the reason on stderr. */
json_t *mb_testdoc_results(const char *dir);

/* What a report section fn wrote for root, as a new string (free it), or NULL when the
 * in-memory stream could not be opened or closed. */
char *mb_testdoc_render(void (*fn)(FILE *, const json_t *), const json_t *root);

#endif
