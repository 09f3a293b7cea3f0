/* SPDX-License-Identifier: MIT */
/* Schema check of results.json (results.h): every required key with its type, and the
 * numbers a reader relies on (finite, positive, min <= median <= max, the CI around the
 * median). The first problem is reported with its JSON path, so a failing end-to-end test
 * says exactly which figure is wrong. */
#include "results_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "results.h"

/* Interpolated figures (mean, p90, p99) may sit a rounding error outside their bounds. */
#define CHECK_REL_TOL 1e-9

enum {
    CHECK_NULL = 1u << 0,
    CHECK_STRING = 1u << 1,
    CHECK_INTEGER = 1u << 2,
    CHECK_NUMBER = 1u << 3, /* integer or real */
    CHECK_BOOL = 1u << 4,
    CHECK_OBJECT = 1u << 5,
    CHECK_ARRAY = 1u << 6,
};

typedef enum check_range {
    CHECK_POSITIVE = 0, /* > 0 */
    CHECK_NONNEG,       /* >= 0 */
} check_range_t;

typedef struct check {
    char path[512]; /* JSON path of the value being checked */
    size_t len;
    char *err;
    size_t errlen;
} check_t;

static size_t check_push_key(check_t *c, const char *key)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, ".%s", key);
    if (n > 0)
        c->len = c->len + (size_t)n < sizeof c->path ? c->len + (size_t)n : sizeof c->path - 1;
    return old;
}

static size_t check_push_index(check_t *c, size_t i)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, "[%zu]", i);
    if (n > 0)
        c->len = c->len + (size_t)n < sizeof c->path ? c->len + (size_t)n : sizeof c->path - 1;
    return old;
}

static void check_pop(check_t *c, size_t old)
{
    c->len = old;
    c->path[old] = '\0';
}

__attribute__((format(printf, 2, 3))) static int check_fail(check_t *c, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s: %s", c->path, msg);
    return -1;
}

static const char *check_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "real";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static bool check_is_kind(const json_t *v, unsigned kinds)
{
    return ((kinds & CHECK_NULL) && json_is_null(v)) || ((kinds & CHECK_STRING) && json_is_string(v)) ||
           ((kinds & CHECK_INTEGER) && json_is_integer(v)) || ((kinds & CHECK_NUMBER) && json_is_number(v)) ||
           ((kinds & CHECK_BOOL) && json_is_boolean(v)) || ((kinds & CHECK_OBJECT) && json_is_object(v)) ||
           ((kinds & CHECK_ARRAY) && json_is_array(v));
}

static void check_kind_names(unsigned kinds, char *buf, size_t len)
{
    static const struct {
        unsigned kind;
        const char *name;
    } names[] = {{CHECK_OBJECT, "object"}, {CHECK_ARRAY, "array"},     {CHECK_STRING, "string"},
                 {CHECK_INTEGER, "integer"}, {CHECK_NUMBER, "number"}, {CHECK_BOOL, "boolean"},
                 {CHECK_NULL, "null"}};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(kinds & names[i].kind) || used >= len)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " or " : "", names[i].name);
        if (n > 0)
            used += (size_t)n;
    }
}

/* The value at obj.key if present and of one of `kinds`; else NULL with the error set.
 * The path is left pointing at the key only on failure. */
static const json_t *check_get(check_t *c, const json_t *obj, const char *key, unsigned kinds)
{
    const json_t *v = json_object_get(obj, key);
    if (!v) {
        check_fail(c, "missing key \"%s\"", key);
        return NULL;
    }
    if (!check_is_kind(v, kinds)) {
        char want[96];
        check_kind_names(kinds, want, sizeof want);
        check_push_key(c, key);
        check_fail(c, "expected %s, got %s", want, check_type_name(v));
        return NULL;
    }
    return v;
}

/* A string; non-empty unless allow_empty; null also accepted when nullable (*out = NULL). */
static int check_string(check_t *c, const json_t *obj, const char *key, bool allow_empty, bool nullable,
                        const char **out)
{
    const json_t *v = check_get(c, obj, key, CHECK_STRING | (nullable ? CHECK_NULL : 0));
    if (!v)
        return -1;
    const char *s = json_string_value(v);
    if (s && !allow_empty && !*s) {
        check_push_key(c, key);
        return check_fail(c, "must not be empty");
    }
    if (out)
        *out = s;
    return 0;
}

static int check_integer(check_t *c, const json_t *obj, const char *key, json_int_t min, bool nullable,
                         json_int_t *out)
{
    const json_t *v = check_get(c, obj, key, CHECK_INTEGER | (nullable ? CHECK_NULL : 0));
    if (!v)
        return -1;
    if (json_is_null(v))
        return 0;
    json_int_t i = json_integer_value(v);
    if (i < min) {
        check_push_key(c, key);
        return check_fail(c, "%" JSON_INTEGER_FORMAT " is below the minimum %" JSON_INTEGER_FORMAT, i, min);
    }
    if (out)
        *out = i;
    return 0;
}

static int check_number_value(check_t *c, const json_t *v, check_range_t range, double *out)
{
    if (!json_is_number(v))
        return check_fail(c, "expected number, got %s", v ? check_type_name(v) : "nothing");
    double d = json_number_value(v);
    if (!isfinite(d))
        return check_fail(c, "must be finite");
    if (range == CHECK_POSITIVE && !(d > 0))
        return check_fail(c, "%.10g must be positive", d);
    if (range == CHECK_NONNEG && !(d >= 0))
        return check_fail(c, "%.10g must not be negative", d);
    if (out)
        *out = d;
    return 0;
}

static int check_number(check_t *c, const json_t *obj, const char *key, check_range_t range, double *out)
{
    if (!check_get(c, obj, key, CHECK_NUMBER))
        return -1;
    size_t old = check_push_key(c, key);
    if (check_number_value(c, json_object_get(obj, key), range, out) != 0)
        return -1;
    check_pop(c, old);
    return 0;
}

/* [lo, hi]: lo >= 0 (a time below the clock's resolution), hi > 0, lo <= hi. */
static int check_interval(check_t *c, const json_t *obj, const char *key, double *lo, double *hi)
{
    const json_t *v = check_get(c, obj, key, CHECK_ARRAY);
    if (!v)
        return -1;
    size_t old = check_push_key(c, key);
    if (json_array_size(v) != 2)
        return check_fail(c, "expected [lo, hi], got %zu elements", json_array_size(v));
    for (size_t i = 0; i < 2; i++) {
        size_t o = check_push_index(c, i);
        if (check_number_value(c, json_array_get(v, i), i ? CHECK_POSITIVE : CHECK_NONNEG, i ? hi : lo) != 0)
            return -1;
        check_pop(c, o);
    }
    if (*lo > *hi)
        return check_fail(c, "lo %.10g > hi %.10g", *lo, *hi);
    check_pop(c, old);
    return 0;
}

/* a <= b, with a relative tolerance for interpolated figures. */
static int check_order(check_t *c, const char *an, double a, const char *bn, double b, bool tolerant)
{
    double slack = tolerant ? CHECK_REL_TOL * fmax(fabs(a), fabs(b)) : 0;
    if (a > b + slack)
        return check_fail(c, "%s %.10g > %s %.10g", an, a, bn, b);
    return 0;
}

/* "2026-11-21T08:00:00Z" */
static int check_timestamp(check_t *c, const json_t *obj, const char *key, bool nullable)
{
    const char *s = NULL;
    if (check_string(c, obj, key, false, nullable, &s) != 0)
        return -1;
    if (!s)
        return 0;
    static const char pattern[] = "dddd-dd-ddTdd:dd:ddZ";
    bool ok = strlen(s) == sizeof pattern - 1;
    for (size_t i = 0; ok && pattern[i]; i++)
        ok = pattern[i] == 'd' ? s[i] >= '0' && s[i] <= '9' : s[i] == pattern[i];
    if (!ok) {
        check_push_key(c, key);
        return check_fail(c, "\"%s\" is not an ISO 8601 UTC time like 2026-11-21T08:00:00Z", s);
    }
    return 0;
}

static int check_node(check_t *c, const json_t *node)
{
    static const char *const strings[] = {"cpu_model", "os", "kernel", "governor", "thp", "clocksource"};
    static const char *const counts[] = {"sockets", "numa_nodes", "cores", "pus", "memory_bytes"};
    if (check_string(c, node, "host", false, false, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        if (check_string(c, node, strings[i], true, true, NULL) != 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        if (check_integer(c, node, counts[i], 1, true, NULL) != 0)
            return -1;
    }
    const json_t *caches = check_get(c, node, "caches", CHECK_ARRAY | CHECK_NULL);
    if (!caches)
        return -1;
    size_t old = check_push_key(c, "caches"), i;
    const json_t *cache;
    json_array_foreach(caches, i, cache) {
        size_t o = check_push_index(c, i);
        const char *type = NULL;
        if (!json_is_object(cache))
            return check_fail(c, "expected object, got %s", check_type_name(cache));
        if (check_integer(c, cache, "level", 1, false, NULL) != 0 ||
            check_string(c, cache, "type", false, false, &type) != 0 ||
            check_integer(c, cache, "size_bytes", 1, false, NULL) != 0 ||
            check_integer(c, cache, "count", 1, false, NULL) != 0)
            return -1;
        if (strcmp(type, "data") != 0 && strcmp(type, "instruction") != 0 && strcmp(type, "unified") != 0) {
            check_push_key(c, "type");
            return check_fail(c, "\"%s\" is not data, instruction or unified", type);
        }
        check_pop(c, o);
    }
    check_pop(c, old);
    return 0;
}

static int check_bindings(check_t *c, const json_t *bindings, json_int_t ranks, json_int_t nodes)
{
    size_t i;
    const json_t *b;
    if (json_array_size(bindings) != (size_t)ranks)
        return check_fail(c, "%zu entries for %" JSON_INTEGER_FORMAT " ranks", json_array_size(bindings), ranks);
    json_array_foreach(bindings, i, b) {
        size_t old = check_push_index(c, i);
        json_int_t rank = -1, node = -1;
        if (!json_is_object(b))
            return check_fail(c, "expected object, got %s", check_type_name(b));
        if (check_integer(c, b, "rank", 0, false, &rank) != 0 || check_integer(c, b, "node", 0, false, &node) != 0 ||
            check_string(c, b, "host", false, false, NULL) != 0 || check_string(c, b, "cpus", true, true, NULL) != 0)
            return -1;
        if (rank != (json_int_t)i)
            return check_fail(c, "rank %" JSON_INTEGER_FORMAT " at index %zu (bindings are in rank order)", rank, i);
        if (node >= nodes)
            return check_fail(c, "node %" JSON_INTEGER_FORMAT " but there are %" JSON_INTEGER_FORMAT " nodes", node,
                              nodes);
        check_pop(c, old);
    }
    return 0;
}

static int check_clock(check_t *c, const json_t *clock)
{
    static const struct {
        const char *key;
        check_range_t range;
    } figures[] = {{"nominal_resolution_ns", CHECK_NONNEG}, {"resolution_ns", CHECK_POSITIVE},
                   {"overhead_ns", CHECK_NONNEG},           {"enough_ns", CHECK_POSITIVE},
                   {"loop_overhead_ns", CHECK_NONNEG}};
    if (check_string(c, clock, "name", false, false, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        if (check_number(c, clock, figures[i].key, figures[i].range, NULL) != 0)
            return -1;
    }
    if (!check_get(c, clock, "enough_verified", CHECK_BOOL))
        return -1;
    return check_string(c, clock, "enough_source", false, false, NULL);
}

static int check_mpi(check_t *c, const json_t *mpi)
{
    if (check_string(c, mpi, "library", false, false, NULL) != 0 ||
        check_string(c, mpi, "standard", false, false, NULL) != 0)
        return -1;
    const json_t *env = check_get(c, mpi, "env", CHECK_OBJECT);
    if (!env)
        return -1;
    size_t old = check_push_key(c, "env");
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)env, key, v) {
        if (!check_get(c, env, key, CHECK_STRING))
            return -1;
    }
    check_pop(c, old);
    return 0;
}

/* Looks up obj.key (of the given kinds), then runs fn on it with the path extended. */
static int check_sub(check_t *c, const json_t *obj, const char *key, unsigned kinds,
                     int (*fn)(check_t *, const json_t *))
{
    const json_t *v = check_get(c, obj, key, kinds);
    if (!v)
        return -1;
    size_t old = check_push_key(c, key);
    if (fn(c, v) != 0)
        return -1;
    check_pop(c, old);
    return 0;
}

static int check_suite(check_t *c, const json_t *suite)
{
    if (check_string(c, suite, "name", false, false, NULL) != 0)
        return -1;
    return check_string(c, suite, "version", false, false, NULL);
}

static int check_string_array(check_t *c, const json_t *arr)
{
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        if (!json_is_string(v)) {
            check_push_index(c, i);
            return check_fail(c, "expected string, got %s", check_type_name(v));
        }
    }
    return 0;
}

static int check_system(check_t *c, const json_t *system)
{
    json_int_t ranks = 0, nodes = 0;
    if (check_sub(c, system, "suite", CHECK_OBJECT, check_suite) != 0 ||
        check_sub(c, system, "command_line", CHECK_ARRAY, check_string_array) != 0 ||
        check_string(c, system, "compiler", false, false, NULL) != 0 ||
        check_string(c, system, "cflags", true, false, NULL) != 0 ||
        check_sub(c, system, "mpi", CHECK_OBJECT, check_mpi) != 0 ||
        check_integer(c, system, "ranks", 1, false, &ranks) != 0 ||
        check_integer(c, system, "nodes", 1, false, &nodes) != 0)
        return -1;
    if (nodes > ranks) {
        check_push_key(c, "nodes");
        return check_fail(c, "%" JSON_INTEGER_FORMAT " nodes for %" JSON_INTEGER_FORMAT " ranks", nodes, ranks);
    }
    const json_t *bindings = check_get(c, system, "bindings", CHECK_ARRAY);
    if (!bindings)
        return -1;
    size_t old = check_push_key(c, "bindings");
    if (check_bindings(c, bindings, ranks, nodes) != 0)
        return -1;
    check_pop(c, old);

    const json_t *list = check_get(c, system, "node_list", CHECK_ARRAY);
    if (!list)
        return -1;
    old = check_push_key(c, "node_list");
    if (json_array_size(list) != (size_t)nodes)
        return check_fail(c, "%zu entries for %" JSON_INTEGER_FORMAT " nodes", json_array_size(list), nodes);
    size_t i;
    const json_t *node;
    json_array_foreach(list, i, node) {
        size_t o = check_push_index(c, i);
        if (!json_is_object(node))
            return check_fail(c, "expected object, got %s", check_type_name(node));
        if (check_node(c, node) != 0)
            return -1;
        check_pop(c, o);
    }
    check_pop(c, old);
    return check_sub(c, system, "clock", CHECK_OBJECT, check_clock);
}

static int check_config(check_t *c, const json_t *config)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)config, key, v) {
        if (!check_get(c, config, key, CHECK_OBJECT))
            return -1;
    }
    return 0;
}

/* median, best and worst of a bandwidth in bytes/s; best is the fastest. */
static int check_bandwidth(check_t *c, const json_t *bw)
{
    double median, best, worst, lo, hi;
    if (check_number(c, bw, "median", CHECK_POSITIVE, &median) != 0 ||
        check_number(c, bw, "best", CHECK_POSITIVE, &best) != 0 ||
        check_number(c, bw, "worst", CHECK_POSITIVE, &worst) != 0 || check_interval(c, bw, "ci95", &lo, &hi) != 0)
        return -1;
    if (check_order(c, "worst", worst, "median", median, true) != 0 ||
        check_order(c, "median", median, "best", best, true) != 0 ||
        check_order(c, "ci95 lo", lo, "median", median, true) != 0 ||
        check_order(c, "median", median, "ci95 hi", hi, true) != 0)
        return -1;
    return 0;
}

static int check_point(check_t *c, const json_t *pt, const json_t *names)
{
    const json_t *params = check_get(c, pt, "params", CHECK_OBJECT);
    if (!params)
        return -1;
    size_t old = check_push_key(c, "params"), i;
    const json_t *name;
    json_array_foreach(names, i, name) {
        if (!check_get(c, params, json_string_value(name), CHECK_STRING | CHECK_NUMBER))
            return -1;
    }
    if (json_object_size(params) != json_array_size(names))
        return check_fail(c, "%zu values for %zu parameters", json_object_size(params), json_array_size(names));
    check_pop(c, old);

    double min, median, mean, max, p90, p99, lo, hi;
    if (check_integer(c, pt, "n", 1, false, NULL) != 0 || check_number(c, pt, "min", CHECK_NONNEG, &min) != 0 ||
        check_number(c, pt, "median", CHECK_POSITIVE, &median) != 0 ||
        check_number(c, pt, "mean", CHECK_POSITIVE, &mean) != 0 ||
        check_number(c, pt, "max", CHECK_POSITIVE, &max) != 0 ||
        check_number(c, pt, "stddev", CHECK_NONNEG, NULL) != 0 ||
        check_number(c, pt, "p90", CHECK_POSITIVE, &p90) != 0 ||
        check_number(c, pt, "p99", CHECK_POSITIVE, &p99) != 0 || check_interval(c, pt, "ci95", &lo, &hi) != 0 ||
        check_number(c, pt, "ci95_rel_halfwidth", CHECK_NONNEG, NULL) != 0 ||
        !check_get(c, pt, "ci_target_met", CHECK_BOOL) || check_integer(c, pt, "iterations", 1, false, NULL) != 0)
        return -1;
    if (check_order(c, "min", min, "median", median, false) != 0 ||
        check_order(c, "median", median, "max", max, false) != 0 ||
        check_order(c, "ci95 lo", lo, "median", median, false) != 0 ||
        check_order(c, "median", median, "ci95 hi", hi, false) != 0 ||
        check_order(c, "min", min, "mean", mean, true) != 0 || check_order(c, "mean", mean, "max", max, true) != 0 ||
        check_order(c, "median", median, "p90", p90, true) != 0 || check_order(c, "p90", p90, "p99", p99, true) != 0 ||
        check_order(c, "p99", p99, "max", max, true) != 0)
        return -1;
    if (json_object_get(pt, "bytes_per_op") && check_number(c, pt, "bytes_per_op", CHECK_POSITIVE, NULL) != 0)
        return -1;
    if (json_object_get(pt, "bandwidth_bytes_per_s") &&
        check_sub(c, pt, "bandwidth_bytes_per_s", CHECK_OBJECT, check_bandwidth) != 0)
        return -1;
    return 0;
}

static int check_benchmark(check_t *c, const json_t *b, size_t *npoints)
{
    static const char *const texts[] = {"group", "summary", "measures"};
    const char *skipped = NULL, *unit = NULL;
    if (check_string(c, b, "name", false, false, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (check_string(c, b, texts[i], false, false, NULL) != 0)
            return -1;
    }
    if (check_string(c, b, "unit", false, false, &unit) != 0)
        return -1;
    if (strcmp(unit, "ns") != 0) {
        check_push_key(c, "unit");
        return check_fail(c, "\"%s\" but all times are in ns", unit);
    }
    const json_t *names = check_get(c, b, "params", CHECK_ARRAY);
    if (!names)
        return -1;
    size_t old = check_push_key(c, "params"), i;
    const json_t *name;
    json_array_foreach(names, i, name) {
        if (!json_is_string(name) || !*json_string_value(name)) {
            check_push_index(c, i);
            return check_fail(c, "expected a parameter name");
        }
    }
    check_pop(c, old);
    if (check_string(c, b, "skipped", false, true, &skipped) != 0 ||
        check_number(c, b, "elapsed_s", CHECK_NONNEG, NULL) != 0)
        return -1;
    if (json_object_get(b, "derived") && !check_get(c, b, "derived", CHECK_OBJECT))
        return -1;

    const json_t *points = check_get(c, b, "points", CHECK_ARRAY);
    if (!points)
        return -1;
    old = check_push_key(c, "points");
    if (!skipped && json_array_size(points) == 0)
        return check_fail(c, "no points, and the benchmark is not marked skipped");
    const json_t *pt;
    json_array_foreach(points, i, pt) {
        size_t o = check_push_index(c, i);
        if (!json_is_object(pt))
            return check_fail(c, "expected object, got %s", check_type_name(pt));
        if (check_point(c, pt, names) != 0)
            return -1;
        check_pop(c, o);
    }
    check_pop(c, old);
    *npoints += json_array_size(points);
    return 0;
}

/* The pre-flight's cluster table (preflight.h): each node's clock, noise and verdict. */
static int check_preflight_node(check_t *c, const json_t *node)
{
    static const char *const pct[] = {"p50_pct", "p90_pct", "p99_pct", "max_pct"};
    const json_t *flagged;
    const char *why = NULL;
    if (check_string(c, node, "host", false, false, NULL) != 0 ||
        check_integer(c, node, "ranks", 1, false, NULL) != 0 ||
        check_number(c, node, "mhz", CHECK_POSITIVE, NULL) != 0 ||
        check_number(c, node, "tick_ns", CHECK_POSITIVE, NULL) != 0 ||
        !check_get(c, node, "cycles", CHECK_OBJECT) ||
        !check_get(c, node, "per_rank", CHECK_ARRAY) ||
        !(flagged = check_get(c, node, "flagged", CHECK_BOOL)) ||
        check_string(c, node, "why", false, true, &why) != 0)
        return -1;
    if (json_is_true(flagged) != (why != NULL)) {
        check_push_key(c, "why");
        return check_fail(c, "a reason must be given exactly when the node is flagged");
    }
    const json_t *perturb = check_get(c, node, "perturb", CHECK_OBJECT);
    if (!perturb)
        return -1;
    size_t old = check_push_key(c, "perturb");
    for (size_t k = 0; k < sizeof pct / sizeof pct[0]; k++) {
        if (check_number(c, perturb, pct[k], CHECK_NONNEG, NULL) != 0)
            return -1;
    }
    check_pop(c, old);
    return 0;
}

/* mhz may fail honestly ("system too busy"): then its figures are null. */
static int check_preflight(check_t *c, const json_t *pre, int expect_nodes)
{
    const json_t *nodes = check_get(c, pre, "nodes", CHECK_ARRAY);
    if (!nodes)
        return -1;
    size_t old = check_push_key(c, "nodes"), i;
    if (expect_nodes > 0 && json_array_size(nodes) != (size_t)expect_nodes)
        return check_fail(c, "%zu nodes, expected %d", json_array_size(nodes), expect_nodes);
    const json_t *node;
    json_array_foreach(nodes, i, node) {
        size_t o = check_push_index(c, i);
        if (!json_is_object(node))
            return check_fail(c, "expected object, got %s", check_type_name(node));
        const json_t *mhz = json_object_get(node, "mhz");
        if (json_is_null(mhz) && !json_is_false(json_object_get(node, "mhz_ok")))
            return check_fail(c, "mhz is null but mhz_ok is not false");
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
        check_pop(c, o);
    }
    check_pop(c, old);
    return 0;
}

static int check_expected(check_t *c, const json_t *benchmarks, const char *want)
{
    size_t i;
    const json_t *b;
    json_array_foreach(benchmarks, i, b) {
        if (strcmp(json_string_value(json_object_get(b, "name")), want) != 0)
            continue;
        const char *skipped = json_string_value(json_object_get(b, "skipped"));
        if (skipped) {
            check_push_index(c, i);
            return check_fail(c, "expected benchmark \"%s\" was skipped: %s", want, skipped);
        }
        return 0;
    }
    return check_fail(c, "expected benchmark \"%s\" is missing", want);
}

int mb_results_check(const json_t *root, const mb_results_check_opts_t *opts, mb_results_check_counts_t *counts,
                     char *err, size_t errlen)
{
    check_t c = {.path = "$", .len = 1, .err = err, .errlen = errlen};
    const char *schema = NULL;
    size_t npoints = 0;

    if (!json_is_object(root))
        return check_fail(&c, "expected object, got %s", root ? check_type_name(root) : "nothing");
    if (check_string(&c, root, "schema", false, false, &schema) != 0)
        return -1;
    if (strcmp(schema, MB_RESULTS_SCHEMA) != 0) {
        check_push_key(&c, "schema");
        return check_fail(&c, "\"%s\", expected \"%s\"", schema, MB_RESULTS_SCHEMA);
    }
    const json_t *complete = check_get(&c, root, "complete", CHECK_BOOL);
    if (!complete)
        return -1;
    if (opts && opts->require_complete && !json_is_true(complete)) {
        check_push_key(&c, "complete");
        return check_fail(&c, "false, but the run must be complete");
    }
    if (check_timestamp(&c, root, "started_utc", false) != 0 ||
        check_timestamp(&c, root, "finished_utc", !json_is_true(complete)) != 0 ||
        check_sub(&c, root, "system", CHECK_OBJECT, check_system) != 0 ||
        check_sub(&c, root, "config", CHECK_OBJECT, check_config) != 0)
        return -1;

    const json_t *pre = json_object_get(root, "preflight");
    int expect_nodes = opts ? opts->expect_preflight_nodes : 0;
    if (expect_nodes > 0 && !pre)
        return check_fail(&c, "no \"preflight\" section, expected one with %d node(s)", expect_nodes);
    if (pre) {
        size_t old = check_push_key(&c, "preflight");
        if (!json_is_object(pre))
            return check_fail(&c, "expected object, got %s", check_type_name(pre));
        if (check_preflight(&c, pre, expect_nodes) != 0)
            return -1;
        check_pop(&c, old);
    }

    const json_t *benchmarks = check_get(&c, root, "benchmarks", CHECK_ARRAY);
    if (!benchmarks)
        return -1;
    check_push_key(&c, "benchmarks");
    size_t i;
    const json_t *b;
    json_array_foreach(benchmarks, i, b) {
        size_t old = check_push_index(&c, i);
        if (!json_is_object(b))
            return check_fail(&c, "expected object, got %s", check_type_name(b));
        if (check_benchmark(&c, b, &npoints) != 0)
            return -1;
        /* Every figure measured after a pre-flight carries its node's noise. */
        if (pre && json_is_null(json_object_get(b, "skipped")) &&
            !check_get(&c, b, "node_noise", CHECK_OBJECT))
            return -1;
        check_pop(&c, old);
    }
    for (size_t e = 0; opts && e < opts->n_expect_bench; e++) {
        if (check_expected(&c, benchmarks, opts->expect_bench[e]) != 0)
            return -1;
    }
    if (counts) {
        counts->benchmarks = json_array_size(benchmarks);
        counts->points = npoints;
    }
    return 0;
}
