/* SPDX-License-Identifier: MIT */
/* A benchmark's record read into series: axes by role, ok points only. */
#include "plot_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_script.h"

bool mb_plot_num(const json_t *obj, const char *key, double *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return isfinite(*out);
}

const char *mb_plot_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

bool mb_plot_is_min(const json_t *bench)
{
    const char *s = mb_plot_str(bench, "statistic");
    return s && strcmp(s, "min") == 0;
}

/* Whether every ok point has a number for name, and there is one. */
static bool plot_series_numeric(const json_t *bench, const char *name)
{
    size_t i, ok = 0;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        if (!mb_record_point_ok(pt))
            continue;
        if (!json_is_number(json_object_get(json_object_get(pt, "params"), name)))
            return false;
        ok++;
    }
    return ok > 0;
}

bool mb_plot_x_choose(const json_t *bench, const mb_role_t *roles, size_t nroles, mb_plot_x_t *x)
{
    for (size_t r = 0; r < nroles; r++) {
        const char *name = mb_record_axis(bench, roles[r]);
        if (!name || !plot_series_numeric(bench, name))
            continue;
        *x = (mb_plot_x_t){
            .name = name,
            .role = roles[r],
            .bytes = roles[r] == MB_ROLE_MESSAGE_SIZE || roles[r] == MB_ROLE_WORKING_SET,
        };
        return true;
    }
    return false;
}

void mb_plot_set_free(mb_plot_set_t *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->v[i].label);
        free(set->v[i].pts);
    }
    free(set->v);
    *set = (mb_plot_set_t){0};
}

/* "name=value, ..." over the benchmark's axes other than x; with the benchmark's name in
 * front when prefix. */
static char *plot_series_label(const json_t *bench, const json_t *params, const char *xname,
                               bool prefix)
{
    mb_plot_text_t t;
    if (mb_plot_text_open(&t) != 0)
        return NULL;
    const char *sep = "";
    if (prefix) {
        /* The plots pass named benchmarks only; a caller need not (found by tests/fuzz). */
        const char *name = mb_plot_str(bench, "name");
        fputs(name ? name : "(unnamed)", t.f);
        sep = " ";
    }
    size_t i;
    const json_t *axis;
    json_array_foreach(json_object_get(bench, "axes"), i, axis)
    {
        const char *key = mb_plot_str(axis, "name");
        if (!key || strcmp(key, xname) == 0)
            continue;
        const json_t *v = json_object_get(params, key);
        if (json_is_string(v))
            fprintf(t.f, "%s%s=%s", sep, key, json_string_value(v));
        else if (json_is_integer(v))
            fprintf(t.f, "%s%s=%" JSON_INTEGER_FORMAT, sep, key, json_integer_value(v));
        else if (json_is_number(v))
            fprintf(t.f, "%s%s=%g", sep, key, json_number_value(v));
        else
            continue;
        sep = ", ";
    }
    return mb_plot_text_take(&t);
}

static int plot_series_pt_cmp(const void *a, const void *b)
{
    double x = ((const mb_plot_pt_t *)a)->x, y = ((const mb_plot_pt_t *)b)->x;
    return (x > y) - (x < y);
}

/* The series of set[first..] with that label, a new one when there is none (label is then
 * the set's; freed otherwise), or NULL when memory runs out. */
static mb_plot_series_t *plot_series_find(mb_plot_set_t *set, size_t first, char *label,
                                          const json_t *params)
{
    for (size_t k = first; k < set->n; k++) {
        if (strcmp(set->v[k].label, label) == 0) {
            free(label);
            return &set->v[k];
        }
    }
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 8;
        mb_plot_series_t *grown = realloc(set->v, cap * sizeof *grown);
        if (!grown) {
            free(label);
            return NULL;
        }
        set->v = grown;
        set->cap = cap;
    }
    mb_plot_series_t *s = &set->v[set->n++];
    *s = (mb_plot_series_t){.label = label, .params = params};
    return s;
}

int mb_plot_set_collect(mb_plot_set_t *set, const json_t *bench, const mb_plot_x_t *x,
                        mb_plot_value_fn value, bool prefix)
{
    size_t i, first = set->n;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        if (!mb_record_point_ok(pt))
            continue;
        const json_t *params = json_object_get(pt, "params");
        mb_plot_pt_t p;
        p.x = json_number_value(json_object_get(params, x->name));
        if (!(p.x >= 0) || !value(bench, pt, &p.y, &p.lo, &p.hi))
            continue;
        char *label = plot_series_label(bench, params, x->name, prefix);
        if (!label)
            return -1;
        mb_plot_series_t *s = plot_series_find(set, first, label, params);
        if (!s)
            return -1;
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 16;
            mb_plot_pt_t *grown = realloc(s->pts, cap * sizeof *grown);
            if (!grown)
                return -1;
            s->pts = grown;
            s->cap = cap;
        }
        s->pts[s->n++] = p;
    }
    for (size_t k = first; k < set->n; k++)
        qsort(set->v[k].pts, set->v[k].n, sizeof *set->v[k].pts, plot_series_pt_cmp);
    return 0;
}

bool mb_plot_set_has_curve(const mb_plot_set_t *set)
{
    for (size_t k = 0; k < set->n; k++) {
        if (set->v[k].n >= 2 && set->v[k].pts[0].x != set->v[k].pts[set->v[k].n - 1].x)
            return true;
    }
    return false;
}

void mb_plot_set_x_span(const mb_plot_set_t *set, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = 0;
    for (size_t k = 0; k < set->n; k++) {
        for (size_t i = 0; i < set->v[k].n; i++) {
            if (set->v[k].pts[i].x > 0) {
                *lo = fmin(*lo, set->v[k].pts[i].x);
                *hi = fmax(*hi, set->v[k].pts[i].x);
            }
        }
    }
}

/* The headline time (min or median) and the median's 95% CI, divided by scale. */
static bool plot_series_time(const json_t *bench, const json_t *pt, double scale, double *y,
                             double *lo, double *hi)
{
    bool min = mb_plot_is_min(bench);
    double v;
    if (!mb_plot_num(pt, min ? "min" : "median", &v) || !(v > 0))
        return false;
    *y = *lo = *hi = v / scale;
    const json_t *ci = json_object_get(pt, "ci95");
    const json_t *a = json_array_get(ci, 0), *b = json_array_get(ci, 1);
    if (!min && json_is_number(a) && json_is_number(b) && json_number_value(a) > 0) {
        *lo = json_number_value(a) / scale;
        *hi = json_number_value(b) / scale;
    }
    return true;
}

bool mb_plot_time_us(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi)
{
    return plot_series_time(bench, pt, 1e3, y, lo, hi);
}

bool mb_plot_time_ns(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi)
{
    return plot_series_time(bench, pt, 1, y, lo, hi);
}

bool mb_plot_bandwidth_gbs(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi)
{
    (void)bench;
    const json_t *bw = json_object_get(pt, "bandwidth_bytes_per_s");
    double v;
    if (!mb_plot_num(bw, "median", &v) || !(v > 0))
        return false;
    *y = *lo = *hi = v / 1e9;
    const json_t *ci = json_object_get(bw, "ci95");
    const json_t *a = json_array_get(ci, 0), *b = json_array_get(ci, 1);
    if (json_is_number(a) && json_is_number(b)) {
        *lo = json_number_value(a) / 1e9;
        *hi = json_number_value(b) / 1e9;
    }
    return true;
}
