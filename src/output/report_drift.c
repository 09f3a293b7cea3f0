/* SPDX-License-Identifier: MIT */
#include "report_drift.h"

#include <string.h>

#include "drift.h"
#include "report_text.h"

static const char *report_drift_why(const json_t *list, size_t i)
{
    return mb_report_text_dash(mb_report_text_str(json_array_get(list, i), "why"));
}

/* The benchmarks not measured again, one line per reason, "  a, b: not measured again: why":
 * a run that gave up waiting for the node's usual state gives each the same reason (one
 * default run listed it 15 times). */
static void report_drift_not_remeasured(FILE *f, const json_t *list)
{
    size_t n = json_array_size(list);
    for (size_t i = 0; i < n; i++) {
        const char *why = report_drift_why(list, i);
        size_t first = 0;
        while (strcmp(report_drift_why(list, first), why) != 0)
            first++;
        if (first < i) /* its reason's line is written */
            continue;
        fputs("  ", f);
        for (size_t k = i; k < n; k++)
            if (strcmp(report_drift_why(list, k), why) == 0)
                fprintf(f, "%s%s", k > i ? ", " : "",
                        mb_report_text_dash(mb_report_text_str(json_array_get(list, k), "name")));
        fprintf(f, ": not measured again: %s\n", why);
    }
}

void mb_report_drift(FILE *f, const json_t *root)
{
    const json_t *drift = json_object_get(root, "drift");
    json_t *computed = NULL;
    if (!json_is_object(drift))
        drift = computed = mb_drift_summary(root, "", NULL);
    double median, probes, usual;
    if (!drift || !mb_report_text_num(drift, "median_ns", &median) ||
        !mb_report_text_num(drift, "probes", &probes)) {
        json_decref(computed);
        return;
    }
    if (!mb_report_text_num(drift, "usual_ns", &usual)) /* written before usual_ns */
        usual = median;
    const json_t *flagged = json_object_get(drift, "flagged"), *b;
    const char *pair = mb_report_text_str(drift, "pair");
    fprintf(f,
            "\ndrift: a 0-byte pingpong between world rank 0 and %s, before and after each "
            "benchmark: median %.0f ns over %.0f readings",
            !pair                        ? "another rank"
            : strcmp(pair, "inter") == 0 ? "the first rank of node 1"
                                         : "the next rank of its node",
            median, probes);
    double other = 0, other_probes = 0;
    bool two = mb_report_text_num(drift, "other_ns", &other) &&
               mb_report_text_num(drift, "other_probes", &other_probes);
    if (two || usual != median) /* without other_ns: written before it */
        fprintf(f,
                "; they fall into two groups, the node's two states, and the larger group's "
                "median, %.0f ns, is the node's usual state",
                usual);
    if (two)
        fprintf(f, " (the other group: %.0f readings, median %.0f ns)", other_probes, other);
    /* The flagged list is what is left after the re-measurements: say so, or a run that
     * measured 13 benchmarks again reads "0 benchmark(s)" above their list. */
    size_t remeasured = json_array_size(json_object_get(drift, "remeasured"));
    if (remeasured)
        fprintf(f, "; %zu benchmark(s) measured again at the run's end (below), after which",
                remeasured);
    fprintf(f,
            "%s %zu benchmark(s) measured in another state: a quarter or more of their points' "
            "readings (or, without those, their own two) averaged over %.2gx %s or under 1/%.2g "
            "of it\n",
            remeasured ? "" : ";", json_array_size(flagged), MB_DRIFT_FLAG_RATIO,
            two || usual != median ? "the usual" : "that", MB_DRIFT_FLAG_RATIO);
    size_t i;
    json_array_foreach(flagged, i, b)
    {
        double before = 0, after = 0, ratio = 0;
        mb_report_text_num(b, "before_ns", &before);
        mb_report_text_num(b, "after_ns", &after);
        mb_report_text_num(b, "ratio", &ratio);
        char points[96];
        mb_drift_points_off_text(b, points, sizeof points);
        fprintf(f,
                "  %s: %.0f ns before, %.0f after (%.2fx)%s: measured in another state of "
                "the node than the rest; it may not compose with the others\n",
                mb_report_text_dash(mb_report_text_str(b, "name")), before, after, ratio, points);
    }
    json_array_foreach(json_object_get(drift, "remeasured"), i, b)
    {
        double first_before = 0, first_after = 0, before = 0, after = 0, attempts = 1, kept = 0,
               not_kept = 0;
        mb_report_text_num(b, "first_before_ns", &first_before);
        mb_report_text_num(b, "first_after_ns", &first_after);
        mb_report_text_num(b, "before_ns", &before);
        mb_report_text_num(b, "after_ns", &after);
        mb_report_text_num(b, "attempts", &attempts); /* absent before attempts were counted */
        /* Measured again once or, where the node changed state during that, twice; the
         * figures are the last measurement's, or the one before where the last read further
         * from the node's usual state (kept_attempt). */
        bool kept_before = mb_report_text_num(b, "kept_attempt", &kept) && kept < attempts;
        mb_report_text_num(b, "not_kept_probe_ns", &not_kept);
        const char *fig = attempts >= 2 && !kept_before ? "third" : "second";
        char why[96] = "";
        if (kept_before)
            snprintf(why, sizeof why, "; the third read %.0f ns around it, further off", not_kept);
        fprintf(f,
                "  %s: measured again at the run's end%s (its figures are the %s "
                "measurement's%s): %.0f and %.0f ns around the first, %.0f and %.0f around the "
                "%s\n",
                mb_report_text_dash(mb_report_text_str(b, "name")), attempts >= 2 ? ", twice" : "",
                fig, why, first_before, first_after, before, after, fig);
    }
    report_drift_not_remeasured(f, json_object_get(drift, "not_remeasured"));
    json_decref(computed);
}
