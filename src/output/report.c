/* SPDX-License-Identifier: MIT */
/* report.txt from the results document alone: the context block (report_context.c), the
 * failed points, where the time went (report_timings.c), the summary tables (pre-flight, Howell's, the fitted models, predicted vs measured, cache levels),
 * one table per benchmark, then the points whose confidence target was missed. Failed
 * points appear in their own list and nowhere else. Everything optional prints as "-", so
 * a partial document still renders. */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report_context.h"
#include "report_drift.h"
#include "report_fits.h"
#include "report_memory.h"
#include "report_node_tables.h"
#include "report_patterns.h"
#include "report_text.h"
#include "report_timings.h"
#include "report_warnings.h"

#define REPORT_CELL_MAX 128
#define REPORT_INDENT "  "
#define REPORT_MAX_CI_MISSED 20
#define REPORT_GAP "  "

typedef enum report_col_kind {
    REPORT_COL_PARAM = 0,
    REPORT_COL_HEADLINE, /* the benchmark's "statistic": median, or min where it asks */
    REPORT_COL_CI,
    REPORT_COL_N,
    REPORT_COL_CI_OK,
    REPORT_COL_BANDWIDTH,
    REPORT_COL_BANDWIDTH_BEST,
    REPORT_COL_RANKS_AVG, /* several ranks measured: the mean and max of their medians */
    REPORT_COL_RANKS_MAX,
    REPORT_COL_NODE_BANDWIDTH, /* all ranks at once: the node's aggregate */
} report_col_kind_t;

typedef struct report_col {
    report_col_kind_t kind;
    const char *param; /* REPORT_COL_PARAM: the parameter's name; HEADLINE: the statistic */
    char header[64];
    size_t width;
    bool left;
} report_col_t;

static void report_cell(const json_t *pt, const report_col_t *col, char *buf, size_t len)
{
    double v, lo, hi;
    const json_t *ci, *bw;
    snprintf(buf, len, "-");
    switch (col->kind) {
    case REPORT_COL_PARAM:
        mb_report_text_value(json_object_get(json_object_get(pt, "params"), col->param), buf, len);
        break;
    case REPORT_COL_HEADLINE: mb_report_text_stat(pt, col->param, buf, len); break;
    case REPORT_COL_CI:
        ci = json_object_get(pt, "ci95");
        if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
            char a[48], b[48];
            lo = json_number_value(json_array_get(ci, 0));
            hi = json_number_value(json_array_get(ci, 1));
            mb_report_text_sig(lo, a, sizeof a);
            mb_report_text_sig(hi, b, sizeof b);
            /* r: MB_REPORT_TEXT_SERIAL_CI, said under the table. */
            snprintf(buf, len, "%s - %s%s", a, b,
                     json_object_get(pt, "ci95_serial_factor") ? " r" : "");
        }
        break;
    case REPORT_COL_N:
        if (json_object_get(pt, "n"))
            mb_report_text_value(json_object_get(pt, "n"), buf, len);
        break;
    case REPORT_COL_CI_OK:
        if (json_is_boolean(json_object_get(pt, "ci_target_met")))
            snprintf(buf, len, "%s",
                     json_is_true(json_object_get(pt, "ci_target_met")) ? "yes" : "no");
        break;
    case REPORT_COL_BANDWIDTH:
    case REPORT_COL_BANDWIDTH_BEST:
        bw = json_object_get(pt, "bandwidth_bytes_per_s");
        if (mb_report_text_num(bw, col->kind == REPORT_COL_BANDWIDTH ? "median" : "best", &v))
            mb_report_text_sig(v / 1e6, buf, len);
        break;
    case REPORT_COL_RANKS_AVG:
    case REPORT_COL_RANKS_MAX:
        if (mb_report_text_num(json_object_get(pt, "over_ranks"),
                               col->kind == REPORT_COL_RANKS_AVG ? "avg_ns" : "max_ns", &v))
            mb_report_text_sig(v, buf, len);
        break;
    case REPORT_COL_NODE_BANDWIDTH:
        if (mb_report_text_num(json_object_get(pt, "over_ranks"), "aggregate_bytes_per_s", &v))
            mb_report_text_sig(v / 1e6, buf, len);
        break;
    }
}

static void report_row(FILE *f, const json_t *pt, const report_col_t *cols, size_t ncols)
{
    char cell[REPORT_CELL_MAX];
    fprintf(f, REPORT_INDENT);
    for (size_t c = 0; c < ncols; c++) {
        const char *text = cell;
        if (pt)
            report_cell(pt, &cols[c], cell, sizeof cell);
        else
            text = cols[c].header;
        bool last = c + 1 == ncols;
        if (cols[c].left)
            fprintf(f, "%s%-*s", c ? REPORT_GAP : "", last ? 0 : (int)cols[c].width, text);
        else
            fprintf(f, "%s%*s", c ? REPORT_GAP : "", (int)cols[c].width, text);
    }
    fprintf(f, "\n");
}

/* A parameter column reads best left-aligned for a label axis, right-aligned for a number;
 * without roles (a partial document), a string value counts as a label. */
static bool report_left_aligned(const json_t *bench, const char *axis, const json_t *pt)
{
    mb_role_t role = mb_record_role(bench, axis);
    if (role != MB_ROLE_NONE)
        return role == MB_ROLE_LABEL;
    return json_is_string(json_object_get(json_object_get(pt, "params"), axis));
}

/* Columns: the parameters, then the median (or min), CI, n, whether the CI met its target,
 * and the bandwidth when any point has one. Two passes over the measured points: widths,
 * then rows; failed points are only counted. */
static int report_table(FILE *f, const json_t *bench)
{
    const json_t *points = json_object_get(bench, "points");
    const char *unit = mb_report_text_str(bench, "unit");
    size_t nok = 0, i;
    const json_t *pt;
    char cell[REPORT_CELL_MAX];

    if (!unit)
        unit = "ns";
    bool bandwidth = false, ranks = false, node_bw = false;
    json_array_foreach(points, i, pt)
    {
        if (!mb_record_point_ok(pt))
            continue;
        nok++;
        if (json_object_get(pt, "bandwidth_bytes_per_s"))
            bandwidth = true;
        if (json_object_get(pt, "over_ranks"))
            ranks = true;
        if (json_object_get(json_object_get(pt, "over_ranks"), "aggregate_bytes_per_s"))
            node_bw = true;
    }
    size_t nfailed = json_array_size(points) - nok;
    if (nok == 0) {
        if (nfailed)
            fprintf(f, REPORT_INDENT "(no measured points: %zu failed, listed above)\n", nfailed);
        else
            fprintf(f, REPORT_INDENT "(no points)\n");
        return 0;
    }
    size_t nparams = json_array_size(json_object_get(bench, "params"));
    if (nparams == 0)
        nparams = json_object_size(json_object_get(json_array_get(points, 0), "params"));

    size_t ncols = nparams + 5 + (bandwidth ? 2 : 0) + (ranks ? 2 : 0) + (node_bw ? 1 : 0);
    report_col_t *cols = calloc(ncols, sizeof *cols);
    const char **names = calloc(nparams ? nparams : 1, sizeof *names);
    if (!cols || !names) {
        free(cols);
        free(names);
        return -1;
    }
    nparams = mb_report_text_axis_names(bench, names, nparams);
    size_t c = 0;
    for (size_t p = 0; p < nparams; p++, c++) {
        cols[c].kind = REPORT_COL_PARAM;
        cols[c].param = names[p];
        snprintf(cols[c].header, sizeof cols[c].header, "%s", names[p]);
    }
    const char *statistic = mb_report_text_str(bench, "statistic");
    if (!statistic || strcmp(statistic, "min") != 0)
        statistic = "median";
    cols[c].kind = REPORT_COL_HEADLINE;
    cols[c].param = statistic;
    snprintf(cols[c++].header, sizeof cols[0].header, "%s %s", statistic, unit);
    cols[c].kind = REPORT_COL_CI;
    snprintf(cols[c++].header, sizeof cols[0].header, "95%% CI (%s)", unit);
    cols[c].kind = REPORT_COL_N;
    snprintf(cols[c++].header, sizeof cols[0].header, "n");
    cols[c].kind = REPORT_COL_CI_OK;
    cols[c].left = true;
    snprintf(cols[c++].header, sizeof cols[0].header, "CI ok");
    if (ranks) {
        cols[c].kind = REPORT_COL_RANKS_AVG;
        snprintf(cols[c++].header, sizeof cols[0].header, "ranks avg %s", unit);
        cols[c].kind = REPORT_COL_RANKS_MAX;
        snprintf(cols[c++].header, sizeof cols[0].header, "ranks max %s", unit);
    }
    if (bandwidth) {
        cols[c].kind = REPORT_COL_BANDWIDTH;
        snprintf(cols[c++].header, sizeof cols[0].header, "bandwidth MB/s");
        /* The best experiment's rate, the figure STREAM and bw_mem's users compare nodes by
         * (STREAM prints the best of its 10 trials): beside the median, not instead. */
        cols[c].kind = REPORT_COL_BANDWIDTH_BEST;
        snprintf(cols[c++].header, sizeof cols[0].header, "best MB/s");
    }
    if (node_bw) {
        cols[c].kind = REPORT_COL_NODE_BANDWIDTH;
        snprintf(cols[c++].header, sizeof cols[0].header, "node MB/s");
    }
    ncols = c;

    for (c = 0; c < ncols; c++) {
        cols[c].width = strlen(cols[c].header);
        json_array_foreach(points, i, pt)
        {
            if (!mb_record_point_ok(pt))
                continue;
            report_cell(pt, &cols[c], cell, sizeof cell);
            size_t w = strlen(cell);
            if (w > cols[c].width)
                cols[c].width = w;
            if (cols[c].kind == REPORT_COL_PARAM && report_left_aligned(bench, cols[c].param, pt))
                cols[c].left = true;
        }
    }
    report_row(f, NULL, cols, ncols);
    json_array_foreach(points, i, pt)
    {
        if (mb_record_point_ok(pt))
            report_row(f, pt, cols, ncols);
    }
    if (nfailed)
        fprintf(f, REPORT_INDENT "(and %zu failed point%s, listed above)\n", nfailed,
                nfailed == 1 ? "" : "s");

    free(cols);
    free(names);
    return 0;
}

static void report_derived(FILE *f, const json_t *derived)
{
    const char *key;
    const json_t *v;
    size_t width = 0;
    char buf[REPORT_CELL_MAX];
    if (json_object_size(derived) == 0)
        return;
    json_object_foreach((json_t *)derived, key, v)
    {
        if (strlen(key) > width)
            width = strlen(key);
    }
    fprintf(f, REPORT_INDENT "derived:\n");
    json_object_foreach((json_t *)derived, key, v)
    {
        mb_report_text_derived_value(v, buf, sizeof buf);
        fprintf(f, REPORT_INDENT REPORT_INDENT "%-*s  %s\n", (int)width, key, buf);
    }
}

static int report_benchmark(FILE *f, const json_t *bench)
{
    const char *name = mb_report_text_dash(mb_report_text_str(bench, "name"));
    const char *skipped = mb_report_text_str(bench, "skipped");
    double elapsed;

    if (skipped) {
        fprintf(f, "%s \u2014 skipped: %s\n", name, skipped);
        return 0;
    }
    fprintf(f, "%s \u2014 %s\n", name, mb_report_text_dash(mb_report_text_str(bench, "summary")));
    fprintf(f, REPORT_INDENT "measures: %s\n",
            mb_report_text_dash(mb_report_text_str(bench, "measures")));
    if (report_table(f, bench) != 0)
        return -1;
    size_t i;
    const json_t *pt;
    bool widened = false;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        if ((widened = json_object_get(pt, "ci95_serial_factor") != NULL))
            break;
    }
    if (widened)
        fprintf(f, REPORT_INDENT "r: %s\n", MB_REPORT_TEXT_SERIAL_CI);
    report_derived(f, json_object_get(bench, "derived"));
    if (mb_report_text_num(bench, "elapsed_s", &elapsed))
        fprintf(f, REPORT_INDENT "elapsed %.1f s\n", elapsed);
    return 0;
}

/* "name size_bytes=1048576 cache=cold" for the lists of points. */
static void report_point_label(FILE *f, const json_t *bench, const json_t *pt)
{
    char params[512];
    mb_report_text_params(bench, pt, params, sizeof params);
    fprintf(f, REPORT_INDENT "%s%s%s", mb_report_text_dash(mb_report_text_str(bench, "name")),
            params[0] ? " " : "", params);
}

static void report_ci_missed(FILE *f, const json_t *benchmarks)
{
    size_t i, j;
    const json_t *bench, *pt;
    size_t shown = 0, missed = 0;
    json_array_foreach(benchmarks, i, bench)
    {
        if (mb_report_text_str(bench, "skipped"))
            continue;
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            if (!mb_warn_point_is(pt, MB_WARN_POINT_CI_MISSED))
                continue;
            if (missed++ == 0)
                fprintf(f,
                        "\nCI target not met (the median's 95%% CI is wider than the target):\n");
            /* A long list hides more than it shows: the rest are in results.json. */
            if (shown == REPORT_MAX_CI_MISSED)
                continue;
            shown++;
            report_point_label(f, bench, pt);
            double rel;
            char n[32];
            mb_report_text_value(json_object_get(pt, "n"), n, sizeof n);
            if (mb_report_text_num(pt, "ci95_rel_halfwidth", &rel))
                fprintf(f, ": CI half-width %.2f%% of the median after %s experiments\n", rel * 100,
                        n);
            else
                fprintf(f, ": after %s experiments\n", n);
        }
    }
    if (missed > shown)
        fprintf(f, REPORT_INDENT "... and %zu more (ci_target_met is false in results.json)\n",
                missed - shown);
}

/* Every failed point with its reason, so that no gap in a table or a plot goes unexplained.
 * Nothing when none failed. */
static void report_failed(FILE *f, const json_t *root)
{
    const json_t *benchmarks = json_object_get(root, "benchmarks");
    size_t i, j, failed = mb_warn_count_points(root, MB_WARN_POINT_FAILED);
    const json_t *bench, *pt;
    if (failed == 0)
        return;
    fprintf(f, "\nfailed points: %zu (measured nothing; left out of every table, fit and plot)\n",
            failed);
    json_array_foreach(benchmarks, i, bench)
    {
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            if (!mb_warn_point_is(pt, MB_WARN_POINT_FAILED))
                continue;
            report_point_label(f, bench, pt);
            fprintf(f, ": %s\n", mb_report_text_dash(mb_report_text_str(pt, "reason")));
        }
    }
}

int mb_report_write(FILE *f, const json_t *root)
{
    const json_t *benchmarks = json_object_get(root, "benchmarks");
    size_t i;
    const json_t *bench;

    /* The warnings, what failed and where the time went first, then the summary tables
     * (seed 001's), then every benchmark's own table. */
    mb_report_context(f, root);
    mb_report_warnings_text(f, root);
    report_failed(f, root);
    mb_report_timings(f, root);
    if (json_object_get(root, "preflight"))
        mb_report_preflight(f, json_object_get(root, "preflight"));
    mb_report_drift(f, root);
    mb_report_node_tables(f, root);
    mb_report_memory_howell(f, root);
    fprintf(f, "\n");
    mb_report_fits(f, root);
    mb_report_patterns(f, root);
    mb_report_memory_cache_levels(f, root);
    json_array_foreach(benchmarks, i, bench)
    {
        fprintf(f, "\n");
        if (report_benchmark(f, bench) != 0)
            return -1;
    }
    if (json_array_size(benchmarks) == 0)
        fprintf(f, "\n(no benchmarks finished)\n");
    report_ci_missed(f, benchmarks);
    return ferror(f) ? -1 : 0;
}
