/* SPDX-License-Identifier: MIT */
/* check_results [--complete] [--expect-bench NAME]... [--expect-preflight-nodes N]
 *               [--expect-timings] FILE
 * Validates a results.json against its schema (docs/results.md) for the end-to-end tests.
 * Prints "FILE: ok (N benchmarks, M points, K failed)" and exits 0, or names the JSON path
 * of the first problem and exits 1; exits 2 on a usage error. --complete requires
 * "complete": true; --expect-bench requires a benchmark of that name that was not skipped;
 * --expect-preflight-nodes requires a pre-flight table of N nodes; --expect-timings a
 * "timings" section with every phase of a finished run and wall_s on every measured
 * benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results_check.h"

static int check_results_usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--complete] [--expect-bench NAME]... [--expect-preflight-nodes N] "
            "[--expect-timings] FILE\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    int ret = 2;
    const char *file = NULL;
    const char **expect = calloc((size_t)argc, sizeof *expect);
    mb_results_check_opts_t opts = {0};
    json_t *root = NULL;

    if (!expect) {
        fprintf(stderr, "check_results: out of memory\n");
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--complete") == 0) {
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
    ret = 0;
out:
    json_decref(root);
    free(expect);
    return ret;
}
