/* SPDX-License-Identifier: MIT */
/* Shared-memory summaries: Howell's table (seed 001), which by nature lists particular
 * benchmarks and their targets by name, and the cache levels found on a latency curve. */
#include "report_memory.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report_text.h"

#define REPORT_MEMORY_INDENT "  "

/* The point of benchmark `name` whose params include key=value (and key2=value2 when key2
 * is not NULL); NULL when the run has none. */
static const json_t *report_memory_point(const json_t *root, const char *name, const char *key,
                                         const char *value, const char *key2, const char *value2)
{
    size_t i, j;
    const json_t *b, *pt;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        if (strcmp(mb_report_text_dash(mb_report_text_str(b, "name")), name) != 0)
            continue;
        json_array_foreach(json_object_get(b, "points"), j, pt)
        {
            if (!mb_record_point_ok(pt))
                continue;
            const json_t *params = json_object_get(pt, "params");
            char a[64], c[64];
            mb_report_text_value(json_object_get(params, key), a, sizeof a);
            if (strcmp(a, value) != 0)
                continue;
            if (key2) {
                mb_report_text_value(json_object_get(params, key2), c, sizeof c);
                if (strcmp(c, value2) != 0)
                    continue;
            }
            return pt;
        }
    }
    return NULL;
}

/* "avg max" over processes: over_ranks when several ranks measured, else the median. */
static void report_memory_avg_max(FILE *f, const json_t *pt)
{
    const json_t *over = json_object_get(pt, "over_ranks");
    double avg, max;
    char a[48] = "-", b[48] = "-";
    if (over && mb_report_text_num(over, "avg_ns", &avg) &&
        mb_report_text_num(over, "max_ns", &max)) {
        mb_report_text_sig(avg, a, sizeof a);
        mb_report_text_sig(max, b, sizeof b);
    } else if (pt && mb_report_text_num(pt, "median", &avg)) {
        mb_report_text_sig(avg, a, sizeof a);
        mb_report_text_sig(avg, b, sizeof b);
    }
    fprintf(f, " %10s %10s", a, b);
}

/* How many points of the curve `from`'s points of stride levels_from lie between sizes a
 * and b (the index distance of the points nearest each, in log size); -1 without a curve. */
static long report_memory_points_apart(const json_t *from, const char *stride, double a,
                                       double b)
{
    size_t j, n = 0;
    const json_t *pt;
    long ia = -1, ib = -1;
    double da = INFINITY, db = INFINITY;
    json_array_foreach(json_object_get(from, "points"), j, pt)
    {
        const json_t *params = json_object_get(pt, "params");
        const char *st = json_string_value(json_object_get(params, "stride"));
        double size;
        if (!st || strcmp(st, stride) != 0 || !mb_report_text_num(params, "size_bytes", &size))
            continue;
        if (fabs(log2(size / a)) < da)
            da = fabs(log2(size / a)), ia = (long)n;
        if (fabs(log2(size / b)) < db)
            db = fabs(log2(size / b)), ib = (long)n;
        n++;
    }
    if (ia < 0 || ib < 0)
        return -1;
    return labs(ia - ib);
}

/* Each of hwloc's data caches beside the curve's level of the same rank: the level's
 * capacity (where the rise to the next level is half done, else where its plateau ends)
 * within one point of the curve of hwloc's size, or the mismatch. */
static void report_memory_levels_vs_hwloc(FILE *f, const json_t *from, const json_t *derived,
                                          const json_t *caches)
{
    const char *stride = mb_report_text_str(derived, "levels_from");
    const json_t *levels = json_object_get(derived, "levels");
    double first = 0, last = 0;
    size_t j, k = 0;
    const json_t *pt, *cache;
    json_array_foreach(json_object_get(from, "points"), j, pt)
    {
        double size;
        if (mb_report_text_num(json_object_get(pt, "params"), "size_bytes", &size)) {
            if (first == 0 || size < first)
                first = size;
            last = size > last ? size : last;
        }
    }
    json_array_foreach(caches, j, cache)
    {
        const char *type = mb_report_text_str(cache, "type");
        double hw, cap = 0, mid = 0;
        char hwbuf[32], capbuf[32], lastbuf[32];
        if ((type && strcmp(type, "instruction") == 0) || !mb_report_text_num(cache, "size_bytes", &hw))
            continue;
        const json_t *lv = json_array_get(levels, k++);
        mb_report_text_bytes(hw, hwbuf, sizeof hwbuf);
        fprintf(f, REPORT_MEMORY_INDENT "L%lld %s: ",
                (long long)json_integer_value(json_object_get(cache, "level")), hwbuf);
        if (!lv || json_is_true(json_object_get(lv, "open"))) {
            mb_report_text_bytes(last, lastbuf, sizeof lastbuf);
            fprintf(f, "MISMATCH: the curve (up to %s) shows no level ending there%s\n", lastbuf,
                    hw > last ? " (hwloc's size is past the curve's end)" : "");
            continue;
        }
        mb_report_text_num(lv, "size_bytes", &cap);
        if (mb_report_text_num(lv, "midpoint_bytes", &mid) && mid > 0)
            cap = mid;
        mb_report_text_bytes(cap, capbuf, sizeof capbuf);
        long apart = hw >= first && hw <= last
                         ? report_memory_points_apart(from, stride ? stride : "random", cap, hw)
                         : -1;
        if (apart >= 0 && apart <= 1)
            fprintf(f, "matches level %zu (%s) within one point of the curve\n", k, capbuf);
        else if (apart > 1)
            fprintf(f, "MISMATCH: level %zu is at %s, %ld points of the curve away\n", k, capbuf,
                    apart);
        else
            fprintf(f, "MISMATCH: level %zu is at %s; hwloc's size is outside the curve\n", k,
                    capbuf);
    }
}

/* The cache levels a benchmark found on its latency curve (its derived "levels"), beside
 * hwloc's sizes for node 0. */
void mb_report_memory_cache_levels(FILE *f, const json_t *root)
{
    size_t i;
    const json_t *b, *levels = NULL, *derived = NULL, *from = NULL;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const json_t *d = json_object_get(b, "derived");
        if (!levels && json_array_size(json_object_get(d, "levels")) > 0) {
            derived = d;
            levels = json_object_get(d, "levels");
            from = b;
        }
    }
    if (!levels)
        return;
    fprintf(f, "\ncache levels from the %s latency curve (%s), beside hwloc's\n",
            mb_report_text_dash(mb_report_text_str(derived, "levels_from")),
            mb_report_text_dash(mb_report_text_str(from, "name")));
    const json_t *lv;
    char start[32] = ""; /* where the level before ends: half-way up to this one */
    json_array_foreach(levels, i, lv)
    {
        double size = 0, lat = 0, mid = 0;
        char a[32] = "-", c[32] = "-";
        if (mb_report_text_num(lv, "size_bytes", &size))
            mb_report_text_bytes(size, a, sizeof a);
        if (mb_report_text_num(lv, "midpoint_bytes", &mid))
            mb_report_text_bytes(mid, c, sizeof c);
        mb_report_text_num(lv, "latency_ns", &lat);
        double rnd;
        char rndbuf[48] = "";
        if (mb_report_text_num(lv, "random_latency_ns", &rnd))
            snprintf(rndbuf, sizeof rndbuf, " (%.4g ns in random order)", rnd);
        /* An open level's size_bytes is where the curve stops, not where the level begins. */
        if (json_is_true(json_object_get(lv, "open")))
            fprintf(f,
                    REPORT_MEMORY_INDENT
                    "level %zu: %s%s to the curve's end at %s, %.4g ns%s (memory, or the curve "
                    "cut short)\n",
                    i + 1, start[0] ? "from " : "", start, a, lat, rndbuf);
        else
            fprintf(f,
                    REPORT_MEMORY_INDENT
                    "level %zu: up to %s (half-way to the next at %s), %.4g ns%s\n",
                    i + 1, a, c, lat, rndbuf);
        snprintf(start, sizeof start, "%s", mid > 0 ? c : a);
    }
    const json_t *caches = json_object_get(
        json_array_get(json_object_get(json_object_get(root, "system"), "node_list"), 0), "caches");
    fprintf(f, REPORT_MEMORY_INDENT "hwloc:");
    const json_t *cache;
    json_array_foreach(caches, i, cache)
    {
        const char *type = mb_report_text_str(cache, "type");
        double size;
        char sz[32];
        if (type && strcmp(type, "instruction") == 0)
            continue;
        if (mb_report_text_num(cache, "size_bytes", &size)) {
            mb_report_text_bytes(size, sz, sizeof sz);
            fprintf(f, " L%lld %s", (long long)json_integer_value(json_object_get(cache, "level")),
                    sz);
        }
    }
    fprintf(f, "\n");
    report_memory_levels_vs_hwloc(f, from, derived, caches);
}

/* Howell's shared-memory table (seed 001), from the harness and shm benchmarks that ran. */
void mb_report_memory_howell(FILE *f, const json_t *root)
{
    static const char *const targets[] = {"localcache", "local", "neighbour", "neighbour_far"};
    if (!report_memory_point(root, "shm.read", "target", "localcache", NULL, NULL) &&
        !report_memory_point(root, "shm.write", "target", "localcache", NULL, NULL))
        return;
    fprintf(f, "\nshared memory (Howell's table, seed 001) — ns per operation, avg and max over "
               "the node's processes\n");
    fprintf(f, REPORT_MEMORY_INDENT
            "reads: latency of dependent random loads, streaming rate per word "
            "beside it; writes: streaming stores per word\n");
    fprintf(f, REPORT_MEMORY_INDENT "%-22s %10s %10s %10s %10s\n", "function", "avg", "max",
            "stream avg", "stream max");
    const struct {
        const char *row, *bench, *key, *value;
    } fixed[] = {{"empty loop", "harness.empty_loop", "instances", "0"},
                 {"timer()", "harness.timer", "quantity", "read"},
                 {"barrier", "shm.barrier", "comm", "node"}};
    for (size_t r = 0; r < sizeof fixed / sizeof fixed[0]; r++) {
        const json_t *pt =
            report_memory_point(root, fixed[r].bench, fixed[r].key, fixed[r].value, NULL, NULL);
        fprintf(f, REPORT_MEMORY_INDENT "%-22s", fixed[r].row);
        report_memory_avg_max(f, pt);
        fprintf(f, "\n");
    }
    for (int w = 0; w < 2; w++) {
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            for (int all = 0; all < 2; all++) {
                char row[64], bench[32];
                snprintf(row, sizeof row, "%s%s_%s", all ? "all" : "", w ? "write" : "read",
                         targets[t]);
                snprintf(bench, sizeof bench, "shm.%s%s", all ? "all" : "", w ? "write" : "read");
                const json_t *lat =
                    w ? NULL
                      : report_memory_point(root, bench, "target", targets[t], "access", "latency");
                const json_t *str =
                    report_memory_point(root, bench, "target", targets[t], "access", "stream");
                if (!lat && !str && t == 3)
                    continue; /* one NUMA node: only Howell's own rows */
                fprintf(f, REPORT_MEMORY_INDENT "%-22s", row);
                if (!lat && !str) {
                    bool ran = report_memory_point(root, bench, "target", "localcache", NULL, NULL);
                    fprintf(f, " %s\n",
                            !ran     ? "(not run)"
                            : t == 2 ? "(needs 2 ranks on a node)"
                                     : "-");
                    continue;
                }
                report_memory_avg_max(f, w ? str : lat);
                if (w)
                    fprintf(f, " %10s %10s", "", "");
                else
                    report_memory_avg_max(f, str);
                fprintf(f, "\n");
            }
        }
    }
}
