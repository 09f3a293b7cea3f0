/* SPDX-License-Identifier: MIT */
/* A benchmark record, schema 2: every axis has a known role and label axes list their
 * labels; each point is "ok" with consistent statistics (min <= median <= max, the CI
 * around the median) or "failed" with a reason and nothing else; failed_points counts the
 * failed ones. The role and model names are docs/results.md's, written out here rather
 * than taken from record.c, so that the writer is checked against the document. */
#include "record_check.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "stats.h"

static const char *const record_check_roles[] = {"message_size", "ranks", "threads",
                                                 "working_set",  "count", "label"};
static const char *const record_check_loggp[] = {"L", "o_s", "o_r", "g"};

static bool record_check_one_of(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(s, list[i]) == 0)
            return true;
    }
    return false;
}

static bool record_check_is_label(const json_t *axis)
{
    return strcmp(json_string_value(json_object_get(axis, "role")), "label") == 0;
}

static int record_check_labels(mb_check_t *c, const json_t *axis)
{
    const json_t *labels = mb_check_get(c, axis, "labels", MB_CHECK_ARRAY);
    if (!labels)
        return -1;
    size_t old = mb_check_push_key(c, "labels"), i;
    if (json_array_size(labels) == 0)
        return mb_check_fail(c, "a label axis lists at least one label");
    const json_t *l;
    json_array_foreach(labels, i, l)
    {
        if (!json_is_string(l) || !*json_string_value(l)) {
            mb_check_push_index(c, i);
            return mb_check_fail(c, "expected a label (a non-empty string)");
        }
    }
    mb_check_pop(c, old);
    return 0;
}

/* "axes": one {name, role} per parameter name, in the same order. */
static int record_check_axes(mb_check_t *c, const json_t *axes, const json_t *names)
{
    if (json_array_size(axes) != json_array_size(names))
        return mb_check_fail(c, "%zu axes for %zu parameters", json_array_size(axes),
                             json_array_size(names));
    size_t i;
    const json_t *axis;
    json_array_foreach(axes, i, axis)
    {
        size_t old = mb_check_push_index(c, i);
        const char *name = NULL, *role = NULL;
        if (!json_is_object(axis))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(axis));
        if (mb_check_string(c, axis, "name", false, false, &name) != 0 ||
            mb_check_string(c, axis, "role", false, false, &role) != 0)
            return -1;
        const char *param = json_string_value(json_array_get(names, i));
        if (strcmp(name, param) != 0) {
            mb_check_push_key(c, "name");
            return mb_check_fail(c, "\"%s\", but params[%zu] is \"%s\"", name, i, param);
        }
        if (!record_check_one_of(role, record_check_roles, 6)) {
            mb_check_push_key(c, "role");
            return mb_check_fail(c,
                                 "\"%s\" is not a role (message_size, ranks, threads, "
                                 "working_set, count, label)",
                                 role);
        }
        if (record_check_is_label(axis)) {
            if (record_check_labels(c, axis) != 0)
                return -1;
        } else if (json_object_get(axis, "labels")) {
            mb_check_push_key(c, "labels");
            return mb_check_fail(c, "only a label axis lists labels");
        }
        mb_check_pop(c, old);
    }
    return 0;
}

static bool record_check_has_label(const json_t *axis, const char *value)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(axis, "labels"), i, l)
    {
        if (strcmp(json_string_value(l), value) == 0)
            return true;
    }
    return false;
}

/* A value per axis: one of its labels for a label axis, a number for any other. */
static int record_check_params(mb_check_t *c, const json_t *params, const json_t *axes)
{
    size_t i;
    const json_t *axis;
    json_array_foreach(axes, i, axis)
    {
        const char *name = json_string_value(json_object_get(axis, "name"));
        bool label = record_check_is_label(axis);
        const json_t *v = mb_check_get(c, params, name, label ? MB_CHECK_STRING : MB_CHECK_NUMBER);
        if (!v)
            return -1;
        if (label && !record_check_has_label(axis, json_string_value(v))) {
            mb_check_push_key(c, name);
            return mb_check_fail(c, "\"%s\" is not one of the axis' labels", json_string_value(v));
        }
    }
    if (json_object_size(params) != json_array_size(axes))
        return mb_check_fail(c, "%zu values for %zu parameters", json_object_size(params),
                             json_array_size(axes));
    return 0;
}

/* median, best and worst of a bandwidth in bytes/s; best is the fastest. */
static int record_check_bandwidth(mb_check_t *c, const json_t *bw)
{
    double median, best, worst, lo, hi;
    if (mb_check_number(c, bw, "median", MB_CHECK_POSITIVE, &median) != 0 ||
        mb_check_number(c, bw, "best", MB_CHECK_POSITIVE, &best) != 0 ||
        mb_check_number(c, bw, "worst", MB_CHECK_POSITIVE, &worst) != 0 ||
        mb_check_interval(c, bw, "ci95", &lo, &hi) != 0)
        return -1;
    if (mb_check_order(c, "worst", worst, "median", median, true) != 0 ||
        mb_check_order(c, "median", median, "best", best, true) != 0 ||
        mb_check_order(c, "ci95 lo", lo, "median", median, true) != 0 ||
        mb_check_order(c, "median", median, "ci95 hi", hi, true) != 0)
        return -1;
    return 0;
}

/* One level of a point's two_levels: n experiments (2 or more) from min to max. */
static int record_check_level(mb_check_t *c, const json_t *lv, json_int_t *n, double *min,
                              double *max)
{
    if (mb_check_integer(c, lv, "n", 2, false, n) != 0 ||
        mb_check_number(c, lv, "min", MB_CHECK_NONNEG, min) != 0 ||
        mb_check_number(c, lv, "max", MB_CHECK_NONNEG, max) != 0)
        return -1;
    return mb_check_order(c, "min", *min, "max", *max, false);
}

/* Two levels of a point's experiments (mb_stats_two_levels): the low one from the point's
 * min, the high one to its max, all n experiments in one or the other and at least
 * MB_STATS_LEVEL_SHARE of them in each, the gap between them gap_ratio and at least
 * MB_STATS_LEVEL_GAP, and median_in where the median lies. */
static int record_check_two_levels(mb_check_t *c, const json_t *pt)
{
    const json_t *lv = mb_check_get(c, pt, "two_levels", MB_CHECK_OBJECT);
    if (!lv)
        return -1;
    size_t old = mb_check_push_key(c, "two_levels");
    json_int_t n[2];
    double lo[2], hi[2], gap;
    const char *side[] = {"low", "high"}, *in = NULL;
    for (int k = 0; k < 2; k++) {
        const json_t *level = mb_check_get(c, lv, side[k], MB_CHECK_OBJECT);
        if (!level)
            return -1;
        size_t at = mb_check_push_key(c, side[k]);
        if (record_check_level(c, level, &n[k], &lo[k], &hi[k]) != 0)
            return -1;
        mb_check_pop(c, at);
    }
    if (mb_check_number(c, lv, "gap_ratio", MB_CHECK_POSITIVE, &gap) != 0 ||
        mb_check_string(c, lv, "median_in", false, false, &in) != 0)
        return -1;
    double pn = json_number_value(json_object_get(pt, "n"));
    double pmin = json_number_value(json_object_get(pt, "min"));
    double pmax = json_number_value(json_object_get(pt, "max"));
    double median = json_number_value(json_object_get(pt, "median"));
    if ((double)(n[0] + n[1]) != pn)
        return mb_check_fail(c, "%lld + %lld experiments in its levels, the point has %g",
                             (long long)n[0], (long long)n[1], pn);
    double least = ceil(MB_STATS_LEVEL_SHARE * pn);
    for (int k = 0; k < 2; k++)
        if ((double)n[k] < least)
            return mb_check_fail(c, "%lld experiments in the %s level, under %g%% of %g (%g)",
                                 (long long)n[k], side[k], 100 * MB_STATS_LEVEL_SHARE, pn, least);
    if (lo[0] != pmin || hi[1] != pmax)
        return mb_check_fail(c, "its levels span %g to %g, the point's experiments %g to %g", lo[0],
                             hi[1], pmin, pmax);
    if (!(hi[0] > 0) || fabs(gap - lo[1] / hi[0]) > 1e-9 * gap || gap < MB_STATS_LEVEL_GAP)
        return mb_check_fail(c,
                             "gap_ratio %g: not the high level's min over the low one's max "
                             "(%g / %g), or under %g",
                             gap, lo[1], hi[0], MB_STATS_LEVEL_GAP);
    const char *want = median <= hi[0] ? "low" : median >= lo[1] ? "high" : "between";
    if (strcmp(in, want) != 0)
        return mb_check_fail(c, "median_in \"%s\", but the median %g is %s", in, median, want);
    mb_check_pop(c, old);
    return 0;
}

static int record_check_statistics(mb_check_t *c, const json_t *pt)
{
    double min, median, mean, max, p90, p99, lo, hi, resolution = 0;
    /* A point timed below the clock's step says so (below_resolution_ns): its median and
     * the top of its CI may then be 0, and its CI relative to it undefined (-1). */
    bool unresolved = json_object_get(pt, "below_resolution_ns") != NULL;
    if (unresolved &&
        mb_check_number(c, pt, "below_resolution_ns", MB_CHECK_POSITIVE, &resolution) != 0)
        return -1;
    mb_check_range_t stat = unresolved ? MB_CHECK_NONNEG : MB_CHECK_POSITIVE;
    const json_t *rel = json_object_get(pt, "ci95_rel_halfwidth");
    bool rel_undefined = unresolved && json_is_number(rel) && json_number_value(rel) == -1;
    if (mb_check_integer(c, pt, "n", 1, false, NULL) != 0 ||
        mb_check_number(c, pt, "min", MB_CHECK_NONNEG, &min) != 0 ||
        mb_check_number(c, pt, "median", stat, &median) != 0 ||
        mb_check_number(c, pt, "mean", stat, &mean) != 0 ||
        mb_check_number(c, pt, "max", stat, &max) != 0 ||
        mb_check_number(c, pt, "stddev", MB_CHECK_NONNEG, NULL) != 0 ||
        mb_check_number(c, pt, "p90", stat, &p90) != 0 ||
        mb_check_number(c, pt, "p99", stat, &p99) != 0 ||
        mb_check_interval_to(c, pt, "ci95", stat, &lo, &hi) != 0 ||
        (!rel_undefined &&
         mb_check_number(c, pt, "ci95_rel_halfwidth", MB_CHECK_NONNEG, NULL) != 0) ||
        !mb_check_get(c, pt, "ci_target_met", MB_CHECK_BOOL) ||
        mb_check_integer(c, pt, "iterations", 1, false, NULL) != 0)
        return -1;
    if (mb_check_order(c, "min", min, "median", median, false) != 0 ||
        mb_check_order(c, "median", median, "max", max, false) != 0 ||
        mb_check_order(c, "ci95 lo", lo, "median", median, false) != 0 ||
        mb_check_order(c, "median", median, "ci95 hi", hi, false) != 0 ||
        mb_check_order(c, "min", min, "mean", mean, true) != 0 ||
        mb_check_order(c, "mean", mean, "max", max, true) != 0 ||
        mb_check_order(c, "median", median, "p90", p90, true) != 0 ||
        mb_check_order(c, "p90", p90, "p99", p99, true) != 0 ||
        mb_check_order(c, "p99", p99, "max", max, true) != 0)
        return -1;
    /* Widened for experiments that came in runs (mb_stats_serial_factor): a variance
     * inflation over 1 and at most the experiments' count. */
    double factor;
    if (json_object_get(pt, "ci95_serial_factor")) {
        if (mb_check_number(c, pt, "ci95_serial_factor", MB_CHECK_POSITIVE, &factor) != 0)
            return -1;
        double n = json_number_value(json_object_get(pt, "n"));
        if (!(factor > 1.0) || factor > n) {
            mb_check_push_key(c, "ci95_serial_factor");
            return mb_check_fail(c, "%g, outside (1, n = %g]", factor, n);
        }
    }
    if (unresolved && median >= resolution) {
        mb_check_push_key(c, "below_resolution_ns");
        return mb_check_fail(c, "%g, but the median is %g", resolution, median);
    }
    if (json_object_get(pt, "bytes_per_op") &&
        mb_check_number(c, pt, "bytes_per_op", MB_CHECK_POSITIVE, NULL) != 0)
        return -1;
    /* the point's wall time (absent from files of earlier versions) */
    if (json_object_get(pt, "wall_s") &&
        mb_check_number(c, pt, "wall_s", MB_CHECK_NONNEG, NULL) != 0)
        return -1;
    if (json_object_get(pt, "bandwidth_bytes_per_s") &&
        mb_check_sub(c, pt, "bandwidth_bytes_per_s", MB_CHECK_OBJECT, record_check_bandwidth) != 0)
        return -1;
    if (json_object_get(pt, "two_levels") && record_check_two_levels(c, pt) != 0)
        return -1;
    return 0;
}

/* A failed point says why and carries nothing a reader could mistake for a measurement. */
static int record_check_failed(mb_check_t *c, const json_t *pt)
{
    if (mb_check_string(c, pt, "reason", false, false, NULL) != 0)
        return -1;
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)pt, key, v)
    {
        if (strcmp(key, "params") != 0 && strcmp(key, "status") != 0 && strcmp(key, "reason") != 0)
            return mb_check_fail(c,
                                 "a failed point has only params, status and reason, "
                                 "but has \"%s\"",
                                 key);
    }
    return 0;
}

static int record_check_point(mb_check_t *c, const json_t *pt, const json_t *axes, bool *failed)
{
    const json_t *params = mb_check_get(c, pt, "params", MB_CHECK_OBJECT);
    if (!params)
        return -1;
    size_t old = mb_check_push_key(c, "params");
    if (record_check_params(c, params, axes) != 0)
        return -1;
    mb_check_pop(c, old);
    const char *status = NULL;
    if (mb_check_string(c, pt, "status", false, false, &status) != 0)
        return -1;
    *failed = strcmp(status, "failed") == 0;
    if (!*failed && strcmp(status, "ok") != 0) {
        mb_check_push_key(c, "status");
        return mb_check_fail(c, "\"%s\" is neither ok nor failed", status);
    }
    return *failed ? record_check_failed(c, pt) : record_check_statistics(c, pt);
}

/* "model" null or "linear_pd"; "loggp" null or one of L, o_s, o_r. */
static int record_check_model(mb_check_t *c, const json_t *b)
{
    const char *model = NULL, *loggp = NULL;
    if (mb_check_string(c, b, "model", false, true, &model) != 0 ||
        mb_check_string(c, b, "loggp", false, true, &loggp) != 0)
        return -1;
    if (model && strcmp(model, "linear_pd") != 0) {
        mb_check_push_key(c, "model");
        return mb_check_fail(c, "\"%s\" is not a model (null or linear_pd)", model);
    }
    if (loggp && !record_check_one_of(loggp, record_check_loggp,
                                       sizeof record_check_loggp / sizeof record_check_loggp[0])) {
        mb_check_push_key(c, "loggp");
        return mb_check_fail(c, "\"%s\" is not a LogGP parameter (null, L, o_s, o_r or g)", loggp);
    }
    return 0;
}

/* "composed_of" (a composite pattern's recipe): a non-empty array of terms, each
 * {"benchmark": name, "times" > 0, "series"?: {axis: label}, "series_across_nodes"?: {axis:
 * label}} or {"constant_ns" >= 0}. */
static int record_check_recipe(mb_check_t *c, const json_t *recipe)
{
    if (json_array_size(recipe) == 0)
        return mb_check_fail(c, "a recipe needs at least one term");
    size_t i;
    const json_t *term;
    json_array_foreach(recipe, i, term)
    {
        size_t old = mb_check_push_index(c, i);
        if (!json_is_object(term))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(term));
        if (json_object_get(term, "benchmark")) {
            if (mb_check_string(c, term, "benchmark", false, false, NULL) != 0 ||
                mb_check_number(c, term, "times", MB_CHECK_POSITIVE, NULL) != 0)
                return -1;
            static const char *const series_keys[] = {"series", "series_across_nodes"};
            for (size_t k = 0; k < 2; k++) {
                const json_t *series = json_object_get(term, series_keys[k]);
                if (series && !mb_check_get(c, term, series_keys[k], MB_CHECK_OBJECT))
                    return -1;
                const char *key;
                const json_t *v;
                json_object_foreach((json_t *)series, key, v)
                {
                    if (!json_is_string(v)) {
                        mb_check_push_key(c, series_keys[k]);
                        return mb_check_fail(c, "label of \"%s\" is not a string", key);
                    }
                }
            }
        } else if (mb_check_number(c, term, "constant_ns", MB_CHECK_NONNEG, NULL) != 0) {
            return -1;
        }
        mb_check_pop(c, old);
    }
    return 0;
}

static int record_check_names(mb_check_t *c, const json_t *names)
{
    size_t i;
    const json_t *name;
    json_array_foreach(names, i, name)
    {
        if (!json_is_string(name) || !*json_string_value(name)) {
            mb_check_push_index(c, i);
            return mb_check_fail(c, "expected a parameter name");
        }
    }
    return 0;
}

int mb_record_check(mb_check_t *c, const json_t *b, size_t *npoints, size_t *nfailed)
{
    static const char *const texts[] = {"name", "group", "summary", "measures", "measured_by"};
    const char *skipped = NULL, *unit = NULL;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (mb_check_string(c, b, texts[i], false, false, NULL) != 0)
            return -1;
    }
    if (mb_check_string(c, b, "unit", false, false, &unit) != 0)
        return -1;
    if (strcmp(unit, "ns") != 0) {
        mb_check_push_key(c, "unit");
        return mb_check_fail(c, "\"%s\" but all times are in ns", unit);
    }
    const json_t *names = mb_check_get(c, b, "params", MB_CHECK_ARRAY);
    const json_t *axes = mb_check_get(c, b, "axes", MB_CHECK_ARRAY);
    if (!names || !axes)
        return -1;
    size_t old = mb_check_push_key(c, "params");
    if (record_check_names(c, names) != 0)
        return -1;
    mb_check_pop(c, old);
    old = mb_check_push_key(c, "axes");
    if (record_check_axes(c, axes, names) != 0)
        return -1;
    mb_check_pop(c, old);
    if (record_check_model(c, b) != 0 ||
        mb_check_string(c, b, "skipped", false, true, &skipped) != 0 ||
        mb_check_number(c, b, "elapsed_s", MB_CHECK_NONNEG, NULL) != 0)
        return -1;
    if (json_object_get(b, "wall_s") && mb_check_number(c, b, "wall_s", MB_CHECK_NONNEG, NULL) != 0)
        return -1;
    if (json_object_get(b, "derived") && !mb_check_get(c, b, "derived", MB_CHECK_OBJECT))
        return -1;
    if (json_object_get(b, "composed_of") &&
        mb_check_sub(c, b, "composed_of", MB_CHECK_ARRAY, record_check_recipe) != 0)
        return -1;

    const json_t *points = mb_check_get(c, b, "points", MB_CHECK_ARRAY);
    if (!points)
        return -1;
    old = mb_check_push_key(c, "points");
    if (!skipped && json_array_size(points) == 0)
        return mb_check_fail(c, "no points, and the benchmark is not marked skipped");
    size_t i, failed = 0;
    const json_t *pt;
    json_array_foreach(points, i, pt)
    {
        size_t o = mb_check_push_index(c, i);
        bool f = false;
        if (!json_is_object(pt))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(pt));
        if (record_check_point(c, pt, axes, &f) != 0)
            return -1;
        failed += f;
        mb_check_pop(c, o);
    }
    mb_check_pop(c, old);
    json_int_t declared = 0;
    if (mb_check_integer(c, b, "failed_points", 0, false, &declared) != 0)
        return -1;
    if ((size_t)declared != failed) {
        mb_check_push_key(c, "failed_points");
        return mb_check_fail(c, "%" JSON_INTEGER_FORMAT " but %zu points failed", declared, failed);
    }
    *npoints += json_array_size(points);
    *nfailed += failed;
    return 0;
}
