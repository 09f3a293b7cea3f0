/* SPDX-License-Identifier: MIT */
/* report.html's warnings section (report_html_warnings.h). */
#include "report_html_warnings.h"

#include <stdbool.h>
#include <string.h>

#include "drift.h"
#include "html_escape.h"
#include "record.h"
#include "report_text.h"
#include "report_warnings.h"

/* At most this many points are named in one warning's list; results.json has them all. */
#define WARN_MAX_LISTED 50

/* "name size_bytes=1024 pair=intra". */
static void html_point_label(FILE *f, const json_t *bench, const json_t *pt)
{
    char params[512];
    mb_report_text_params(bench, pt, params, sizeof params);
    fputs("<code>", f);
    mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "name")));
    if (params[0]) {
        fputc(' ', f);
        mb_html_escape(f, params);
    }
    fputs("</code>", f);
}

/* One warning: its headline, and the points it concerns folded below it. */
static void html_warning_points(FILE *f, const json_t *root, mb_warn_point_t kind, const char *cls,
                                const char *headline)
{
    size_t n = mb_warn_count_points(root, kind), listed = 0, i, j;
    const json_t *bench, *pt;
    if (n == 0)
        return;
    fprintf(f, "<li><span class=\"badge %s\">%zu</span>", cls, n);
    mb_html_escape(f, headline);
    fputs("<details><summary>the points</summary><ul>\n", f);
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            if (!mb_warn_point_is(pt, kind) || listed >= WARN_MAX_LISTED)
                continue;
            listed++;
            fputs("<li>", f);
            html_point_label(f, bench, pt);
            double rel;
            if (kind == MB_WARN_POINT_FAILED) {
                fputs(": ", f);
                mb_html_escape(f, mb_report_text_dash(mb_report_text_str(pt, "reason")));
            } else if (kind == MB_WARN_POINT_CI_WIDE &&
                       mb_report_text_num(pt, "ci95_rel_halfwidth", &rel) && rel >= 0) {
                fprintf(f, ": CI half-width %.2f%% of the median", rel * 100);
            } else if (kind == MB_WARN_POINT_TWO_LEVELS) {
                char levels[300];
                mb_warn_two_levels_text(pt, levels, sizeof levels);
                fputs(": ", f);
                mb_html_escape(f, levels);
            }
            fputs("</li>\n", f);
        }
    }
    if (n > listed)
        fprintf(f, "<li>... and %zu more (see results.json)</li>\n", n - listed);
    fputs("</ul></details></li>\n", f);
}

/* The benchmarks that the time budget cut (a coarser grid, smaller working sets) as one
 * warning, each named below it. */
static void html_warning_budget(FILE *f, const json_t *root)
{
    size_t i, coarser, smaller;
    long long dropped_all;
    const json_t *bench;
    double cap;
    mb_warn_budget_cuts(root, &coarser, &dropped_all, &smaller);
    if (coarser + smaller == 0)
        return;
    fprintf(f,
            "<li><span class=\"badge warn\">budget</span>The time budget cut the run: %zu "
            "benchmark%s measured a coarser grid (%lld points dropped), %zu measured smaller "
            "working sets.<details><summary>the benchmarks</summary><ul>\n",
            coarser, coarser == 1 ? "" : "s", dropped_all, smaller);
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        json_int_t dropped = json_integer_value(json_object_get(bench, "dropped_by_budget"));
        bool cut = mb_report_text_num(bench, "memory_span_cap_bytes", &cap);
        if (dropped <= 0 && !cut)
            continue;
        fputs("<li><code>", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "name")));
        fputs("</code>:", f);
        if (dropped > 0)
            fprintf(f, " %lld points dropped%s", (long long)dropped, cut ? ";" : "");
        if (cut) {
            char b[32];
            mb_report_text_bytes(cap, b, sizeof b);
            fprintf(f, " working sets of at most %s per rank", b);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul></details></li>\n", f);
}

/* The benchmarks measured while the drift probe read far from the run's median (drift.h),
 * as one warning, each named below it with its readings. */
static void html_warning_drift(FILE *f, const json_t *root)
{
    const json_t *drift = json_object_get(root, "drift"), *b;
    const json_t *flagged = json_object_get(drift, "flagged");
    double usual; /* a run written before usual_ns: its median */
    if (json_array_size(flagged) == 0 || (!mb_report_text_num(drift, "usual_ns", &usual) &&
                                          !mb_report_text_num(drift, "median_ns", &usual)))
        return;
    fprintf(f,
            "<li><span class=\"badge warn\">%zu</span>benchmark%s measured while the drift "
            "probe (a 0-byte pingpong between rank 0 and another rank) read far from "
            "the run's usual %.0f ns: the node was in another state then, and %s figures "
            "may not compose with the others'<details><summary>the benchmarks</summary><ul>\n",
            json_array_size(flagged), json_array_size(flagged) == 1 ? "" : "s", usual,
            json_array_size(flagged) == 1 ? "its" : "their");
    size_t i;
    json_array_foreach(flagged, i, b)
    {
        double before = 0, after = 0;
        mb_report_text_num(b, "before_ns", &before);
        mb_report_text_num(b, "after_ns", &after);
        const char *name = mb_report_text_dash(mb_report_text_str(b, "name")), *why = NULL;
        const json_t *x;
        size_t k;
        json_array_foreach(json_object_get(drift, "not_remeasured"), k, x)
        {
            if (strcmp(mb_report_text_dash(mb_report_text_str(x, "name")), name) == 0)
                why = mb_report_text_str(x, "why");
        }
        fputs("<li><code>", f);
        mb_html_escape(f, name);
        fprintf(f, "</code>: %.0f ns before, %.0f after", before, after);
        char points[96];
        mb_drift_points_off_text(b, points, sizeof points);
        fputs(points, f);
        if (why) {
            fputs("; not measured again: ", f);
            mb_html_escape(f, why);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul></details></li>\n", f);
}

void mb_report_html_warnings(FILE *f, const json_t *root, size_t plots_missing)
{
    size_t i;
    const json_t *bench, *node;
    fputs("<ul class=\"warnings\">\n", f);
    if (!json_is_true(json_object_get(root, "complete")))
        fputs("<li><span class=\"badge bad\">incomplete</span>The run did not finish: this page "
              "holds the benchmarks finished so far.</li>\n",
              f);
    html_warning_points(f, root, MB_WARN_POINT_FAILED, "bad",
                        "failed points: measured nothing, left out of every table, fit and plot");
    html_warning_points(f, root, MB_WARN_POINT_CI_WIDE, "warn",
                        "points with a confidence interval too wide (over [run] ci_wide of the "
                        "median): read them with care");
    html_warning_points(f, root, MB_WARN_POINT_TRIMMED, "warn",
                        "points trimmed by the time budget: fewer repetitions than asked");
    html_warning_points(f, root, MB_WARN_POINT_TWO_LEVELS, "warn",
                        "points whose experiments sat at two levels, 2x or more apart: the "
                        "node's state or the benchmark's regime changed during the point, and "
                        "its median is one level's, or between them");
    html_warning_budget(f, root);
    html_warning_drift(f, root);
    /* The first few flagged nodes, then a count: the pre-flight table lists them all, flagged
     * first (on a cluster of noisy nodes this list would be the whole page). */
    size_t nodes_flagged = 0;
    json_array_foreach(json_object_get(json_object_get(root, "preflight"), "nodes"), i, node)
    {
        if (!json_is_true(json_object_get(node, "flagged")) ||
            nodes_flagged++ >= MB_WARN_NODES_LISTED)
            continue;
        fputs("<li><span class=\"badge bad\">node</span>pre-flight flagged node ", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(node, "host")));
        fputs(": ", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(node, "why")));
        fputs("</li>\n", f);
    }
    if (nodes_flagged > MB_WARN_NODES_LISTED)
        fprintf(f,
                "<li><span class=\"badge bad\">%zu</span>more nodes flagged by the pre-flight: "
                "the pre-flight table lists them all, flagged first</li>\n",
                nodes_flagged - MB_WARN_NODES_LISTED);
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        if (mb_record_ran(bench))
            continue;
        fputs("<li><span class=\"badge warn\">skipped</span><code>", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "name")));
        fputs("</code>: ", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "skipped")));
        fputs("</li>\n", f);
    }
    if (plots_missing)
        fprintf(f,
                "<li><span class=\"badge warn\">%zu</span>plots not drawn: each has a note "
                "where it belongs</li>\n",
                plots_missing);
    fputs("</ul>\n", f);
}
