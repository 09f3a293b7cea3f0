/* SPDX-License-Identifier: MIT */
#include "drift.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "record.h"

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

bool mb_drift_record_state_ns(const json_t *bench, double *ns)
{
    const json_t *points = json_object_get(bench, "points"), *pt;
    double *each = malloc((json_array_size(points) + 1) * sizeof *each);
    size_t n = 0, i;
    if (!each)
        return mb_drift_record_ns(bench, ns);
    json_array_foreach(points, i, pt)
    {
        if (mb_drift_record_ns(pt, &each[n]))
            n++;
    }
    bool ok = n > 0;
    if (ok) {
        gsl_sort(each, 1, n);
        *ns = gsl_stats_median_from_sorted_data(each, 1, n);
    }
    free(each);
    return ok || mb_drift_record_ns(bench, ns);
}

bool mb_drift_off(double ns, double usual_ns)
{
    return ns > usual_ns * MB_DRIFT_FLAG_RATIO || ns * MB_DRIFT_FLAG_RATIO < usual_ns;
}

int mb_drift_point_state(const json_t *pt, double usual_ns)
{
    double ns;
    if (!(usual_ns > 0) || !isfinite(usual_ns) || !mb_drift_record_ns(pt, &ns))
        return -1;
    return !mb_drift_off(ns, usual_ns);
}

size_t mb_drift_points_off(const json_t *bench, double usual_ns, size_t *probed)
{
    size_t off = 0, i;
    const json_t *pt;
    *probed = 0;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        int state = mb_drift_point_state(pt, usual_ns);
        *probed += state >= 0;
        off += state == 0;
    }
    return off;
}

/* mb_drift_record_off, with the count of bench's points off usual_ns and of those probed. */
static bool drift_record_off_counted(const json_t *bench, double usual_ns, size_t *off,
                                     size_t *probed)
{
    double ns;
    *off = *probed = 0;
    if (!mb_drift_record_ns(bench, &ns))
        return false;
    *off = mb_drift_points_off(bench, usual_ns, probed);
    /* Its points' readings, where it has them, say more than its own two (drift.h). */
    if (*probed > 0)
        return *off > 0 && (double)*off >= MB_DRIFT_POINTS_OFF_SHARE * (double)*probed;
    return mb_drift_off(ns, usual_ns);
}

bool mb_drift_record_off(const json_t *bench, double usual_ns)
{
    size_t off, probed;
    return drift_record_off_counted(bench, usual_ns, &off, &probed);
}

double mb_drift_states(const double *sorted, size_t n, double *other_ns, size_t *other_n)
{
    *other_ns = NAN;
    *other_n = 0;
    size_t at = 0; /* the widest gap is between sorted[at] and sorted[at + 1] */
    for (size_t i = 1; i + 1 < n; i++)
        if (sorted[i + 1] * sorted[at] > sorted[at + 1] * sorted[i])
            at = i;
    if (n < 2 || sorted[at + 1] <= sorted[at] * MB_DRIFT_FLAG_RATIO)
        return gsl_stats_median_from_sorted_data(sorted, 1, n);
    /* two groups: the larger's median; of two alike, the lower (faster) one */
    size_t low = at + 1;
    double low_ns = gsl_stats_median_from_sorted_data(sorted, 1, low),
           high_ns = gsl_stats_median_from_sorted_data(sorted + low, 1, n - low);
    bool low_usual = low >= n - low;
    *other_ns = low_usual ? high_ns : low_ns;
    *other_n = low_usual ? n - low : low;
    return low_usual ? low_ns : high_ns;
}

/* The "remeasured" and "not_remeasured" lists of the summary from the records' notes. */
static void drift_remeasure_lists(const json_t *benches, json_t *summary)
{
    json_t *done = json_array(), *not_done = json_array();
    const json_t *b;
    size_t i;
    json_array_foreach(benches, i, b)
    {
        const json_t *note = json_object_get(b, "drift_remeasure"),
                     *name = json_object_get(b, "name");
        if (!json_is_object(note))
            continue;
        if (json_is_true(json_object_get(note, "measured_again")))
            json_array_append_new(
                done,
                json_pack("{s:O, s:O, s:O, s:f, s:f, s:O?, s:O?, s:O?}", "name", name,
                          "first_before_ns", json_object_get(note, "first_before_ns"),
                          "first_after_ns", json_object_get(note, "first_after_ns"), "before_ns",
                          drift_reading(b, "before_ns"), "after_ns", drift_reading(b, "after_ns"),
                          "attempts", json_object_get(note, "attempts"), "kept_attempt",
                          json_object_get(note, "kept_attempt"), "not_kept_probe_ns",
                          json_object_get(note, "not_kept_probe_ns")));
        else
            json_array_append_new(not_done, json_pack("{s:O, s:O}", "name", name, "why",
                                                      json_object_get(note, "why")));
    }
    json_object_set_new(summary, "remeasured", done);
    json_object_set_new(summary, "not_remeasured", not_done);
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
    double other_ns;
    size_t other_n;
    double usual = mb_drift_states(all, n, &other_ns, &other_n);
    free(all);
    json_t *flagged = json_array();
    json_array_foreach(benches, i, b)
    {
        double ns, before = drift_reading(b, "before_ns"), after = drift_reading(b, "after_ns");
        size_t off, probed;
        if (!drift_record_off_counted(b, usual, &off, &probed) || !mb_drift_record_ns(b, &ns))
            continue;
        json_t *entry = json_pack("{s:O, s:f, s:f, s:f}", "name", json_object_get(b, "name"),
                                  "before_ns", before, "after_ns", after, "ratio", ns / usual);
        if (entry && off > 0) {
            json_object_set_new(entry, "points_off", json_integer((json_int_t)off));
            json_object_set_new(entry, "points_probed", json_integer((json_int_t)probed));
        }
        json_array_append_new(flagged, entry);
    }
    json_t *summary = json_pack("{s:s, s:s*, s:f, s:f, s:f, s:I, s:o}", "method", method, "pair",
                                pair, "median_ns", median, "usual_ns", usual, "flag_ratio",
                                MB_DRIFT_FLAG_RATIO, "probes", (json_int_t)n, "flagged", flagged);
    /* The other state, where the readings fall into two: what the node also reads. */
    if (summary && other_n > 0) {
        json_object_set_new(summary, "other_ns", json_real(other_ns));
        json_object_set_new(summary, "other_probes", json_integer((json_int_t)other_n));
    }
    if (summary)
        drift_remeasure_lists(benches, summary);
    return summary;
}

void mb_drift_points_off_text(const json_t *flagged_entry, char *buf, size_t len)
{
    const json_t *off = json_object_get(flagged_entry, "points_off"),
                 *probed = json_object_get(flagged_entry, "points_probed");
    if (off && probed)
        snprintf(buf, len, ", %.0f of its %.0f points off the usual", json_number_value(off),
                 json_number_value(probed));
    else if (len > 0)
        buf[0] = '\0';
}

/* Flagged entry f's benchmark in root and its first measurement's wall time, or NULL. */
static const char *drift_flagged_wall(const json_t *f, const json_t *root, double *wall_s)
{
    const char *name = json_string_value(json_object_get(f, "name"));
    const json_t *b = name ? mb_record_find(root, name) : NULL;
    *wall_s = b ? fmax(json_number_value(json_object_get(b, "wall_s")), 0) : 0;
    return b ? name : NULL;
}

json_t *mb_drift_remeasure_names(const json_t *summary, const json_t *root, double left_s)
{
    json_t *names = json_array();
    const json_t *flagged = json_object_get(summary, "flagged"), *f, *g;
    size_t i, j;
    json_array_foreach(flagged, i, f)
    {
        double wall_s, other_s;
        const char *name = drift_flagged_wall(f, root, &wall_s);
        if (!name)
            continue;
        /* The time of the shortest first (the order measured among equals) up to this one. */
        double upto_s = 0;
        json_array_foreach(flagged, j, g)
        {
            if (drift_flagged_wall(g, root, &other_s) &&
                (other_s < wall_s || (other_s == wall_s && j <= i)))
                upto_s += other_s;
        }
        if (left_s < 0 || upto_s <= left_s)
            json_array_append_new(names, json_string(name));
    }
    return names;
}

json_t *mb_drift_unnoted_flags(const json_t *summary, const json_t *root)
{
    json_t *names = json_array();
    const json_t *f, *b;
    size_t i;
    json_array_foreach(json_object_get(summary, "flagged"), i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        if (name && (b = mb_record_find(root, name)) && !json_object_get(b, "drift_remeasure"))
            json_array_append_new(names, json_string(name));
    }
    return names;
}

json_t *mb_drift_remeasured_json(const json_t *first, double probe_ns, int attempts)
{
    return json_pack("{s:b, s:f, s:f, s:O?, s:f, s:i}", "measured_again", 1, "first_before_ns",
                     drift_reading(first, "before_ns"), "first_after_ns",
                     drift_reading(first, "after_ns"), "first_wall_s",
                     json_object_get(first, "wall_s"), "probe_ns", probe_ns, "attempts", attempts);
}

json_t *mb_drift_not_remeasured_json(const char *why)
{
    return json_pack("{s:b, s:s}", "measured_again", 0, "why", why);
}
