/* SPDX-License-Identifier: MIT */
/* refit IN.json [OUT.json]: fit a stored results document again with this build's fitting
 * code (src/model/fit_results.c), without measuring anything: its "fits" are replaced and,
 * with OUT.json, the document is written there (results_get FILE fits ... reads it as it
 * reads a run's). Prints one line per fit: name, series, points, the scatter floor, the
 * held-out error and each segment over d > 0 as d_min:Q. For working on the fitting code
 * against the same measured points (a run's medians move by several % from run to run on a
 * shared machine, which would hide what a change to the fit does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fit.h"
#include "fit_results.h"

/* REFIT_DEBUG=NAME: NAME's intra-pair points as the fit sees them (after the scatter
 * weights), held out or not, and the training fit's prediction of each. */
static void refit_debug(const json_t *root, const char *name)
{
    size_t i, n = 0;
    const json_t *b, *pt;
    mb_fit_point_t pts[512];
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *bn = json_string_value(json_object_get(b, "name"));
        if (!bn || strcmp(bn, name) != 0)
            continue;
        size_t j;
        json_array_foreach(json_object_get(b, "points"), j, pt)
        {
            const json_t *par = json_object_get(pt, "params");
            const char *pair = json_string_value(json_object_get(par, "pair"));
            const json_t *ci = json_object_get(pt, "ci95");
            double t = json_number_value(json_object_get(pt, "median"));
            double d = json_number_value(json_object_get(par, "size_bytes"));
            if ((pair && strcmp(pair, "intra") != 0) || !(t > 0) || d == 0 || n == 512)
                continue;
            double sd = (json_number_value(json_array_get(ci, 1)) -
                         json_number_value(json_array_get(ci, 0))) /
                        (2 * 1.96);
            pts[n++] = (mb_fit_point_t){2, d, t, fmax(sd, fmax(0.005 * t, 1.0)), false, false};
        }
    }
    /* The training points weighed on their own, as mb_fit_holdout does. */
    mb_fit_point_t train[512];
    size_t nt = 0;
    for (i = 0; i < n; i++)
        if (i % 4 != 3)
            train[nt++] = pts[i];
    mb_fit_scatter_weights(train, nt, 0.005);
    mb_fit_scatter_weights(pts, n, 0.005);
    mb_fit_segments_t s, all;
    char err[256];
    if (mb_fit_segments(train, nt, MB_FIT_GENERIC, MB_FIT_BREAK_MARGIN, &s, err, sizeof err) ||
        mb_fit_segments(pts, n, MB_FIT_GENERIC, MB_FIT_BREAK_MARGIN, &all, err, sizeof err)) {
        printf("%s: %s\n", name, err);
        return;
    }
    for (size_t k = 0; k < s.count; k++) {
        printf("train seg %zu: d %g..%g Q %.3g chi2/dof %.2f:", k, s.seg[k].d_min, s.seg[k].d_max,
               s.seg[k].q, s.seg[k].chi2 / (double)s.seg[k].dof);
        for (size_t j = 0; j < s.seg[k].k; j++)
            printf(" %g*%s", s.seg[k].coef[j], mb_fit_basis_name(s.seg[k].basis[j]));
        printf("\n");
    }
    for (size_t k = 0; k < all.count; k++)
        printf("all seg %zu: d %g..%g Q %.3g chi2/dof %.2f\n", k, all.seg[k].d_min,
               all.seg[k].d_max, all.seg[k].q, all.seg[k].chi2 / (double)all.seg[k].dof);
    for (i = 0; i < n; i++) {
        double pr =
            mb_fit_predict(&s.seg[mb_fit_segments_pick(&s, pts[i].d)], 2, pts[i].d, NULL, NULL);
        double pa =
            mb_fit_predict(&all.seg[mb_fit_segments_pick(&all, pts[i].d)], 2, pts[i].d, NULL, NULL);
        printf("%s d=%-8g t=%-9.4g sd=%5.1f%% train-fit %+6.1f%% (%+5.1f sd)  all-fit %+6.1f%% "
               "(%+5.1f sd)\n",
               i % 4 == 3 ? "HELD" : "    ", pts[i].d, pts[i].t_ns,
               100 * pts[i].sd_ns / pts[i].t_ns, 100 * (pr - pts[i].t_ns) / pts[i].t_ns,
               (pr - pts[i].t_ns) / pts[i].sd_ns, 100 * (pa - pts[i].t_ns) / pts[i].t_ns,
               (pa - pts[i].t_ns) / pts[i].sd_ns);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: refit IN.json [OUT.json]\n");
        return 2;
    }
    json_error_t jerr;
    json_t *root = json_load_file(argv[1], 0, &jerr);
    if (!json_is_object(root)) {
        fprintf(stderr, "refit: %s: %s\n", argv[1], jerr.text);
        return 1;
    }
    if (getenv("REFIT_DEBUG")) {
        refit_debug(root, getenv("REFIT_DEBUG"));
        json_decref(root);
        return 0;
    }
    json_object_del(root, "fits");
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    if (!fits) {
        fprintf(stderr, "refit: %s\n", err);
        json_decref(root);
        return 1;
    }
    size_t i, j;
    const json_t *f, *seg;
    json_array_foreach(fits, i, f)
    {
        char *params = json_dumps(json_object_get(f, "params"), JSON_COMPACT | JSON_SORT_KEYS);
        const json_t *h = json_object_get(f, "holdout_error_pct");
        printf("%-24s %-28s n=%-3lld floor=%5.2f%% holdout=%6.2f%%",
               json_string_value(json_object_get(f, "name")), params ? params : "?",
               (long long)json_integer_value(json_object_get(f, "points")),
               json_number_value(json_object_get(f, "scatter_floor_pct")),
               json_is_number(h) ? json_number_value(h) : NAN);
        free(params);
        json_array_foreach(json_object_get(f, "segments"), j, seg)
        {
            if (!(json_number_value(json_object_get(seg, "d_max")) > 0))
                continue;
            printf(" %g:%.3g", json_number_value(json_object_get(seg, "d_min")),
                   json_number_value(json_object_get(seg, "Q")));
        }
        printf("\n");
    }
    json_object_set_new(root, "fits", fits);
    int rc = 0;
    if (argc == 3 && json_dump_file(root, argv[2], JSON_COMPACT) != 0) {
        fprintf(stderr, "refit: cannot write %s\n", argv[2]);
        rc = 1;
    }
    json_decref(root);
    return rc;
}
