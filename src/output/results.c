/* SPDX-License-Identifier: MIT */
/* The run's result directory. The whole document lives in memory and results.json is
 * written from it after every benchmark, points.csv and report.txt with it as often as
 * they cost at most a fiftieth of the run's time, each file valid on its own whenever
 * the run dies. */
#include "results.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileutil.h"
#include "points_csv.h"
#include "report.h"
#include "report_html.h"
#include "results_json.h"

struct mb_results {
    char *dir;
    char *json_path;
    char *points_path;
    char *report_path;
    json_t *root;
    mb_results_json_cache_t *json_text;  /* the records' text as results.json last had it */
    double derived_at_s, derived_took_s; /* points.csv and report.txt's last write: monotonic
                                          * end, and what they took */
    double derived_wait;                 /* RESULTS_DERIVED_WAIT, or a test's */
};

/* points.csv and report.txt are derived from results.json, and formatted whole they are
 * the slow part of a write (at a default run's end 21 and 37 ms, results.json 5 with its
 * records' text kept: results_json.h), so after a benchmark they are rewritten
 * only where the time since their last write is at least this many times what that write
 * took: at most a fiftieth of the run goes to them, the run's time being the budget's.
 * Every other write (a section, the close) has them too. */
#define RESULTS_DERIVED_WAIT 49.0

/* What results.json says while the run has not finished: a run killed by SIGKILL (or a
 * crash, or a power cut) has no chance to say more, so the file says it from the start. */
#define RESULTS_UNFINISHED                                                                        \
    "the run did not finish: still running, or ended without a chance to record why "            \
    "(SIGKILL, a crash, a power cut)"

/* The run's open results (rank 0 has one at a time) and the benchmark being measured, for
 * the last write of an interrupted run (mb_results_interrupt, from another thread). One
 * lock guards both and every change to the document: jansson is not thread-safe. */
static pthread_mutex_t results_lock = PTHREAD_MUTEX_INITIALIZER;
static mb_results_t *results_live;
static json_t *results_live_bench;  /* the benchmark's header and its finished points */
static json_t *results_live_point;  /* the point being measured, as a failed record */
static json_t *results_live_extra;  /* keys the driver adds to the record after it */
static bool results_interrupted;    /* written for good: no later write may undo it */
static struct timespec results_live_began;

/* With the lock held: the benchmark is finished (or given up). */
static void results_live_end(void)
{
    json_decref(results_live_bench);
    json_decref(results_live_point);
    json_decref(results_live_extra);
    results_live_bench = results_live_point = results_live_extra = NULL;
}

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

static double results_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int results_json_writer(FILE *f, void *arg)
{
    const mb_results_t *r = arg;
    return mb_results_json_write(f, r->root, r->json_text);
}

static int results_points_writer(FILE *f, void *arg)
{
    return mb_points_csv_write(f, ((const mb_results_t *)arg)->root);
}

static int results_report_writer(FILE *f, void *arg)
{
    return mb_report_write(f, ((const mb_results_t *)arg)->root);
}

/* With the lock held: r is the run's, and an interruption has written its record, which
 * no later write may undo. */
static bool results_refused(const mb_results_t *r, char *err, size_t errlen)
{
    if (!results_interrupted || r != results_live)
        return false;
    snprintf(err, errlen, "%s: the run was interrupted", r->json_path);
    return true;
}

/* How results_write treats the files derived from results.json. */
typedef enum {
    RESULTS_DERIVED_DUE,  /* after a benchmark: points.csv and report.txt when due */
    RESULTS_DERIVED_ALL,  /* points.csv and report.txt too */
    RESULTS_DERIVED_HTML, /* and report.html */
} results_derived_t;

/* results.json, points.csv and report.txt, written so that an interruption never waits on
 * the disk: SIGKILL follows mpirun's SIGTERM within a second, and CI's busy disk once held
 * the six fsyncs longer than that, so the run died unrecorded. Under the lock the temporary
 * files are made and filled from the document (into the page cache); without it they are
 * fsync'd; under it again they are renamed, unless an interruption came between: it removed
 * them (results_remove_temps), and its record stands. results.json first: it is the record;
 * points.csv and the reports are derived from it, and after a benchmark written only when
 * due (RESULTS_DERIVED_WAIT). report.html is written when the run closes and after its
 * plots (mb_results_update_section, which brings them in), not after every benchmark: the
 * page with its plots is the slowest of the files, and the run's time is the budget's.
 * Called without the lock. */
static int results_write(mb_results_t *r, results_derived_t derived, char *err, size_t errlen)
{
    const char *paths[] = {r->json_path, r->points_path, r->report_path};
    const mb_file_writer_fn writers[] = {results_json_writer, results_points_writer,
                                         results_report_writer};
    enum { NFILES = sizeof paths / sizeof *paths };
    mb_file_stage_t staged[NFILES] = {{0}};
    int rc = -1;
    size_t i, nfiles = NFILES;
    double derived_s = 0, t0_s;
    if (derived == RESULTS_DERIVED_DUE &&
        results_now_s() < r->derived_at_s + r->derived_wait * r->derived_took_s)
        nfiles = 1;
    pthread_mutex_lock(&results_lock);
    if (results_refused(r, err, errlen))
        goto out;
    for (i = 0; i < nfiles; i++) {
        t0_s = results_now_s();
        if (mb_file_stage_open(&staged[i], paths[i], err, errlen) != 0 ||
            mb_file_stage_write(&staged[i], writers[i], r, err, errlen) != 0)
            goto out;
        derived_s += i > 0 ? results_now_s() - t0_s : 0;
    }
    pthread_mutex_unlock(&results_lock);
    for (i = 0; i < nfiles; i++) {
        t0_s = results_now_s();
        if (mb_file_stage_close(&staged[i], true, err, errlen) != 0)
            break;
        derived_s += i > 0 ? results_now_s() - t0_s : 0;
    }
    pthread_mutex_lock(&results_lock);
    if (i < nfiles || results_refused(r, err, errlen))
        goto out;
    for (i = 0; i < nfiles; i++)
        if (mb_file_stage_commit(&staged[i], err, errlen) != 0)
            goto out;
    if (nfiles > 1) {
        r->derived_at_s = results_now_s();
        r->derived_took_s = derived_s;
    }
    rc = 0;
out:
    /* Under the lock: a name dropped here may otherwise be an interruption's own file. */
    for (i = 0; i < NFILES; i++)
        mb_file_stage_drop(&staged[i]);
    pthread_mutex_unlock(&results_lock);
    if (rc != 0)
        return -1;
    mb_file_sync_dir(r->json_path);
    return derived == RESULTS_DERIVED_HTML ? mb_report_html_write_file(r->dir, r->root, err, errlen)
                                           : 0;
}

/* With the lock held, from an interruption: the temporary files of a write in progress on
 * the main thread, which will never be renamed now, so that none is left when the process
 * is killed. */
static void results_remove_temps(const mb_results_t *r)
{
    const char *paths[] = {r->json_path, r->points_path, r->report_path};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        char *tmp = mb_file_temp_path(paths[i]);
        if (tmp)
            unlink(tmp);
        free(tmp);
    }
}

static void results_free(mb_results_t *r)
{
    if (!r)
        return;
    json_decref(r->root);
    mb_results_json_cache_free(r->json_text);
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
    r->json_text = mb_results_json_cache_new();
    r->derived_wait = RESULTS_DERIVED_WAIT;
    if (asprintf(&r->json_path, "%s/results.json", dir) < 0)
        r->json_path = NULL;
    if (asprintf(&r->points_path, "%s/points.csv", dir) < 0)
        r->points_path = NULL;
    if (asprintf(&r->report_path, "%s/report.txt", dir) < 0)
        r->report_path = NULL;
    if (!r->dir || !r->json_text || !r->json_path || !r->points_path || !r->report_path) {
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
    r->root = json_pack("{s:s, s:b, s:s, s:o, s:n, s:O?, s:O?, s:[], s:i}", "schema",
                        MB_RESULTS_SCHEMA, "complete", 0, "incomplete_reason", RESULTS_UNFINISHED,
                        "started_utc", results_now_utc(), "finished_utc", "system", system,
                        "config", config, "benchmarks", "failed_points", 0);
    if (!r->root)
        goto oom;
    if (results_write(r, RESULTS_DERIVED_HTML, err, errlen) != 0)
        goto fail;
    pthread_mutex_lock(&results_lock);
    results_live = r;
    pthread_mutex_unlock(&results_lock);
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
    pthread_mutex_lock(&results_lock);
    /* Under the same lock, so an interruption sees the benchmark as live or as added. */
    results_live_end();
    int rc = -1;
    if (json_array_append_new(json_object_get(r->root, "benchmarks"), benchmark) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        goto out;
    }
    json_object_set_new(r->root, "failed_points", json_integer(mb_results_failed_points(r) + failed));
    rc = 0;
out:
    pthread_mutex_unlock(&results_lock);
    return rc == 0 ? results_write(r, RESULTS_DERIVED_DUE, err, errlen) : -1;
}

/* With the lock held: the index of the record named name in the document, or -1. */
static long results_find_benchmark(const mb_results_t *r, const char *name)
{
    const json_t *b;
    size_t i;
    json_array_foreach(json_object_get(r->root, "benchmarks"), i, b)
    {
        const char *n = json_string_value(json_object_get(b, "name"));
        if (name && n && strcmp(n, name) == 0)
            return (long)i;
    }
    return -1;
}

int mb_results_replace_benchmark(mb_results_t *r, json_t *benchmark, char *err, size_t errlen)
{
    const char *name = json_string_value(json_object_get(benchmark, "name"));
    pthread_mutex_lock(&results_lock);
    results_live_end();
    json_t *benches = json_object_get(r->root, "benchmarks");
    long at = results_find_benchmark(r, name);
    int rc = -1;
    if (at < 0) {
        snprintf(err, errlen, "%s: no benchmark \"%s\" to replace", r->json_path,
                 name ? name : "(unnamed)");
        json_decref(benchmark);
        goto out;
    }
    json_int_t failed =
        json_integer_value(json_object_get(r->root, "failed_points")) -
        json_integer_value(json_object_get(json_array_get(benches, (size_t)at), "failed_points")) +
        json_integer_value(json_object_get(benchmark, "failed_points"));
    if (json_array_set_new(benches, (size_t)at, benchmark) != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        goto out;
    }
    json_object_set_new(r->root, "failed_points", json_integer(failed));
    rc = 0;
out:
    pthread_mutex_unlock(&results_lock);
    return rc == 0 ? results_write(r, RESULTS_DERIVED_DUE, err, errlen) : -1;
}

void mb_results_set_derived_wait(mb_results_t *r, double times)
{
    r->derived_wait = times;
}

size_t mb_results_failed_points(const mb_results_t *r)
{
    return (size_t)json_integer_value(json_object_get(r->root, "failed_points"));
}

int mb_results_set_section(mb_results_t *r, const char *key, json_t *value, char *err, size_t errlen)
{
    pthread_mutex_lock(&results_lock);
    int rc = json_object_set_new(r->root, key, value);
    bool live = r == results_live;
    pthread_mutex_unlock(&results_lock);
    if (rc != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        return -1;
    }
    /* during the run (r live), report.html waits for the close */
    return results_write(r, live ? RESULTS_DERIVED_ALL : RESULTS_DERIVED_HTML, err, errlen);
}

int mb_results_stage_section(mb_results_t *r, const char *key, json_t *value, char *err,
                             size_t errlen)
{
    pthread_mutex_lock(&results_lock);
    int rc = json_object_set_new(r->root, key, value);
    pthread_mutex_unlock(&results_lock);
    if (rc != 0) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        return -1;
    }
    return 0;
}

int mb_results_close(mb_results_t *r, bool complete, const char *why, char *err, size_t errlen)
{
    int ret = -1;
    pthread_mutex_lock(&results_lock);
    if (results_live == r) {
        results_live = NULL;
        results_live_end();
    }
    if (results_interrupted) {
        /* The interrupted record stays: the process is on its way out. r is no longer
         * results_live, so no later interruption reaches it. */
        pthread_mutex_unlock(&results_lock);
        snprintf(err, errlen, "%s: the run was interrupted", r->json_path);
        results_free(r);
        return -1;
    }
    pthread_mutex_unlock(&results_lock);
    if (json_object_set_new(r->root, "complete", json_boolean(complete)) != 0 ||
        json_object_set_new(r->root, "finished_utc", results_now_utc()) != 0 ||
        (complete ? json_object_del(r->root, "incomplete_reason") != 0
                  : json_object_set_new(r->root, "incomplete_reason",
                                        json_string(why ? why : RESULTS_UNFINISHED)) != 0)) {
        snprintf(err, errlen, "%s: out of memory", r->json_path);
        goto out;
    }
    ret = results_write(r, RESULTS_DERIVED_HTML, err, errlen);
out:
    results_free(r);
    return ret;
}

void mb_results_live_begin(const json_t *header)
{
    pthread_mutex_lock(&results_lock);
    json_decref(results_live_bench);
    json_decref(results_live_point);
    results_live_point = NULL;
    results_live_bench = results_live ? json_deep_copy(header) : NULL;
    clock_gettime(CLOCK_MONOTONIC, &results_live_began);
    if (results_live_bench && !json_is_array(json_object_get(results_live_bench, "points")))
        json_object_set_new(results_live_bench, "points", json_array());
    pthread_mutex_unlock(&results_lock);
}

void mb_results_live_extra(const char *key, const json_t *value)
{
    pthread_mutex_lock(&results_lock);
    if (results_live && !results_live_extra)
        results_live_extra = json_object();
    if (results_live_extra && value)
        json_object_set_new(results_live_extra, key, json_deep_copy(value));
    pthread_mutex_unlock(&results_lock);
}

void mb_results_live_point(json_t *failed_record, const json_t *finished)
{
    pthread_mutex_lock(&results_lock);
    json_decref(results_live_point);
    results_live_point = results_live_bench ? failed_record : NULL;
    if (!results_live_bench)
        json_decref(failed_record);
    if (results_live_bench && finished)
        json_array_append_new(json_object_get(results_live_bench, "points"),
                              json_deep_copy(finished));
    pthread_mutex_unlock(&results_lock);
}

/* The benchmark being measured, as far as it went, into the document: its finished points
 * and the point in progress failed with the reason. */
static void results_add_live(mb_results_t *r, const char *reason)
{
    json_t *bench = results_live_bench;
    results_live_bench = NULL;
    /* Measured again: its first record stands, whole, rather than a part beside it. */
    if (results_find_benchmark(r, json_string_value(json_object_get(bench, "name"))) >= 0) {
        json_decref(bench);
        return;
    }
    json_t *points = json_object_get(bench, "points");
    json_int_t failed = 0;
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        const char *status = json_string_value(json_object_get(p, "status"));
        failed += status && strcmp(status, "failed") == 0;
    }
    if (results_live_point) {
        json_object_set_new(results_live_point, "reason", json_string(reason));
        json_array_append_new(points, results_live_point);
        results_live_point = NULL;
        failed++;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double elapsed_s = (double)(now.tv_sec - results_live_began.tv_sec) +
                       (double)(now.tv_nsec - results_live_began.tv_nsec) / 1e9;
    json_object_set_new(bench, "failed_points", json_integer(failed));
    json_object_set_new(bench, "elapsed_s", json_real(elapsed_s));
    json_object_set_new(bench, "interrupted", json_string(reason));
    if (results_live_extra)
        json_object_update(bench, results_live_extra);
    json_array_append_new(json_object_get(r->root, "benchmarks"), bench);
    json_object_set_new(r->root, "failed_points",
                        json_integer(json_integer_value(json_object_get(r->root, "failed_points")) +
                                     failed));
}

int mb_results_interrupt(const char *reason, char *err, size_t errlen)
{
    pthread_mutex_lock(&results_lock);
    mb_results_t *r = results_live;
    if (!r || results_interrupted) {
        pthread_mutex_unlock(&results_lock);
        snprintf(err, errlen, "%s", r ? "already recorded" : "no results open");
        return 1;
    }
    results_interrupted = true;
    if (results_live_bench)
        results_add_live(r, reason);
    json_object_set_new(r->root, "incomplete_reason", json_string(reason));
    results_remove_temps(r);
    /* results.json alone, without fsync, since SIGKILL follows SIGTERM within a second
     * (results.h); the derived files keep their last whole write. */
    int rc = mb_file_write_atomic_nosync(r->json_path, results_json_writer, r, err, errlen);
    pthread_mutex_unlock(&results_lock);
    return rc;
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
