/* SPDX-License-Identifier: MIT */
/* The run's result directory. The whole document lives in memory and the files are
 * regenerated from it after every benchmark, so results.json, points.csv and report.txt
 * always agree and each is valid on its own whenever the run dies. */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fileutil.h"
#include "points_csv.h"
#include "report.h"
#include "report_html.h"

struct mb_results {
    char *dir;
    char *json_path;
    char *points_path;
    char *report_path;
    json_t *root;
};

/* ISO 8601 UTC to the second, e.g. "2026-11-21T08:00:00Z"; null if the clock fails. */
static json_t *results_now_utc(void)
{
    char buf[32];
    struct tm tm;
    time_t now = time(NULL);
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        return json_null();
    return json_string(buf);
}

static int results_json_writer(FILE *f, void *arg)
{
    /* 10 significant digits keep every measured figure exact enough and the file stable to
     * read; jansson keeps keys in insertion order. */
    if (json_dumpf((const json_t *)arg, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

static int results_report_writer(FILE *f, void *arg)
{
    return mb_report_write(f, (const json_t *)arg);
}

/* results.json first: it is the record; points.csv and the reports are derived from it.
 * report.html inlines the plots drawn so far (none during a run: the rewrite after the
 * plots, mb_results_update_section, brings them in). */
static int results_write(const mb_results_t *r, char *err, size_t errlen)
{
    if (mb_file_write_atomic(r->json_path, results_json_writer, r->root, err, errlen) != 0 ||
        mb_points_csv_write_file(r->root, r->points_path, err, errlen) != 0 ||
        mb_file_write_atomic(r->report_path, results_report_writer, r->root, err, errlen) != 0)
        return -1;
    return mb_report_html_write_file(r->dir, r->root, err, errlen);
}

static void results_free(mb_results_t *r)
{
    if (!r)
        return;
    json_decref(r->root);
    free(r->dir);
    free(r->json_path);
    free(r->points_path);
    free(r->report_path);
    free(r);
}

/* A handle on dir's files, with nothing loaded yet; NULL when out of memory. */
static mb_results_t *results_alloc(const char *dir)
{
    mb_results_t *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->dir = strdup(dir);
    if (asprintf(&r->json_path, "%s/results.json", dir) < 0)
        r->json_path = NULL;
    if (asprintf(&r->points_path, "%s/points.csv", dir) < 0)
        r->points_path = NULL;
    if (asprintf(&r->report_path, "%s/report.txt", dir) < 0)
        r->report_path = NULL;
    if (!r->dir || !r->json_path || !r->points_path || !r->report_path) {
        results_free(r);
        return NULL;
    }
    return r;
}

mb_results_t *mb_results_open(const char *dir, json_t *system, json_t *config, char *err, size_t errlen)
{
    mb_results_t *r = results_alloc(dir);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    /* json_pack's "O" takes a new reference; "o" would steal the caller's. */
    r->root = json_pack("{s:s, s:b, s:o, s:n, s:O?, s:O?, s:[], s:i}", "schema",
                        MB_RESULTS_SCHEMA, "complete", 0, "started_utc", results_now_utc(),
                        "finished_utc", "system", system, "config", config, "benchmarks",
                        "failed_points", 0);
    if (!r->root)
        goto oom;
    if (results_write(r, err, errlen) != 0)
        goto fail;
    return r;
oom:
    snprintf(err, errlen, "%s: out of memory", dir);
fail:
    results_free(r);
    return NULL;
}

/* On a write failure the benchmark stays in the document, so the next successful write
 * (another benchmark, or close) still records it; the files keep their last good state. */
int mb_results_add_benchmark(mb_results_t *r, json_t *benchmark, char *err, size_t errlen)
{
    if (!json_is_object(benchmark)) {
        json_decref(benchmark);
        snprintf(err, errlen, "%s: a benchmark result must be a JSON object", r->json_path);
        return -1;
    }
    json_int_t failed = json_integer_value(json_object_get(benchmark, "failed_points"));
    if (json_array_append_new(json_object_get(r->root, "benchmarks"), benchmark) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        return -1;
    }
    json_object_set_new(r->root, "failed_points", json_integer(mb_results_failed_points(r) + failed));
    return results_write(r, err, errlen);
}

size_t mb_results_failed_points(const mb_results_t *r)
{
    return (size_t)json_integer_value(json_object_get(r->root, "failed_points"));
}

int mb_results_set_section(mb_results_t *r, const char *key, json_t *value, char *err, size_t errlen)
{
    if (json_object_set_new(r->root, key, value) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        return -1;
    }
    return results_write(r, err, errlen);
}

int mb_results_stage_section(mb_results_t *r, const char *key, json_t *value, char *err,
                             size_t errlen)
{
    if (json_object_set_new(r->root, key, value) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        return -1;
    }
    return 0;
}

int mb_results_close(mb_results_t *r, bool complete, char *err, size_t errlen)
{
    int ret = -1;
    if (json_object_set_new(r->root, "complete", json_boolean(complete)) != 0 ||
        json_object_set_new(r->root, "finished_utc", results_now_utc()) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        goto out;
    }
    ret = results_write(r, err, errlen);
out:
    results_free(r);
    return ret;
}

/* The document is read whole and written back through the run's own writers, so the
 * update is as atomic as any write during the run and the report agrees with it. */
int mb_results_update_section(const char *dir, const char *key, json_t *value, char *err,
                              size_t errlen)
{
    int ret = -1;
    json_error_t jerr;
    mb_results_t *r = results_alloc(dir);
    if (!r)
        goto oom;
    r->root = json_load_file(r->json_path, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(r->root)) {
        if (!r->root && jerr.line > 0)
            snprintf(err, errlen, "%s:%d:%d: malformed JSON: %s", r->json_path, jerr.line,
                     jerr.column, jerr.text);
        else if (!r->root)
            snprintf(err, errlen, "%s: cannot read: %s", r->json_path, jerr.text);
        else
            snprintf(err, errlen, "%s: not a results document (not a JSON object)", r->json_path);
        goto out;
    }
    ret = mb_results_set_section(r, key, value, err, errlen);
    value = NULL;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory", dir);
out:
    json_decref(value);
    results_free(r);
    return ret;
}

const json_t *mb_results_json(const mb_results_t *r)
{
    return r->root;
}
