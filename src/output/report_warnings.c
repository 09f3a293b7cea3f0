/* SPDX-License-Identifier: MIT */
/* The run's warnings for both reports (report_warnings.h). */
#include "report_warnings.h"

#include <string.h>

#include "record.h"
#include "report_text.h"

#define WARN_INDENT "  "
/* At most this many points or benchmarks named in one line's list of the summary: a long
 * list hides more than it shows, and results.json has them all. */
#define WARN_TEXT_LISTED 8

bool mb_warn_point_is(const json_t *pt, mb_warn_point_t kind)
{
    switch (kind) {
    case MB_WARN_POINT_FAILED: return !mb_record_point_ok(pt);
    case MB_WARN_POINT_CI_WIDE:
        return mb_record_point_ok(pt) && json_is_true(json_object_get(pt, "ci_too_wide"));
    case MB_WARN_POINT_CI_MISSED:
        return mb_record_point_ok(pt) && json_is_false(json_object_get(pt, "ci_target_met"));
    case MB_WARN_POINT_TRIMMED:
        return mb_record_point_ok(pt) && json_is_true(json_object_get(pt, "trimmed_by_budget"));
    case MB_WARN_POINT_TWO_LEVELS:
        return mb_record_point_ok(pt) && json_is_object(json_object_get(pt, "two_levels"));
    }
    return false;
}

void mb_warn_two_levels_text(const json_t *pt, char *buf, size_t len)
{
    const json_t *lv = json_object_get(pt, "two_levels");
    char range[2][100];
    double n[2] = {0, 0};
    static const char *const side[] = {"low", "high"};
    buf[0] = '\0';
    if (!json_is_object(lv))
        return;
    for (int k = 0; k < 2; k++) {
        const json_t *level = json_object_get(lv, side[k]);
        double lo = 0, hi = 0;
        char a[40], b[40];
        mb_report_text_num(level, "n", &n[k]);
        mb_report_text_num(level, "min", &lo);
        mb_report_text_num(level, "max", &hi);
        mb_report_text_duration(lo, a, sizeof a);
        mb_report_text_duration(hi, b, sizeof b);
        /* "54.04-79.14 us": one unit where both ends have it. */
        char *unit_a = strrchr(a, ' '), *unit_b = strrchr(b, ' ');
        if (unit_a && unit_b && strcmp(unit_a, unit_b) == 0)
            *unit_a = '\0';
        snprintf(range[k], sizeof range[k], "%s-%s", a, b);
    }
    const char *in = mb_report_text_dash(mb_report_text_str(lv, "median_in"));
    snprintf(buf, len, "%.0f experiments at %s, %.0f at %s; the median %s", n[0], range[0], n[1],
             range[1],
             strcmp(in, "low") == 0    ? "in the low level"
             : strcmp(in, "high") == 0 ? "in the high level"
                                       : "between them");
}

size_t mb_warn_count_points(const json_t *root, mb_warn_point_t kind)
{
    size_t n = 0, i, j;
    const json_t *bench, *pt;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        json_array_foreach(json_object_get(bench, "points"), j, pt) n += mb_warn_point_is(pt, kind);
    }
    return n;
}

void mb_warn_budget_cuts(const json_t *root, size_t *coarser, long long *dropped, size_t *smaller)
{
    size_t i;
    const json_t *bench;
    double cap;
    *coarser = *smaller = 0;
    *dropped = 0;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        json_int_t d = json_integer_value(json_object_get(bench, "dropped_by_budget"));
        *coarser += d > 0;
        *dropped += d > 0 ? (long long)d : 0;
        *smaller += mb_report_text_num(bench, "memory_span_cap_bytes", &cap);
    }
}

static const char *warn_plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* A line of the summary: how many points of root are of kind, and what that means; then, with
 * rest (where the others are), up to WARN_TEXT_LISTED of them below it. Whether it said
 * anything. */
static bool warn_text_points(FILE *f, const json_t *root, mb_warn_point_t kind, const char *what,
                             const char *rest)
{
    size_t n = mb_warn_count_points(root, kind), listed = 0, i, j;
    const json_t *bench, *pt;
    if (n == 0)
        return false;
    fprintf(f, WARN_INDENT "%zu point%s %s\n", n, warn_plural(n), what);
    if (!rest)
        return true;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            if (!mb_warn_point_is(pt, kind) || listed == WARN_TEXT_LISTED)
                continue;
            char params[512];
            mb_report_text_params(bench, pt, params, sizeof params);
            fprintf(f, WARN_INDENT WARN_INDENT "%s%s%s",
                    mb_report_text_dash(mb_report_text_str(bench, "name")), params[0] ? " " : "",
                    params);
            double rel;
            if (kind == MB_WARN_POINT_CI_WIDE &&
                mb_report_text_num(pt, "ci95_rel_halfwidth", &rel) && rel >= 0)
                fprintf(f, ": CI half-width %.1f%% of the median", rel * 100);
            if (kind == MB_WARN_POINT_TWO_LEVELS) {
                char levels[300];
                mb_warn_two_levels_text(pt, levels, sizeof levels);
                if (levels[0])
                    fprintf(f, ": %s", levels);
            }
            fputc('\n', f);
            listed++;
        }
    }
    if (n > listed)
        fprintf(f, WARN_INDENT WARN_INDENT "... and %zu more (%s)\n", n - listed, rest);
    return true;
}

/* The benchmarks the drift probe flagged, named on one line. */
static bool warn_text_drift(FILE *f, const json_t *root)
{
    const json_t *drift = json_object_get(root, "drift"), *b;
    const json_t *flagged = json_object_get(drift, "flagged");
    double usual;
    size_t n = json_array_size(flagged), i;
    if (n == 0 || (!mb_report_text_num(drift, "usual_ns", &usual) &&
                   !mb_report_text_num(drift, "median_ns", &usual)))
        return false;
    fprintf(f,
            WARN_INDENT "%zu benchmark%s measured while the drift probe read far from the run's "
                        "usual %.0f ns, in another state of the node:",
            n, warn_plural(n), usual);
    json_array_foreach(flagged, i, b)
    {
        if (i == WARN_TEXT_LISTED) {
            fprintf(f, " and %zu more", n - i);
            break;
        }
        fprintf(f, "%s %s", i ? "," : "", mb_report_text_dash(mb_report_text_str(b, "name")));
    }
    fputs(" (\"drift\" below)\n", f);
    return true;
}

/* Whether benchmark b was skipped for the reason why. */
static bool warn_skipped_for(const json_t *b, const char *why)
{
    return !mb_record_ran(b) &&
           strcmp(mb_report_text_dash(mb_report_text_str(b, "skipped")), why) == 0;
}

/* The skipped benchmarks, one line per reason with the names: at -np 1 every message-passing
 * benchmark is skipped for the same one. */
static size_t warn_text_skipped(FILE *f, const json_t *root)
{
    const json_t *benches = json_object_get(root, "benchmarks"), *b, *c;
    size_t i, j, lines = 0;
    json_array_foreach(benches, i, b)
    {
        const char *why = mb_report_text_dash(mb_report_text_str(b, "skipped"));
        bool first = !mb_record_ran(b); /* the first benchmark skipped for why */
        for (j = 0; j < i && first; j++)
            first = !warn_skipped_for(json_array_get(benches, j), why);
        if (!first)
            continue;
        size_t n = 0, listed = 0;
        json_array_foreach(benches, j, c) n += warn_skipped_for(c, why);
        fprintf(f, WARN_INDENT "%zu benchmark%s skipped (%s):", n, warn_plural(n), why);
        json_array_foreach(benches, j, c)
        {
            if (!warn_skipped_for(c, why))
                continue;
            if (listed == WARN_TEXT_LISTED) {
                fprintf(f, " and %zu more", n - listed);
                break;
            }
            fprintf(f, "%s %s", listed++ ? "," : "",
                    mb_report_text_dash(mb_report_text_str(c, "name")));
        }
        fputc('\n', f);
        lines++;
    }
    return lines;
}

void mb_report_warnings_text(FILE *f, const json_t *root)
{
    /* How many warnings were said (a kind whose count is 0 says nothing). */
    size_t said = 0, i;
    const json_t *node;
    fputs("\nwarnings \u2014 what to read with care (report.html lists each with what it "
          "concerns)\n",
          f);
    if (!json_is_true(json_object_get(root, "complete"))) {
        fputs(WARN_INDENT "the run did not finish: this report holds the benchmarks finished "
                          "so far\n",
              f);
        said++;
    }
    /* On a cluster of noisy nodes, the first few and a count: the pre-flight table has all. */
    size_t nodes_flagged = 0;
    json_array_foreach(json_object_get(json_object_get(root, "preflight"), "nodes"), i, node)
    {
        if (!json_is_true(json_object_get(node, "flagged")) ||
            nodes_flagged++ >= MB_WARN_NODES_LISTED)
            continue;
        fprintf(f, WARN_INDENT "node %lld (%s) flagged by the pre-flight: %s\n",
                (long long)json_integer_value(json_object_get(node, "node")),
                mb_report_text_dash(mb_report_text_str(node, "host")),
                mb_report_text_dash(mb_report_text_str(node, "why")));
    }
    if (nodes_flagged > MB_WARN_NODES_LISTED)
        fprintf(f, WARN_INDENT "... and %zu more node%s flagged (the pre-flight's table below)\n",
                nodes_flagged - MB_WARN_NODES_LISTED,
                warn_plural(nodes_flagged - MB_WARN_NODES_LISTED));
    said += nodes_flagged;
    /* Failed points and missed CI targets are listed in full further on (no "rest": the
     * line names none); the others only here, up to WARN_TEXT_LISTED, and in results.json. */
    static const struct {
        mb_warn_point_t kind;
        const char *what, *rest;
    } points[] = {
        {MB_WARN_POINT_FAILED,
         "failed: measured nothing, left out of every table, fit and plot (\"failed points\" "
         "below)",
         NULL},
        {MB_WARN_POINT_CI_WIDE,
         "with a CI wider than [run] ci_wide of the median:", "results.json: ci_too_wide"},
        {MB_WARN_POINT_TRIMMED, "trimmed by the time budget, with fewer repetitions than asked:",
         "results.json: trimmed_by_budget"},
        {MB_WARN_POINT_TWO_LEVELS, /* 2x: MB_STATS_LEVEL_GAP */
         "whose experiments sat at two levels, 2x or more apart (the node's state or the "
         "benchmark's regime changed during the point; its median is one level's, or between "
         "them):",
         "results.json: two_levels"},
        {MB_WARN_POINT_CI_MISSED, "missed the CI target (\"CI target not met\", at the end)", NULL},
    };
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++)
        said += warn_text_points(f, root, points[k].kind, points[k].what, points[k].rest);
    size_t coarser, smaller;
    long long dropped;
    mb_warn_budget_cuts(root, &coarser, &dropped, &smaller);
    if (coarser + smaller > 0) {
        fprintf(f,
                WARN_INDENT "the time budget cut the run: %zu benchmark%s measured a coarser grid "
                            "(%lld points dropped), %zu smaller working sets (\"where the time "
                            "went\" below)\n",
                coarser, warn_plural(coarser), dropped, smaller);
        said++;
    }
    said += warn_text_drift(f, root);
    said += warn_text_skipped(f, root);
    if (said == 0)
        fputs(WARN_INDENT "none\n", f);
}
