/* SPDX-License-Identifier: MIT */
#include "drift.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* One of bench's readings ("before_ns" or "after_ns"), or NAN. */
static double drift_reading(const json_t *bench, const char *key)
{
    const json_t *v = json_object_get(json_object_get(bench, "drift_probe"), key);
    return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : NAN;
}

bool mb_drift_record_ns(const json_t *bench, double *ns)
{
    double a = drift_reading(bench, "before_ns"), b = drift_reading(bench, "after_ns");
    if (!isfinite(a) || !isfinite(b))
        return false;
    *ns = (a + b) / 2;
    return true;
}

/* Whether v is off the median m by more than MB_DRIFT_FLAG_RATIO either way. */
static bool drift_off(double v, double m)
{
    return v > m * MB_DRIFT_FLAG_RATIO || v * MB_DRIFT_FLAG_RATIO < m;
}

json_t *mb_drift_summary(const json_t *root, const char *method, const char *pair)
{
    const json_t *benches = json_object_get(root, "benchmarks"), *b;
    double *all = malloc((2 * json_array_size(benches) + 1) * sizeof *all);
    size_t n = 0, i;
    if (!all)
        return NULL;
    json_array_foreach(benches, i, b)
    {
        double before = drift_reading(b, "before_ns"), after = drift_reading(b, "after_ns");
        if (isfinite(before) && isfinite(after)) {
            all[n++] = before;
            all[n++] = after;
        }
    }
    if (n == 0) {
        free(all);
        return NULL;
    }
    gsl_sort(all, 1, n);
    double median = gsl_stats_median_from_sorted_data(all, 1, n);
    free(all);
    json_t *flagged = json_array();
    json_array_foreach(benches, i, b)
    {
        double ns, before = drift_reading(b, "before_ns"), after = drift_reading(b, "after_ns");
        if (!mb_drift_record_ns(b, &ns) || !drift_off(ns, median))
            continue;
        json_array_append_new(flagged, json_pack("{s:O, s:f, s:f, s:f}", "name",
                                                 json_object_get(b, "name"), "before_ns", before,
                                                 "after_ns", after, "ratio", ns / median));
    }
    return json_pack("{s:s, s:s*, s:f, s:f, s:I, s:o}", "method", method, "pair", pair, "median_ns",
                     median, "flag_ratio", MB_DRIFT_FLAG_RATIO, "probes", (json_int_t)n, "flagged",
                     flagged);
}
