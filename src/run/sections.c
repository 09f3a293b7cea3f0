/* SPDX-License-Identifier: MIT */
#include "sections.h"

#include <limits.h>
#include <stdio.h>

#include "budget.h"
#include "clock.h"
#include "drift.h"
#include "fit_results.h"
#include "loop_rules.h"
#include "predict_patterns.h"

int mb_sections_add_preflight(mb_results_t *results, const mb_config_t *cfg, json_t *preflight,
                              char *err, size_t errlen)
{
    if (mb_results_set_section(results, "preflight", json_incref(preflight), err, errlen) != 0)
        return -1;
    size_t i;
    json_t *node;
    int flagged = 0;
    json_array_foreach(json_object_get(preflight, "nodes"), i, node) {
        if (!json_is_true(json_object_get(node, "flagged")))
            continue;
        flagged++;
        fprintf(stderr, "mbsuite: pre-flight: node %zu (%s) flagged: %s\n", i,
                json_string_value(json_object_get(node, "host")),
                json_string_value(json_object_get(node, "why")));
    }
    if (flagged > 0 && cfg->preflight_on_noisy == MB_NOISE_ABORT) {
        snprintf(err, errlen,
                 "pre-flight flagged %d node(s) (see above and %s); stopping before the suite as "
                 "[preflight] on_noisy = abort",
                 flagged, "results.json's \"preflight\"");
        return -1;
    }
    return 0;
}

int mb_sections_add_clock_sync(mb_results_t *results, double max_abs_offset_ns,
                               double max_uncertainty_ns, char *err, size_t errlen)
{
    json_t *sync = json_pack("{s:s, s:f, s:f}", "method",
                             "Cristian: shortest of 32 round trips from each node's leader to "
                             "world rank 0; ranks of one node share its clock",
                             "max_abs_offset_ns", max_abs_offset_ns, "max_uncertainty_ns",
                             max_uncertainty_ns);
    return mb_results_set_section(results, "clock_sync", sync, err, errlen);
}

int mb_sections_add_budget(mb_results_t *results, double budget_s, double began_s,
                           double os_share_s, char *err, size_t errlen)
{
    size_t trimmed = 0, points = 0, dropped = 0, coarsened = 0, span_cut = 0, i, j;
    json_t *bench, *pt;
    json_array_foreach(json_object_get(mb_results_json(results), "benchmarks"), i, bench) {
        json_int_t d = json_integer_value(json_object_get(bench, "dropped_by_budget"));
        dropped += (size_t)d;
        coarsened += d > 0;
        span_cut += json_object_get(bench, "memory_span_cap_bytes") != NULL;
        json_array_foreach(json_object_get(bench, "points"), j, pt) {
            points++;
            trimmed += json_is_true(json_object_get(pt, "trimmed_by_budget"));
        }
    }
    double spent = mb_clock_elapsed_s() - began_s;
    fprintf(stderr,
            "mbsuite: time budget %.0f s, benchmarks done at %.1f s: %zu of %zu points ran fewer "
            "repetitions (at least %d); %zu benchmark%s measured a coarser grid (%zu points "
            "dropped); %zu on smaller working sets\n",
            budget_s, spent, trimmed, points, MB_LOOP_BUDGET_FLOOR, coarsened,
            coarsened == 1 ? "" : "s", dropped, span_cut);
    json_t *b = json_pack(
        "{s:f, s:f, s:I, s:I, s:i, s:I, s:I, s:I, s:s}", "budget_s", budget_s, "benchmarks_done_s",
        spent, "points", (json_int_t)points, "points_trimmed", (json_int_t)trimmed,
        "min_experiments", MB_LOOP_BUDGET_FLOOR, "benchmarks_coarsened", (json_int_t)coarsened,
        "points_dropped", (json_int_t)dropped, "benchmarks_span_cut", (json_int_t)span_cut, "how",
        "each benchmark is estimated before it runs: its points at a warm-up (the first "
        "point's warmup, each later one's warmup_next) and "
        "max_experiments experiments, each of enough or of its messages' time where longer "
        "(a call timed between untimed transfers: 50 transfers, at most 50 x enough), "
        "plus the bytes of its working sets (its largest once more for the pages' first "
        "touch: its points reuse the buffers), scaled by how "
        "much slower than estimated the run has gone; when all fit, it may use the time left "
        "less the rest's estimates; when not, every benchmark keeps its points' time and the "
        "working sets share what is left, cut to fit (memory_span_cap_bytes); when not even the "
        "points fit, the time left is shared in proportion to the whole estimates, points and "
        "working sets cut alike; within a benchmark, each "
        "point gets a share of the benchmark's time left in proportion to its estimate among "
        "the points kept; points run in their own order, and where the time left cannot hold "
        "those still to come at min_experiments each, the finest of them are skipped as a "
        "coarse-to-fine cut would leave them out (sizes before process counts), both ends of "
        "every axis always measured; a benchmark with working sets whose share is under twice "
        "its estimate runs coarse to fine instead, its largest working set first, and stops "
        "where its share ends; first fewer repetitions per point (trimmed_by_budget), then the "
        "points skipped or not reached are dropped (dropped_by_budget)");
    /* The per-node phases' shares from budget.h's constants, so the text cannot drift. */
    if (b)
        json_object_set_new(
            b, "how",
            json_sprintf("%s; before the benchmarks, the pre-flight may take at most %.0f%% of "
                         "the budget (mhz whole, then its perturbation runs cut to fit: "
                         "preflight.cut_by_budget) and the os phase %.0f%% a run (--runs K: K "
                         "times that; os_phase_share_s), within which its points' repetitions "
                         "are cut alike where they would not fit, at least min_experiments each "
                         "(trimmed_by_budget)",
                         json_string_value(json_object_get(b, "how")),
                         100 * MB_BUDGET_PREFLIGHT_SHARE, 100 * MB_BUDGET_OS_SHARE));
    if (b && os_share_s > 0)
        json_object_set_new(b, "os_phase_share_s", json_real(os_share_s));
    return mb_results_set_section(results, "time_budget", b, err, errlen);
}

int mb_sections_add_drift(mb_results_t *results, const char *method, const char *pair, char *err,
                          size_t errlen)
{
    json_t *drift = mb_drift_summary(mb_results_json(results), method, pair);
    if (!drift)
        return 0;
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(drift, "flagged"), i, b)
    {
        /* Flagged by its points' readings, its own two may both read the usual state. */
        char points[96];
        mb_drift_points_off_text(b, points, sizeof points);
        fprintf(stderr,
                "mbsuite: drift: %s measured while the probe (pair %s) read %.0f and %.0f ns, "
                "%.2fx the run's usual %.0f ns%s: the node was in another state then; "
                "compare it with care\n",
                json_string_value(json_object_get(b, "name")), pair,
                json_number_value(json_object_get(b, "before_ns")),
                json_number_value(json_object_get(b, "after_ns")),
                json_number_value(json_object_get(b, "ratio")),
                json_number_value(json_object_get(drift, "usual_ns")), points);
    }
    return mb_results_set_section(results, "drift", drift, err, errlen);
}

int mb_sections_add_fits(mb_results_t *results, const char *dir, char *err, size_t errlen)
{
    char why[512], path[PATH_MAX + 16];
    json_t *fits = mb_fit_results(mb_results_json(results), why, sizeof why);
    if (!fits) {
        snprintf(err, errlen, "fitting: %s", why);
        return -1;
    }
    json_t *loggp = mb_fit_loggp(mb_results_json(results), fits);
    /* The composite patterns predicted from the fits, beside their measured times. */
    json_t *predictions = mb_predict_patterns(mb_results_json(results), fits);
    snprintf(path, sizeof path, "%s/fits.csv", dir);
    if (mb_fit_results_write_csv(fits, path, err, errlen) != 0) {
        json_decref(fits);
        json_decref(loggp);
        json_decref(predictions);
        return -1;
    }
    /* Staged: the write that adds the fits carries it. */
    if (mb_results_stage_section(results, "predictions", predictions, err, errlen) != 0 ||
        mb_results_set_section(results, "fits", fits, err, errlen) != 0 ||
        (loggp && mb_results_set_section(results, "loggp", loggp, err, errlen) != 0))
        return -1;
    return 0;
}
