/* SPDX-License-Identifier: MIT */
/* points.csv (points_csv.h): one row per point, the statistics copied from the record as
 * they are, never recomputed, so the table and results.json cannot disagree. A failed
 * point's figures are left empty even where its record has some: readers must not take
 * them for measurements (docs/results.md). */
#include "points_csv.h"

#include <stdbool.h>
#include <string.h>

#include "fileutil.h"

/* The point's figures copied as they are, in column order (column name = the point's key). */
static const char *const points_csv_stats[] = {"n",   "min",    "median", "mean",
                                               "max", "stddev", "p90",    "p99"};

/* A JSON scalar as a field: integers as they are, reals to the 10 significant digits
 * results.json keeps, strings (label text) quoted as needed; nothing for null, absent or
 * compound values. */
static void points_csv_value(FILE *f, const json_t *v)
{
    if (json_is_integer(v))
        fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        fprintf(f, "%.10g", json_real_value(v));
    else if (json_is_string(v))
        mb_csv_field(f, json_string_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "true" : "false", f);
}

static void points_csv_add_name(json_t *names, const char *name)
{
    size_t i;
    const json_t *n;
    json_array_foreach(names, i, n)
    {
        if (strcmp(json_string_value(n), name) == 0)
            return;
    }
    json_array_append_new(names, json_string(name));
}

/* The axis names of every benchmark, each once, in order of first appearance: a record's
 * axes (or schema 1's params list), then any name only its points' params have. New
 * reference, or NULL when out of memory. */
static json_t *points_csv_axes(const json_t *benchmarks)
{
    json_t *names = json_array();
    if (!names)
        return NULL;
    size_t i, j;
    const json_t *bench, *x, *pt;
    json_array_foreach(benchmarks, i, bench)
    {
        const json_t *axes = json_object_get(bench, "axes");
        if (json_is_array(axes)) {
            json_array_foreach(axes, j, x)
            {
                const char *name = json_string_value(json_object_get(x, "name"));
                if (name)
                    points_csv_add_name(names, name);
            }
        } else {
            json_array_foreach(json_object_get(bench, "params"), j, x)
            {
                if (json_is_string(x))
                    points_csv_add_name(names, json_string_value(x));
            }
        }
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            const char *key;
            const json_t *v;
            json_object_foreach((json_t *)json_object_get(pt, "params"), key, v)
                points_csv_add_name(names, key);
        }
    }
    return names;
}

static void points_csv_row(FILE *f, const json_t *bench, const json_t *pt, const json_t *axes)
{
    const char *name = json_string_value(json_object_get(bench, "name"));
    mb_csv_field(f, name ? name : "");
    const json_t *params = json_object_get(pt, "params");
    size_t i;
    const json_t *axis;
    json_array_foreach(axes, i, axis)
    {
        fputc(',', f);
        points_csv_value(f, json_object_get(params, json_string_value(axis)));
    }
    const char *status = json_string_value(json_object_get(pt, "status"));
    /* Schema 1 had no status: a point there is a measurement. */
    bool ok = !status || strcmp(status, "ok") == 0;
    fputc(',', f);
    mb_csv_field(f, status ? status : "ok");
    fputc(',', f);
    points_csv_value(f, json_object_get(bench, "unit"));
    fputc(',', f);
    points_csv_value(f, json_object_get(bench, "statistic"));
    for (size_t k = 0; k < sizeof points_csv_stats / sizeof *points_csv_stats; k++) {
        fputc(',', f);
        points_csv_value(f, ok ? json_object_get(pt, points_csv_stats[k]) : NULL);
    }
    const json_t *ci = ok ? json_object_get(pt, "ci95") : NULL;
    fputc(',', f);
    points_csv_value(f, json_array_get(ci, 0));
    fputc(',', f);
    points_csv_value(f, json_array_get(ci, 1));
    fputc(',', f);
    points_csv_value(f, ok ? json_object_get(pt, "bytes_per_op") : NULL);
    /* An object {median, best, worst, ci95} in schema 2; a bare number is taken as it is. */
    const json_t *bw = ok ? json_object_get(pt, "bandwidth_bytes_per_s") : NULL;
    fputc(',', f);
    points_csv_value(f, json_is_object(bw) ? json_object_get(bw, "median") : bw);
    fputc(',', f);
    points_csv_value(f, ok ? json_object_get(pt, "iterations") : NULL);
    fputc(',', f);
    points_csv_value(f, ok ? NULL : json_object_get(pt, "reason"));
    fputc('\n', f);
}

int mb_points_csv_write(FILE *f, const json_t *doc)
{
    const json_t *benchmarks = json_object_get(doc, "benchmarks");
    if (!json_is_array(benchmarks))
        return -1;
    json_t *axes = points_csv_axes(benchmarks);
    if (!axes)
        return -1;
    fputs("benchmark", f);
    size_t i, j;
    const json_t *x, *bench, *pt;
    json_array_foreach(axes, i, x)
    {
        fputc(',', f);
        mb_csv_field(f, json_string_value(x));
    }
    fputs(",status,unit,statistic", f);
    for (size_t k = 0; k < sizeof points_csv_stats / sizeof *points_csv_stats; k++)
        fprintf(f, ",%s", points_csv_stats[k]);
    fputs(",ci95_lo,ci95_hi,bytes_per_op,bandwidth_bytes_per_s,iterations,reason\n", f);
    json_array_foreach(benchmarks, i, bench)
    {
        json_array_foreach(json_object_get(bench, "points"), j, pt)
            points_csv_row(f, bench, pt, axes);
    }
    json_decref(axes);
    return ferror(f) ? -1 : 0;
}

static int points_csv_writer(FILE *f, void *arg)
{
    return mb_points_csv_write(f, (const json_t *)arg);
}

int mb_points_csv_write_file(const json_t *doc, const char *path, char *err, size_t errlen)
{
    if (!json_is_array(json_object_get(doc, "benchmarks"))) {
        snprintf(err, errlen, "%s: the results document has no benchmarks array", path);
        return -1;
    }
    return mb_file_write_atomic(path, points_csv_writer, (void *)doc, err, errlen);
}
