/* SPDX-License-Identifier: MIT */
/* report.html's parts of one benchmark: its heading, its points as a table (each point's
 * trouble marked), its derived figures, and its fitted models' rows. */
#ifndef MB_REPORT_HTML_BENCH_H
#define MB_REPORT_HTML_BENCH_H

#include <stdio.h>

#include <jansson.h>

/* Points folded under a <details> beyond this many. */
#define MB_REPORT_HTML_OPEN_POINTS 24

/* <h3> with the benchmark's name (id "bench-NAME") and summary, then what it measures. */
void mb_report_html_bench_heading(FILE *f, const json_t *bench);

/* bench's points: parameters, the headline statistic (median, or min where the benchmark
 * asks) with its 95% CI, n, MB/s where there is a bandwidth, and notes (CI too wide, CI
 * target missed, trimmed by the budget); a failed point with its reason. */
void mb_report_html_points(FILE *f, const json_t *bench);

/* bench's "derived" figures as a key-value table; nothing when it has none. */
void mb_report_html_derived(FILE *f, const json_t *bench);

/* The rows of one "fits" entry for a table of columns series, d, model (us), chi2/dof, Q,
 * held-out error: one row per segment. */
void mb_report_html_fit_rows(FILE *f, const json_t *fit);

/* The collective's family of growth in p chosen on held-out p, when the fit has one. */
void mb_report_html_fit_family(FILE *f, const json_t *fit);

#endif
