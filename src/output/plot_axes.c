/* SPDX-License-Identifier: MIT */
/* Data blocks, axis ranges and tics, and line styles of the series of a plot. */
#include "plot_axes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_text.h"

#define PLOT_AXES_STYLES 8        /* line styles 1-8 in every template */
#define PLOT_AXES_MAX_TICS 12     /* powers of two labelled on a size axis, at most about */
#define PLOT_AXES_MAX_FEW_TICS 16 /* counts labelled one by one up to this many */

static int plot_axes_double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mb_plot_axes_x_pos(double x, bool bytes)
{
    return bytes && x <= 0 ? MB_PLOT_ZERO_X : x;
}

void mb_plot_axes_block(FILE *f, const mb_plot_series_t *s, size_t index, const char *columns,
                        bool bytes)
{
    fprintf(f, "# [%zu] %s\n# %s\n", index, s->label[0] ? s->label : "measured", columns);
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%.10g %.15g %.6g %.6g %.6g\n", mb_plot_axes_x_pos(s->pts[i].x, bytes),
                s->pts[i].x, s->pts[i].y, s->pts[i].lo, s->pts[i].hi);
    fputs("\n\n", f);
}

void mb_plot_axes_x(const mb_plot_set_t *set, bool bytes, FILE *tics, char *range, size_t rlen)
{
    double lo, hi;
    bool zero = false;
    mb_plot_set_x_span(set, &lo, &hi);
    for (size_t k = 0; k < set->n; k++)
        zero |= set->v[k].n > 0 && set->v[k].pts[0].x <= 0; /* sorted: 0 comes first */
    if (!(hi > 0))
        lo = hi = 1;
    snprintf(range, rlen, "[%.6g:%.6g]", (zero && bytes ? MB_PLOT_ZERO_X : lo) / 1.5, hi * 1.5);

    const char *sep = "";
    fputc('(', tics);
    if (zero && bytes) {
        fprintf(tics, "'0' %g", MB_PLOT_ZERO_X);
        sep = ", ";
    }
    double values[PLOT_AXES_MAX_FEW_TICS];
    size_t nv = 0;
    bool few = !bytes;
    for (size_t k = 0; k < set->n && few; k++) {
        for (size_t i = 0; i < set->v[k].n && few; i++) {
            double x = set->v[k].pts[i].x;
            size_t j = 0;
            while (j < nv && values[j] != x)
                j++;
            if (j < nv)
                continue;
            if (nv == PLOT_AXES_MAX_FEW_TICS)
                few = false;
            else
                values[nv++] = x;
        }
    }
    if (few) {
        qsort(values, nv, sizeof *values, plot_axes_double_cmp);
        for (size_t j = 0; j < nv; j++) {
            fprintf(tics, "%s'%g' %g", sep, values[j], values[j]);
            sep = ", ";
        }
    } else {
        int lo2 = (int)floor(log2(lo)), hi2 = (int)ceil(log2(hi));
        int step = 1 + (hi2 - lo2) / PLOT_AXES_MAX_TICS;
        for (int k = lo2; k <= hi2; k++) {
            if (((k % step) + step) % step != 0)
                continue;
            char label[32];
            double v = ldexp(1, k);
            if (bytes)
                mb_report_text_bytes(v, label, sizeof label);
            else
                snprintf(label, sizeof label, "%g", v);
            fprintf(tics, "%s'%s' %.17g", sep, label, v);
            sep = ", ";
        }
    }
    fputc(')', tics);
}

void mb_plot_axes_y(const mb_plot_set_t *set, FILE *tics, char *range, size_t rlen)
{
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < set->n; k++) {
        for (size_t i = 0; i < set->v[k].n; i++) {
            const mb_plot_pt_t *p = &set->v[k].pts[i];
            lo = fmin(lo, p->lo > 0 ? p->lo : p->y);
            hi = fmax(hi, fmax(p->hi, p->y));
        }
    }
    if (!(hi > 0) || !(lo > 0))
        lo = hi = 1;
    lo /= 1.25;
    hi *= 1.25;
    snprintf(range, rlen, "[%.6g:%.6g]", lo, hi);
    static const double fine[] = {1, 1.5, 2, 3, 4, 5, 7}, coarse[] = {1, 2, 5}, decades[] = {1};
    int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
    double span = log10(hi / lo);
    const double *steps = span <= 1.2 ? fine : span <= 4 ? coarse : decades;
    size_t nsteps = span <= 1.2 ? 7 : span <= 4 ? 3 : 1;
    const char *sep = "";
    fputc('(', tics);
    for (int d = d0; d <= d1; d++) {
        for (size_t m = 0; m < nsteps; m++) {
            double v = steps[m] * pow(10, d);
            if (v < lo || v > hi)
                continue;
            fprintf(tics, "%s'%g' %.17g", sep, v, v);
            sep = ", ";
        }
    }
    fputc(')', tics);
}

void mb_plot_axes_style(size_t k, char *buf, size_t len)
{
    snprintf(buf, len, "ls %zu%s", k % PLOT_AXES_STYLES + 1, k >= PLOT_AXES_STYLES ? " dt 2" : "");
}
