/* SPDX-License-Identifier: MIT */
/* report.html's warnings, first on the page: an incomplete run, failed points, points whose
 * CI is too wide, points and benchmarks the time budget cut, flagged nodes, skipped
 * benchmarks and plots not drawn, each with what it concerns folded below it (which points
 * and benchmarks warrant one: report_warnings.h, shared with report.txt's summary). */
#ifndef MB_REPORT_HTML_WARNINGS_H
#define MB_REPORT_HTML_WARNINGS_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* The warnings of the results document root as a <ul>; plots_missing: plots gnuplot could
 * not draw. */
void mb_report_html_warnings(FILE *f, const json_t *root, size_t plots_missing);

#endif
