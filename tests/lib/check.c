/* SPDX-License-Identifier: MIT */
/* JSON checking with a running path: each step pushes the key or index it enters and pops
 * it when the value passed, so on failure the path names exactly the offending value. */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Interpolated figures (mean, p90, p99) may sit a rounding error outside their bounds. */
#define CHECK_REL_TOL 1e-9

size_t mb_check_push_key(mb_check_t *c, const char *key)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, ".%s", key);
    if (n > 0)
        c->len = c->len + (size_t)n < sizeof c->path ? c->len + (size_t)n : sizeof c->path - 1;
    return old;
}

size_t mb_check_push_index(mb_check_t *c, size_t i)
{
    size_t old = c->len;
    int n = snprintf(c->path + c->len, sizeof c->path - c->len, "[%zu]", i);
    if (n > 0)
        c->len = c->len + (size_t)n < sizeof c->path ? c->len + (size_t)n : sizeof c->path - 1;
    return old;
}

void mb_check_pop(mb_check_t *c, size_t old)
{
    c->len = old;
    c->path[old] = '\0';
}

int mb_check_fail(mb_check_t *c, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s: %s", c->path, msg);
    return -1;
}

const char *mb_check_type_name(const json_t *v)
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
    return ((kinds & MB_CHECK_NULL) && json_is_null(v)) ||
           ((kinds & MB_CHECK_STRING) && json_is_string(v)) ||
           ((kinds & MB_CHECK_INTEGER) && json_is_integer(v)) ||
           ((kinds & MB_CHECK_NUMBER) && json_is_number(v)) ||
           ((kinds & MB_CHECK_BOOL) && json_is_boolean(v)) ||
           ((kinds & MB_CHECK_OBJECT) && json_is_object(v)) ||
           ((kinds & MB_CHECK_ARRAY) && json_is_array(v));
}

static void check_kind_names(unsigned kinds, char *buf, size_t len)
{
    static const struct {
        unsigned kind;
        const char *name;
    } names[] = {{MB_CHECK_OBJECT, "object"}, {MB_CHECK_ARRAY, "array"},
                 {MB_CHECK_STRING, "string"}, {MB_CHECK_INTEGER, "integer"},
                 {MB_CHECK_NUMBER, "number"}, {MB_CHECK_BOOL, "boolean"},
                 {MB_CHECK_NULL, "null"}};
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
const json_t *mb_check_get(mb_check_t *c, const json_t *obj, const char *key, unsigned kinds)
{
    const json_t *v = json_object_get(obj, key);
    if (!v) {
        mb_check_fail(c, "missing key \"%s\"", key);
        return NULL;
    }
    if (!check_is_kind(v, kinds)) {
        char want[96];
        check_kind_names(kinds, want, sizeof want);
        mb_check_push_key(c, key);
        mb_check_fail(c, "expected %s, got %s", want, mb_check_type_name(v));
        return NULL;
    }
    return v;
}

/* A string; non-empty unless allow_empty; null also accepted when nullable (*out = NULL). */
int mb_check_string(mb_check_t *c, const json_t *obj, const char *key, bool allow_empty,
                    bool nullable, const char **out)
{
    const json_t *v = mb_check_get(c, obj, key, MB_CHECK_STRING | (nullable ? MB_CHECK_NULL : 0));
    if (!v)
        return -1;
    const char *s = json_string_value(v);
    if (s && !allow_empty && !*s) {
        mb_check_push_key(c, key);
        return mb_check_fail(c, "must not be empty");
    }
    if (out)
        *out = s;
    return 0;
}

int mb_check_integer(mb_check_t *c, const json_t *obj, const char *key, json_int_t min,
                     bool nullable, json_int_t *out)
{
    const json_t *v = mb_check_get(c, obj, key, MB_CHECK_INTEGER | (nullable ? MB_CHECK_NULL : 0));
    if (!v)
        return -1;
    if (json_is_null(v))
        return 0;
    json_int_t i = json_integer_value(v);
    if (i < min) {
        mb_check_push_key(c, key);
        return mb_check_fail(
            c, "%" JSON_INTEGER_FORMAT " is below the minimum %" JSON_INTEGER_FORMAT, i, min);
    }
    if (out)
        *out = i;
    return 0;
}

int mb_check_number_value(mb_check_t *c, const json_t *v, mb_check_range_t range, double *out)
{
    if (!json_is_number(v))
        return mb_check_fail(c, "expected number, got %s", v ? mb_check_type_name(v) : "nothing");
    double d = json_number_value(v);
    if (!isfinite(d))
        return mb_check_fail(c, "must be finite");
    if (range == MB_CHECK_POSITIVE && !(d > 0))
        return mb_check_fail(c, "%.10g must be positive", d);
    if (range == MB_CHECK_NONNEG && !(d >= 0))
        return mb_check_fail(c, "%.10g must not be negative", d);
    if (out)
        *out = d;
    return 0;
}

int mb_check_number(mb_check_t *c, const json_t *obj, const char *key, mb_check_range_t range,
                    double *out)
{
    if (!mb_check_get(c, obj, key, MB_CHECK_NUMBER))
        return -1;
    size_t old = mb_check_push_key(c, key);
    if (mb_check_number_value(c, json_object_get(obj, key), range, out) != 0)
        return -1;
    mb_check_pop(c, old);
    return 0;
}

/* [lo, hi]: lo >= 0 (a time below the clock's resolution), hi > 0, lo <= hi. */
int mb_check_interval(mb_check_t *c, const json_t *obj, const char *key, double *lo, double *hi)
{
    return mb_check_interval_to(c, obj, key, MB_CHECK_POSITIVE, lo, hi);
}

int mb_check_interval_to(mb_check_t *c, const json_t *obj, const char *key,
                         mb_check_range_t hi_range, double *lo, double *hi)
{
    const json_t *v = mb_check_get(c, obj, key, MB_CHECK_ARRAY);
    if (!v)
        return -1;
    size_t old = mb_check_push_key(c, key);
    if (json_array_size(v) != 2)
        return mb_check_fail(c, "expected [lo, hi], got %zu elements", json_array_size(v));
    for (size_t i = 0; i < 2; i++) {
        size_t o = mb_check_push_index(c, i);
        if (mb_check_number_value(c, json_array_get(v, i), i ? hi_range : MB_CHECK_NONNEG,
                                  i ? hi : lo) != 0)
            return -1;
        mb_check_pop(c, o);
    }
    if (*lo > *hi)
        return mb_check_fail(c, "lo %.10g > hi %.10g", *lo, *hi);
    mb_check_pop(c, old);
    return 0;
}

/* a <= b, with a relative tolerance for interpolated figures. */
int mb_check_order(mb_check_t *c, const char *an, double a, const char *bn, double b, bool tolerant)
{
    double slack = tolerant ? CHECK_REL_TOL * fmax(fabs(a), fabs(b)) : 0;
    if (a > b + slack)
        return mb_check_fail(c, "%s %.10g > %s %.10g", an, a, bn, b);
    return 0;
}

int mb_check_sub(mb_check_t *c, const json_t *obj, const char *key, unsigned kinds,
                 int (*fn)(mb_check_t *, const json_t *))
{
    const json_t *v = mb_check_get(c, obj, key, kinds);
    if (!v)
        return -1;
    size_t old = mb_check_push_key(c, key);
    if (fn(c, v) != 0)
        return -1;
    mb_check_pop(c, old);
    return 0;
}
