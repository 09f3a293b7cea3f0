/* SPDX-License-Identifier: MIT */
/* results_get FILE BENCH FIELD [PARAM=VALUE...]: print FIELD ("median", "min", ...; or
 * "bandwidth.median", "over_ranks.aggregate_bytes_per_s", "runs.stderr" or "params.array_bytes") of
 * the first point of benchmark BENCH whose params match, or FILE system.clock KEY, FILE system.mpi
 * KEY, FILE preflight KEY or FILE drift KEY for a clock, pre-flight or drift figure, or FILE BENCH
 * elapsed_s|wall_s for the benchmark's measuring or whole wall time, FILE BENCH measured_by for who
 * measured it, FILE BENCH skipped|failed_points for why it did not run ("null" if it ran) or how
 * many of its points failed, FILE BENCH point_probes for how many of its points carry the drift
 * probe's readings around them ("K of N"), or FILE fits p2p|coll [OVER_PCT]: the median held-out
 * prediction error
 * (%) of the point-to-point (params with a pair) or collective fits, how many, the worst and its
 * benchmark, and how many exceed OVER_PCT; FILE fits quality: of the segments over d > 0 (the
 * 0-byte ones apart), how many have Q in [0.01, 0.99], how many a negative coefficient, how many
 * fewer than 4 points, and how many there are; FILE noise: "P50 P99 quiet|noisy" of the noisiest
 * node's pre-flight spin loop; FILE timings KEY for the run's "timings" figures (total_s,
 * rank0_peak_rss_bytes), FILE timings phase NAME for a phase's wall_s (0 when the run had no such
 * phase), FILE system.os_phase KEY for how the os phase ran, FILE timings slowest for the measured
 * benchmark with the largest wall_s and its wall_s ("NAME SECONDS"); FILE predictions errors:
 * per composite pattern a line "NAME MEDIAN_ABS_ERROR_PCT POINTS DRIFT_RATIO" ("-" when none
 * was predicted or probed); FILE breaks BENCH [PARAM=VALUE]: the first size of each fitted segment
 * of BENCH's first fit (of that series), one line, e.g. "0 1 384 4096" (where the protocol steps);
 * FILE levels BENCH: the cache levels BENCH derived ("49152 1048576 open"), each where its plateau
 * ends; FILE midpoints BENCH: the same levels, each where the rise after it is half done. For
 * scripts such as
 * `make bench`. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static int get_usage(void)
{
    fprintf(
        stderr,
        "usage: results_get FILE BENCH FIELD [PARAM=VALUE...]\n"
        "       results_get FILE BENCH drift_probe.before_ns|drift_probe.after_ns\n"
        "       results_get FILE BENCH point_probes\n"
        "       results_get FILE system.clock|system.mpi|preflight|timings|time_budget|drift KEY\n"
        "       results_get FILE system.os_phase KEY\n"
        "       results_get FILE timings phase NAME\n"
        "       results_get FILE timings slowest\n"
        "       results_get FILE fits p2p|coll [OVER_PCT] | fits quality\n"
        "       results_get FILE predictions errors\n"
        "       results_get FILE noise | detour | benchmarks\n"
        "       results_get FILE breaks BENCH [PARAM=VALUE]\n"
        "       results_get FILE levels|midpoints BENCH\n");
    return 2;
}

static int get_print(const json_t *v, const char *what)
{
    if (json_is_number(v)) {
        printf("%.10g\n", json_number_value(v));
        return 0;
    }
    if (json_is_string(v)) {
        printf("%s\n", json_string_value(v));
        return 0;
    }
    fprintf(stderr, "results_get: no number at %s\n", what);
    return 1;
}

static int get_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The d_min of each segment of bench's first fit whose params hold key=value (if given). */
static int get_breaks(const json_t *root, const char *bench, const char *param)
{
    char key[128] = "";
    const char *value = NULL;
    if (param) {
        snprintf(key, sizeof key, "%s", param);
        char *eq = strchr(key, '=');
        if (!eq)
            return get_usage();
        *eq = '\0';
        value = eq + 1;
    }
    size_t i, j;
    const json_t *f, *s;
    json_array_foreach(json_object_get(root, "fits"), i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        const char *v = value ? json_string_value(json_object_get(json_object_get(f, "params"), key))
                              : NULL;
        if (!name || strcmp(name, bench) != 0 || (value && (!v || strcmp(v, value) != 0)))
            continue;
        json_array_foreach(json_object_get(f, "segments"), j, s)
            printf("%s%.0f", j ? " " : "", json_number_value(json_object_get(s, "d_min")));
        printf("\n");
        return 0;
    }
    fprintf(stderr, "results_get: no fit of %s\n", bench);
    return 1;
}

/* Each pattern's median |predicted - measured| / measured, as the run wrote it. */
static int get_predictions(const json_t *root)
{
    const json_t *preds = json_object_get(root, "predictions"), *e;
    size_t i;
    if (!json_is_array(preds)) {
        fprintf(stderr, "results_get: no \"predictions\" array\n");
        return 1;
    }
    json_array_foreach(preds, i, e)
    {
        const json_t *m = json_object_get(e, "median_abs_error_pct"),
                     *drift = json_object_get(e, "drift_ratio");
        const char *name = json_string_value(json_object_get(e, "name"));
        if (json_is_number(m))
            printf("%s %.1f %lld", name ? name : "?", json_number_value(m),
                   (long long)json_integer_value(json_object_get(e, "predicted_points")));
        else
            printf("%s - 0", name ? name : "?");
        if (json_is_number(drift))
            printf(" %.2f\n", json_number_value(drift));
        else
            printf(" -\n");
    }
    return 0;
}

/* "MEDIAN COUNT WORST NAME OVER": the median of the fits' holdout_error_pct, point-to-point ones
 * or collectives, how many, the worst and its benchmark, and how many exceed OVER percent
 * (the targets are for every fit, not the median). */
static int get_fits_holdout(const json_t *root, const char *which, double over_pct)
{
    bool p2p = strcmp(which, "p2p") == 0;
    size_t i, n = 0, nover = 0;
    json_t *fit;
    const char *worst_name = "?";
    double worst = 0;
    const json_t *fits = json_object_get(root, "fits");
    double *v = calloc(json_array_size(fits) + 1, sizeof *v);
    if (!v)
        return 1;
    json_array_foreach(fits, i, fit) {
        const json_t *e = json_object_get(fit, "holdout_error_pct");
        bool is_p2p = json_object_get(json_object_get(fit, "params"), "pair") != NULL;
        if (!json_is_number(e) || is_p2p != p2p)
            continue;
        double x = json_number_value(e);
        if (n == 0 || x > worst) {
            const char *name = json_string_value(json_object_get(fit, "name"));
            worst = x;
            worst_name = name ? name : "?";
        }
        v[n++] = x;
        nover += x > over_pct;
    }
    if (n == 0) {
        free(v);
        fprintf(stderr, "results_get: no %s fit has a held-out error\n", which);
        return 1;
    }
    qsort(v, n, sizeof *v, get_cmp);
    printf("%.4g %zu %.4g %s %zu\n", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, n, worst,
           worst_name, nover);
    free(v);
    return 0;
}

/* "Q_IN_RANGE NEGATIVE UNDER_4_POINTS SEGMENTS" over the segments that span sizes: not a
 * size's own case (d_min = d_max: the 0-byte points, or the smallest size's). */
static int get_fits_quality(const json_t *root)
{
    size_t i, j, k, q_ok = 0, negative = 0, small = 0, n = 0;
    const json_t *fit, *seg, *term;
    json_array_foreach(json_object_get(root, "fits"), i, fit) {
        json_array_foreach(json_object_get(fit, "segments"), j, seg) {
            if (!(json_number_value(json_object_get(seg, "d_max")) >
                  json_number_value(json_object_get(seg, "d_min"))))
                continue;
            n++;
            double q = json_number_value(json_object_get(seg, "Q"));
            q_ok += q >= 0.01 && q <= 0.99;
            const json_t *terms = json_object_get(seg, "terms");
            bool neg = false;
            json_array_foreach(terms, k, term) neg |= json_number_value(json_object_get(term, "coef")) < 0;
            negative += neg;
            small += json_integer_value(json_object_get(seg, "dof")) + (json_int_t)json_array_size(terms) < 4;
        }
    }
    printf("%zu %zu %zu %zu\n", q_ok, negative, small, n);
    return n ? 0 : 1;
}

/* The pre-flight node whose record[key] is largest, or NULL when no node has that figure. */
static const json_t *worst_preflight_node(const json_t *root, const char *record, const char *key)
{
    size_t i;
    const json_t *node, *worst = NULL;
    double most = 0;
    json_array_foreach(json_object_get(json_object_get(root, "preflight"), "nodes"), i, node)
    {
        const json_t *v = json_object_get(json_object_get(node, record), key);
        if (json_is_number(v) && (!worst || json_number_value(v) > most)) {
            worst = node;
            most = json_number_value(v);
        }
    }
    return worst;
}

/* "P50 P99 VERDICT" of the noisiest node's pre-flight spin loop (largest p99; seed 002's
 * slower-than-reference percentages), VERDICT "quiet" or "noisy" as the run flagged it. */
static int get_noise(const json_t *root)
{
    const json_t *worst = worst_preflight_node(root, "perturb", "p99_pct");
    if (!worst) {
        fprintf(stderr, "results_get: the run has no pre-flight noise figure\n");
        return 1;
    }
    const json_t *p = json_object_get(worst, "perturb");
    printf("%.3g %.3g %s\n", json_number_value(json_object_get(p, "p50_pct")),
           json_number_value(json_object_get(p, "p99_pct")),
           json_is_true(json_object_get(worst, "flagged")) ? "noisy" : "quiet");
    return 0;
}

/* The pre-flight's detour test on the node that lost the largest share of its time, as
 * "LOST_PCT PER_S MEDIAN_US". */
static int get_detour(const json_t *root)
{
    const json_t *worst = worst_preflight_node(root, "detour", "lost_pct");
    if (!worst) {
        fprintf(stderr, "results_get: the run has no detour test\n");
        return 1;
    }
    const json_t *d = json_object_get(worst, "detour");
    printf("%.3g %.4g %.3g\n", json_number_value(json_object_get(d, "lost_pct")),
           json_number_value(json_object_get(d, "per_s")),
           json_number_value(json_object_get(d, "median_us")));
    return 0;
}

/* The measured benchmark with the largest wall_s, as "NAME SECONDS". */
static int get_slowest(const json_t *root)
{
    size_t i;
    json_t *b;
    const char *name = NULL;
    double most = -1;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
        const json_t *w = json_object_get(b, "wall_s");
        if (json_is_string(json_object_get(b, "skipped")) || !json_is_number(w))
            continue;
        if (json_number_value(w) > most) {
            most = json_number_value(w);
            name = json_string_value(json_object_get(b, "name"));
        }
    }
    if (!name) {
        fprintf(stderr, "results_get: no measured benchmark has a wall_s\n");
        return 1;
    }
    printf("%s %.3f\n", name, most);
    return 0;
}

/* The cache levels BENCH derived from its latency curve, one line: each closed level's
 * size_bytes (or, with `midpoints`, its midpoint_bytes: where the rise to the next level is
 * half done), then "open" for a last level that runs to the curve's end. */
static int get_levels(const json_t *root, const char *bench, const char *field)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        if (strcmp(json_string_value(json_object_get(b, "name")), bench) != 0)
            continue;
        const json_t *levels = json_object_get(json_object_get(b, "derived"), "levels");
        if (!json_is_array(levels)) {
            fprintf(stderr, "results_get: %s derived no cache levels\n", bench);
            return 1;
        }
        size_t j;
        const json_t *lv;
        json_array_foreach(levels, j, lv)
        {
            if (json_is_true(json_object_get(lv, "open")))
                printf("%sopen", j ? " " : "");
            else
                printf("%s%lld", j ? " " : "",
                       (long long)json_integer_value(json_object_get(lv, field)));
        }
        printf("\n");
        return 0;
    }
    fprintf(stderr, "results_get: no benchmark %s\n", bench);
    return 1;
}

static int get_params_match(const json_t *params, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        char key[128];
        const char *eq = strchr(argv[i], '=');
        if (!eq || (size_t)(eq - argv[i]) >= sizeof key)
            return 0;
        memcpy(key, argv[i], (size_t)(eq - argv[i]));
        key[eq - argv[i]] = '\0';
        const json_t *v = json_object_get(params, key);
        char text[64];
        if (json_is_string(v))
            snprintf(text, sizeof text, "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        else
            return 0;
        if (strcmp(text, eq + 1) != 0)
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (argc < 4 && strcmp(argv[2], "noise") != 0 && strcmp(argv[2], "detour") != 0 &&
                     strcmp(argv[2], "benchmarks") != 0))
        return get_usage();
    json_error_t jerr;
    json_t *root = json_load_file(argv[1], 0, &jerr);
    if (!root) {
        fprintf(stderr, "results_get: %s:%d: %s\n", argv[1], jerr.line, jerr.text);
        return 1;
    }
    int rc = 1;
    if (strcmp(argv[2], "noise") == 0) {
        rc = get_noise(root);
        goto done;
    }
    if (strcmp(argv[2], "detour") == 0) {
        rc = get_detour(root);
        goto done;
    }
    if (strcmp(argv[2], "benchmarks") == 0) { /* their names, in the order they ran */
        size_t i;
        const json_t *b;
        json_array_foreach(json_object_get(root, "benchmarks"), i, b)
            printf("%s\n", json_string_value(json_object_get(b, "name")));
        rc = json_is_array(json_object_get(root, "benchmarks")) ? 0 : 1;
        goto done;
    }
    if (strcmp(argv[2], "fits") == 0) {
        rc = strcmp(argv[3], "quality") == 0 ? get_fits_quality(root) : get_fits_holdout(root, argv[3], argc > 4 ? atof(argv[4]) : 0);
        goto done;
    }
    if (strcmp(argv[2], "breaks") == 0) {
        rc = get_breaks(root, argv[3], argc > 4 ? argv[4] : NULL);
        goto done;
    }
    if (strcmp(argv[2], "levels") == 0 || strcmp(argv[2], "midpoints") == 0) {
        rc = get_levels(root, argv[3], argv[2][0] == 'l' ? "size_bytes" : "midpoint_bytes");
        goto done;
    }
    if (strcmp(argv[2], "predictions") == 0 && strcmp(argv[3], "errors") == 0) {
        rc = get_predictions(root);
        goto done;
    }
    if (strcmp(argv[2], "timings") == 0 && strcmp(argv[3], "phase") == 0 && argc > 4) {
        double wall_s = 0;
        size_t k;
        const json_t *ph;
        json_array_foreach(json_object_get(json_object_get(root, "timings"), "phases"), k, ph)
            if (json_is_string(json_object_get(ph, "name")) &&
                strcmp(json_string_value(json_object_get(ph, "name")), argv[4]) == 0)
                wall_s += json_number_value(json_object_get(ph, "wall_s"));
        printf("%.17g\n", wall_s);
        rc = 0;
        goto done;
    }
    if (strcmp(argv[2], "timings") == 0 && strcmp(argv[3], "slowest") == 0) {
        rc = get_slowest(root);
        goto done;
    }
    /* A dotted path of objects from the root ("system.clock", "preflight"), then a key. */
    if (strcmp(argv[2], "system.clock") == 0 || strcmp(argv[2], "system.mpi") == 0 ||
        strcmp(argv[2], "system.os_phase") == 0 || strcmp(argv[2], "time_budget") == 0 ||
        strcmp(argv[2], "preflight") == 0 || strcmp(argv[2], "preflight.cut_by_budget") == 0 ||
        strcmp(argv[2], "timings") == 0 || strcmp(argv[2], "drift") == 0) {
        const json_t *obj = root;
        char path[256];
        snprintf(path, sizeof path, "%s", argv[2]);
        for (char *save = NULL, *part = strtok_r(path, ".", &save); part; part = strtok_r(NULL, ".", &save))
            obj = json_object_get(obj, part);
        rc = get_print(json_object_get(obj, argv[3]), argv[3]);
        goto done;
    }
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        if (strcmp(json_string_value(json_object_get(b, "name")), argv[2]) != 0)
            continue;
        /* the benchmark's, not a point's */
        if (strcmp(argv[3], "elapsed_s") == 0 || strcmp(argv[3], "wall_s") == 0 ||
            strcmp(argv[3], "failed_points") == 0 || strcmp(argv[3], "measured_by") == 0) {
            rc = get_print(json_object_get(b, argv[3]), argv[3]);
            goto done;
        }
        if (strncmp(argv[3], "drift_probe.", 12) == 0) { /* "none" where not probed */
            const json_t *probe = json_object_get(b, "drift_probe");
            rc = probe ? get_print(json_object_get(probe, argv[3] + 12), argv[3])
                       : (printf("none\n"), 0);
            goto done;
        }
        if (strcmp(argv[3], "point_probes") == 0) { /* "K of N" points with readings */
            size_t j, with = 0;
            json_t *pt;
            json_array_foreach(json_object_get(b, "points"), j, pt) with +=
                json_is_object(json_object_get(pt, "drift_probe"));
            printf("%zu of %zu\n", with, json_array_size(json_object_get(b, "points")));
            rc = 0;
            goto done;
        }
        if (strcmp(argv[3], "points_trimmed") == 0) { /* "K of N, least M experiments" */
            size_t j, trimmed = 0, measured = 0;
            json_int_t least = -1;
            json_t *pt;
            json_array_foreach(json_object_get(b, "points"), j, pt)
            {
                json_int_t n = json_integer_value(json_object_get(pt, "n"));
                if (!json_is_integer(json_object_get(pt, "n")))
                    continue;
                measured++;
                trimmed += json_is_true(json_object_get(pt, "trimmed_by_budget"));
                least = least < 0 || n < least ? n : least;
            }
            printf("%zu of %zu, least %lld experiments\n", trimmed, measured, (long long)least);
            rc = 0;
            goto done;
        }
        if (strcmp(argv[3], "skipped") == 0) {
            const json_t *why = json_object_get(b, "skipped");
            rc = json_is_string(why) ? get_print(why, argv[3]) : (printf("null\n"), 0);
            goto done;
        }
        size_t j;
        json_t *pt;
        json_array_foreach(json_object_get(b, "points"), j, pt)
        {
            if (!get_params_match(json_object_get(pt, "params"), argc - 4, argv + 4))
                continue;
            const char *field = argv[3];
            if (strncmp(field, "bandwidth.", 10) == 0) {
                pt = json_object_get(pt, "bandwidth_bytes_per_s");
                field += 10;
            } else if (strncmp(field, "over_ranks.", 11) == 0) {
                pt = json_object_get(pt, "over_ranks"); /* e.g. aggregate_bytes_per_s */
                field += 11;
            } else if (strncmp(field, "runs.", 5) == 0) {
                pt = json_object_get(pt, "runs"); /* --runs: k, mean, stderr */
                field += 5;
            } else if (strncmp(field, "params.", 7) == 0) {
                pt = json_object_get(pt, "params"); /* e.g. array_bytes */
                field += 7;
            }
            rc = get_print(json_object_get(pt, field), argv[3]);
            goto done;
        }
    }
    fprintf(stderr, "results_get: %s: no point of %s matches\n", argv[1], argv[2]);
done:
    json_decref(root);
    return rc;
}
