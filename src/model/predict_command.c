/* SPDX-License-Identifier: MIT */
/* The predict command: read a results document, take its "fits" (or fit it now), and
 * evaluate one benchmark's model at the given process count and size. --pair picks the
 * series by its label values (the pair of a point-to-point benchmark); without it, the
 * first series measured. A composite pattern (a record with "composed_of") is predicted
 * from its recipe (predict_patterns.h), beside its measured time where there is one. */
#include "predict_command.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config_units.h"
#include "fit.h"
#include "fit_results.h"
#include "predict_patterns.h"
#include "record.h"

#define PREDICT_USAGE "usage: mbsuite predict RESULTS.json OP -p P -d BYTES [--pair intra|inter]"
static const char predict_help[] =
    "Prints the time that RESULTS.json's fitted model of benchmark OP gives at P processes\n"
    "and BYTES per message, with its standard error, the model and its Q (the document's\n"
    "\"fits\", or fitted now where it has none); warns on stderr when P or BYTES lies\n"
    "outside the measured range. A composite pattern (e.g. mpi.halo4) is predicted from its\n"
    "recipe, beside its measured time where the run has one.\n"
    "  -p P          process count, for a model that depends on it\n"
    "  -d BYTES      message size in bytes (4096, 64K, 1M), for a model that depends on it\n"
    "  --pair PAIR   the series: intra (ranks on one node) or inter (on two nodes);\n"
    "                default: the first series measured\n";

typedef struct predict_args {
    const char *path, *op, *pair;
    long long p, d; /* -1: not given */
} predict_args_t;

static int predict_usage_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "mbsuite predict: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n" PREDICT_USAGE "\n");
    return 2;
}

/* A whole decimal integer >= min, or -1. */
static long long predict_integer(const char *s, long long min)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min)
        return -1;
    return v;
}

static int predict_parse(int argc, char **argv, predict_args_t *a)
{
    *a = (predict_args_t){.p = -1, .d = -1};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-p") == 0 || strcmp(arg, "-d") == 0 || strcmp(arg, "--pair") == 0) {
            if (i + 1 >= argc)
                return predict_usage_error("option '%s' needs a value%s", arg, "");
            const char *v = argv[++i];
            if (strcmp(arg, "--pair") == 0) {
                a->pair = v;
            } else if (arg[1] == 'p') {
                if ((a->p = predict_integer(v, 1)) < 0)
                    return predict_usage_error(
                        "-p: '%s' is not a process count (a whole number >= 1)%s", v, "");
            } else {
                /* As the configuration writes sizes: 4096, 64K, 1M, 1MiB. */
                uint64_t bytes;
                char why[160];
                if (mb_units_parse_size(v, &bytes, why, sizeof why) != 0)
                    return predict_usage_error("-d: %s%s", why, "");
                a->d = (long long)bytes;
            }
        } else if (strncmp(arg, "--pair=", 7) == 0) {
            a->pair = arg + 7;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return predict_usage_error("unknown option '%s'%s", arg, "");
        } else if (npos == 0) {
            a->path = arg;
            npos++;
        } else if (npos == 1) {
            a->op = arg;
            npos++;
        } else {
            return predict_usage_error("unexpected argument '%s'%s", arg, "");
        }
    }
    if (!a->op)
        return predict_usage_error(
            "%s%s", a->path ? "the benchmark (OP) is missing" : "RESULTS.json and OP are missing",
            "");
    return 0;
}

/* A fit's series as text: its label values joined by ",", "" for none. */
static void predict_series(const json_t *fit, char *buf, size_t len)
{
    mb_record_series_text(json_object_get(fit, "params"), buf, len);
}

/* The distinct names of the fits, or with op the series of op's fits, joined by ", ". */
static void predict_list(const json_t *fits, const char *op, char *buf, size_t len)
{
    json_t *seen = json_array();
    size_t used = 0, i;
    const json_t *fit;
    buf[0] = '\0';
    json_array_foreach(fits, i, fit)
    {
        const char *name = json_string_value(json_object_get(fit, "name"));
        char series[256];
        predict_series(fit, series, sizeof series);
        const char *v = op ? series : name;
        if (!v || !*v || !name || (op && strcmp(name, op) != 0) || mb_record_has_string(seen, v))
            continue;
        json_array_append_new(seen, json_string(v));
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", v);
    }
    json_decref(seen);
    if (!buf[0])
        snprintf(buf, len, "none");
}

/* Why a benchmark of the document has no fit. */
static const char *predict_no_model(const json_t *bench)
{
    const char *skipped = json_string_value(json_object_get(bench, "skipped"));
    if (skipped)
        return skipped;
    if (!mb_record_has_model(bench, "linear_pd"))
        return "its record declares no model (\"model\" is null)";
    return "no point was measured";
}

/* The measured headline of bench at (p, d), or NAN when that point was not measured. */
static double predict_measured(const json_t *bench, double p, double d)
{
    const char *p_axis = mb_record_axis(bench, MB_ROLE_RANKS);
    const char *d_axis = mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE);
    const char *stat = json_string_value(json_object_get(bench, "statistic"));
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        const json_t *params = json_object_get(pt, "params");
        const json_t *t = json_object_get(pt, stat ? stat : "median");
        if (!mb_record_point_ok(pt) || !json_is_number(t) ||
            (p_axis && json_number_value(json_object_get(params, p_axis)) != p) ||
            (d_axis && json_number_value(json_object_get(params, d_axis)) != d))
            continue;
        return json_number_value(t);
    }
    return NAN;
}

/* A composite pattern (its record has "composed_of"): its recipe evaluated from the fits,
 * and its measured time where that point was measured. */
static int predict_composite(const predict_args_t *a, const json_t *root, const json_t *fits,
                             const json_t *bench)
{
    bool uses_p = mb_record_axis(bench, MB_ROLE_RANKS) != NULL;
    bool uses_d = mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE) != NULL;
    if (uses_p && a->p < 0)
        return predict_usage_error("%s depends on the process count: give -p P%s", a->op, "");
    if (uses_d && a->d < 0)
        return predict_usage_error("%s depends on the message size: give -d BYTES%s", a->op, "");
    if (a->pair)
        fprintf(stderr,
                "mbsuite predict: warning: %s is predicted from its recipe, which names its "
                "series; --pair ignored\n",
                a->op);
    double p = uses_p ? (double)a->p : 2.0, d = uses_d ? (double)a->d : 0.0, t_ns;
    const json_t *recipe = json_object_get(bench, "composed_of");
    char text[512], err[512], where[96] = "";
    bool outside;
    mb_predict_recipe_text(recipe, text, sizeof text);
    if (mb_predict_recipe(recipe, root, fits, p, d, &t_ns, &outside, err, sizeof err) != 0) {
        fprintf(stderr, "mbsuite predict: %s: cannot predict from its recipe (%s): %s\n", a->op,
                text, err);
        return 1;
    }
    if (outside)
        fprintf(stderr,
                "mbsuite predict: warning: a component of %s is evaluated outside its fitted "
                "range: extrapolating\n",
                a->op);
    if (uses_p)
        snprintf(where, sizeof where, " p=%lld", a->p);
    if (uses_d)
        snprintf(where + strlen(where), sizeof where - strlen(where), " d=%lld", a->d);
    double measured = predict_measured(bench, p, d);
    printf("%s%s: %.4g us predicted (%s)", a->op, where, t_ns / 1000.0, text);
    if (isfinite(measured) && measured > 0)
        printf("; measured %.4g us, error %+.1f%%\n", measured / 1000.0,
               (t_ns - measured) / measured * 100.0);
    else
        printf("; not measured at this point\n");
    return 0;
}

static int predict_run(const predict_args_t *a, const json_t *root, const json_t *fits)
{
    char list[2048], err[256], model_text[320];
    const json_t *fit = NULL, *any = NULL;
    size_t i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        if (!name || strcmp(name, a->op) != 0)
            continue;
        any = any ? any : f;
        char series[256];
        predict_series(f, series, sizeof series);
        if (!fit && (!a->pair || strcmp(series, a->pair) == 0))
            fit = f;
    }
    if (!any) {
        size_t j;
        const json_t *b;
        json_array_foreach(json_object_get(root, "benchmarks"), j, b)
        {
            const char *name = json_string_value(json_object_get(b, "name"));
            if (name && strcmp(name, a->op) == 0) {
                if (mb_record_ran(b) && json_is_array(json_object_get(b, "composed_of")))
                    return predict_composite(a, root, fits, b);
                fprintf(stderr, "mbsuite predict: %s has no model: %s\n", a->op,
                        predict_no_model(b));
                return 1;
            }
        }
        predict_list(fits, NULL, list, sizeof list);
        fprintf(stderr, "mbsuite predict: unknown primitive '%s'; known: %s\n", a->op, list);
        return 2;
    }
    if (!fit && json_object_size(json_object_get(any, "params")) == 0) {
        fprintf(stderr,
                "mbsuite predict: %s has no pair parameter (--pair is for point-to-point)\n",
                a->op);
        return 2;
    }
    if (!fit) {
        predict_list(fits, a->op, list, sizeof list);
        fprintf(stderr, "mbsuite predict: %s has no pair '%s'; measured: %s\n", a->op, a->pair,
                list);
        return 2;
    }
    const json_t *vars = json_object_get(fit, "variables");
    bool uses_p = mb_record_has_string(vars, "p"), uses_d = mb_record_has_string(vars, "d");
    if (uses_p && a->p < 0)
        return predict_usage_error("%s depends on the process count: give -p P%s", a->op, "");
    if (uses_d && a->d < 0)
        return predict_usage_error("%s depends on the message size: give -d BYTES%s", a->op, "");
    if (json_array_size(json_object_get(fit, "segments")) == 0) {
        const char *why = json_string_value(json_object_get(fit, "error"));
        fprintf(stderr, "mbsuite predict: %s has no fitted model: %s\n", a->op,
                why ? why : "no segments");
        return 1;
    }
    if (!uses_p && a->p >= 0)
        fprintf(stderr,
                "mbsuite predict: warning: %s does not vary the process count; -p ignored\n",
                a->op);
    if (!uses_d && a->d >= 0)
        fprintf(stderr, "mbsuite predict: warning: %s does not vary the message size; -d ignored\n",
                a->op);
    double p = uses_p ? (double)a->p : 2.0, d = uses_d ? (double)a->d : 0.0;

    const json_t *seg = mb_fit_results_pick_segment(fit, d);
    mb_fit_model_t m;
    if (mb_fit_results_segment_model(fit, seg, &m, err, sizeof err) != 0) {
        fprintf(stderr, "mbsuite predict: %s: %s\n", a->op, err);
        return 1;
    }
    double se_ns, t_ns = mb_fit_predict(&m, p, d, &se_ns, NULL);
    const json_t *segs = json_object_get(fit, "segments");
    double d_lo = json_number_value(json_object_get(json_array_get(segs, 0), "d_min"));
    double d_hi = json_number_value(
        json_object_get(json_array_get(segs, json_array_size(segs) - 1), "d_max"));
    if (uses_p && m.p_min == m.p_max && p != m.p_min)
        fprintf(stderr,
                "mbsuite predict: warning: only p=%.0f was measured, so the model has no term in "
                "p: this is its time at p=%.0f, not a prediction for p=%lld\n",
                m.p_min, m.p_min, a->p);
    else if (uses_p && (p < m.p_min || p > m.p_max))
        fprintf(stderr,
                "mbsuite predict: warning: p=%lld is outside the measured range %.0f..%.0f: "
                "extrapolating\n",
                a->p, m.p_min, m.p_max);
    if (uses_d && (d < d_lo || d > d_hi))
        fprintf(stderr,
                "mbsuite predict: warning: d=%lld is outside the measured range %.0f..%.0f bytes: "
                "extrapolating\n",
                a->d, d_lo, d_hi);

    char where[128] = "";
    size_t used = 0;
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(fit, "params"), key, v)
    {
        if (used < sizeof where)
            used += (size_t)snprintf(where + used, sizeof where - used, " %s=%s", key,
                                     json_is_string(v) ? json_string_value(v) : "?");
    }
    if (uses_p && used < sizeof where)
        used += (size_t)snprintf(where + used, sizeof where - used, " p=%lld", a->p);
    if (uses_d && used < sizeof where)
        snprintf(where + used, sizeof where - used, " d=%lld", a->d);
    mb_fit_results_format_model(seg, false, model_text, sizeof model_text);
    /* A model with no degrees of freedom left (the 0-byte points' mean) has no Q. */
    char q_text[32] = "-";
    if (isfinite(m.q))
        snprintf(q_text, sizeof q_text, "%.2g", m.q);
    printf("%s%s: %.4g us +- %.2g us (model %s, Q %s)\n", a->op, where, t_ns / 1000.0,
           se_ns / 1000.0, model_text, q_text);
    return 0;
}

int mb_command_predict(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s\n%s", PREDICT_USAGE, predict_help);
            return 0;
        }
    }
    predict_args_t a;
    int rc = predict_parse(argc, argv, &a);
    if (rc != 0)
        return rc;

    FILE *probe = fopen(a.path, "r");
    if (!probe) {
        fprintf(stderr, "mbsuite predict: %s: cannot read: %s\n", a.path, strerror(errno));
        return 1;
    }
    fclose(probe);
    json_error_t jerr;
    json_t *root = json_load_file(a.path, 0, &jerr);
    if (!root) {
        fprintf(stderr, "mbsuite predict: %s:%d:%d: malformed JSON: %s\n", a.path, jerr.line,
                jerr.column, jerr.text);
        return 1;
    }
    json_t *computed;
    char err[256];
    const json_t *fits = mb_fit_results_of(root, &computed, err, sizeof err);
    if (!fits) {
        fprintf(stderr, "mbsuite predict: %s: %s\n", a.path, err);
        json_decref(root);
        return 1;
    }
    rc = predict_run(&a, root, fits);
    json_decref(computed);
    json_decref(root);
    return rc;
}
