/* SPDX-License-Identifier: MIT */
/* report.txt's opening: what the numbers were measured on and with. */
#ifndef MB_REPORT_CONTEXT_H
#define MB_REPORT_CONTEXT_H

#include <stdio.h>

#include <jansson.h>

/* Print the context block of the results document root (schema, status, times, command,
 * node 0, MPI, compiler, clock, bindings); missing fields print as "-". */
void mb_report_context(FILE *f, const json_t *root);

/* Print the pre-flight section pre (root's "preflight"): each node's clock and noise, then
 * every core's noise while the run is small enough to read. */
void mb_report_preflight(FILE *f, const json_t *pre);

#endif
