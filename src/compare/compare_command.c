/* SPDX-License-Identifier: MIT */
#include "compare_command.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "compare_render.h"
#include "compare_runs.h"
#include "export_util.h"
#include "raw_read.h"
#include "results.h"

static const char compare_usage[] =
    "usage: mbsuite compare RUN_A RUN_B [--out DIR] [--alpha P] [--min-change FRACTION]\n"
    "Compares two runs (results directories, or their results.json), B against A: first what\n"
    "differs in their system, MPI and configuration, then a summary, then for every point\n"
    "both measured the change of its median (B / A - 1) with a verdict: slower or faster\n"
    "beyond the experiments' noise, or unchanged. The verdict comes from the raw samples\n"
    "(raw.csv.gz): a Mann-Whitney U test (two-sided, p < P, default 0.01) and a 95%\n"
    "bootstrap CI of the ratio of medians that excludes 1; a run without raw samples falls\n"
    "back to results.json's 95% CIs of the medians (no overlap), and the output says so.\n"
    "Changes under FRACTION (default 0.01, i.e. 1%) count as unchanged.\n"
    "Text on stdout; with --out, DIR/compare.txt, compare.json and compare.html (one\n"
    "self-contained page). Exit status: 0 compared, 1 a run cannot be read, 2 bad arguments.\n";

__attribute__((format(printf, 1, 2))) static int compare_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mbsuite compare: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n%s", compare_usage);
    va_end(ap);
    return 2;
}

/* One side of the comparison, loaded. */
typedef struct compare_side {
    char dir[PATH_MAX];
    json_t *root;
    mb_raw_data_t raw;
    bool have_raw;
    char note[600];
} compare_side_t;

/* RUN (a directory or its results.json) loaded, its raw samples if it kept them. Returns
 * 0, or -1 after saying why on stderr. */
static int compare_load(const char *run, compare_side_t *s)
{
    char path[PATH_MAX + 16];
    struct stat st;
    if (stat(run, &st) != 0) {
        fprintf(stderr, "mbsuite compare: %s: no such run (not a file or directory)\n", run);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(s->dir, sizeof s->dir, "%s", run);
        snprintf(path, sizeof path, "%s/results.json", run);
    } else {
        snprintf(path, sizeof path, "%s", run);
        snprintf(s->dir, sizeof s->dir, "%s", run);
        char *slash = strrchr(s->dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(s->dir, sizeof s->dir, ".");
    }
    json_error_t je;
    s->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!s->root) {
        if (je.line > 0)
            fprintf(stderr, "mbsuite compare: %s:%d: not a run: %s\n", path, je.line, je.text);
        else
            fprintf(stderr, "mbsuite compare: %s: not a run: %s\n", path, je.text);
        return -1;
    }
    const char *schema = json_string_value(json_object_get(s->root, "schema"));
    if (!schema || strncmp(schema, "mbsuite-results/", 16) != 0 ||
        !json_is_array(json_object_get(s->root, "benchmarks"))) {
        fprintf(stderr,
                "mbsuite compare: %s: not a run (no \"schema\": \"mbsuite-results/...\" with "
                "\"benchmarks\")\n",
                path);
        return -1;
    }
    char err[600];
    int rc = mb_raw_read(s->dir, json_object_get(s->root, "raw"), &s->raw, err, sizeof err);
    s->have_raw = rc == 0;
    if (rc != 0) {
        snprintf(s->note, sizeof s->note, "%s", err);
        if (rc < 0) /* samples there but unreadable: said, and the CIs used instead */
            fprintf(stderr, "mbsuite compare: warning: %s; using results.json's CIs\n", err);
    }
    return 0;
}

static void compare_side_free(compare_side_t *s)
{
    json_decref(s->root);
    if (s->have_raw)
        mb_raw_data_free(&s->raw);
}

static int compare_text_writer(FILE *f, void *arg)
{
    return mb_compare_write_text(f, arg);
}

static int compare_html_writer(FILE *f, void *arg)
{
    return mb_compare_write_html(f, arg);
}

static int compare_json_writer(FILE *f, void *arg)
{
    if (json_dumpf(arg, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

/* A number option's value, from lo (included when lo_in) to hi (excluded), or -1 after a
 * usage error. */
static double compare_number(const char *opt, const char *text, double lo, bool lo_in, double hi)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !((lo_in ? v >= lo : v > lo) && v < hi)) {
        compare_usage_error("option '%s': '%s' is not a number in %c%g, %g)", opt, text,
                            lo_in ? '[' : '(', lo, hi);
        return -1;
    }
    return v;
}

int mb_command_compare(int argc, char **argv)
{
    const char *runs[2] = {NULL, NULL}, *out = NULL;
    mb_compare_opts_t opts = {.alpha = 0.01, .min_change = 0.01, .reps = 1000};
    int nruns = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(compare_usage, stdout);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--out") == 0 || strcmp(arg, "--alpha") == 0 ||
            strcmp(arg, "--min-change") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return compare_usage_error("option '%s' needs a value", arg);
            const char *v = argv[++i];
            if (strcmp(arg, "--out") == 0)
                out = v;
            else if (strcmp(arg, "--alpha") == 0 && (opts.alpha = compare_number(arg, v, 0, false, 1)) < 0)
                return 2;
            else if (strcmp(arg, "--min-change") == 0 &&
                     (opts.min_change = compare_number(arg, v, 0, true, 10)) < 0)
                return 2;
        } else if (arg[0] == '-' && arg[1]) {
            return compare_usage_error("unknown option '%s'", arg);
        } else if (nruns < 2 && arg[0]) {
            runs[nruns++] = arg;
        } else {
            return compare_usage_error("unexpected argument '%s': two runs, please", arg);
        }
    }
    if (nruns < 2)
        return compare_usage_error("%s", nruns ? "a second run is missing: RUN_A RUN_B"
                                               : "no runs given: RUN_A RUN_B");
    compare_side_t sides[2];
    memset(sides, 0, sizeof sides);
    int rc = 1;
    json_t *cmp = NULL;
    if (compare_load(runs[0], &sides[0]) != 0 || compare_load(runs[1], &sides[1]) != 0)
        goto out;
    mb_compare_run_t a = {sides[0].dir, sides[0].root, sides[0].have_raw ? &sides[0].raw : NULL,
                          sides[0].note};
    mb_compare_run_t b = {sides[1].dir, sides[1].root, sides[1].have_raw ? &sides[1].raw : NULL,
                          sides[1].note};
    cmp = mb_compare_runs(&a, &b, &opts);
    if (!cmp) {
        fprintf(stderr, "mbsuite compare: out of memory\n");
        goto out;
    }
    if (out) {
        static const mb_export_file_t files[] = {
            {"compare.txt", compare_text_writer},
            {"compare.json", compare_json_writer},
            {"compare.html", compare_html_writer},
        };
        char err[1024];
        if (mb_export_write_files(out, files, 3, cmp, err, sizeof err) != 0) {
            fprintf(stderr, "mbsuite compare: %s\n", err);
            goto out;
        }
    }
    if (mb_compare_write_text(stdout, cmp) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "mbsuite compare: writing to stdout failed\n");
        goto out;
    }
    if (out)
        fprintf(stderr, "mbsuite compare: %s/compare.txt, compare.json, compare.html\n", out);
    rc = 0;
out:
    json_decref(cmp);
    compare_side_free(&sides[0]);
    compare_side_free(&sides[1]);
    return rc;
}
