/* SPDX-License-Identifier: MIT */
/* The pre-flight's plots: perturbation percentiles per rank, clock and noise per node. */
#include "plot_preflight.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_series.h"

/* A number column of a data file, '?' (missing) when absent. */
static void plot_preflight_num(FILE *f, const json_t *obj, const char *key, double *max)
{
    double v;
    if (mb_plot_num(obj, key, &v)) {
        fprintf(f, " %.6g", v);
        if (max)
            *max = fmax(*max, v);
    } else {
        fputs(" ?", f);
    }
}

/* A horizontal reference line across the plot at y, labelled at the right end. */
static void plot_preflight_hline(FILE *marks, double y, const char *label, const char *dt)
{
    fprintf(marks,
            "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead ls 11%s front\n", y,
            y, dt);
    fputs("set label ", marks);
    mb_plot_gp_quote(marks, label);
    fprintf(marks, " at graph 0.99, first %.17g right offset 0, character 0.7 tc ls 11 front\n", y);
}

/* The perturbation test's per-rank percentiles (the per-run times are not stored). */
int mb_plot_perturb(mb_plot_ctx_t *c, const json_t *preflight)
{
    mb_plot_parts_t p;
    int ret = -1;
    size_t rows = 0, i, j;
    double max = 0, threshold, count, duration;
    const json_t *node, *rank;
    if (mb_plot_parts_open(&p) != 0)
        goto oom;
    fputs("# pre-flight perturbation test (seed 002): slower% of each rank's p50, p90, p99 and "
          "slowest run than its p10 run\n# (results.json keeps these per rank, not each run's "
          "time, so there is no histogram)\n# label p50_pct p90_pct p99_pct max_pct\n",
          p.dat.f);
    json_array_foreach(json_object_get(preflight, "nodes"), i, node) {
        json_array_foreach(json_object_get(node, "per_rank"), j, rank) {
            char label[256];
            double r;
            const char *cpus = mb_plot_str(rank, "cpus");
            snprintf(label, sizeof label, "%s/r%.0f%s%s%s",
                     mb_plot_str(node, "host") ? mb_plot_str(node, "host") : "?",
                     mb_plot_num(rank, "rank", &r) ? r : -1, cpus ? " (" : "", cpus ? cpus : "",
                     cpus ? ")" : "");
            mb_plot_dat_quote(p.dat.f, label);
            plot_preflight_num(p.dat.f, rank, "p50_pct", &max);
            plot_preflight_num(p.dat.f, rank, "p90_pct", &max);
            plot_preflight_num(p.dat.f, rank, "p99_pct", &max);
            plot_preflight_num(p.dat.f, rank, "max_pct", &max);
            fputc('\n', p.dat.f);
            rows++;
        }
    }
    if (rows == 0) {
        ret = 0;
        goto out;
    }
    if (mb_plot_num(preflight, "noise_threshold_pct", &threshold)) {
        char label[96];
        snprintf(label, sizeof label, "noise threshold (a node's p99): %g%%", threshold);
        plot_preflight_hline(p.marks.f, threshold, label, "");
        max = fmax(max, threshold);
    }
    char title[256], yrange[64];
    if (mb_plot_num(preflight, "perturb_count", &count) &&
        mb_plot_num(preflight, "perturb_duration_ms", &duration))
        snprintf(title, sizeof title,
                 "Perturbation test (seed 002): %.0f runs of %g ms on every rank", count, duration);
    else
        snprintf(title, sizeof title, "Perturbation test (seed 002) on every rank");
    snprintf(yrange, sizeof yrange, "[0:%.6g]", max > 0 ? max * 1.15 : 1);
    p.file = strdup("perturb");
    p.title = mb_plot_title(title,
                            "per-run times are not stored in results.json: each rank's p50, "
                            "p90, p99 and slowest run instead of the histogram",
                            false);
    if (mb_plot_parts_take(&p) != 0 || !p.file || !p.title)
        goto oom;
    const mb_plot_sub_t subs[] = {{"TITLE", p.title}, {"YRANGE", yrange}, {"MARKS", p.marks_s}};
    ret = mb_plot_emit(c, p.file, "perturb.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = mb_plot_oom(c, "perturb");
out:
    mb_plot_parts_free(&p);
    return ret;
}

/* MHz and p99 noise per node, flagged nodes marked. */
int mb_plot_nodes(mb_plot_ctx_t *c, const json_t *preflight)
{
    mb_plot_parts_t p;
    mb_plot_text_t noise_marks = {0};
    char *noise_marks_s = NULL;
    int ret = -1;
    size_t rows = 0, i;
    double mhz_lo = INFINITY, mhz_hi = -INFINITY, noise_max = 0, median, tol, threshold;
    const json_t *node;
    if (mb_plot_parts_open(&p) != 0 || mb_plot_text_open(&noise_marks) != 0)
        goto oom;
    fputs("# pre-flight per node: clock (mhz, seed 000) and perturbation-test noise of the "
          "node's noisiest rank (seed 002)\n# index host mhz p50_pct p99_pct flagged\n",
          p.dat.f);
    json_array_foreach(json_object_get(preflight, "nodes"), i, node) {
        double mhz, ignored = 0;
        const json_t *perturb = json_object_get(node, "perturb");
        fprintf(p.dat.f, "%zu ", rows);
        mb_plot_dat_quote(p.dat.f, mb_plot_str(node, "host") ? mb_plot_str(node, "host") : "?");
        if (mb_plot_num(node, "mhz", &mhz)) {
            fprintf(p.dat.f, " %.10g", mhz);
            mhz_lo = fmin(mhz_lo, mhz);
            mhz_hi = fmax(mhz_hi, mhz);
        } else {
            fputs(" ?", p.dat.f);
        }
        plot_preflight_num(p.dat.f, perturb, "p50_pct", &ignored);
        plot_preflight_num(p.dat.f, perturb, "p99_pct", &noise_max);
        fprintf(p.dat.f, " %d\n", json_is_true(json_object_get(node, "flagged")));
        rows++;
    }
    if (rows == 0) {
        ret = 0;
        goto out;
    }
    if (mb_plot_num(preflight, "median_mhz", &median) && median > 0) {
        char label[96];
        snprintf(label, sizeof label, "cluster median %.1f MHz", median);
        plot_preflight_hline(p.marks.f, median, label, "");
        mhz_lo = fmin(mhz_lo, median);
        mhz_hi = fmax(mhz_hi, median);
        if (mb_plot_num(preflight, "mhz_tolerance_pct", &tol) && tol > 0) {
            snprintf(label, sizeof label, "+%g%%", tol);
            plot_preflight_hline(p.marks.f, median * (1 + tol / 100), label, " dt 3");
            snprintf(label, sizeof label, "-%g%%", tol);
            plot_preflight_hline(p.marks.f, median * (1 - tol / 100), label, " dt 3");
            mhz_lo = fmin(mhz_lo, median * (1 - tol / 100));
            mhz_hi = fmax(mhz_hi, median * (1 + tol / 100));
        }
    }
    if (mb_plot_num(preflight, "noise_threshold_pct", &threshold)) {
        char label[96];
        snprintf(label, sizeof label, "noise threshold %g%%", threshold);
        plot_preflight_hline(noise_marks.f, threshold, label, "");
        noise_max = fmax(noise_max, threshold);
    }
    char xrange[64], mhz_range[96], noise_range[64];
    snprintf(xrange, sizeof xrange, "[-0.6:%zu.6]", rows - 1);
    if (mhz_hi >= mhz_lo) {
        double pad = mhz_hi > mhz_lo ? (mhz_hi - mhz_lo) * 0.15 : fmax(1, mhz_hi * 0.01);
        snprintf(mhz_range, sizeof mhz_range, "[%.10g:%.10g]", mhz_lo - pad, mhz_hi + pad);
    } else {
        snprintf(mhz_range, sizeof mhz_range, "[0:1]"); /* no node has a figure */
    }
    snprintf(noise_range, sizeof noise_range, "[0:%.6g]", noise_max > 0 ? noise_max * 1.2 : 1);
    p.file = strdup("nodes");
    p.title = mb_plot_quoted("Pre-flight per node: clock speed and noise (flagged nodes in red)");
    noise_marks_s = mb_plot_text_take(&noise_marks);
    if (mb_plot_parts_take(&p) != 0 || !noise_marks_s || !p.file || !p.title)
        goto oom;
    const mb_plot_sub_t subs[] = {{"TITLE", p.title},        {"XRANGE", xrange},
                                  {"MHZ_YRANGE", mhz_range}, {"NOISE_YRANGE", noise_range},
                                  {"MHZ_MARKS", p.marks_s},  {"NOISE_MARKS", noise_marks_s}};
    ret = mb_plot_emit(c, p.file, "nodes.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = mb_plot_oom(c, "nodes");
out:
    mb_plot_text_discard(&noise_marks);
    free(noise_marks_s);
    mb_plot_parts_free(&p);
    return ret;
}
