/* SPDX-License-Identifier: MIT */
#include "compare_runs.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_stats.h"
#include "drift.h"

/* A point's parameters as "dim=value dim=value", as raw.csv.gz and the progress lines
 * write them. */
static void compare_params_text(const json_t *params, char *buf, size_t len)
{
    size_t used = 0;
    const char *key;
    json_t *v;
    buf[0] = '\0';
    json_object_foreach((json_t *)params, key, v)
    {
        char value[64];
        if (json_is_string(v))
            snprintf(value, sizeof value, "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(value, sizeof value, "%lld", (long long)json_integer_value(v));
        else
            snprintf(value, sizeof value, "%.10g", json_number_value(v));
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", key, value);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

/* Where in its run a point is: benchmark, index in its "points", the point. */
typedef struct compare_where {
    const char *bench;
    size_t index;
    const json_t *pt;
} compare_where_t;

/* Every point of the run by "benchmark params": {key: [bench index, point index]}. */
static json_t *compare_index(const json_t *root)
{
    json_t *map = json_object();
    const json_t *benches = json_object_get(root, "benchmarks");
    for (size_t i = 0; i < json_array_size(benches); i++) {
        const json_t *b = json_array_get(benches, i);
        const char *name = json_string_value(json_object_get(b, "name"));
        const json_t *pts = json_object_get(b, "points");
        for (size_t k = 0; name && k < json_array_size(pts); k++) {
            char params[512], *key;
            compare_params_text(json_object_get(json_array_get(pts, k), "params"), params,
                                sizeof params);
            /* The whole name, however long: mb_compare_runs finds the params after it. */
            if (asprintf(&key, "%s %s", name, params) < 0)
                continue;
            json_object_set_new(map, key, json_pack("[I,I]", (json_int_t)i, (json_int_t)k));
            free(key);
        }
    }
    return map;
}

static compare_where_t compare_at(const json_t *root, const json_t *pos)
{
    const json_t *b =
        json_array_get(json_object_get(root, "benchmarks"),
                       (size_t)json_integer_value(json_array_get(pos, 0)));
    size_t k = (size_t)json_integer_value(json_array_get(pos, 1));
    return (compare_where_t){json_string_value(json_object_get(b, "name")), k,
                             json_array_get(json_object_get(b, "points"), k)};
}

/* Leaves of v under path, as {path: compact JSON text}. */
static void compare_flatten(const json_t *v, const char *path, json_t *out)
{
    char sub[512];
    if (json_is_object(v)) {
        const char *key;
        json_t *x;
        json_object_foreach((json_t *)v, key, x)
        {
            snprintf(sub, sizeof sub, "%s.%s", path, key);
            compare_flatten(x, sub, out);
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            compare_flatten(json_array_get(v, i), sub, out);
        }
    } else {
        char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
        json_object_set_new(out, path, json_string(text ? text : "?"));
        free(text);
    }
}

/* Of each benchmark, what it times and whose time its figure is (measures,
 * scheme.headline: mpi.sendrecv's went from rank 0's to the mean over its ranks', and its
 * small sizes moved by that alone) and the working sets the time budget cut it to
 * (memory_span_cap_bytes; a benchmark not cut has none), as {"benchmarks.NAME.KEY": value}
 * leaves of out. */
static void compare_flatten_benchmarks(const json_t *root, json_t *out)
{
    static const char *const keys[] = {"measures", "memory_span_cap_bytes"};
    const json_t *benches = json_object_get(root, "benchmarks");
    for (size_t i = 0; i < json_array_size(benches); i++) {
        const json_t *b = json_array_get(benches, i);
        const char *name = json_string_value(json_object_get(b, "name"));
        char path[512];
        if (!name)
            continue;
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            const json_t *v = json_object_get(b, keys[k]);
            snprintf(path, sizeof path, "benchmarks.%s.%s", name, keys[k]);
            if (v)
                compare_flatten(v, path, out);
        }
        const json_t *headline = json_object_get(json_object_get(b, "scheme"), "headline");
        snprintf(path, sizeof path, "benchmarks.%s.scheme.headline", name);
        if (headline)
            compare_flatten(headline, path, out);
    }
}

/* The system's and the configuration's values that differ, the benchmarks that measure
 * another way, and the working sets the time budget cut differently (two default runs with
 * caps of 8 MiB and 190 MiB measured different memories under one name, and compare found
 * 700 points changed): [{"path", "a", "b"}], a value missing on one side null there. */
static json_t *compare_differences(const json_t *ra, const json_t *rb)
{
    static const char *const sections[] = {"system", "config"};
    json_t *fa = json_object(), *fb = json_object(), *diffs = json_array();
    for (size_t s = 0; s < 2; s++) {
        compare_flatten(json_object_get(ra, sections[s]), sections[s], fa);
        compare_flatten(json_object_get(rb, sections[s]), sections[s], fb);
    }
    compare_flatten_benchmarks(ra, fa);
    compare_flatten_benchmarks(rb, fb);
    const char *path;
    json_t *va;
    json_object_foreach(fa, path, va)
    {
        json_t *vb = json_object_get(fb, path);
        if (!vb || strcmp(json_string_value(va), json_string_value(vb)) != 0)
            json_array_append_new(diffs, json_pack("{s:s, s:O, s:O?}", "path", path, "a", va,
                                                   "b", vb));
    }
    json_object_foreach(fb, path, va)
    {
        if (!json_object_get(fa, path))
            json_array_append_new(diffs, json_pack("{s:s, s:n, s:O}", "path", path, "a", "b", va));
    }
    json_decref(fa);
    json_decref(fb);
    return diffs;
}

static json_t *compare_run_json(const mb_compare_run_t *r)
{
    const json_t *sys = json_object_get(r->root, "system");
    json_t *j =
        json_pack("{s:s, s:O?, s:O?, s:O?, s:O?, s:b, s:O?, s:O?}", "dir", r->dir, "started_utc",
                  json_object_get(r->root, "started_utc"), "ranks", json_object_get(sys, "ranks"),
                  "nodes", json_object_get(sys, "nodes"), "mpi",
                  json_object_get(json_object_get(sys, "mpi"), "library"), "complete",
                  json_is_true(json_object_get(r->root, "complete")), "drift_median_ns",
                  json_object_get(json_object_get(r->root, "drift"), "median_ns"), "median_mhz",
                  json_object_get(json_object_get(r->root, "preflight"), "median_mhz"));
    if (r->raw)
        json_object_set_new(j, "raw", json_pack("{s:s, s:I}", "file", r->raw->path, "rows",
                                                (json_int_t)r->raw->rows));
    else
        json_object_set_new(j, "raw", json_pack("{s:n, s:s}", "file", "note",
                                                r->raw_note ? r->raw_note : "none"));
    return j;
}

/* One point both runs hold: medians, change, test and verdict. */
static json_t *compare_point(const mb_compare_run_t *a, const mb_compare_run_t *b,
                             const compare_where_t *wa, const compare_where_t *wb,
                             const char *params, const mb_compare_opts_t *o)
{
    json_t *j = json_pack("{s:s, s:s}", "benchmark", wa->bench, "params", params);
    bool ok_a = json_is_number(json_object_get(wa->pt, "median")) &&
                !json_is_string(json_object_get(wa->pt, "reason"));
    bool ok_b = json_is_number(json_object_get(wb->pt, "median")) &&
                !json_is_string(json_object_get(wb->pt, "reason"));
    if (!ok_a || !ok_b) {
        json_object_set_new(j, "verdict", json_string("untested"));
        json_object_set_new(j, "why", json_string(!ok_a && !ok_b ? "failed in both runs"
                                                  : !ok_a        ? "failed in A"
                                                                 : "failed in B"));
        return j;
    }
    double ma = json_number_value(json_object_get(wa->pt, "median"));
    double mb = json_number_value(json_object_get(wb->pt, "median"));
    json_object_set_new(j, "median_a_ns", json_real(ma));
    json_object_set_new(j, "median_b_ns", json_real(mb));
    if (!(ma > 0)) {
        json_object_set_new(j, "verdict", json_string("untested"));
        json_object_set_new(j, "why", json_string("A's median is 0: no relative change"));
        return j;
    }
    double change = mb / ma - 1;
    json_object_set_new(j, "change", json_real(change));
    const mb_raw_point_t *sa = a->raw ? mb_raw_find(a->raw, wa->bench, wa->index) : NULL;
    const mb_raw_point_t *sb = b->raw ? mb_raw_find(b->raw, wb->bench, wb->index) : NULL;
    bool differs;
    mb_mann_whitney_t mw;
    if (sa && sb && mb_mann_whitney(sa->samples_ns, sa->n, sb->samples_ns, sb->n, &mw) == 0) {
        /* The bootstrap (the costly part: milliseconds a point) only where the rank test
         * finds a difference, to confirm it and give its size. */
        double lo = NAN, hi = NAN;
        bool have_ci = mw.p_value < o->alpha &&
                       mb_bootstrap_median_ratio(sa->samples_ns, sa->n, sb->samples_ns, sb->n,
                                                 o->reps, 0.95, 1, &lo, &hi) == 0;
        json_object_set_new(j, "method", json_string("raw"));
        json_object_set_new(j, "n_a", json_integer((json_int_t)sa->n));
        json_object_set_new(j, "n_b", json_integer((json_int_t)sb->n));
        json_object_set_new(j, "p_value", json_real(mw.p_value));
        /* The test's variance inflation where the experiments came in runs (compare_stats.h). */
        if (mw.serial > 1)
            json_object_set_new(j, "serial_factor", json_real(mw.serial));
        if (have_ci)
            json_object_set_new(j, "ratio_ci95", json_pack("[f,f]", lo, hi));
        differs = mw.p_value < o->alpha && (!have_ci || lo > 1 || hi < 1);
    } else {
        /* No samples: the medians' 95% CIs from results.json, a change only when they do
         * not overlap (a conservative test: overlapping intervals can still differ). */
        const json_t *ca = json_object_get(wa->pt, "ci95"), *cb = json_object_get(wb->pt, "ci95");
        double alo = json_number_value(json_array_get(ca, 0)), ahi = json_number_value(json_array_get(ca, 1));
        double blo = json_number_value(json_array_get(cb, 0)), bhi = json_number_value(json_array_get(cb, 1));
        json_object_set_new(j, "method", json_string("ci95"));
        differs = json_array_size(ca) == 2 && json_array_size(cb) == 2 && (blo > ahi || bhi < alo);
    }
    differs = differs && fabs(change) >= o->min_change;
    json_object_set_new(j, "verdict", json_string(!differs ? "unchanged" : change > 0 ? "slower" : "faster"));
    return j;
}

/* Each benchmark's drift probe (drift_probe.h: a 0-byte pingpong before and after it) in
 * both runs, where both probed it: {name: {"a_ns": [before, after], "b_ns": [before, after],
 * "ratio": the mean of B's two over A's, "apart": off by more than MB_DRIFT_FLAG_RATIO
 * (mb_drift_off)}}. Apart, the node was in another state around it in one run: of the 1145
 * points (of 1383) that differed beyond noise between two default runs, one mostly in the
 * far state (346 ns) and one in the near (103 ns), 1060 lay in such benchmarks (2-core VM,
 * 2026-11-28). */
static json_t *compare_drift_by_benchmark(const json_t *ra, const json_t *rb)
{
    json_t *out = json_object();
    const json_t *ba = json_object_get(ra, "benchmarks"), *bb = json_object_get(rb, "benchmarks");
    for (size_t i = 0; i < json_array_size(ba); i++) {
        const json_t *x = json_array_get(ba, i), *y = NULL;
        const char *name = json_string_value(json_object_get(x, "name"));
        double mean_a, mean_b;
        if (!name || !mb_drift_record_ns(x, &mean_a) || !(mean_a > 0))
            continue;
        for (size_t k = 0; !y && k < json_array_size(bb); k++) {
            const char *other = json_string_value(json_object_get(json_array_get(bb, k), "name"));
            if (other && strcmp(name, other) == 0)
                y = json_array_get(bb, k);
        }
        if (!y || !mb_drift_record_ns(y, &mean_b) || !(mean_b > 0))
            continue;
        const json_t *da = json_object_get(x, "drift_probe"),
                     *db = json_object_get(y, "drift_probe");
        json_object_set_new(
            out, name,
            json_pack("{s:[O,O], s:[O,O], s:f, s:b}", "a_ns", json_object_get(da, "before_ns"),
                      json_object_get(da, "after_ns"), "b_ns", json_object_get(db, "before_ns"),
                      json_object_get(db, "after_ns"), "ratio", mean_b / mean_a, "apart",
                      mb_drift_off(mean_b, mean_a)));
    }
    return out;
}

/* Bump summary[key] by one. */
static void compare_count(json_t *summary, const char *key)
{
    json_object_set_new(summary, key,
                        json_integer(json_integer_value(json_object_get(summary, key)) + 1));
}

static json_t *compare_method(const mb_compare_run_t *a, const mb_compare_run_t *b,
                              const mb_compare_opts_t *o)
{
    char text[1024];
    if (a->raw && b->raw)
        snprintf(text, sizeof text,
                 "change = median(B) / median(A) - 1 per point. From the raw samples "
                 "(raw.csv.gz): Mann-Whitney U test, two-sided, normal approximation with "
                 "tie correction; where p < %g, the 95%% bootstrap CI of median(B) / median(A) "
                 "(%u resamples). Slower or faster when p < %g, the CI excludes 1 and "
                 "|change| >= %g%%; otherwise unchanged.",
                 o->alpha, o->reps, o->alpha, o->min_change * 100);
    else
        snprintf(text, sizeof text,
                 "change = median(B) / median(A) - 1 per point. No raw samples in %s (%s): "
                 "from results.json's 95%% CIs of the medians instead, slower or faster when "
                 "the two intervals do not overlap and |change| >= %g%%; otherwise unchanged.",
                 !a->raw && !b->raw ? "either run" : !a->raw ? "run A" : "run B",
                 !a->raw ? (a->raw_note ? a->raw_note : "none") : (b->raw_note ? b->raw_note : "none"),
                 o->min_change * 100);
    return json_pack("{s:s, s:s, s:f, s:f, s:i}", "text", text, "test",
                     a->raw && b->raw ? "mann-whitney+bootstrap" : "ci95-overlap", "alpha",
                     o->alpha, "min_change", o->min_change, "bootstrap_resamples", (int)o->reps);
}

json_t *mb_compare_runs(const mb_compare_run_t *a, const mb_compare_run_t *b,
                        const mb_compare_opts_t *o)
{
    json_t *ia = compare_index(a->root), *ib = compare_index(b->root);
    json_t *points = json_array(), *only_a = json_array(), *only_b = json_array();
    json_t *summary =
        json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "slower", 0, "faster", 0, "unchanged", 0,
                  "untested", 0, "only_a", 0, "only_b", 0, "in_other_state", 0);
    json_t *drift = compare_drift_by_benchmark(a->root, b->root);
    const json_t *worst_slow = NULL, *worst_fast = NULL;
    const char *key;
    json_t *pos;
    json_object_foreach(ia, key, pos)
    {
        compare_where_t wa = compare_at(a->root, pos);
        json_t *posb = json_object_get(ib, key);
        const char *params = key + strlen(wa.bench) + 1;
        if (!posb) {
            json_array_append_new(only_a, json_pack("{s:s, s:s}", "benchmark", wa.bench, "params", params));
            compare_count(summary, "only_a");
            continue;
        }
        compare_where_t wb = compare_at(b->root, posb);
        json_t *p = compare_point(a, b, &wa, &wb, params, o);
        const char *verdict = json_string_value(json_object_get(p, "verdict"));
        compare_count(summary, verdict);
        if ((strcmp(verdict, "slower") == 0 || strcmp(verdict, "faster") == 0) &&
            json_is_true(json_object_get(json_object_get(drift, wa.bench), "apart")))
            compare_count(summary, "in_other_state");
        double change = json_number_value(json_object_get(p, "change"));
        if (strcmp(verdict, "slower") == 0 &&
            (!worst_slow || change > json_number_value(json_object_get(worst_slow, "change"))))
            worst_slow = p;
        if (strcmp(verdict, "faster") == 0 &&
            (!worst_fast || change < json_number_value(json_object_get(worst_fast, "change"))))
            worst_fast = p;
        json_array_append_new(points, p);
    }
    json_object_foreach(ib, key, pos)
    {
        if (json_object_get(ia, key))
            continue;
        compare_where_t wb = compare_at(b->root, pos);
        json_array_append_new(only_b, json_pack("{s:s, s:s}", "benchmark", wb.bench, "params",
                                                key + strlen(wb.bench) + 1));
        compare_count(summary, "only_b");
    }
    if (worst_slow)
        json_object_set(summary, "largest_slower", (json_t *)worst_slow);
    if (worst_fast)
        json_object_set(summary, "largest_faster", (json_t *)worst_fast);
    json_decref(ia);
    json_decref(ib);
    json_t *cmp = json_pack(
        "{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "schema", MB_COMPARE_SCHEMA, "a",
        compare_run_json(a), "b", compare_run_json(b), "method", compare_method(a, b, o),
        "differences", compare_differences(a->root, b->root), "summary", summary, "points", points,
        "only_a", only_a, "only_b", only_b, "drift_by_benchmark", drift);
    if (cmp) {
        char line[1024];
        mb_compare_summary_text(cmp, line, sizeof line);
        json_object_set_new(summary, "text", json_string(line));
    }
    return cmp;
}

/* "mpi.pingpong size_bytes=65536 +31%" */
static void compare_point_words(const json_t *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s %+.0f%%", json_string_value(json_object_get(p, "benchmark")),
             json_string_value(json_object_get(p, "params")),
             json_number_value(json_object_get(p, "change")) * 100);
}

void mb_compare_summary_text(const json_t *cmp, char *buf, size_t len)
{
    const json_t *s = json_object_get(cmp, "summary");
#define N(k) ((long long)json_integer_value(json_object_get(s, k)))
    char slow[512] = "", fast[512] = "";
    if (json_object_get(s, "largest_slower")) {
        char w[400];
        compare_point_words(json_object_get(s, "largest_slower"), w, sizeof w);
        snprintf(slow, sizeof slow, ", largest: %s", w);
    }
    if (json_object_get(s, "largest_faster")) {
        char w[400];
        compare_point_words(json_object_get(s, "largest_faster"), w, sizeof w);
        snprintf(fast, sizeof fast, ", largest: %s", w);
    }
    char state[160] = "";
    if (N("in_other_state") > 0)
        snprintf(state, sizeof state,
                 "; of the points slower or faster, %lld in benchmarks the drift probe saw in "
                 "another state of the node in one run",
                 N("in_other_state"));
    snprintf(buf, len,
             "%lld point%s slower beyond noise%s; %lld faster%s; %lld unchanged; %lld untested "
             "(failed in a run, or A's median 0); %lld only in A, %lld only in B%s",
             N("slower"), N("slower") == 1 ? "" : "s", slow, N("faster"), fast, N("unchanged"),
             N("untested"), N("only_a"), N("only_b"), state);
#undef N
}
