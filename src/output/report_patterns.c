/* SPDX-License-Identifier: MIT */
/* The "predicted vs measured" table of report.txt (report_patterns.h): how far the naive
 * composition of the primitives' fitted models is from the patterns measured directly.
 * Rendered from "predictions" alone, so that a report can be regenerated from any file. */
#include "report_patterns.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "predict_patterns.h"
#include "report_text.h"

#define REPORT_PATTERNS_INDENT "  "
#define REPORT_PATTERNS_NCOLS 7

typedef struct report_patterns_row {
    char cell[REPORT_PATTERNS_NCOLS][320];
} report_patterns_row_t;

static const char *const report_patterns_head[REPORT_PATTERNS_NCOLS] = {
    "pattern", "p", "d (B)", "measured us", "predicted us", "error %", "predicted from"};

/* The row of one point of entry e. */
static void report_patterns_fill(report_patterns_row_t *r, const json_t *e, const json_t *pt,
                                 const char *recipe)
{
    double v;
    for (int c = 0; c < REPORT_PATTERNS_NCOLS; c++)
        snprintf(r->cell[c], sizeof r->cell[c], "-");
    snprintf(r->cell[0], sizeof r->cell[0], "%s",
             mb_report_text_dash(mb_report_text_str(e, "name")));
    if (mb_report_text_num(pt, "p", &v))
        snprintf(r->cell[1], sizeof r->cell[1], "%.0f", v);
    if (mb_report_text_num(pt, "d", &v))
        mb_report_text_bytes(v, r->cell[2], sizeof r->cell[2]);
    if (mb_report_text_num(pt, "measured_ns", &v))
        mb_report_text_sig(v / 1000.0, r->cell[3], sizeof r->cell[3]);
    if (mb_report_text_num(pt, "predicted_ns", &v))
        mb_report_text_sig(v / 1000.0, r->cell[4], sizeof r->cell[4]);
    if (mb_report_text_num(pt, "error_pct", &v))
        snprintf(r->cell[5], sizeof r->cell[5], "%+.1f", v);
    const char *why = mb_report_text_str(pt, "error");
    if (why)
        snprintf(r->cell[6], sizeof r->cell[6], "cannot predict: %s", why);
    else
        snprintf(r->cell[6], sizeof r->cell[6], "%s%s", recipe,
                 json_is_true(json_object_get(pt, "extrapolated")) ? " (extrapolated)" : "");
}

static void report_patterns_print(FILE *f, const report_patterns_row_t *r, const size_t *w)
{
    fprintf(f, REPORT_PATTERNS_INDENT "%-*s", (int)w[0], r->cell[0]);
    for (int c = 1; c < REPORT_PATTERNS_NCOLS - 1; c++)
        fprintf(f, "  %*s", (int)w[c], r->cell[c]);
    fprintf(f, "  %s\n", r->cell[REPORT_PATTERNS_NCOLS - 1]);
}

static void report_patterns_table(FILE *f, const json_t *predictions)
{
    size_t nrows = 0, i, j;
    const json_t *e, *pt;
    json_array_foreach(predictions, i, e) nrows += json_array_size(json_object_get(e, "points"));
    fprintf(f, "predicted vs measured (composite patterns; seeds 001 and 004) - measured: the "
               "slowest rank's time per iteration;\n" REPORT_PATTERNS_INDENT
               "predicted: the pattern's recipe summed from the fitted models above (no "
               "contention, no overlap); error = (predicted - measured) / measured\n");
    if (nrows == 0) {
        fprintf(f, REPORT_PATTERNS_INDENT "(no measured points)\n");
        return;
    }
    report_patterns_row_t *rows = calloc(nrows, sizeof *rows);
    if (!rows)
        return;
    size_t w[REPORT_PATTERNS_NCOLS], r = 0;
    for (int c = 0; c < REPORT_PATTERNS_NCOLS; c++)
        w[c] = strlen(report_patterns_head[c]);
    json_array_foreach(predictions, i, e)
    {
        const char *recipe = mb_report_text_dash(mb_report_text_str(e, "recipe"));
        json_array_foreach(json_object_get(e, "points"), j, pt)
        {
            report_patterns_fill(&rows[r], e, pt, recipe);
            for (int c = 0; c < REPORT_PATTERNS_NCOLS; c++)
                if (strlen(rows[r].cell[c]) > w[c])
                    w[c] = strlen(rows[r].cell[c]);
            r++;
        }
    }
    report_patterns_row_t head;
    for (int c = 0; c < REPORT_PATTERNS_NCOLS; c++)
        snprintf(head.cell[c], sizeof head.cell[c], "%s", report_patterns_head[c]);
    report_patterns_print(f, &head, w);
    for (r = 0; r < nrows; r++)
        report_patterns_print(f, &rows[r], w);
    free(rows);
}

/* After a pattern's summary: that it and its recipe's benchmarks were measured in
 * different states of the node, where the drift probe says so. */
static void report_patterns_drift(FILE *f, const json_t *e)
{
    double r;
    if (!mb_report_text_num(e, "drift_ratio", &r) ||
        (r <= MB_DRIFT_FLAG_RATIO && r * MB_DRIFT_FLAG_RATIO >= 1))
        return;
    fprintf(f,
            "; measured while the drift probe read %.2fx what it read during the recipe's "
            "benchmarks: the node changed state between them, and the error shows it",
            r);
}

/* Per pattern: the median |error| over its predicted points, or why there is none. */
static void report_patterns_summary(FILE *f, const json_t *predictions)
{
    size_t i, width = 0;
    const json_t *e;
    json_array_foreach(predictions, i, e)
    {
        const char *name = mb_report_text_dash(mb_report_text_str(e, "name"));
        if (strlen(name) > width)
            width = strlen(name);
    }
    json_array_foreach(predictions, i, e)
    {
        const char *name = mb_report_text_dash(mb_report_text_str(e, "name"));
        const json_t *pts = json_object_get(e, "points");
        double med, n = 0;
        mb_report_text_num(e, "predicted_points", &n);
        if (mb_report_text_num(e, "median_abs_error_pct", &med)) {
            fprintf(f, REPORT_PATTERNS_INDENT "%-*s  median |error| %.1f%% over %.0f of %zu points",
                    (int)width, name, med, n, json_array_size(pts));
            report_patterns_drift(f, e);
            fprintf(f, "\n");
            continue;
        }
        const char *why = mb_report_text_str(json_array_get(pts, 0), "error");
        fprintf(f, REPORT_PATTERNS_INDENT "%-*s  not predicted: %s\n", (int)width, name,
                why ? why : "no measured point");
    }
}

void mb_report_patterns(FILE *f, const json_t *root)
{
    const json_t *predictions = json_object_get(root, "predictions");
    json_t *computed = NULL;
    /* A document without fits (a run still measuring) has nothing to predict from yet. */
    if (!json_is_array(predictions) && json_is_array(json_object_get(root, "fits")))
        predictions = computed = mb_predict_patterns(root, NULL);
    if (json_array_size(predictions) > 0) {
        report_patterns_table(f, predictions);
        report_patterns_summary(f, predictions);
        fprintf(f, "\n");
    }
    json_decref(computed);
}
