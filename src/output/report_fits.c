/* SPDX-License-Identifier: MIT */
/* Seed 001's two summaries of a machine: the fitted "MPI Function | Time (us) | Goodness of
 * fit (Q)" table (every entry of "fits", i.e. every benchmark whose model is linear_pd),
 * and operations grouped by the power of ten of their time; plus the LogGP parameters
 * derived from the point-to-point results. Series come from label axes, failed points are
 * left out. Tables are sized to their cells. */
#include "report_fits.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fit_results.h"
#include "record.h"

#define REPORT_FITS_INDENT "  "
#define REPORT_FITS_GAP "  "
#define REPORT_FITS_EXP_MIN (-9) /* columns 1e-9 s .. 1e-1 s */
#define REPORT_FITS_EXP_MAX (-1)
#define REPORT_FITS_NCOLS (REPORT_FITS_EXP_MAX - REPORT_FITS_EXP_MIN + 1)

typedef struct report_fits_row {
    char name[96];
    char range[64];
    char model[320];
    char q[24];
    char holdout[64];
} report_fits_row_t;

/* "mpi.allgather" or "mpi.pingpong intra": the name, then the series' label values. */
static void report_fits_name(const json_t *fit, char *buf, size_t len)
{
    const char *name = json_string_value(json_object_get(fit, "name"));
    name = name ? name : "?";
    size_t used = (size_t)snprintf(buf, len, "%s", name);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(fit, "params"), key, v)
    {
        if (used < len && json_is_string(v))
            used += (size_t)snprintf(buf + used, len - used, " %s", json_string_value(v));
    }
}

static int report_fits_width(size_t *w, const char *s)
{
    size_t l = strlen(s);
    if (l > *w)
        *w = l;
    return (int)*w;
}

static void report_fits_models(FILE *f, const json_t *fits)
{
    size_t nrows = 0, i;
    const json_t *fit;
    json_array_foreach(fits, i, fit)
    {
        size_t s = json_array_size(json_object_get(fit, "segments"));
        nrows += s ? s : 1;
    }
    report_fits_row_t *rows = calloc(nrows ? nrows : 1, sizeof *rows);
    if (!rows)
        return;
    size_t r = 0;
    bool any_range = false;
    json_array_foreach(fits, i, fit)
    {
        const json_t *segs = json_object_get(fit, "segments");
        size_t nseg = json_array_size(segs);
        report_fits_name(fit, rows[r].name, sizeof rows[r].name);
        if (nseg == 0) {
            const char *why = json_string_value(json_object_get(fit, "error"));
            snprintf(rows[r].model, sizeof rows[r].model, "(no fit: %s)", why ? why : "-");
            snprintf(rows[r].q, sizeof rows[r].q, "-");
            snprintf(rows[r].holdout, sizeof rows[r].holdout, "-");
            r++;
            continue;
        }
        for (size_t s = 0; s < nseg; s++, r++) {
            const json_t *seg = json_array_get(segs, s);
            if (nseg > 1) {
                any_range = true;
                snprintf(rows[r].range, sizeof rows[r].range, "%.0f..%.0f",
                         json_number_value(json_object_get(seg, "d_min")),
                         json_number_value(json_object_get(seg, "d_max")));
            }
            mb_fit_results_format_model(seg, true, rows[r].model, sizeof rows[r].model);
            const json_t *q = json_object_get(seg, "Q"), *rc = json_object_get(seg, "chi2_reduced");
            if (json_is_number(q) && json_is_number(rc))
                snprintf(rows[r].q, sizeof rows[r].q, "%.2g (%.2g)", json_number_value(q),
                         json_number_value(rc));
            else if (json_is_number(q))
                snprintf(rows[r].q, sizeof rows[r].q, "%.2g", json_number_value(q));
            else
                snprintf(rows[r].q, sizeof rows[r].q, "-");
            if (s == 0)
                mb_report_fits_holdout(fit, false, rows[r].holdout, sizeof rows[r].holdout);
        }
    }
    static const char *const head[] = {"MPI Function", "d range (B)", "Time (us)",
                                       "Goodness of fit (Q)", "holdout error (points' scatter)"};
    size_t w[5] = {strlen(head[0]), any_range ? strlen(head[1]) : 0, strlen(head[2]),
                   strlen(head[3]), 0};
    for (r = 0; r < nrows; r++) {
        report_fits_width(&w[0], rows[r].name);
        report_fits_width(&w[1], rows[r].range);
        report_fits_width(&w[2], rows[r].model);
        report_fits_width(&w[3], rows[r].q);
    }
    fprintf(f, "fitted models (seed 001) - time in us for p ranks and d bytes, standard errors in "
               "parentheses;\n" REPORT_FITS_INDENT
               "Q near 0: the model misses the data (chi2/dof in parentheses: near 1 when it is "
               "within the points' scatter);\n" REPORT_FITS_INDENT
               "0..0: the 0-byte points' own model, 1..1 (and the like): the smallest size's, "
               "which the library sends apart;\n" REPORT_FITS_INDENT
               "holdout error: median |error| predicting each size, in four folds of every "
               "fourth size, and the largest p from the rest;\n" REPORT_FITS_INDENT
               "in parentheses how far the points typically lie off the line through their "
               "neighbours: a floor that no smooth model gets under\n");
    fprintf(f, REPORT_FITS_INDENT "%-*s" REPORT_FITS_GAP, (int)w[0], head[0]);
    if (any_range)
        fprintf(f, "%-*s" REPORT_FITS_GAP, (int)w[1], head[1]);
    fprintf(f, "%-*s" REPORT_FITS_GAP "%-*s" REPORT_FITS_GAP "%s\n", (int)w[2], head[2], (int)w[3],
            head[3], head[4]);
    for (r = 0; r < nrows; r++) {
        char line[1024];
        int used = snprintf(line, sizeof line, "%-*s" REPORT_FITS_GAP, (int)w[0], rows[r].name);
        if (any_range && used >= 0 && (size_t)used < sizeof line)
            used += snprintf(line + used, sizeof line - (size_t)used, "%-*s" REPORT_FITS_GAP,
                             (int)w[1], rows[r].range);
        if (used >= 0 && (size_t)used < sizeof line)
            snprintf(line + used, sizeof line - (size_t)used,
                     "%-*s" REPORT_FITS_GAP "%-*s" REPORT_FITS_GAP "%s", (int)w[2], rows[r].model,
                     (int)w[3], rows[r].q, rows[r].holdout);
        size_t end = strlen(line);
        while (end > 0 && line[end - 1] == ' ')
            line[--end] = '\0';
        fprintf(f, REPORT_FITS_INDENT "%s\n",
                line); /* later segments of a fit leave the name blank */
    }
    free(rows);
}

/* The points each fit took as spikes (fit.h), one line per fit, after the models: they
 * are measured as they were, but the fit all but ignored them. */
static void report_fits_spikes(FILE *f, const json_t *fits)
{
    size_t i, j;
    const json_t *fit, *spike;
    bool any = false;
    json_array_foreach(fits, i, fit) {
        const json_t *spikes = json_object_get(fit, "spikes");
        if (!json_array_size(spikes))
            continue;
        if (!any)
            fprintf(f, REPORT_FITS_INDENT "spikes: points alone far off their neighbours' line, "
                                          "fitted with that distance as their error\n");
        any = true;
        char name[256];
        report_fits_name(fit, name, sizeof name);
        fprintf(f, REPORT_FITS_INDENT REPORT_FITS_INDENT "%s:", name);
        bool over_p = mb_record_has_string(json_object_get(fit, "variables"), "p");
        json_array_foreach(spikes, j, spike) {
            fprintf(f, " d=%.0f", json_number_value(json_object_get(spike, "d")));
            if (over_p)
                fprintf(f, " p=%.0f", json_number_value(json_object_get(spike, "p")));
        }
        fprintf(f, "\n");
    }
}

/* The fits that left out the points measured in the node's other state (fit_results.h), one
 * line each, after the models: those points are in the benchmark's table as measured. */
static void report_fits_drift(FILE *f, const json_t *fits)
{
    size_t i;
    const json_t *fit;
    bool any = false;
    json_array_foreach(fits, i, fit)
    {
        const json_t *left = json_object_get(fit, "drift_left_out");
        if (!json_is_object(left))
            continue;
        if (!any)
            fprintf(f, REPORT_FITS_INDENT "left out: points the drift probe around each point "
                                          "read in another state of the node than the fit's\n");
        any = true;
        char name[256];
        report_fits_name(fit, name, sizeof name);
        json_int_t out = json_integer_value(json_object_get(left, "points")),
                   kept = json_integer_value(json_object_get(fit, "points"));
        const char *state = json_string_value(json_object_get(left, "kept"));
        fprintf(f,
                REPORT_FITS_INDENT REPORT_FITS_INDENT
                "%s: %" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
                " points; fitted on the %s state's (usual: %.0f ns)\n",
                name, out, out + kept, state && strcmp(state, "usual") == 0 ? "usual" : "other",
                json_number_value(json_object_get(left, "usual_ns")));
    }
}

/* Issue 13: how each collective grows with p, by the algorithm family that predicted the
 * largest p best from the smaller ones (fit_family.c), its model over the largest sizes,
 * its error at that p and the next family's, so a user sees how clear the choice was. */
static void report_fits_families_header(FILE *f)
{
    fprintf(f, REPORT_FITS_INDENT "%-20s %-18s %-10s %-40s %s\n", "MPI Function", "family", "error",
            "model over the largest sizes (us)", "runner-up");
}

static void report_fits_families(FILE *f, const json_t *fits)
{
    size_t i, shown = 0;
    const json_t *fit;
    bool over_p = false;
    fprintf(f, "collectives over p - the family of p-dependence that best predicts the largest "
               "p from the smaller ones (held out),\n" REPORT_FITS_INDENT
               "then fitted on all p; its median |error| there, and the runner-up's\n");
    json_array_foreach(fits, i, fit)
    {
        over_p = over_p || mb_record_has_string(json_object_get(fit, "variables"), "p");
        const json_t *fam = json_object_get(fit, "p_family");
        const json_t *segs = json_object_get(fit, "segments");
        const char *why = json_string_value(json_object_get(fit, "p_family_why"));
        char name[96], model[320], next[128] = "-";
        report_fits_name(fit, name, sizeof name);
        if (why) { /* over 3 process counts or more, but no family chosen */
            if (shown++ == 0)
                report_fits_families_header(f);
            fprintf(f, REPORT_FITS_INDENT "%-20s (no family: %s)\n", name, why);
            continue;
        }
        if (!json_is_object(fam) || json_array_size(segs) == 0)
            continue;
        mb_fit_results_format_model(json_array_get(segs, json_array_size(segs) - 1), false, model,
                                    sizeof model);
        double best = json_number_value(json_object_get(fam, "error_at_largest_p_pct")),
               second = INFINITY;
        size_t j;
        const json_t *c;
        json_array_foreach(json_object_get(fam, "candidates"), j, c)
        {
            const char *cname = json_string_value(json_object_get(c, "family"));
            const json_t *e = json_object_get(c, "error_pct");
            const char *chosen = json_string_value(json_object_get(fam, "family"));
            if (cname && chosen && strcmp(cname, chosen) != 0 && json_is_number(e) &&
                json_number_value(e) < second) {
                second = json_number_value(e);
                snprintf(next, sizeof next, "%s %.1f%%", cname, second);
            }
        }
        if (shown++ == 0)
            report_fits_families_header(f);
        char err[32];
        snprintf(err, sizeof err, "%.1f%% p=%.0f", best,
                 json_number_value(json_object_get(fam, "held_out_p")));
        fprintf(f, REPORT_FITS_INDENT "%-20s %-18s %-10s %-40s %s\n", name,
                json_string_value(json_object_get(fam, "family")), err, model, next);
    }
    if (shown == 0)
        fprintf(f, REPORT_FITS_INDENT "%s\n",
                over_p ? "(fewer than 3 process counts measured: run on 4 ranks or more to "
                         "choose it)"
                       : "(no benchmark over p)");
}

static void report_fits_loggp(FILE *f, const json_t *loggp)
{
    static const char *const params[] = {"L", "o_s", "o_r", "g", "G"};
    fprintf(f, "LogGP parameters from the point-to-point results (per series)\n");
    if (json_object_size(loggp) == 0) {
        fprintf(f, REPORT_FITS_INDENT "(no point-to-point results)\n");
        return;
    }
    const char *pair;
    const json_t *ps;
    json_object_foreach((json_t *)loggp, pair, ps)
    {
        for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
            const json_t *p = json_object_get(ps, params[i]);
            const json_t *v = json_object_get(p, "value");
            const char *unit = json_string_value(json_object_get(p, "unit"));
            char value[48] = "-";
            if (json_is_number(v))
                snprintf(value, sizeof value, "%.4g %s", json_number_value(v), unit ? unit : "");
            const char *why =
                json_string_value(json_object_get(p, json_is_number(v) ? "derivation" : "omitted"));
            fprintf(f, REPORT_FITS_INDENT "%-6s %-4s %-14s %s%s\n", i == 0 ? pair : "", params[i],
                    value, json_is_number(v) ? "" : "omitted: ", why ? why : "-");
            size_t k;
            const json_t *piece;
            json_array_foreach(json_object_get(p, "of_d"), k, piece)
            {
                fprintf(f, REPORT_FITS_INDENT "%-6s %-4s %-14s %s %.0f..%.0f B: %s us\n", "",
                        "", "", k == 0 ? "of d:" : "     ",
                        json_number_value(json_object_get(piece, "d_min")),
                        json_number_value(json_object_get(piece, "d_max")),
                        json_string_value(json_object_get(piece, "model_us")));
            }
        }
    }
}

/* The series ("(warm)", "(intra)") and the headline time of a benchmark's smallest
 * measured point for each series: smallest values of its numeric axes, compared in axis
 * order. */
typedef struct report_fits_item {
    char text[128];
    int col;
} report_fits_item_t;

static bool report_fits_smaller(const json_t *bench, const json_t *a, const json_t *b)
{
    size_t i;
    const json_t *axis;
    json_array_foreach(json_object_get(bench, "axes"), i, axis)
    {
        const char *n = json_string_value(json_object_get(axis, "name"));
        if (!n || mb_record_role(bench, n) == MB_ROLE_LABEL)
            continue;
        const json_t *x = json_object_get(json_object_get(a, "params"), n);
        const json_t *y = json_object_get(json_object_get(b, "params"), n);
        if (json_is_number(x) && json_is_number(y) && json_number_value(x) != json_number_value(y))
            return json_number_value(x) < json_number_value(y);
    }
    return false;
}

static void report_fits_label(const json_t *bench, const json_t *pt, char *buf, size_t len)
{
    json_t *series = mb_record_series(bench, pt);
    mb_record_series_text(series, buf, len);
    json_decref(series);
}

static size_t report_fits_bench_items(const json_t *bench, report_fits_item_t *items, size_t max)
{
    const char *name = json_string_value(json_object_get(bench, "name"));
    const char *stat = json_string_value(json_object_get(bench, "statistic"));
    const char *unit = json_string_value(json_object_get(bench, "unit"));
    const json_t *points = json_object_get(bench, "points");
    if (!name || (unit && strcmp(unit, "ns") != 0))
        return 0;
    stat = stat ? stat : "median"; /* the headline statistic the benchmark declares */
    size_t n = 0, npts = json_array_size(points);
    /* best[i]: the smallest point so far of the label first seen at point i */
    const json_t **best = calloc(npts ? npts : 1, sizeof *best);
    if (!best)
        return 0;
    for (size_t i = 0; i < npts; i++) {
        const json_t *pt = json_array_get(points, i);
        double t = json_number_value(json_object_get(pt, stat));
        if (!mb_record_point_ok(pt) || !isfinite(t) || t <= 0)
            continue;
        char label[96], other[96];
        report_fits_label(bench, pt, label, sizeof label);
        size_t j = 0;
        for (; j < i; j++) {
            if (!best[j])
                continue;
            report_fits_label(bench, best[j], other, sizeof other);
            if (strcmp(label, other) == 0)
                break;
        }
        if (j == i)
            best[i] = pt;
        else if (report_fits_smaller(bench, pt, best[j]))
            best[j] = pt;
    }
    for (size_t i = 0; i < npts && n < max; i++) {
        if (!best[i])
            continue;
        char label[96];
        report_fits_label(bench, best[i], label, sizeof label);
        double ns = json_number_value(json_object_get(best[i], stat));
        int e = (int)floor(log10(ns)) - 9; /* from ns, so 100 ns is exactly 1e-7 s */
        items[n].col = (e < REPORT_FITS_EXP_MIN   ? REPORT_FITS_EXP_MIN
                        : e > REPORT_FITS_EXP_MAX ? REPORT_FITS_EXP_MAX
                                                  : e) -
                       REPORT_FITS_EXP_MIN;
        snprintf(items[n].text, sizeof items[n].text, label[0] ? "%s (%s)" : "%s", name, label);
        n++;
    }
    free(best);
    return n;
}

static void report_fits_magnitudes(FILE *f, const json_t *benchmarks)
{
    size_t cap = 0, i;
    const json_t *bench;
    json_array_foreach(benchmarks, i, bench) cap +=
        json_array_size(json_object_get(bench, "points"));
    report_fits_item_t *items = calloc(cap ? cap : 1, sizeof *items);
    if (!items)
        return;
    size_t n = 0;
    json_array_foreach(benchmarks, i, bench) n +=
        report_fits_bench_items(bench, items + n, cap - n);

    size_t width[REPORT_FITS_NCOLS], height[REPORT_FITS_NCOLS] = {0}, rows = 0;
    char head[REPORT_FITS_NCOLS][16];
    for (int c = 0; c < REPORT_FITS_NCOLS; c++) {
        snprintf(head[c], sizeof head[c], "1e%d s", REPORT_FITS_EXP_MIN + c);
        width[c] = strlen(head[c]);
    }
    for (size_t k = 0; k < n; k++) {
        report_fits_width(&width[items[k].col], items[k].text);
        if (++height[items[k].col] > rows)
            rows = height[items[k].col];
    }
    fprintf(f, "order of magnitude (seed 001's log10 table) - each benchmark under the power of "
               "ten of its time;\n" REPORT_FITS_INDENT
               "one entry per benchmark and label, its smallest point (smallest sizes and ranks); "
               "below 1 ns counts as 1e-9, above 1 s as 1e-1\n");
    if (n == 0) {
        fprintf(f, REPORT_FITS_INDENT "(no results)\n");
        free(items);
        return;
    }
    fprintf(f, REPORT_FITS_INDENT);
    for (int c = 0; c < REPORT_FITS_NCOLS; c++)
        fprintf(f, "%-*s%s", c + 1 < REPORT_FITS_NCOLS ? (int)width[c] : 0, head[c],
                c + 1 < REPORT_FITS_NCOLS ? REPORT_FITS_GAP : "\n");
    for (size_t r = 0; r < rows; r++) {
        /* Row r of column c is the column's r-th item in document order. */
        char line[4096];
        size_t used = 0, end = 0;
        for (int c = 0; c < REPORT_FITS_NCOLS && used < sizeof line; c++) {
            const char *text = "";
            for (size_t k = 0, seen = 0; k < n; k++)
                if (items[k].col == c && seen++ == r) {
                    text = items[k].text;
                    break;
                }
            used += (size_t)snprintf(line + used, sizeof line - used, "%-*s" REPORT_FITS_GAP,
                                     (int)width[c], text);
            if (text[0])
                end = used;
        }
        if (end > sizeof line - 1)
            end = sizeof line - 1;
        line[end] = '\0';
        while (end > 0 && line[end - 1] == ' ')
            line[--end] = '\0';
        fprintf(f, REPORT_FITS_INDENT "%s\n", line);
    }
    free(items);
}

void mb_report_fits_holdout(const json_t *fit, bool with_note, char *buf, size_t len)
{
    const json_t *hold = json_object_get(fit, "holdout_error_pct"),
                 *scatter = json_object_get(fit, "scatter_floor_pct");
    const char *note = json_string_value(json_object_get(fit, "holdout_note"));
    if (!json_is_number(hold))
        snprintf(buf, len, "%s", with_note && note ? note : "-");
    else if (json_is_number(scatter))
        snprintf(buf, len, "%.1f%% (points %.1f%%)", json_number_value(hold),
                 json_number_value(scatter));
    else
        snprintf(buf, len, "%.1f%%", json_number_value(hold));
}

void mb_report_fits(FILE *f, const json_t *root)
{
    const json_t *fits = json_object_get(root, "fits");
    if (json_is_array(fits)) {
        report_fits_models(f, fits);
        report_fits_spikes(f, fits);
        report_fits_drift(f, fits);
        fprintf(f, "\n");
        report_fits_families(f, fits);
        fprintf(f, "\n");
        const json_t *loggp = json_object_get(root, "loggp");
        json_t *computed = NULL;
        if (!json_is_object(loggp))
            loggp = computed = mb_fit_loggp(root, fits);
        report_fits_loggp(f, loggp);
        json_decref(computed);
        fprintf(f, "\n");
    }
    report_fits_magnitudes(f, json_object_get(root, "benchmarks"));
}
