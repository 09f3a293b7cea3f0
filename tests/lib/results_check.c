/* SPDX-License-Identifier: MIT */
/* Schema check of results.json (docs/results.md, results.h): every required key with its
 * type, and the numbers a reader relies on (finite, positive, min <= median <= max, the CI
 * around the median). Benchmark records are record_check.c's; here the run around them.
 * The first problem is reported with its JSON path, so a failing end-to-end test says
 * exactly which figure is wrong. */
#include "results_check.h"

#include <math.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "drift.h"
#include "record_check.h"
#include "results.h"

/* "2026-11-21T08:00:00Z" */
static int check_timestamp(mb_check_t *c, const json_t *obj, const char *key, bool nullable)
{
    const char *s = NULL;
    if (mb_check_string(c, obj, key, false, nullable, &s) != 0)
        return -1;
    if (!s)
        return 0;
    static const char pattern[] = "dddd-dd-ddTdd:dd:ddZ";
    bool ok = strlen(s) == sizeof pattern - 1;
    for (size_t i = 0; ok && pattern[i]; i++)
        ok = pattern[i] == 'd' ? s[i] >= '0' && s[i] <= '9' : s[i] == pattern[i];
    if (!ok) {
        mb_check_push_key(c, key);
        return mb_check_fail(c, "\"%s\" is not an ISO 8601 UTC time like 2026-11-21T08:00:00Z", s);
    }
    return 0;
}

static int check_node(mb_check_t *c, const json_t *node)
{
    static const char *const strings[] = {"cpu_model", "os",  "kernel",
                                          "governor",  "thp", "clocksource"};
    static const char *const counts[] = {"sockets", "numa_nodes", "cores", "pus", "memory_bytes"};
    if (mb_check_string(c, node, "host", false, false, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        if (mb_check_string(c, node, strings[i], true, true, NULL) != 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        if (mb_check_integer(c, node, counts[i], 1, true, NULL) != 0)
            return -1;
    }
    const json_t *caches = mb_check_get(c, node, "caches", MB_CHECK_ARRAY | MB_CHECK_NULL);
    if (!caches)
        return -1;
    size_t old = mb_check_push_key(c, "caches"), i;
    const json_t *cache;
    json_array_foreach(caches, i, cache)
    {
        size_t o = mb_check_push_index(c, i);
        const char *type = NULL;
        if (!json_is_object(cache))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(cache));
        if (mb_check_integer(c, cache, "level", 1, false, NULL) != 0 ||
            mb_check_string(c, cache, "type", false, false, &type) != 0 ||
            mb_check_integer(c, cache, "size_bytes", 1, false, NULL) != 0 ||
            mb_check_integer(c, cache, "count", 1, false, NULL) != 0)
            return -1;
        if (strcmp(type, "data") != 0 && strcmp(type, "instruction") != 0 &&
            strcmp(type, "unified") != 0) {
            mb_check_push_key(c, "type");
            return mb_check_fail(c, "\"%s\" is not data, instruction or unified", type);
        }
        mb_check_pop(c, o);
    }
    mb_check_pop(c, old);
    return 0;
}

static int check_bindings(mb_check_t *c, const json_t *bindings, json_int_t ranks, json_int_t nodes)
{
    size_t i;
    const json_t *b;
    if (json_array_size(bindings) != (size_t)ranks)
        return mb_check_fail(c, "%zu entries for %" JSON_INTEGER_FORMAT " ranks",
                             json_array_size(bindings), ranks);
    json_array_foreach(bindings, i, b)
    {
        size_t old = mb_check_push_index(c, i);
        json_int_t rank = -1, node = -1;
        if (!json_is_object(b))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(b));
        if (mb_check_integer(c, b, "rank", 0, false, &rank) != 0 ||
            mb_check_integer(c, b, "node", 0, false, &node) != 0 ||
            mb_check_string(c, b, "host", false, false, NULL) != 0 ||
            mb_check_string(c, b, "cpus", true, true, NULL) != 0)
            return -1;
        if (rank != (json_int_t)i)
            return mb_check_fail(
                c, "rank %" JSON_INTEGER_FORMAT " at index %zu (bindings are in rank order)", rank,
                i);
        if (node >= nodes)
            return mb_check_fail(
                c, "node %" JSON_INTEGER_FORMAT " but there are %" JSON_INTEGER_FORMAT " nodes",
                node, nodes);
        mb_check_pop(c, old);
    }
    return 0;
}

static int check_clock(mb_check_t *c, const json_t *clock)
{
    static const struct {
        const char *key;
        mb_check_range_t range;
    } figures[] = {{"nominal_resolution_ns", MB_CHECK_NONNEG},
                   {"resolution_ns", MB_CHECK_POSITIVE},
                   {"overhead_ns", MB_CHECK_NONNEG},
                   {"enough_ns", MB_CHECK_POSITIVE},
                   {"loop_overhead_ns", MB_CHECK_NONNEG}};
    if (mb_check_string(c, clock, "name", false, false, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        if (mb_check_number(c, clock, figures[i].key, figures[i].range, NULL) != 0)
            return -1;
    }
    if (!mb_check_get(c, clock, "enough_verified", MB_CHECK_BOOL))
        return -1;
    return mb_check_string(c, clock, "enough_source", false, false, NULL);
}

static int check_mpi(mb_check_t *c, const json_t *mpi)
{
    if (mb_check_string(c, mpi, "library", false, false, NULL) != 0 ||
        mb_check_string(c, mpi, "standard", false, false, NULL) != 0)
        return -1;
    const json_t *env = mb_check_get(c, mpi, "env", MB_CHECK_OBJECT);
    if (!env)
        return -1;
    size_t old = mb_check_push_key(c, "env");
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)env, key, v)
    {
        if (!mb_check_get(c, env, key, MB_CHECK_STRING))
            return -1;
    }
    mb_check_pop(c, old);
    return 0;
}

static int check_suite(mb_check_t *c, const json_t *suite)
{
    if (mb_check_string(c, suite, "name", false, false, NULL) != 0)
        return -1;
    return mb_check_string(c, suite, "version", false, false, NULL);
}

static int check_string_array(mb_check_t *c, const json_t *arr)
{
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v)
    {
        if (!json_is_string(v)) {
            mb_check_push_index(c, i);
            return mb_check_fail(c, "expected string, got %s", mb_check_type_name(v));
        }
    }
    return 0;
}

static int check_system(mb_check_t *c, const json_t *system)
{
    json_int_t ranks = 0, nodes = 0;
    if (mb_check_sub(c, system, "suite", MB_CHECK_OBJECT, check_suite) != 0 ||
        mb_check_sub(c, system, "command_line", MB_CHECK_ARRAY, check_string_array) != 0 ||
        mb_check_string(c, system, "compiler", false, false, NULL) != 0 ||
        mb_check_string(c, system, "cflags", true, false, NULL) != 0 ||
        mb_check_sub(c, system, "mpi", MB_CHECK_OBJECT, check_mpi) != 0 ||
        mb_check_integer(c, system, "ranks", 1, false, &ranks) != 0 ||
        mb_check_integer(c, system, "nodes", 1, false, &nodes) != 0)
        return -1;
    if (nodes > ranks) {
        mb_check_push_key(c, "nodes");
        return mb_check_fail(c, "%" JSON_INTEGER_FORMAT " nodes for %" JSON_INTEGER_FORMAT " ranks",
                             nodes, ranks);
    }
    const json_t *bindings = mb_check_get(c, system, "bindings", MB_CHECK_ARRAY);
    if (!bindings)
        return -1;
    size_t old = mb_check_push_key(c, "bindings");
    if (check_bindings(c, bindings, ranks, nodes) != 0)
        return -1;
    mb_check_pop(c, old);

    const json_t *list = mb_check_get(c, system, "node_list", MB_CHECK_ARRAY);
    if (!list)
        return -1;
    old = mb_check_push_key(c, "node_list");
    if (json_array_size(list) != (size_t)nodes)
        return mb_check_fail(c, "%zu entries for %" JSON_INTEGER_FORMAT " nodes",
                             json_array_size(list), nodes);
    size_t i;
    const json_t *node;
    json_array_foreach(list, i, node)
    {
        size_t o = mb_check_push_index(c, i);
        if (!json_is_object(node))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(node));
        if (check_node(c, node) != 0)
            return -1;
        mb_check_pop(c, o);
    }
    mb_check_pop(c, old);
    return mb_check_sub(c, system, "clock", MB_CHECK_OBJECT, check_clock);
}

static int check_config(mb_check_t *c, const json_t *config)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)config, key, v)
    {
        if (!mb_check_get(c, config, key, MB_CHECK_OBJECT))
            return -1;
    }
    return 0;
}

/* The pre-flight's cluster table (preflight.h): each node's clock, noise and verdict. */
static int check_preflight_node(mb_check_t *c, const json_t *node)
{
    static const char *const pct[] = {"p50_pct", "p90_pct", "p99_pct", "max_pct"};
    const json_t *flagged;
    const char *why = NULL;
    if (mb_check_string(c, node, "host", false, false, NULL) != 0 ||
        mb_check_integer(c, node, "ranks", 1, false, NULL) != 0 ||
        mb_check_number(c, node, "mhz", MB_CHECK_POSITIVE, NULL) != 0 ||
        mb_check_number(c, node, "tick_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
        !mb_check_get(c, node, "cycles", MB_CHECK_OBJECT) ||
        !mb_check_get(c, node, "per_rank", MB_CHECK_ARRAY) ||
        !(flagged = mb_check_get(c, node, "flagged", MB_CHECK_BOOL)) ||
        mb_check_string(c, node, "why", false, true, &why) != 0)
        return -1;
    if (json_is_true(flagged) != (why != NULL)) {
        mb_check_push_key(c, "why");
        return mb_check_fail(c, "a reason must be given exactly when the node is flagged");
    }
    const json_t *perturb = mb_check_get(c, node, "perturb", MB_CHECK_OBJECT);
    if (!perturb)
        return -1;
    size_t old = mb_check_push_key(c, "perturb");
    for (size_t k = 0; k < sizeof pct / sizeof pct[0]; k++) {
        if (mb_check_number(c, perturb, pct[k], MB_CHECK_NONNEG, NULL) != 0)
            return -1;
    }
    mb_check_pop(c, old);
    /* The detour test's figures, where it ran: the noisiest rank's share of time away. */
    const json_t *detour = json_object_get(node, "detour");
    if (!detour)
        return 0;
    static const char *const detour_nonneg[] = {"per_s", "median_us", "p90_us", "max_us"};
    double lost = 0;
    old = mb_check_push_key(c, "detour");
    if (!json_is_object(detour))
        return mb_check_fail(c, "expected object, got %s", mb_check_type_name(detour));
    if (mb_check_number(c, detour, "span_ms", MB_CHECK_POSITIVE, NULL) != 0 ||
        mb_check_number(c, detour, "threshold_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
        mb_check_integer(c, detour, "count", 0, false, NULL) != 0 ||
        mb_check_integer(c, detour, "rank", 0, false, NULL) != 0 ||
        mb_check_number(c, detour, "lost_pct", MB_CHECK_NONNEG, &lost) != 0)
        return -1;
    for (size_t k = 0; k < sizeof detour_nonneg / sizeof detour_nonneg[0]; k++)
        if (mb_check_number(c, detour, detour_nonneg[k], MB_CHECK_NONNEG, NULL) != 0)
            return -1;
    if (lost > 100) {
        mb_check_push_key(c, "lost_pct");
        return mb_check_fail(c, "%g%% of the time lost: more than all of it", lost);
    }
    mb_check_pop(c, old);
    return 0;
}

/* mhz may fail honestly ("system too busy"): then its figures are null. */
static int check_preflight(mb_check_t *c, const json_t *pre, int expect_nodes)
{
    const json_t *nodes = mb_check_get(c, pre, "nodes", MB_CHECK_ARRAY);
    if (!nodes)
        return -1;
    size_t old = mb_check_push_key(c, "nodes"), i;
    if (expect_nodes > 0 && json_array_size(nodes) != (size_t)expect_nodes)
        return mb_check_fail(c, "%zu nodes, expected %d", json_array_size(nodes), expect_nodes);
    const json_t *node;
    json_array_foreach(nodes, i, node)
    {
        size_t o = mb_check_push_index(c, i);
        if (!json_is_object(node))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(node));
        const json_t *mhz = json_object_get(node, "mhz");
        if (json_is_null(mhz) && !json_is_false(json_object_get(node, "mhz_ok")))
            return mb_check_fail(c, "mhz is null but mhz_ok is not false");
        if (json_is_null(mhz)) {
            /* Only the mhz figures may be null; check the rest on a copy without them. */
            json_t *copy = json_deep_copy(node);
            json_object_set_new(copy, "mhz", json_real(1));
            json_object_set_new(copy, "tick_ns", json_real(1));
            int rc = check_preflight_node(c, copy);
            json_decref(copy);
            if (rc != 0)
                return -1;
        } else if (check_preflight_node(c, node) != 0) {
            return -1;
        }
        mb_check_pop(c, o);
    }
    mb_check_pop(c, old);
    return 0;
}

/* "timings" (timings.h): the total, each phase's name (once) and wall time, which together
 * fit in the total, and rank 0's peak memory. With `require`, every phase of a finished run. */
static int check_timings(mb_check_t *c, const json_t *timings, bool require)
{
    static const char *const required[] = {MB_RESULTS_CHECK_PHASES};
    double total_s = 0, sum_s = 0;
    if (mb_check_number(c, timings, "total_s", MB_CHECK_NONNEG, &total_s) != 0 ||
        mb_check_integer(c, timings, "rank0_peak_rss_bytes", 0, false, NULL) != 0)
        return -1;
    const json_t *phases = mb_check_get(c, timings, "phases", MB_CHECK_ARRAY);
    if (!phases)
        return -1;
    size_t old = mb_check_push_key(c, "phases"), i;
    const json_t *p;
    json_array_foreach(phases, i, p)
    {
        size_t o = mb_check_push_index(c, i);
        const char *name = NULL;
        double wall_s = 0;
        if (!json_is_object(p))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(p));
        if (mb_check_string(c, p, "name", false, false, &name) != 0 ||
            mb_check_number(c, p, "wall_s", MB_CHECK_NONNEG, &wall_s) != 0)
            return -1;
        for (size_t k = 0; k < i; k++) {
            if (strcmp(json_string_value(json_object_get(json_array_get(phases, k), "name")),
                       name) == 0)
                return mb_check_fail(c, "phase \"%s\" is listed twice (at %zu and %zu)", name, k,
                                     i);
        }
        sum_s += wall_s;
        mb_check_pop(c, o);
    }
    /* Laps from one mark never overlap; the slack covers the 10 digits written. */
    if (sum_s > total_s * (1 + 1e-8) + 1e-9)
        return mb_check_fail(c, "the phases add up to %.10g s, more than total_s %.10g s", sum_s,
                             total_s);
    for (size_t r = 0; require && r < sizeof required / sizeof required[0]; r++) {
        bool found = false;
        json_array_foreach(phases, i, p)
        {
            if (strcmp(json_string_value(json_object_get(p, "name")), required[r]) == 0)
                found = true;
        }
        if (!found)
            return mb_check_fail(c, "no phase \"%s\"", required[r]);
    }
    mb_check_pop(c, old);
    return 0;
}

/* One point of a "predictions" entry: measured_ns > 0; predicted_ns >= 0 with error_pct
 * and extrapolated, or both null with the error text saying why. */
static int check_prediction_point(mb_check_t *c, const json_t *pt)
{
    double measured, predicted, e;
    if (!mb_check_get(c, pt, "params", MB_CHECK_OBJECT) ||
        mb_check_number(c, pt, "measured_ns", MB_CHECK_POSITIVE, &measured) != 0)
        return -1;
    if (json_is_null(json_object_get(pt, "predicted_ns"))) {
        if (!json_is_null(json_object_get(pt, "error_pct")))
            return mb_check_fail(c, "error_pct without predicted_ns");
        return mb_check_string(c, pt, "error", false, false, NULL);
    }
    if (mb_check_number(c, pt, "predicted_ns", MB_CHECK_NONNEG, &predicted) != 0 ||
        !mb_check_get(c, pt, "extrapolated", MB_CHECK_BOOL) ||
        !mb_check_get(c, pt, "error_pct", MB_CHECK_NUMBER))
        return -1;
    e = json_number_value(json_object_get(pt, "error_pct"));
    if (fabs(e - (predicted - measured) / measured * 100.0) > 1e-6 * fmax(1.0, fabs(e))) {
        mb_check_push_key(c, "error_pct");
        return mb_check_fail(c, "%g is not (predicted - measured) / measured x 100", e);
    }
    return 0;
}

/* "predictions": one entry per benchmark that ran and has "composed_of", each with a point
 * per measured point of it. */
static int check_predictions(mb_check_t *c, const json_t *pred, const json_t *benchmarks)
{
    size_t i, j, entries = 0;
    const json_t *e, *b, *pt;
    json_array_foreach(pred, i, e)
    {
        size_t old = mb_check_push_index(c, i);
        const char *name = NULL;
        if (!json_is_object(e))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(e));
        if (mb_check_string(c, e, "name", false, false, &name) != 0 ||
            mb_check_string(c, e, "recipe", false, false, NULL) != 0 ||
            mb_check_integer(c, e, "predicted_points", 0, false, NULL) != 0)
            return -1;
        if (!json_is_null(json_object_get(e, "median_abs_error_pct")) &&
            mb_check_number(c, e, "median_abs_error_pct", MB_CHECK_NONNEG, NULL) != 0)
            return -1;
        if (json_object_get(e, "drift_ratio") && !json_is_null(json_object_get(e, "drift_ratio")) &&
            mb_check_number(c, e, "drift_ratio", MB_CHECK_POSITIVE, NULL) != 0)
            return -1;
        const json_t *pts = mb_check_get(c, e, "points", MB_CHECK_ARRAY);
        if (!pts)
            return -1;
        size_t measured = 0, o = mb_check_push_key(c, "points");
        json_array_foreach(pts, j, pt)
        {
            size_t k = mb_check_push_index(c, j);
            if (!json_is_object(pt))
                return mb_check_fail(c, "expected object, got %s", mb_check_type_name(pt));
            if (check_prediction_point(c, pt) != 0)
                return -1;
            mb_check_pop(c, k);
        }
        mb_check_pop(c, o);
        const json_t *bench = NULL;
        json_array_foreach(benchmarks, j, b)
        {
            if (strcmp(json_string_value(json_object_get(b, "name")), name) == 0)
                bench = b;
        }
        if (!bench || !json_object_get(bench, "composed_of"))
            return mb_check_fail(c, "\"%s\" is no benchmark with a recipe (composed_of)", name);
        json_array_foreach(json_object_get(bench, "points"), j, pt)
            measured += json_is_string(json_object_get(pt, "status")) &&
                        strcmp(json_string_value(json_object_get(pt, "status")), "ok") == 0;
        if (measured != json_array_size(pts))
            return mb_check_fail(c, "%zu points, but %s measured %zu", json_array_size(pts), name,
                                 measured);
        entries++;
        mb_check_pop(c, old);
    }
    size_t want = 0;
    json_array_foreach(benchmarks, j, b)
        want += json_object_get(b, "composed_of") && json_is_null(json_object_get(b, "skipped"));
    if (entries != want)
        return mb_check_fail(c, "%zu entries, but %zu benchmarks ran with a recipe", entries, want);
    return 0;
}

/* A benchmark's drift probe readings (drift_probe.h), where it has them. */
static int check_drift_probe(mb_check_t *c, const json_t *b, size_t *probed)
{
    const json_t *probe = json_object_get(b, "drift_probe");
    if (!probe)
        return 0;
    size_t old = mb_check_push_key(c, "drift_probe");
    if (!json_is_object(probe))
        return mb_check_fail(c, "expected object, got %s", mb_check_type_name(probe));
    if (mb_check_number(c, probe, "before_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
        mb_check_number(c, probe, "after_ns", MB_CHECK_POSITIVE, NULL) != 0)
        return -1;
    mb_check_pop(c, old);
    (*probed)++;
    return 0;
}

/* A benchmark's drift re-measure note (src/run/remeasure.h), where it has one: measured
 * again, with its first measurement's readings, the reading that let it and how many times,
 * the record then probed itself; or not, with why. */
static int check_drift_remeasure(mb_check_t *c, const json_t *b)
{
    const json_t *note = json_object_get(b, "drift_remeasure");
    if (!note)
        return 0;
    size_t old = mb_check_push_key(c, "drift_remeasure");
    if (!json_is_object(note))
        return mb_check_fail(c, "expected object, got %s", mb_check_type_name(note));
    const json_t *again = mb_check_get(c, note, "measured_again", MB_CHECK_BOOL);
    if (!again)
        return -1;
    if (!json_is_true(again)) {
        if (mb_check_string(c, note, "why", false, false, NULL) != 0)
            return -1;
    } else if (mb_check_number(c, note, "first_before_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
               mb_check_number(c, note, "first_after_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
               mb_check_number(c, note, "probe_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
               /* absent from files written before a re-measure could be tried twice */
               (json_object_get(note, "attempts") &&
                mb_check_integer(c, note, "attempts", 1, false, NULL) != 0)) {
        return -1;
    } else if (json_object_get(note, "kept_attempt") &&
               (mb_check_integer(c, note, "kept_attempt", 1, false, NULL) != 0 ||
                mb_check_number(c, note, "not_kept_probe_ns", MB_CHECK_POSITIVE, NULL) != 0)) {
        return -1;
    } else if (json_object_get(note, "kept_attempt") &&
               json_integer_value(json_object_get(note, "kept_attempt")) >=
                   json_integer_value(json_object_get(note, "attempts"))) {
        return mb_check_fail(c, "\"kept_attempt\" %lld is not before the last of \"attempts\"",
                             (long long)json_integer_value(json_object_get(note, "kept_attempt")));
    } else if (!json_object_get(b, "drift_probe")) {
        return mb_check_fail(c, "measured again, but the record has no \"drift_probe\"");
    }
    mb_check_pop(c, old);
    return 0;
}

/* The benchmark named name among benchmarks whose record has key, or NULL. */
static const json_t *check_named_with(const json_t *benchmarks, const char *name, const char *key)
{
    const json_t *x;
    size_t j;
    json_array_foreach(benchmarks, j, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        if (n && strcmp(n, name) == 0 && json_object_get(x, key))
            return x;
    }
    return NULL;
}

/* "drift"'s "remeasured" and "not_remeasured" (optional): each a benchmark whose record
 * says the same in its "drift_remeasure". */
static int check_drift_remeasure_lists(mb_check_t *c, const json_t *drift, const json_t *benchmarks)
{
    static const char *const keys[] = {"remeasured", "not_remeasured"};
    for (int k = 0; k < 2; k++) {
        const json_t *list = json_object_get(drift, keys[k]), *e;
        if (!list)
            continue;
        size_t old = mb_check_push_key(c, keys[k]), i;
        if (!json_is_array(list))
            return mb_check_fail(c, "expected array, got %s", mb_check_type_name(list));
        json_array_foreach(list, i, e)
        {
            size_t at = mb_check_push_index(c, i);
            const char *name = NULL;
            if (!json_is_object(e))
                return mb_check_fail(c, "expected object, got %s", mb_check_type_name(e));
            if (mb_check_string(c, e, "name", false, false, &name) != 0 ||
                (k == 0 ? mb_check_number(c, e, "first_before_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
                              mb_check_number(c, e, "first_after_ns", MB_CHECK_POSITIVE, NULL) != 0
                        : mb_check_string(c, e, "why", false, false, NULL) != 0))
                return -1;
            const json_t *b = check_named_with(benchmarks, name, "drift_remeasure");
            if (!b || json_is_true(json_object_get(json_object_get(b, "drift_remeasure"),
                                                   "measured_again")) != (k == 0))
                return mb_check_fail(c, "\"%s\" has no record that says it was %s", name,
                                     k == 0 ? "measured again" : "not measured again");
            mb_check_pop(c, at);
        }
        mb_check_pop(c, old);
    }
    return 0;
}

/* "drift" (drift.h): two readings per probed benchmark, a positive median, and every
 * flagged name a probed benchmark's. */
static int check_drift(mb_check_t *c, const json_t *drift, const json_t *benchmarks, size_t probed)
{
    if (!json_is_object(drift))
        return mb_check_fail(c, "expected object, got %s", mb_check_type_name(drift));
    json_int_t probes = 0;
    double ratio = 0;
    const json_t *pair = json_object_get(drift, "pair");
    if (pair && (!json_is_string(pair) || (strcmp(json_string_value(pair), "intra") != 0 &&
                                           strcmp(json_string_value(pair), "inter") != 0))) {
        mb_check_push_key(c, "pair");
        return mb_check_fail(c, "expected \"intra\" or \"inter\"");
    }
    if (mb_check_string(c, drift, "method", false, false, NULL) != 0 ||
        mb_check_number(c, drift, "median_ns", MB_CHECK_POSITIVE, NULL) != 0 ||
        (json_object_get(drift, "usual_ns") &&
         mb_check_number(c, drift, "usual_ns", MB_CHECK_POSITIVE, NULL) != 0) ||
        mb_check_number(c, drift, "flag_ratio", MB_CHECK_POSITIVE, &ratio) != 0 ||
        mb_check_integer(c, drift, "probes", 2, false, &probes) != 0)
        return -1;
    if (ratio <= 1)
        return mb_check_fail(c, "flag_ratio %g: a ratio must be over 1", ratio);
    /* The other state, where the readings fall into two: both keys or neither, fewer
     * readings than all, and apart from the usual state by more than the flag ratio. */
    json_int_t other_probes = 0;
    double other = 0, usual = 0;
    if (json_object_get(drift, "other_ns") || json_object_get(drift, "other_probes")) {
        if (mb_check_number(c, drift, "other_ns", MB_CHECK_POSITIVE, &other) != 0 ||
            mb_check_integer(c, drift, "other_probes", 1, false, &other_probes) != 0 ||
            mb_check_number(c, drift, "usual_ns", MB_CHECK_POSITIVE, &usual) != 0)
            return -1;
        if (2 * other_probes > probes)
            return mb_check_fail(c,
                                 "other_probes %" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
                                 ": the other state has no more readings than the usual",
                                 other_probes, probes);
        if (!mb_drift_off(other, usual))
            return mb_check_fail(c, "other_ns %g is within %g x of usual_ns %g", other, ratio,
                                 usual);
    }
    if ((size_t)probes != 2 * probed)
        return mb_check_fail(c,
                             "%" JSON_INTEGER_FORMAT " probes, but %zu benchmarks were probed "
                             "(two readings each)",
                             probes, probed);
    const json_t *flagged = mb_check_get(c, drift, "flagged", MB_CHECK_ARRAY), *f;
    if (!flagged)
        return -1;
    size_t old = mb_check_push_key(c, "flagged"), i;
    json_array_foreach(flagged, i, f)
    {
        size_t k = mb_check_push_index(c, i);
        const char *name = NULL;
        if (!json_is_object(f))
            return mb_check_fail(c, "expected object, got %s", mb_check_type_name(f));
        if (mb_check_string(c, f, "name", false, false, &name) != 0 ||
            mb_check_number(c, f, "ratio", MB_CHECK_POSITIVE, NULL) != 0)
            return -1;
        if (!check_named_with(benchmarks, name, "drift_probe"))
            return mb_check_fail(c, "\"%s\" is no probed benchmark", name);
        mb_check_pop(c, k);
    }
    mb_check_pop(c, old);
    return check_drift_remeasure_lists(c, drift, benchmarks);
}

static int check_expected(mb_check_t *c, const json_t *benchmarks, const char *want)
{
    size_t i;
    const json_t *b;
    json_array_foreach(benchmarks, i, b)
    {
        if (strcmp(json_string_value(json_object_get(b, "name")), want) != 0)
            continue;
        const char *skipped = json_string_value(json_object_get(b, "skipped"));
        if (skipped) {
            mb_check_push_index(c, i);
            return mb_check_fail(c, "expected benchmark \"%s\" was skipped: %s", want, skipped);
        }
        return 0;
    }
    return mb_check_fail(c, "expected benchmark \"%s\" is missing", want);
}

int mb_results_check(const json_t *root, const mb_results_check_opts_t *opts,
                     mb_results_check_counts_t *counts, char *err, size_t errlen)
{
    mb_check_t c = {.path = "$", .len = 1, .err = err, .errlen = errlen};
    const char *schema = NULL;
    size_t npoints = 0, nfailed = 0, probed = 0;

    if (!json_is_object(root))
        return mb_check_fail(&c, "expected object, got %s",
                             root ? mb_check_type_name(root) : "nothing");
    if (mb_check_string(&c, root, "schema", false, false, &schema) != 0)
        return -1;
    if (strcmp(schema, MB_RESULTS_SCHEMA) != 0) {
        mb_check_push_key(&c, "schema");
        return mb_check_fail(&c, "\"%s\", expected \"%s\"", schema, MB_RESULTS_SCHEMA);
    }
    const json_t *complete = mb_check_get(&c, root, "complete", MB_CHECK_BOOL);
    if (!complete)
        return -1;
    if (opts && opts->require_complete && !json_is_true(complete)) {
        mb_check_push_key(&c, "complete");
        return mb_check_fail(&c, "false, but the run must be complete");
    }
    if (check_timestamp(&c, root, "started_utc", false) != 0 ||
        check_timestamp(&c, root, "finished_utc", !json_is_true(complete)) != 0 ||
        mb_check_sub(&c, root, "system", MB_CHECK_OBJECT, check_system) != 0 ||
        mb_check_sub(&c, root, "config", MB_CHECK_OBJECT, check_config) != 0)
        return -1;

    const json_t *pre = json_object_get(root, "preflight");
    int expect_nodes = opts ? opts->expect_preflight_nodes : 0;
    if (expect_nodes > 0 && !pre)
        return mb_check_fail(&c, "no \"preflight\" section, expected one with %d node(s)",
                             expect_nodes);
    if (pre) {
        size_t old = mb_check_push_key(&c, "preflight");
        if (!json_is_object(pre))
            return mb_check_fail(&c, "expected object, got %s", mb_check_type_name(pre));
        if (check_preflight(&c, pre, expect_nodes) != 0)
            return -1;
        mb_check_pop(&c, old);
    }

    const json_t *timings = json_object_get(root, "timings");
    bool need_timings = opts && opts->require_timings;
    if (need_timings && !timings)
        return mb_check_fail(&c, "missing key \"timings\"");
    if (timings) {
        size_t old = mb_check_push_key(&c, "timings");
        if (!json_is_object(timings))
            return mb_check_fail(&c, "expected object, got %s", mb_check_type_name(timings));
        if (check_timings(&c, timings, need_timings) != 0)
            return -1;
        mb_check_pop(&c, old);
    }

    const json_t *benchmarks = mb_check_get(&c, root, "benchmarks", MB_CHECK_ARRAY);
    if (!benchmarks)
        return -1;
    size_t top = mb_check_push_key(&c, "benchmarks");
    size_t i;
    const json_t *b;
    json_array_foreach(benchmarks, i, b)
    {
        size_t old = mb_check_push_index(&c, i);
        if (!json_is_object(b))
            return mb_check_fail(&c, "expected object, got %s", mb_check_type_name(b));
        if (mb_record_check(&c, b, &npoints, &nfailed) != 0 ||
            check_drift_probe(&c, b, &probed) != 0 || check_drift_remeasure(&c, b) != 0)
            return -1;
        /* Every figure measured after a pre-flight carries its node's noise. */
        if (pre && json_is_null(json_object_get(b, "skipped")) &&
            !mb_check_get(&c, b, "node_noise", MB_CHECK_OBJECT))
            return -1;
        /* A run that accounts for its time does so for every benchmark it measured. */
        if (need_timings && json_is_null(json_object_get(b, "skipped")) &&
            mb_check_number(&c, b, "wall_s", MB_CHECK_NONNEG, NULL) != 0)
            return -1;
        mb_check_pop(&c, old);
    }
    mb_check_pop(&c, top);
    /* Where the run was complete (fitted), its probes were summarised. */
    const json_t *drift = json_object_get(root, "drift");
    if (!drift && probed && json_object_get(root, "fits"))
        return mb_check_fail(&c, "%zu benchmarks were probed for drift, but no \"drift\"", probed);
    if (drift) {
        size_t old = mb_check_push_key(&c, "drift");
        if (check_drift(&c, drift, benchmarks, probed) != 0)
            return -1;
        mb_check_pop(&c, old);
    }
    const json_t *pred = json_object_get(root, "predictions");
    /* Where the fits were made, the patterns were predicted from them. */
    size_t recipes = 0;
    json_array_foreach(benchmarks, i, b) recipes +=
        json_object_get(b, "composed_of") && json_is_null(json_object_get(b, "skipped"));
    if (!pred && recipes && json_object_get(root, "fits"))
        return mb_check_fail(&c, "\"fits\" but no \"predictions\" for the %zu benchmarks with a "
                                 "recipe",
                             recipes);
    if (pred) {
        size_t old = mb_check_push_key(&c, "predictions");
        if (!json_is_array(pred))
            return mb_check_fail(&c, "expected array, got %s", mb_check_type_name(pred));
        if (check_predictions(&c, pred, benchmarks) != 0)
            return -1;
        mb_check_pop(&c, old);
    }
    json_int_t declared = 0;
    if (mb_check_integer(&c, root, "failed_points", 0, false, &declared) != 0)
        return -1;
    if ((size_t)declared != nfailed) {
        mb_check_push_key(&c, "failed_points");
        return mb_check_fail(&c, "%" JSON_INTEGER_FORMAT " but %zu points failed in all", declared,
                             nfailed);
    }
    mb_check_push_key(&c, "benchmarks");
    for (size_t e = 0; opts && e < opts->n_expect_bench; e++) {
        if (check_expected(&c, benchmarks, opts->expect_bench[e]) != 0)
            return -1;
    }
    if (counts) {
        counts->benchmarks = json_array_size(benchmarks);
        counts->points = npoints;
        counts->failed = nfailed;
    }
    return 0;
}
