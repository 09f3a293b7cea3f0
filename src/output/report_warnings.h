/* SPDX-License-Identifier: MIT */
/* The run's warnings, found once for both reports: what in a results document to read with
 * care (an incomplete run, failed points, points whose CI is too wide or missed its target,
 * points whose experiments sat at two levels, points and benchmarks the time budget cut, benchmarks
 * the drift probe flagged, flagged nodes, skipped benchmarks). report.html lists each with what it
 * concerns (report_html_warnings.c); report.txt opens with a summary of them, one line each,
 * pointing to where the text lists the rest. */
#ifndef MB_REPORT_WARNINGS_H
#define MB_REPORT_WARNINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* The kinds of point a warning counts. */
typedef enum mb_warn_point {
    MB_WARN_POINT_FAILED,     /* measured nothing */
    MB_WARN_POINT_CI_WIDE,    /* a CI over [run] ci_wide of the median */
    MB_WARN_POINT_CI_MISSED,  /* the CI target not met */
    MB_WARN_POINT_TRIMMED,    /* fewer repetitions than asked, for the time budget */
    MB_WARN_POINT_TWO_LEVELS, /* its experiments at two levels ("two_levels") */
} mb_warn_point_t;

/* How many flagged nodes each report names in its warnings before it counts the rest. */
#define MB_WARN_NODES_LISTED 8

/* Whether point pt (of a benchmark's "points") is of that kind. */
bool mb_warn_point_is(const json_t *pt, mb_warn_point_t kind);

/* What a warning says of a two-level point: "7 experiments at 12.53-38.11 us, 4 at
 * 160.7-163.4 us; the median in the low level" ("" where pt has no "two_levels"). */
void mb_warn_two_levels_text(const json_t *pt, char *buf, size_t len);

/* How many points of the results document root are of that kind. */
size_t mb_warn_count_points(const json_t *root, mb_warn_point_t kind);

/* What the time budget cut: benchmarks that measured a coarser grid, the points they
 * dropped, and benchmarks that measured smaller working sets. */
void mb_warn_budget_cuts(const json_t *root, size_t *coarser, long long *dropped, size_t *smaller);

/* report.txt's summary of the warnings of root, or "warnings: none". */
void mb_report_warnings_text(FILE *f, const json_t *root);

#endif
