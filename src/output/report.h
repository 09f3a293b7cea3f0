/* SPDX-License-Identifier: MIT */
/* report.txt: human tables in the style of the seeds' tables, rendered from results.json's
 * document, so a report can be regenerated from any results file. */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stdio.h>

#include <jansson.h>

/* Render the results document `root` (schema in docs/results.md) as text into f, failed
 * points listed near the top and left out of every table. Missing optional fields are
 * shown as "-". Returns 0, or -1 on a write error. */
int mb_report_write(FILE *f, const json_t *root);

#endif
