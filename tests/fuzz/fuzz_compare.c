/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for what `mbsuite compare` reads: the input is a results.json's bytes.
 * Parsed and checked as compare_command.c's compare_load does (duplicate keys refused, the
 * schema, "benchmarks" an array), then compared in memory with itself (no raw samples),
 * with a fixed run (corpus/compare/reference.json) where both sides have raw samples, and
 * the other way round with samples on the reference's side only, each comparison written
 * as text and HTML; then `mbsuite compare DOC DOC --out DIR` on the document as a file in a
 * scratch directory (on tmpfs where there is one), which also holds a raw.csv.gz of the
 * reference's samples for a document whose "raw" section names it.
 *
 * The raw samples of a document are made here from each point's min, median and max (11
 * values): compare_runs.c only needs them to exist for the point, and to differ between
 * runs where the documents do, to reach the rank test and the bootstrap. */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "compare_command.h"
#include "compare_render.h"
#include "compare_runs.h"
#include "raw_read.h"
#include "raw_samples.h"
#include "fuzz_scratch.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fixed run compared with each input; read relative to the repository's root, where
 * tests/fuzz/run.sh and make check run the harness. */
#define FUZZ_REFERENCE "tests/fuzz/corpus/compare/reference.json"
#define FUZZ_SAMPLES 11

static char fuzz_dir[PATH_MAX];  /* scratch directory, removed at exit */
static char fuzz_json[PATH_MAX]; /* fuzz_dir/results.json: the input */
static char fuzz_raw[PATH_MAX];  /* fuzz_dir/raw.csv.gz: the reference's samples */
static char fuzz_out[PATH_MAX];  /* fuzz_dir/out: compare's --out */
static json_t *fuzz_ref;
static mb_raw_data_t fuzz_ref_raw;
static FILE *fuzz_null; /* /dev/null, for the rendered comparisons */

static void fuzz_cleanup(void)
{
    static const char *const outs[] = {"compare.txt", "compare.json", "compare.html"};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/%s", fuzz_out, outs[i]);
        (void)unlink(path);
    }
    (void)rmdir(fuzz_out);
    (void)unlink(fuzz_json);
    (void)unlink(fuzz_raw);
    (void)rmdir(fuzz_dir);
}

/* Point k's samples: 11 values from its min through its median to its max (0 where the
 * point lacks one). */
static void fuzz_samples(const json_t *pt, double *out)
{
    double lo = json_number_value(json_object_get(pt, "min"));
    double mid = json_number_value(json_object_get(pt, "median"));
    double hi = json_number_value(json_object_get(pt, "max"));
    for (int j = 0; j < FUZZ_SAMPLES; j++)
        out[j] = j < 5 ? lo + (mid - lo) * j / 5 : mid + (hi - mid) * (j - 5) / 5;
}

static int fuzz_point_cmp(const void *x, const void *y)
{
    const mb_raw_point_t *a = x, *b = y;
    int c = strcmp(a->bench, b->bench);
    return c ? c : (a->point > b->point) - (a->point < b->point);
}

/* The raw samples of every point of root's named benchmarks, sorted as raw_read.c sorts
 * them (mb_raw_find searches them). The names point into root. */
static void fuzz_raw_of(const json_t *root, mb_raw_data_t *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "raw.csv.gz");
    size_t cap = 0, i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        const char *name = json_string_value(json_object_get(bench, "name"));
        size_t k;
        const json_t *pt;
        if (!name) /* no samples to key by (an input with a "" member once gave it some) */
            continue;
        json_array_foreach(json_object_get(bench, "points"), k, pt)
        {
            if (d->npoints == cap) {
                cap = cap ? 2 * cap : 16;
                mb_raw_point_t *more = realloc(d->points, cap * sizeof *more);
                if (!more)
                    abort();
                d->points = more;
            }
            double *s = malloc(FUZZ_SAMPLES * sizeof *s);
            if (!s)
                abort();
            fuzz_samples(pt, s);
            d->points[d->npoints++] = (mb_raw_point_t){(char *)name, k, s, FUZZ_SAMPLES, 0};
            d->rows += FUZZ_SAMPLES;
        }
    }
    if (d->npoints)
        qsort(d->points, d->npoints, sizeof *d->points, fuzz_point_cmp);
}

static void fuzz_raw_free(mb_raw_data_t *d)
{
    for (size_t i = 0; i < d->npoints; i++)
        free(d->points[i].samples_ns);
    free(d->points);
}

/* fuzz_raw: the reference's samples as raw_samples.c writes them. */
static void fuzz_write_raw(void)
{
    gzFile gz = gzopen(fuzz_raw, "wb");
    if (!gz || gzprintf(gz, "%s\n", MB_RAW_HEADER) <= 0)
        abort();
    for (size_t i = 0; i < fuzz_ref_raw.npoints; i++) {
        const mb_raw_point_t *p = &fuzz_ref_raw.points[i];
        for (size_t j = 0; j < p->n; j++)
            gzprintf(gz, "%s,-,%zu,%zu,%.17g\n", p->bench, p->point, j, p->samples_ns[j]);
    }
    if (gzclose(gz) != Z_OK)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    json_error_t je;
    fuzz_ref = json_load_file(FUZZ_REFERENCE, JSON_REJECT_DUPLICATES, &je);
    fuzz_null = fopen("/dev/null", "w");
    if (!fuzz_ref || !fuzz_null) {
        fprintf(stderr, "fuzz_compare: %s (run from the repository's root): %s\n",
                FUZZ_REFERENCE, fuzz_ref ? "/dev/null" : je.text);
        exit(1);
    }
    fuzz_raw_of(fuzz_ref, &fuzz_ref_raw);
    fuzz_scratch_dir("fuzz_compare", fuzz_dir, sizeof fuzz_dir);
    snprintf(fuzz_json, sizeof fuzz_json, "%s/results.json", fuzz_dir);
    snprintf(fuzz_raw, sizeof fuzz_raw, "%s/raw.csv.gz", fuzz_dir);
    snprintf(fuzz_out, sizeof fuzz_out, "%s/out", fuzz_dir);
    atexit(fuzz_cleanup);
    fuzz_write_raw();
    return 0;
}

/* a against b, the summary and both renderings. */
static void fuzz_compare(const mb_compare_run_t *a, const mb_compare_run_t *b)
{
    /* Few resamples: the bootstrap's cost, not its precision, matters here. */
    const mb_compare_opts_t opts = {.alpha = 0.01, .min_change = 0.01, .reps = 20};
    json_t *cmp = mb_compare_runs(a, b, &opts);
    if (!cmp)
        return;
    char line[1024];
    mb_compare_summary_text(cmp, line, sizeof line);
    (void)mb_compare_write_text(fuzz_null, cmp);
    (void)mb_compare_write_html(fuzz_null, cmp);
    json_decref(cmp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
    const char *schema = json_string_value(json_object_get(root, "schema"));
    if (!schema || strncmp(schema, "mbsuite-results/", 16) != 0 ||
        !json_is_array(json_object_get(root, "benchmarks"))) {
        json_decref(root);
        return 0;
    }
    mb_raw_data_t raw;
    fuzz_raw_of(root, &raw);
    mb_compare_run_t doc = {"doc", root, NULL, "none"};
    mb_compare_run_t doc_raw = {"doc", root, &raw, NULL};
    mb_compare_run_t ref = {"ref", fuzz_ref, &fuzz_ref_raw, NULL};
    fuzz_compare(&doc, &doc);
    fuzz_compare(&doc_raw, &ref);
    fuzz_compare(&ref, &doc);
    fuzz_raw_free(&raw);
    json_decref(root);

    FILE *f = fopen(fuzz_json, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || wrote != size)
        return 0;
    char *argv[] = {"compare", fuzz_json, fuzz_json, "--out", fuzz_out, NULL};
    (void)mb_command_compare(5, argv);
    return 0;
}
