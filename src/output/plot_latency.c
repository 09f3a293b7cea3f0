/* SPDX-License-Identifier: MIT */
/* Time per operation against x, with the fitted model where the benchmark has one. */
#include "plot_latency.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "plot_axes.h"

#define PLOT_LATENCY_CURVE_SAMPLES 64 /* points per fitted segment */
/* The one model family drawn: fit.h's bases in p (the ranks axis) and d (message_size). */
#define PLOT_LATENCY_MODEL "linear_pd"

/* How a series' fit is sampled: which of p and d runs along x, and the other's value. */
typedef struct plot_latency_axes {
    bool x_is_d;  /* x is the message_size axis (d), else the ranks axis (p) */
    double fixed; /* p (2 without a ranks axis, as the fitter takes it) or d (0) */
} plot_latency_axes_t;

/* Whether every parameter the fit names has the series' value. */
static bool plot_latency_fit_matches(const json_t *fit_params, const json_t *params)
{
    const char *key;
    json_t *want;
    json_object_foreach((json_t *)fit_params, key, want) {
        const json_t *have = json_object_get(params, key);
        if (json_is_number(want) && json_is_number(have)) {
            if (json_number_value(want) != json_number_value(have))
                return false;
        } else if (!have || !json_equal(want, (json_t *)have)) {
            return false;
        }
    }
    return true;
}

/* The fit of a series: from the benchmark's own "fits", then the document's "fits" of that
 * benchmark, the first whose params the series has. */
static const json_t *plot_latency_fit_find(const json_t *root, const json_t *bench,
                                           const json_t *params)
{
    const char *name = mb_plot_str(bench, "name");
    const json_t *lists[] = {json_object_get(bench, "fits"), json_object_get(root, "fits")};
    for (size_t l = 0; l < 2; l++) {
        size_t i;
        const json_t *fit;
        json_array_foreach(lists[l], i, fit) {
            const char *fname = mb_plot_str(fit, "name");
            if ((l == 1 && !fname) || (fname && strcmp(fname, name) != 0))
                continue;
            if (json_array_size(json_object_get(fit, "segments")) > 0 && /* [] when none fits */
                plot_latency_fit_matches(json_object_get(fit, "params"), params))
                return fit;
        }
    }
    return NULL;
}

/* The model of one segment at p ranks and d bytes, in ns; false for a basis fit.h does not
 * know or a value that is not finite (log2 of no rank count). */
static bool plot_latency_fit_eval(const json_t *terms, double p, double d, double *ns)
{
    double sum = 0;
    size_t i;
    const json_t *t;
    if (json_array_size(terms) == 0)
        return false;
    json_array_foreach(terms, i, t) {
        int b = mb_fit_basis_parse(mb_plot_str(t, "basis"));
        double coef;
        if (b < 0 || !mb_plot_num(t, "coef", &coef))
            return false;
        double v = mb_fit_basis_eval((mb_fit_basis_t)b, p, d);
        if (!isfinite(v))
            return false;
        sum += coef * v;
    }
    *ns = sum;
    return isfinite(sum);
}

/* The x at which segment [dmin, dmax] is sampled into xs (at most CURVE_SAMPLES + 1):
 * along d over the segment's range; along p over the series' rank counts, for the one
 * segment that holds the series' d (drawn counts those already drawn). */
static size_t plot_latency_samples(const mb_plot_series_t *s, const plot_latency_axes_t *a,
                                   double dmin, double dmax, size_t drawn, double *xs)
{
    size_t nx = 0;
    if (a->x_is_d) {
        if (dmin <= 0 && s->pts[0].x <= 0)
            xs[nx++] = 0;
        double lo = fmax(dmin, 1), hi = isfinite(dmax) ? dmax : s->pts[s->n - 1].x;
        for (size_t k = 0; hi > lo && k < PLOT_LATENCY_CURVE_SAMPLES; k++)
            xs[nx++] = lo * pow(hi / lo, (double)k / (PLOT_LATENCY_CURVE_SAMPLES - 1));
        return nx;
    }
    double lo = s->pts[0].x, hi = s->pts[s->n - 1].x;
    if (drawn > 0 || !(a->fixed >= dmin && a->fixed <= dmax) || !(lo > 0 && hi > lo))
        return 0;
    for (size_t k = 0; k < PLOT_LATENCY_CURVE_SAMPLES; k++)
        xs[nx++] = lo * pow(hi / lo, (double)k / (PLOT_LATENCY_CURVE_SAMPLES - 1));
    return nx;
}

/* One data block and plot clause per segment of the series' fit, the model sampled as
 * plot_latency_samples says. */
static void plot_latency_fit_blocks(FILE *dat, FILE *cl, size_t *index, const mb_plot_series_t *s,
                                    const json_t *fit, const plot_latency_axes_t *a,
                                    const mb_plot_x_t *x, const char *style)
{
    char title[512];
    double holdout;
    size_t used =
        (size_t)snprintf(title, sizeof title, "fit%s%s", s->label[0] ? " " : "", s->label);
    if (mb_plot_num(fit, "holdout_error_pct", &holdout) && used < sizeof title)
        snprintf(title + used, sizeof title - used, " (hold-out error %.3g%%)", holdout);

    size_t drawn = 0, j;
    const json_t *seg;
    json_array_foreach(json_object_get(fit, "segments"), j, seg) {
        double dmin, dmax, xs[PLOT_LATENCY_CURVE_SAMPLES + 1], ys[PLOT_LATENCY_CURVE_SAMPLES + 1];
        if (!mb_plot_num(seg, "d_min", &dmin)) /* null: unbounded */
            dmin = -INFINITY;
        if (!mb_plot_num(seg, "d_max", &dmax))
            dmax = INFINITY;
        size_t nx = plot_latency_samples(s, a, dmin, dmax, drawn, xs);
        if (nx == 0)
            continue;
        size_t good = 0;
        for (size_t k = 0; k < nx; k++) {
            double ns;
            const json_t *terms = json_object_get(seg, "terms");
            bool ok = a->x_is_d ? plot_latency_fit_eval(terms, a->fixed, xs[k], &ns)
                                : plot_latency_fit_eval(terms, xs[k], a->fixed, &ns);
            ys[k] = ok && ns > 0 ? ns / 1e3 : NAN; /* a log axis has no place for <= 0 */
            good += ok && ns > 0;
        }
        if (good < 2) {
            fprintf(dat,
                    "# %s: segment [%g, %g] bytes not drawn (unknown basis, no rank count, "
                    "or no positive value)\n",
                    title, dmin, dmax);
            continue;
        }
        fprintf(dat, "# [%zu] %s: segment d in [%g, %g] bytes\n# x_plot %s model_us\n", *index,
                title, dmin, dmax, x->name);
        for (size_t k = 0; k < nx; k++) {
            if (isfinite(ys[k]))
                fprintf(dat, "%.10g %.10g %.6g\n", mb_plot_axes_x_pos(xs[k], x->bytes), xs[k],
                        ys[k]);
        }
        fputs("\n\n", dat);
        fprintf(cl, MB_PLOT_CLAUSE_SEP "data index %zu using 1:3 with lines %s lw 2.5 ", *index,
                style);
        if (drawn == 0) {
            fputs("title ", cl);
            mb_plot_gp_quote(cl, title);
        } else {
            fputs("notitle", cl);
        }
        (*index)++;
        drawn++;
    }
}

/* How the series' fit is sampled, or false when the model cannot be drawn against x (only
 * a message_size or ranks axis is one of the model's variables). */
static bool plot_latency_fit_axes(const json_t *bench, const mb_plot_series_t *s,
                                  const mb_plot_x_t *x, plot_latency_axes_t *a)
{
    const char *model = mb_plot_str(bench, "model");
    if (!model || strcmp(model, PLOT_LATENCY_MODEL) != 0)
        return false;
    bool x_is_d = x->role == MB_ROLE_MESSAGE_SIZE;
    if (!x_is_d && x->role != MB_ROLE_RANKS)
        return false;
    const char *other =
        mb_record_axis(bench, x_is_d ? MB_ROLE_RANKS : MB_ROLE_MESSAGE_SIZE);
    const json_t *v = other ? json_object_get(s->params, other) : NULL;
    *a = (plot_latency_axes_t){.x_is_d = x_is_d, .fixed = x_is_d ? 2 : 0};
    if (json_is_number(v))
        a->fixed = json_number_value(v);
    return true;
}

/* What the plot calls its x axis. */
static const char *plot_latency_xlabel(const mb_plot_x_t *x)
{
    if (x->role == MB_ROLE_RANKS)
        return "processes (ranks)";
    if (x->role == MB_ROLE_THREADS)
        return "threads";
    return x->bytes ? "size (bytes; K = 1024)" : x->name;
}

int mb_plot_latency(mb_plot_ctx_t *c, const json_t *bench, const mb_plot_x_t *x)
{
    const char *name = mb_plot_str(bench, "name"), *model = mb_plot_str(bench, "model");
    bool min = mb_plot_is_min(bench), any_fit = false;
    mb_plot_set_t set = {0};
    mb_plot_parts_t p;
    int ret = -1;
    if (mb_plot_parts_open(&p) != 0 ||
        mb_plot_set_collect(&set, bench, x, mb_plot_time_us, false) != 0)
        goto oom;
    if (!mb_plot_set_has_curve(&set)) {
        ret = 0;
        goto out;
    }
    fprintf(p.dat.f, "# %s: %s time per operation against %s (mbsuite plot, from results.json)\n",
            name, min ? "minimum" : "median", x->name);
    if (x->bytes && set.v[0].n && set.v[0].pts[0].x <= 0)
        fprintf(p.dat.f,
                "# size 0 bytes is plotted at x = %g (a log axis has no 0), its tic "
                "labelled 0\n",
                MB_PLOT_ZERO_X);
    if (model && strcmp(model, PLOT_LATENCY_MODEL) != 0)
        fprintf(p.dat.f, "# model %s: not drawn, only %s is known here\n", model,
                PLOT_LATENCY_MODEL);
    fprintf(p.dat.f, "# blocks (gnuplot index): each series%s\n",
            model ? ", followed by its fitted segments" : "");
    char columns[160];
    snprintf(columns, sizeof columns, "x_plot %s time_us ci95_lo_us ci95_hi_us", x->name);
    size_t index = 0;
    for (size_t k = 0; k < set.n; k++) {
        const mb_plot_series_t *s = &set.v[k];
        plot_latency_axes_t axes;
        const json_t *fit = plot_latency_fit_axes(bench, s, x, &axes)
                                ? plot_latency_fit_find(c->root, bench, s->params)
                                : NULL;
        char style[32];
        mb_plot_axes_style(k, style, sizeof style);
        mb_plot_axes_block(p.dat.f, s, index, columns, x->bytes);
        fprintf(p.clauses.f, MB_PLOT_CLAUSE_SEP "data index %zu using 1:3:4:5 with %s %s title ",
                index++, fit ? "yerrorbars" : "yerrorlines", style);
        mb_plot_gp_quote(p.clauses.f, s->label[0] ? s->label : "measured");
        if (fit) {
            plot_latency_fit_blocks(p.dat.f, p.clauses.f, &index, s, fit, &axes, x, style);
            any_fit = true;
        }
    }
    char range[96], yrange[96], ylabel[160];
    mb_plot_axes_x(&set, x->bytes, p.tics.f, range, sizeof range);
    mb_plot_axes_y(&set, p.ytics.f, yrange, sizeof yrange);
    snprintf(ylabel, sizeof ylabel, "time per operation (µs): %s%s",
             min ? "minimum over experiments" : "median, bars: 95% CI of the median",
             any_fit ? "; lines: fitted model" : "");
    p.file = mb_plot_file_name(name);
    p.title = mb_plot_title(name, mb_plot_str(bench, "measures"), true);
    p.xlabel = mb_plot_quoted(plot_latency_xlabel(x));
    p.ylabel = mb_plot_quoted(ylabel);
    if (mb_plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const mb_plot_sub_t subs[] = {{"TITLE", p.title},   {"XLABEL", p.xlabel},
                                  {"YLABEL", p.ylabel}, {"XRANGE", range},
                                  {"XTICS", p.tics_s},  {"YRANGE", yrange},
                                  {"YTICS", p.ytics_s}, {"PLOTS", mb_plot_parts_clauses(&p)}};
    ret = mb_plot_emit(c, p.file, "latency_fit.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = mb_plot_oom(c, name);
out:
    mb_plot_set_free(&set);
    mb_plot_parts_free(&p);
    return ret;
}
