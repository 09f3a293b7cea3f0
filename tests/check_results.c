/* SPDX-License-Identifier: MIT */
/* check_results [--complete] [--expect-bench NAME]... [--expect-preflight-nodes N]
 *               [--expect-timings] [--raw] FILE
 * Validates a results.json against its schema (docs/results.md) for the end-to-end tests.
 * Prints "FILE: ok (N benchmarks, M points, K failed)" and exits 0, or names the JSON path
 * of the first problem and exits 1; exits 2 on a usage error. --complete requires
 * "complete": true; --expect-bench requires a benchmark of that name that was not skipped;
 * --expect-preflight-nodes requires a pre-flight table of N nodes; --expect-timings a
 * "timings" section with every phase of a finished run and wall_s on every measured
 * benchmark; --raw the run's raw samples (raw_read.h, as mbsuite compare reads them: a
 * benchmark measured again by its last measurement) to hold exactly n samples for every
 * ok point and none for a point the records lack. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libgen.h>

#include <jansson.h>

#include "raw_read.h"
#include "results_check.h"

/* --raw: every ok point of file's records has exactly its n samples in the raw file, and
 * every point read there is a record's. Returns 0, or 1 with the first problem printed. */
static int check_results_raw(const char *file, const json_t *root)
{
    char *copy = strdup(file), err[1024] = "out of memory";
    mb_raw_data_t raw;
    int rc =
        copy ? mb_raw_read(dirname(copy), json_object_get(root, "raw"), &raw, err, sizeof err) : -1;
    free(copy);
    if (rc != 0) {
        printf("%s: raw samples: %s\n", file, err);
        return 1;
    }
    size_t i, k, matched = 0;
    const json_t *b, *pt;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *name = json_string_value(json_object_get(b, "name"));
        json_array_foreach(json_object_get(b, "points"), k, pt)
        {
            const mb_raw_point_t *got = mb_raw_find(&raw, name, k);
            const char *status = json_string_value(json_object_get(pt, "status"));
            size_t want = status && strcmp(status, "ok") == 0
                              ? (size_t)json_integer_value(json_object_get(pt, "n"))
                              : 0;
            if ((got ? got->n : 0) != want) {
                printf("%s: raw samples: %s point %zu has %zu, its record's n is %zu\n", file, name,
                       k, got ? got->n : 0, want);
                mb_raw_data_free(&raw);
                return 1;
            }
            matched += got != NULL;
        }
    }
    if (matched != raw.npoints) {
        printf("%s: raw samples: %zu points read, %zu of them a record's\n", file, raw.npoints,
               matched);
        mb_raw_data_free(&raw);
        return 1;
    }
    printf("%s: raw ok (%zu samples of %zu points)\n", file, raw.rows, raw.npoints);
    mb_raw_data_free(&raw);
    return 0;
}

static int check_results_usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--complete] [--expect-bench NAME]... [--expect-preflight-nodes N] "
            "[--expect-timings] [--raw] FILE\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    int ret = 2;
    bool with_raw = false;
    const char *file = NULL;
    const char **expect = calloc((size_t)argc, sizeof *expect);
    mb_results_check_opts_t opts = {0};
    json_t *root = NULL;

    if (!expect) {
        fprintf(stderr, "check_results: out of memory\n");
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--raw") == 0) {
            with_raw = true;
        } else if (strcmp(argv[i], "--complete") == 0) {
            opts.require_complete = true;
        } else if (strcmp(argv[i], "--expect-timings") == 0) {
            opts.require_timings = true;
        } else if (strcmp(argv[i], "--expect-bench") == 0 && i + 1 < argc) {
            expect[opts.n_expect_bench++] = argv[++i];
        } else if (strcmp(argv[i], "--expect-preflight-nodes") == 0 && i + 1 < argc) {
            opts.expect_preflight_nodes = atoi(argv[++i]);
        } else if (strncmp(argv[i], "--expect-bench=", 15) == 0 && argv[i][15]) {
            expect[opts.n_expect_bench++] = argv[i] + 15;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            ret = check_results_usage(argv[0]);
            goto out;
        } else if (!file) {
            file = argv[i];
        } else {
            ret = check_results_usage(argv[0]);
            goto out;
        }
    }
    if (!file) {
        ret = check_results_usage(argv[0]);
        goto out;
    }
    opts.expect_bench = expect;

    json_error_t jerr;
    root = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (jerr.line > 0)
            printf("%s:%d:%d: not valid JSON: %s\n", file, jerr.line, jerr.column, jerr.text);
        else
            printf("%s: %s\n", file, jerr.text);
        ret = 1;
        goto out;
    }
    char err[1024];
    mb_results_check_counts_t counts;
    if (mb_results_check(root, &opts, &counts, err, sizeof err) != 0) {
        printf("%s: %s\n", file, err);
        ret = 1;
        goto out;
    }
    printf("%s: ok (%zu benchmarks, %zu points, %zu failed)\n", file, counts.benchmarks,
           counts.points, counts.failed);
    ret = with_raw ? check_results_raw(file, root) : 0;
out:
    json_decref(root);
    free(expect);
    return ret;
}
