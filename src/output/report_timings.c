/* SPDX-License-Identifier: MIT */
/* "Where the time went": a run's phases (setup, calibration, pre-flight, benchmarks, fits,
 * plots...) with their share of the run, then the benchmarks that took longest, so a slow
 * run says at once which part to trim. A killed run's section holds the phases so far. */
#include "report_timings.h"

#include <stdbool.h>
#include <string.h>

#include "report_text.h"

#define REPORT_TIMINGS_INDENT "  "
#define REPORT_TIMINGS_SLOWEST 5
#define REPORT_TIMINGS_MIN_WIDTH 18
/* The README's promise: a run ends within its budget and 10% more. */
#define REPORT_TIMINGS_BUDGET_SLACK 1.1
/* The phases outside the benchmarks named in an overrun's line. */
#define REPORT_TIMINGS_OVERRUN_NAMED 3

typedef struct report_timings_bench {
    const char *name;
    double wall_s;
} report_timings_bench_t;

static void report_timings_row(FILE *f, int width, const char *name, double wall_s, double total_s)
{
    fprintf(f, REPORT_TIMINGS_INDENT "%-*s %9.2f", width, name, wall_s);
    if (total_s > 0)
        fprintf(f, " %6.1f%%\n", wall_s / total_s * 100);
    else
        fprintf(f, " %7s\n", "-");
}

/* Keep the max longest of the names offered, longest first, in top[0..*n-1]. */
static void report_timings_keep_longest(report_timings_bench_t *top, size_t *n, size_t max,
                                        const char *name, double wall_s)
{
    size_t at = *n < max ? (*n)++ : max;
    while (at > 0 && top[at - 1].wall_s < wall_s) {
        if (at < max)
            top[at] = top[at - 1];
        at--;
    }
    if (at < max)
        top[at] = (report_timings_bench_t){.name = name, .wall_s = wall_s};
}

/* The measured benchmarks that took longest, slowest first: wall_s where the record has it
 * (a run before it had only elapsed_s, the measuring part). Returns how many, at most max. */
static size_t report_timings_slowest(const json_t *benchmarks, report_timings_bench_t *top,
                                     size_t max)
{
    size_t n = 0, i;
    const json_t *b;
    json_array_foreach(benchmarks, i, b)
    {
        double s;
        const char *name = mb_report_text_str(b, "name");
        if (!name || mb_report_text_str(b, "skipped"))
            continue;
        if (!mb_report_text_num(b, "wall_s", &s) && !mb_report_text_num(b, "elapsed_s", &s))
            continue;
        report_timings_keep_longest(top, &n, max, name, s);
    }
    return n;
}

/* A run past its budget by more than the README's 10%: the phases outside the benchmarks
 * take their least (the pre-flight's mhz and fewest perturbation runs, the per-node OS
 * phase's points at 3 experiments) or run whole (fits, plots), so a budget shorter than
 * that cannot be kept; the longest are named, so the user sees what to ask for. */
static void report_timings_overrun(FILE *f, const json_t *phases, double total_s, double budget_s)
{
    if (!(total_s > REPORT_TIMINGS_BUDGET_SLACK * budget_s))
        return;
    report_timings_bench_t top[REPORT_TIMINGS_OVERRUN_NAMED];
    size_t ntop = 0, i;
    double benchmarks_s = 0, outside_s = 0, s;
    const json_t *p;
    json_array_foreach(phases, i, p)
    {
        const char *name = mb_report_text_str(p, "name");
        if (!name || !mb_report_text_num(p, "wall_s", &s))
            continue;
        if (strcmp(name, "benchmarks") == 0) {
            benchmarks_s += s;
            continue;
        }
        outside_s += s;
        report_timings_keep_longest(top, &ntop, REPORT_TIMINGS_OVERRUN_NAMED, name, s);
    }
    fprintf(f,
            REPORT_TIMINGS_INDENT "over the budget: the run took %.1f s against %.0f s; the "
                                  "phases outside the benchmarks, which the budget cuts only to "
                                  "their least, took %.1f s (",
            total_s, budget_s, outside_s);
    for (i = 0; i < ntop; i++)
        fprintf(f, "%s%s %.1f s", i ? ", " : "", top[i].name, top[i].wall_s);
    fprintf(f, "), the benchmarks %.1f s\n", benchmarks_s);
}

/* What the time budget cost the figures: repetitions trimmed, points dropped, working sets
 * cut, and by which benchmarks; then, where the run overran it, why. Nothing when the run
 * had no budget. */
static void report_timings_budget(FILE *f, const json_t *root, const json_t *phases, bool has_total,
                                  double total_s)
{
    const json_t *b = json_object_get(root, "time_budget");
    double budget_s, done_s, trimmed = 0, points = 0, dropped = 0;
    if (!mb_report_text_num(b, "budget_s", &budget_s) ||
        !mb_report_text_num(b, "benchmarks_done_s", &done_s))
        return;
    mb_report_text_num(b, "points_trimmed", &trimmed);
    mb_report_text_num(b, "points", &points);
    mb_report_text_num(b, "points_dropped", &dropped);
    fprintf(f,
            REPORT_TIMINGS_INDENT "time budget %.0f s; benchmarks done at %.1f s; %.0f of %.0f "
                                  "points ran fewer repetitions; %.0f points dropped",
            budget_s, done_s, trimmed, points, dropped);
    const char *sep = ": ";
    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        double d = 0, cap;
        mb_report_text_num(bench, "dropped_by_budget", &d);
        bool cut = mb_report_text_num(bench, "memory_span_cap_bytes", &cap);
        if (d <= 0 && !cut)
            continue;
        fprintf(f, "%s%s", sep, mb_report_text_dash(mb_report_text_str(bench, "name")));
        if (d > 0)
            fprintf(f, " %.0f dropped", d);
        if (cut) {
            char mem[32];
            mb_report_text_bytes(cap, mem, sizeof mem);
            fprintf(f, "%sworking sets cut to %s", d > 0 ? ", " : " ", mem);
        }
        sep = "; ";
    }
    fputc('\n', f);
    if (has_total)
        report_timings_overrun(f, phases, total_s, budget_s);
}

void mb_report_timings(FILE *f, const json_t *root)
{
    const json_t *timings = json_object_get(root, "timings");
    if (!json_is_object(timings))
        return;
    const json_t *phases = json_object_get(timings, "phases");
    report_timings_bench_t top[REPORT_TIMINGS_SLOWEST];
    size_t ntop =
        report_timings_slowest(json_object_get(root, "benchmarks"), top, REPORT_TIMINGS_SLOWEST);
    double total_s = 0, rss = 0, sum_s = 0, s;
    bool has_total = mb_report_text_num(timings, "total_s", &total_s);
    int width = REPORT_TIMINGS_MIN_WIDTH;
    size_t i;
    const json_t *p;
    json_array_foreach(phases, i, p)
    {
        const char *name = mb_report_text_str(p, "name");
        if (name && (int)strlen(name) > width)
            width = (int)strlen(name);
    }
    for (i = 0; i < ntop; i++) {
        if ((int)strlen(top[i].name) > width)
            width = (int)strlen(top[i].name);
    }

    fprintf(f, "\nwhere the time went \u2014 ");
    if (has_total)
        fprintf(f, "%.1f s on rank 0's clock", total_s);
    else
        fprintf(f, "-");
    if (mb_report_text_num(timings, "rank0_peak_rss_bytes", &rss) && rss > 0) {
        char mem[32];
        mb_report_text_bytes(rss, mem, sizeof mem);
        fprintf(f, "; rank 0's peak memory %s (resident)\n", mem);
    } else {
        fprintf(f, "; rank 0's peak memory -\n");
    }
    fprintf(f, REPORT_TIMINGS_INDENT "%-*s %9s %7s\n", width, "phase", "wall s", "share");
    json_array_foreach(phases, i, p)
    {
        if (!mb_report_text_num(p, "wall_s", &s))
            continue;
        sum_s += s;
        report_timings_row(f, width, mb_report_text_dash(mb_report_text_str(p, "name")), s,
                           total_s);
    }
    /* Closing the files and MPI_Finalize belong to no phase; a killed run's total stops at
     * its last record, so this stays small. */
    if (has_total && total_s > sum_s)
        report_timings_row(f, width, "other", total_s - sum_s, total_s);
    report_timings_budget(f, root, phases, has_total, total_s);
    if (ntop == 0)
        return;
    fprintf(f, REPORT_TIMINGS_INDENT "%-*s %9s %7s\n", width, "slowest benchmarks", "wall s",
            "share");
    for (i = 0; i < ntop; i++)
        report_timings_row(f, width, top[i].name, top[i].wall_s, total_s);
}
