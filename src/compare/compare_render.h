/* SPDX-License-Identifier: MIT */
/* A comparison (compare_runs.h) for people: as text (stdout and compare.txt) and as one
 * self-contained HTML page (compare.html: inline CSS, no script, no external file), rows
 * coloured by verdict. */
#ifndef MB_COMPARE_RENDER_H
#define MB_COMPARE_RENDER_H

#include <stdio.h>

#include <jansson.h>

/* Write cmp as text to f. Returns 0, or -1 when writing fails. */
int mb_compare_write_text(FILE *f, const json_t *cmp);

/* Write cmp as an HTML page to f. Returns 0, or -1 when writing fails. */
int mb_compare_write_html(FILE *f, const json_t *cmp);

#endif
