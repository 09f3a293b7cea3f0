/* SPDX-License-Identifier: MIT */
/* Predictions of composite patterns from their components' fitted models, beside the
 * patterns' measured times (predict_patterns.h). The naive sum ignores contention, overlap
 * and the way imbalance propagates through a loop; the error column shows what that costs
 * (docs/mpi.md). A component without a usable model gives an error text, never a figure. */
#include "predict_patterns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "fit.h"
#include "fit_results.h"
#include "record.h"

/* A benchmark without a ranks axis runs on a pair (as fit_results.c). */
#define PREDICT_PATTERNS_P_DEFAULT 2.0

/* " pair=intra" for a series object, "" for none: the tail of a message. */
static void predict_patterns_series_text(const json_t *series, char *buf, size_t len)
{
    buf[0] = ' ';
    mb_record_params_text(series, " ", buf + 1, len - 1);
    if (!buf[1])
        buf[0] = '\0';
}

/* The fit of the component `name` in `series` (NULL: its first), or NULL with err. */
static const json_t *predict_patterns_fit(const json_t *root, const json_t *fits, const char *name,
                                          const json_t *series, char *err, size_t errlen)
{
    const json_t *any = NULL, *f;
    size_t i;
    json_array_foreach(fits, i, f)
    {
        const char *n = json_string_value(json_object_get(f, "name"));
        if (!n || strcmp(n, name) != 0)
            continue;
        any = any ? any : f;
        if (!series || json_equal(json_object_get(f, "params"), (json_t *)series))
            return f;
    }
    char where[128];
    predict_patterns_series_text(series, where, sizeof where);
    if (any) {
        snprintf(err, errlen, "%s has no fit for the series%s", name, where);
        return NULL;
    }
    const json_t *b = mb_record_find(root, name);
    const char *skipped = b ? json_string_value(json_object_get(b, "skipped")) : NULL;
    if (!b)
        snprintf(err, errlen, "%s was not run (not in the results)", name);
    else if (skipped)
        snprintf(err, errlen, "%s was skipped: %s", name, skipped);
    else if (!mb_record_has_model(b, "linear_pd"))
        snprintf(err, errlen, "%s has no model to predict from", name);
    else
        snprintf(err, errlen, "%s has no fit", name);
    return NULL;
}

/* Whether world ranks 0 .. p-1 (a pattern point's ranks) are on more than one node, by the
 * run's bindings; false when it has none. */
static bool predict_patterns_spans_nodes(const json_t *root, double p)
{
    const json_t *bindings = json_object_get(json_object_get(root, "system"), "bindings"), *b;
    size_t i;
    json_int_t first = -1;
    json_array_foreach(bindings, i, b)
    {
        const json_t *rank = json_object_get(b, "rank"), *node = json_object_get(b, "node");
        if (!json_is_integer(rank) || !json_is_integer(node) ||
            (double)json_integer_value(rank) >= p)
            continue;
        if (first < 0)
            first = json_integer_value(node);
        else if (json_integer_value(node) != first)
            return true;
    }
    return false;
}

int mb_predict_recipe(const json_t *recipe, const json_t *root, const json_t *fits, double p,
                      double d, double *t_ns, bool *extrapolated, char *err, size_t errlen)
{
    double total = 0;
    bool outside_any = false;
    size_t i;
    const json_t *term;
    if (json_array_size(recipe) == 0) {
        snprintf(err, errlen, "the recipe has no terms");
        return -1;
    }
    json_array_foreach(recipe, i, term)
    {
        const char *name = json_string_value(json_object_get(term, "benchmark"));
        const json_t *constant = json_object_get(term, "constant_ns");
        if (!name) {
            if (!json_is_number(constant)) {
                snprintf(err, errlen, "recipe term %zu has neither a benchmark nor a constant", i);
                return -1;
            }
            total += json_number_value(constant);
            continue;
        }
        const json_t *times = json_object_get(term, "times");
        double k = json_is_number(times) ? json_number_value(times) : 1.0;
        const json_t *series = json_object_get(term, "series");
        const json_t *across = json_object_get(term, "series_across_nodes");
        if (json_is_object(across) && predict_patterns_spans_nodes(root, p))
            series = across;
        const json_t *fit = predict_patterns_fit(root, fits, name, series, err, errlen);
        if (!fit)
            return -1;
        char where[128], why[256];
        predict_patterns_series_text(series, where, sizeof where);
        if (json_array_size(json_object_get(fit, "segments")) == 0) {
            const char *e = json_string_value(json_object_get(fit, "error"));
            snprintf(err, errlen, "%s%s has no fitted model: %s", name, where,
                     e ? e : "no segments");
            return -1;
        }
        const json_t *vars = json_object_get(fit, "variables");
        double fp = mb_record_has_string(vars, "p") ? p : PREDICT_PATTERNS_P_DEFAULT;
        double fd = mb_record_has_string(vars, "d") ? d : 0.0;
        mb_fit_model_t m;
        if (mb_fit_results_segment_model(fit, mb_fit_results_pick_segment(fit, fd), &m, why,
                                         sizeof why) != 0) {
            snprintf(err, errlen, "%s%s: %s", name, where, why);
            return -1;
        }
        bool outside = false;
        total += k * mb_fit_predict(&m, fp, fd, NULL, &outside);
        outside_any |= outside;
    }
    *t_ns = total;
    *extrapolated = outside_any;
    return 0;
}

void mb_predict_recipe_text(const json_t *recipe, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *term;
    buf[0] = '\0';
    json_array_foreach(recipe, i, term)
    {
        const char *name = json_string_value(json_object_get(term, "benchmark"));
        char part[192];
        if (name) {
            double k = json_is_number(json_object_get(term, "times"))
                           ? json_number_value(json_object_get(term, "times"))
                           : 1.0;
            char series[128] = "", across[96] = "";
            mb_record_series_text(json_object_get(term, "series"), series, sizeof series);
            mb_record_series_text(json_object_get(term, "series_across_nodes"), across,
                                  sizeof across);
            if (across[0] && series[0]) {
                size_t l = strlen(series);
                snprintf(series + l, sizeof series - l, " (%s across nodes)", across);
            }
            char times[32] = "";
            if (k != 1.0)
                snprintf(times, sizeof times, "%.4g x ", k);
            snprintf(part, sizeof part, "%s%s%s%s", times, name, series[0] ? " " : "", series);
        } else {
            snprintf(part, sizeof part, "%.4g us",
                     json_number_value(json_object_get(term, "constant_ns")) / 1000.0);
        }
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " + " : "", part);
    }
}

static int predict_patterns_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A point's coordinate on the axis of role r, or dflt without one. */
static double predict_patterns_coord(const json_t *bench, const json_t *pt, mb_role_t r,
                                     double dflt)
{
    const char *axis = mb_record_axis(bench, r);
    const json_t *v = axis ? json_object_get(json_object_get(pt, "params"), axis) : NULL;
    return !axis ? dflt : json_is_number(v) ? json_number_value(v) : NAN;
}

/* The drift probe's reading (drift.h) during bench over its mean during the recipe's
 * benchmarks, or NAN where one has none: far from 1, the pattern and what predicts it were
 * measured in different states of the node, and the error says more about that than about
 * the model. */
static double predict_patterns_drift_ratio(const json_t *root, const json_t *bench)
{
    double mine, sum = 0, ns;
    size_t n = 0, i;
    const json_t *term;
    if (!mb_drift_record_ns(bench, &mine))
        return NAN;
    json_array_foreach(json_object_get(bench, "composed_of"), i, term)
    {
        const char *name = json_string_value(json_object_get(term, "benchmark"));
        if (!name)
            continue;
        const json_t *part = mb_record_find(root, name);
        if (!part || !mb_drift_record_ns(part, &ns))
            return NAN;
        sum += ns;
        n++;
    }
    return n ? mine / (sum / (double)n) : NAN;
}

/* The entry of one composite benchmark. */
static json_t *predict_patterns_entry(const json_t *root, const json_t *fits, const json_t *bench)
{
    const json_t *recipe = json_object_get(bench, "composed_of");
    const char *stat = json_string_value(json_object_get(bench, "statistic"));
    stat = stat ? stat : "median";
    char text[512];
    mb_predict_recipe_text(recipe, text, sizeof text);
    json_t *points = json_array();
    const json_t *pts = json_object_get(bench, "points"), *pt;
    double *errs = malloc((json_array_size(pts) + 1) * sizeof *errs);
    size_t nerr = 0, i;
    json_array_foreach(pts, i, pt)
    {
        const json_t *measured = json_object_get(pt, stat);
        if (!mb_record_point_ok(pt) || !json_is_number(measured))
            continue;
        double t = json_number_value(measured);
        double p = predict_patterns_coord(bench, pt, MB_ROLE_RANKS, PREDICT_PATTERNS_P_DEFAULT);
        double d = predict_patterns_coord(bench, pt, MB_ROLE_MESSAGE_SIZE, 0.0);
        json_t *row = json_pack("{s:O, s:f, s:f, s:f}", "params", json_object_get(pt, "params"),
                                "p", p, "d", d, "measured_ns", t);
        double predicted;
        bool outside;
        char err[512];
        if (!isfinite(p) || !isfinite(d)) {
            snprintf(err, sizeof err, "the point has no number for p or d");
        } else if (mb_predict_recipe(recipe, root, fits, p, d, &predicted, &outside, err,
                                     sizeof err) == 0) {
            double e = t > 0 ? (predicted - t) / t * 100.0 : NAN;
            json_object_set_new(row, "predicted_ns", json_real(predicted));
            json_object_set_new(row, "error_pct", isfinite(e) ? json_real(e) : json_null());
            json_object_set_new(row, "extrapolated", json_boolean(outside));
            if (isfinite(e) && errs)
                errs[nerr++] = fabs(e);
            json_array_append_new(points, row);
            continue;
        }
        json_object_set_new(row, "predicted_ns", json_null());
        json_object_set_new(row, "error_pct", json_null());
        json_object_set_new(row, "error", json_string(err));
        json_array_append_new(points, row);
    }
    double median = NAN;
    if (nerr) {
        qsort(errs, nerr, sizeof *errs, predict_patterns_cmp);
        median = nerr % 2 ? errs[nerr / 2] : (errs[nerr / 2 - 1] + errs[nerr / 2]) / 2;
    }
    free(errs);
    double drift = predict_patterns_drift_ratio(root, bench);
    return json_pack("{s:O, s:s, s:o, s:I, s:o, s:o}", "name", json_object_get(bench, "name"),
                     "recipe", text, "points", points, "predicted_points", (json_int_t)nerr,
                     "median_abs_error_pct", isfinite(median) ? json_real(median) : json_null(),
                     "drift_ratio", isfinite(drift) ? json_real(drift) : json_null());
}

json_t *mb_predict_patterns(const json_t *root, const json_t *fits)
{
    json_t *none = NULL, *out = json_array();
    if (!fits)
        fits = json_object_get(root, "fits");
    if (!json_is_array(fits))
        fits = none = json_array();
    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        if (!json_is_array(json_object_get(bench, "composed_of")) || !mb_record_ran(bench) ||
            !json_is_string(json_object_get(bench, "name")))
            continue;
        json_array_append_new(out, predict_patterns_entry(root, fits, bench));
    }
    json_decref(none);
    return out;
}
