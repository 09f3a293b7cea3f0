/* SPDX-License-Identifier: MIT */
/* Reading a benchmark's record by role. The role names are docs/results.md's; a record
 * without "axes" (a partial or hand-made document) simply has no roles. */
#include "record.h"

#include <stdio.h>
#include <string.h>

mb_role_t mb_record_role(const json_t *bench, const char *axis)
{
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(bench, "axes"), i, a)
    {
        const char *name = json_string_value(json_object_get(a, "name"));
        if (name && axis && strcmp(name, axis) == 0)
            return mb_role_parse(json_string_value(json_object_get(a, "role")));
    }
    return MB_ROLE_NONE;
}

const char *mb_record_axis(const json_t *bench, mb_role_t r)
{
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(bench, "axes"), i, a)
    {
        const char *name = json_string_value(json_object_get(a, "name"));
        if (name && mb_role_parse(json_string_value(json_object_get(a, "role"))) == r)
            return name;
    }
    return NULL;
}

const json_t *mb_record_find(const json_t *root, const char *name)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *n = json_string_value(json_object_get(b, "name"));
        if (n && strcmp(n, name) == 0)
            return b;
    }
    return NULL;
}

bool mb_record_ran(const json_t *bench)
{
    const json_t *skipped = json_object_get(bench, "skipped");
    return !skipped || json_is_null(skipped);
}

bool mb_record_has_model(const json_t *bench, const char *m)
{
    const char *model = json_string_value(json_object_get(bench, "model"));
    return model && m && strcmp(model, m) == 0;
}

bool mb_record_point_ok(const json_t *pt)
{
    const json_t *status = json_object_get(pt, "status");
    return !status || (json_is_string(status) && strcmp(json_string_value(status), "ok") == 0);
}

json_t *mb_record_series(const json_t *bench, const json_t *pt)
{
    json_t *series = json_object();
    const json_t *params = json_object_get(pt, "params");
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(bench, "axes"), i, a)
    {
        const char *name = json_string_value(json_object_get(a, "name"));
        const json_t *v = json_object_get(params, name ? name : "");
        if (v && mb_role_parse(json_string_value(json_object_get(a, "role"))) == MB_ROLE_LABEL)
            json_object_set(series, name, (json_t *)v);
    }
    return series;
}

void mb_record_series_text(const json_t *series, char *buf, size_t len)
{
    size_t used = 0;
    const char *key;
    const json_t *v;
    if (len)
        buf[0] = '\0';
    json_object_foreach((json_t *)series, key, v)
    {
        int w;
        if (json_is_integer(v))
            w = snprintf(buf + used, len - used, "%s%" JSON_INTEGER_FORMAT, used ? "," : "",
                         json_integer_value(v));
        else
            w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
                         json_is_string(v) ? json_string_value(v) : "?");
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

void mb_record_series_add(const json_t *bench, json_t *all, bool ok_only)
{
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        if (ok_only && !mb_record_point_ok(pt))
            continue;
        json_t *series = mb_record_series(bench, pt);
        bool seen = false;
        size_t j;
        const json_t *other;
        json_array_foreach(all, j, other) seen = seen || json_equal(series, (json_t *)other);
        if (seen)
            json_decref(series);
        else
            json_array_append_new(all, series);
    }
}

bool mb_record_has_string(const json_t *array, const char *s)
{
    size_t i;
    const json_t *v;
    json_array_foreach(array, i, v)
    {
        if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
            return true;
    }
    return false;
}

void mb_record_params_text(const json_t *params, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    const char *key;
    const json_t *v;
    if (len)
        buf[0] = '\0';
    json_object_foreach((json_t *)params, key, v)
    {
        const char *s = json_is_string(v) ? json_string_value(v) : "?";
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? sep : "", key, s);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}
