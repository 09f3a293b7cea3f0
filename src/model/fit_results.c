/* SPDX-License-Identifier: MIT */
/* From a results document to models: points grouped by their string-valued params (the
 * pair label), fitted by fit.c with all eight bases allowed (those the data cannot tell
 * apart drop out there), written back as JSON, CSV and LogGP parameters. */
#include "fit_results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileutil.h"

/* 95% normal quantile: a CI of the median spans about 2 * 1.96 standard errors. */
#define FIT_RESULTS_Z95 1.96
#define FIT_RESULTS_SD_REL_FLOOR 0.005
#define FIT_RESULTS_SD_ABS_FLOOR_NS 1.0
#define FIT_RESULTS_MAX_INTEGER 9007199254740992.0

/* Integral values as JSON integers (sizes, counts), others as reals, non-finite as null. */
static json_t *fit_results_number(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == floor(v) && fabs(v) < FIT_RESULTS_MAX_INTEGER)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *fit_results_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static bool fit_results_has_param(const json_t *bench, const char *name)
{
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(bench, "params"), i, v)
    {
        if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
            return true;
    }
    return false;
}

/* The point's string-valued params (the label: pair, cache, ...), as a new object. */
static json_t *fit_results_label(const json_t *pt)
{
    json_t *label = json_object();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)json_object_get(pt, "params"), key, v)
    {
        if (json_is_string(v))
            json_object_set(label, key, v);
    }
    return label;
}

static bool fit_results_same_label(const json_t *pt, const json_t *label)
{
    json_t *mine = fit_results_label(pt);
    bool same = json_equal(mine, (json_t *)label);
    json_decref(mine);
    return same;
}

/* The standard error the weights use; see the header. */
static double fit_results_point_sd(const json_t *pt, double median)
{
    const json_t *ci = json_object_get(pt, "ci95");
    double sd = 0;
    if (json_is_array(ci) && json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
        json_is_number(json_array_get(ci, 1)))
        sd = (json_number_value(json_array_get(ci, 1)) - json_number_value(json_array_get(ci, 0))) /
             (2 * FIT_RESULTS_Z95);
    if (!isfinite(sd))
        sd = 0;
    return fmax(sd, fmax(FIT_RESULTS_SD_REL_FLOOR * median, FIT_RESULTS_SD_ABS_FLOOR_NS));
}

/* The benchmark's usable points with this label, as fit points (malloc'd). */
static size_t fit_results_points(const json_t *bench, const json_t *label, mb_fit_point_t **out)
{
    const json_t *points = json_object_get(bench, "points");
    size_t cap = json_array_size(points), n = 0, i;
    const json_t *pt;
    *out = malloc((cap ? cap : 1) * sizeof **out);
    if (!*out)
        return 0;
    json_array_foreach(points, i, pt)
    {
        const json_t *median = json_object_get(pt, "median");
        const json_t *params = json_object_get(pt, "params");
        if (!json_is_number(median) || !fit_results_same_label(pt, label))
            continue;
        double t = json_number_value(median);
        if (!isfinite(t) || t <= 0)
            continue;
        const json_t *ranks = json_object_get(params, "ranks");
        const json_t *size = json_object_get(params, "size_bytes");
        double p = json_is_number(ranks) ? json_number_value(ranks) : 2.0;
        double d = json_is_number(size) ? json_number_value(size) : 0.0;
        if (!isfinite(p) || p < 1 || !isfinite(d) || d < 0)
            continue;
        (*out)[n++] =
            (mb_fit_point_t){.p = p, .d = d, .t_ns = t, .sd_ns = fit_results_point_sd(pt, t)};
    }
    return n;
}

static json_t *fit_results_segment_json(const mb_fit_model_t *m)
{
    json_t *terms = json_array(), *cov = json_array();
    for (size_t j = 0; j < m->k; j++) {
        json_array_append_new(
            terms, json_pack("{s:s, s:o, s:o}", "basis", mb_fit_basis_name(m->basis[j]), "coef",
                             fit_results_real(m->coef[j]), "stderr", fit_results_real(m->se[j])));
        json_t *row = json_array();
        for (size_t l = 0; l < m->k; l++)
            json_array_append_new(row, fit_results_real(m->cov[j][l]));
        json_array_append_new(cov, row);
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o}", "d_min", fit_results_number(m->d_min),
                     "d_max", fit_results_number(m->d_max), "terms", terms, "cov", cov, "chi2",
                     fit_results_real(m->chi2), "dof", (json_int_t)m->dof, "Q",
                     fit_results_real(m->q));
}

/* One "fits" entry for a benchmark and label. */
static json_t *fit_results_entry(const json_t *bench, const json_t *label)
{
    bool has_p = fit_results_has_param(bench, "ranks"),
         has_d = fit_results_has_param(bench, "size_bytes");
    json_t *vars = json_array();
    if (has_p)
        json_array_append_new(vars, json_string("p"));
    if (has_d)
        json_array_append_new(vars, json_string("d"));
    json_t *entry = json_pack("{s:O, s:O, s:o}", "name", json_object_get(bench, "name"), "params",
                              label, "variables", vars);
    json_t *segs = json_array();
    json_object_set_new(entry, "segments", segs);

    mb_fit_point_t *pts = NULL;
    size_t n = fit_results_points(bench, label, &pts);
    json_object_set_new(entry, "points", json_integer((json_int_t)n));
    char err[256];
    mb_fit_segments_t fit;
    if (n == 0) {
        json_object_set_new(entry, "error", json_string("no point with a positive median"));
        json_object_set_new(entry, "holdout_error_pct", json_null());
        free(pts);
        return entry;
    }
    if (mb_fit_segments(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &fit, err, sizeof err) != 0) {
        json_object_set_new(entry, "error", json_string(err));
        json_object_set_new(entry, "holdout_error_pct", json_null());
        free(pts);
        return entry;
    }
    double p_min = INFINITY, p_max = -INFINITY;
    for (size_t s = 0; s < fit.count; s++) {
        p_min = fmin(p_min, fit.seg[s].p_min);
        p_max = fmax(p_max, fit.seg[s].p_max);
        json_array_append_new(segs, fit_results_segment_json(&fit.seg[s]));
    }
    json_object_set_new(entry, "p_min", fit_results_number(p_min));
    json_object_set_new(entry, "p_max", fit_results_number(p_max));
    double mape;
    if (mb_fit_holdout(pts, n, MB_FIT_ALL, MB_FIT_BREAK_MARGIN, &mape, NULL, err, sizeof err) ==
        0) {
        json_object_set_new(entry, "holdout_error_pct", fit_results_real(mape));
    } else {
        json_object_set_new(entry, "holdout_error_pct", json_null());
        json_object_set_new(entry, "holdout_note", json_string(err));
    }
    free(pts);
    return entry;
}

json_t *mb_fit_results(const json_t *root, char *err, size_t errlen)
{
    const json_t *benchmarks = json_object_get(root, "benchmarks");
    if (!json_is_array(benchmarks)) {
        snprintf(err, errlen, "the results document has no \"benchmarks\" array");
        return NULL;
    }
    json_t *fits = json_array();
    size_t i;
    const json_t *bench;
    json_array_foreach(benchmarks, i, bench)
    {
        const char *group = json_string_value(json_object_get(bench, "group"));
        const json_t *skipped = json_object_get(bench, "skipped");
        if (!group || strcmp(group, "mpi") != 0 ||
            !json_is_string(json_object_get(bench, "name")) || (skipped && !json_is_null(skipped)))
            continue;
        if (!fit_results_has_param(bench, "ranks") && !fit_results_has_param(bench, "size_bytes"))
            continue;
        /* One fit per distinct label, in order of first appearance. */
        json_t *labels = json_array();
        size_t j;
        const json_t *pt;
        json_array_foreach(json_object_get(bench, "points"), j, pt)
        {
            json_t *label = fit_results_label(pt);
            bool seen = false;
            size_t l;
            const json_t *other;
            json_array_foreach(labels, l, other) seen = seen || json_equal(label, (json_t *)other);
            if (seen)
                json_decref(label);
            else
                json_array_append_new(labels, label);
        }
        const json_t *label;
        json_array_foreach(labels, j, label)
            json_array_append_new(fits, fit_results_entry(bench, label));
        json_decref(labels);
    }
    return fits;
}

/* "pair=intra;..." for the CSV. */
static void fit_results_params_text(const json_t *params, char *buf, size_t len)
{
    size_t used = 0;
    const char *key;
    const json_t *v;
    buf[0] = '\0';
    json_object_foreach((json_t *)params, key, v)
    {
        const char *s = json_is_string(v) ? json_string_value(v) : "?";
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? ";" : "", key, s);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

static void fit_results_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void fit_results_csv_number(FILE *f, const json_t *v)
{
    if (json_is_integer(v))
        fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_number(v))
        fprintf(f, "%.9g", json_number_value(v));
}

static int fit_results_csv_writer(FILE *f, void *arg)
{
    const json_t *fits = arg;
    fprintf(
        f,
        "name,params,segment,d_min,d_max,basis,coef_ns,stderr_ns,chi2,dof,Q,holdout_error_pct\n");
    size_t i;
    const json_t *fit;
    json_array_foreach(fits, i, fit)
    {
        char params[256];
        fit_results_params_text(json_object_get(fit, "params"), params, sizeof params);
        size_t s;
        const json_t *seg;
        json_array_foreach(json_object_get(fit, "segments"), s, seg)
        {
            size_t t;
            const json_t *term;
            json_array_foreach(json_object_get(seg, "terms"), t, term)
            {
                const char *name = json_string_value(json_object_get(fit, "name"));
                fit_results_csv_field(f, name ? name : "");
                fputc(',', f);
                fit_results_csv_field(f, params);
                fprintf(f, ",%zu,", s);
                fit_results_csv_number(f, json_object_get(seg, "d_min"));
                fputc(',', f);
                fit_results_csv_number(f, json_object_get(seg, "d_max"));
                fputc(',', f);
                const char *basis = json_string_value(json_object_get(term, "basis"));
                fit_results_csv_field(f, basis ? basis : "");
                static const char *const term_keys[] = {"coef", "stderr"};
                for (size_t k = 0; k < 2; k++) {
                    fputc(',', f);
                    fit_results_csv_number(f, json_object_get(term, term_keys[k]));
                }
                static const char *const seg_keys[] = {"chi2", "dof", "Q"};
                for (size_t k = 0; k < 3; k++) {
                    fputc(',', f);
                    fit_results_csv_number(f, json_object_get(seg, seg_keys[k]));
                }
                fputc(',', f);
                fit_results_csv_number(f, json_object_get(fit, "holdout_error_pct"));
                fputc('\n', f);
            }
        }
    }
    return ferror(f) ? -1 : 0;
}

int mb_fit_results_write_csv(const json_t *fits, const char *path, char *err, size_t errlen)
{
    if (!json_is_array(fits)) {
        snprintf(err, errlen, "%s: the fits are not an array", path);
        return -1;
    }
    return mb_file_write_atomic(path, fit_results_csv_writer, (void *)fits, err, errlen);
}

int mb_fit_results_segment_model(const json_t *fit, const json_t *segment, mb_fit_model_t *out,
                                 char *err, size_t errlen)
{
    const json_t *terms = json_object_get(segment, "terms");
    size_t k = json_array_size(terms);
    if (k == 0 || k > MB_FIT_MAX_TERMS) {
        snprintf(err, errlen, "a segment has %zu terms (1 to %d expected)", k, MB_FIT_MAX_TERMS);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->k = k;
    for (size_t j = 0; j < k; j++) {
        const json_t *term = json_array_get(terms, j);
        int b = mb_fit_basis_parse(json_string_value(json_object_get(term, "basis")));
        const json_t *coef = json_object_get(term, "coef"), *se = json_object_get(term, "stderr");
        if (b < 0 || !json_is_number(coef)) {
            snprintf(err, errlen, "term %zu has no known basis or no coef", j);
            return -1;
        }
        out->basis[j] = (mb_fit_basis_t)b;
        out->coef[j] = json_number_value(coef);
        out->se[j] = out->se_raw[j] = json_is_number(se) ? json_number_value(se) : NAN;
    }
    const json_t *cov = json_object_get(segment, "cov");
    bool have_cov = json_array_size(cov) == k;
    for (size_t j = 0; j < k && have_cov; j++)
        have_cov = json_array_size(json_array_get(cov, j)) == k;
    for (size_t j = 0; j < k; j++)
        for (size_t l = 0; l < k; l++)
            out->cov[j][l] = have_cov ? json_number_value(json_array_get(json_array_get(cov, j), l))
                             : j == l ? out->se[j] * out->se[j]
                                      : 0.0;
    const json_t *v;
    out->chi2 = json_number_value(json_object_get(segment, "chi2"));
    out->dof = (size_t)json_integer_value(json_object_get(segment, "dof"));
    out->q = json_is_number(v = json_object_get(segment, "Q")) ? json_number_value(v) : NAN;
    out->n = (size_t)json_integer_value(json_object_get(fit, "points"));
    out->p_min = json_is_number(v = json_object_get(fit, "p_min")) ? json_number_value(v) : 2.0;
    out->p_max = json_is_number(v = json_object_get(fit, "p_max")) ? json_number_value(v) : 2.0;
    out->d_min = json_is_number(v = json_object_get(segment, "d_min")) ? json_number_value(v) : 0.0;
    out->d_max = json_is_number(v = json_object_get(segment, "d_max")) ? json_number_value(v) : 0.0;
    out->bic = NAN;
    return 0;
}

const json_t *mb_fit_results_pick_segment(const json_t *fit, double d)
{
    const json_t *segs = json_object_get(fit, "segments");
    size_t n = json_array_size(segs), i = 0;
    while (i + 1 < n &&
           json_number_value(json_object_get(json_array_get(segs, i + 1), "d_min")) <= d)
        i++;
    return json_array_get(segs, i);
}

void mb_fit_results_format_model(const json_t *segment, bool with_stderr, char *buf, size_t len)
{
    size_t used = 0, i;
    const json_t *term;
    buf[0] = '\0';
    json_array_foreach(json_object_get(segment, "terms"), i, term)
    {
        const char *basis = json_string_value(json_object_get(term, "basis"));
        double c_us = json_number_value(json_object_get(term, "coef")) / 1000.0;
        const char *sign = i == 0 ? (c_us < 0 ? "-" : "") : (c_us < 0 ? " - " : " + ");
        char se[48] = "";
        const json_t *sev = json_object_get(term, "stderr");
        if (with_stderr && json_is_number(sev))
            snprintf(se, sizeof se, "(%.2g)", json_number_value(sev) / 1000.0);
        bool constant = basis && strcmp(basis, "1") == 0;
        int w = snprintf(buf + used, len - used, "%s%.3g%s%s%s", sign, fabs(c_us), se,
                         constant ? "" : "*", constant ? "" : (basis ? basis : "?"));
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
}

/* --- LogGP --- */

static const json_t *fit_results_bench(const json_t *root, const char *name)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *n = json_string_value(json_object_get(b, "name"));
        const json_t *skipped = json_object_get(b, "skipped");
        if (n && strcmp(n, name) == 0 && (!skipped || json_is_null(skipped)))
            return b;
    }
    return NULL;
}

/* The median at the benchmark's smallest size for this pair. */
static bool fit_results_small(const json_t *root, const char *name, const char *pair,
                              double *median_ns, double *d)
{
    const json_t *bench = fit_results_bench(root, name);
    bool found = false;
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        const json_t *params = json_object_get(pt, "params");
        const char *p = json_string_value(json_object_get(params, "pair"));
        const json_t *size = json_object_get(params, "size_bytes");
        double t = json_number_value(json_object_get(pt, "median"));
        if (!p || strcmp(p, pair) != 0 || !json_is_number(size) || !isfinite(t) || t <= 0)
            continue;
        if (!found || json_number_value(size) < *d) {
            *d = json_number_value(size);
            *median_ns = t;
            found = true;
        }
    }
    return found;
}

static json_t *fit_results_param(double value, const char *unit, const char *derivation)
{
    return json_pack("{s:o, s:s, s:s}", "value", fit_results_real(value), "unit", unit,
                     "derivation", derivation);
}

static json_t *fit_results_omitted(const char *unit, const char *why)
{
    return json_pack("{s:n, s:s, s:s}", "value", "unit", unit, "omitted", why);
}

static const char *const fit_results_p2p_sources[] = {"mpi.pingpong", "mpi.send", "mpi.isend",
                                                      "mpi.recvmin"};

static json_t *fit_results_loggp_pair(const json_t *root, const json_t *fits, const char *pair)
{
    json_t *out = json_object();
    char text[256];
    double o_s_ns = NAN, o_r_ns = NAN, d_os = 0, d_or = 0, t, d;
    if (fit_results_small(root, "mpi.send", pair, &o_s_ns, &d_os)) {
        snprintf(text, sizeof text,
                 "mpi.send median at its smallest size (%.0f B): the sender's time, receive "
                 "already posted",
                 d_os);
        json_object_set_new(out, "o_s", fit_results_param(o_s_ns, "ns", text));
    } else if (fit_results_small(root, "mpi.isend", pair, &o_s_ns, &d_os)) {
        snprintf(text, sizeof text,
                 "mpi.isend median at its smallest size (%.0f B), no mpi.send result", d_os);
        json_object_set_new(out, "o_s", fit_results_param(o_s_ns, "ns", text));
    } else {
        json_object_set_new(
            out, "o_s", fit_results_omitted("ns", "no mpi.send or mpi.isend result for this pair"));
    }
    if (fit_results_small(root, "mpi.recvmin", pair, &o_r_ns, &d_or)) {
        snprintf(text, sizeof text,
                 "mpi.recvmin median at its smallest size (%.0f B): a receive whose message has "
                 "already arrived",
                 d_or);
        json_object_set_new(out, "o_r", fit_results_param(o_r_ns, "ns", text));
    } else {
        json_object_set_new(out, "o_r",
                            fit_results_omitted("ns", "no mpi.recvmin result for this pair"));
    }
    if (!fit_results_small(root, "mpi.pingpong", pair, &t, &d)) {
        json_object_set_new(out, "L",
                            fit_results_omitted("ns", "no mpi.pingpong result for this pair"));
    } else if (isnan(o_s_ns) || isnan(o_r_ns)) {
        snprintf(
            text, sizeof text,
            "mpi.pingpong(%.0f B) = %.4g ns, but L = pingpong - o_s - o_r needs both overheads", d,
            t);
        json_object_set_new(out, "L", fit_results_omitted("ns", text));
    } else if (t - o_s_ns - o_r_ns <= 0) {
        snprintf(text, sizeof text,
                 "mpi.pingpong(%.0f B) = %.4g ns is not more than o_s + o_r = %.4g ns", d, t,
                 o_s_ns + o_r_ns);
        json_object_set_new(out, "L", fit_results_omitted("ns", text));
    } else {
        snprintf(text, sizeof text, "mpi.pingpong (half a round trip) at %.0f B, minus o_s and o_r",
                 d);
        json_object_set_new(out, "L", fit_results_param(t - o_s_ns - o_r_ns, "ns", text));
    }
    if (fit_results_small(root, "mpi.send", pair, &t, &d)) {
        snprintf(text, sizeof text,
                 "stand-in: mpi.send median at %.0f B, one synchronised send (so o_s); no "
                 "benchmark times back-to-back sends, which LogP spaces max(g, o_s) apart",
                 d);
        json_object_set_new(out, "g", fit_results_param(t, "ns", text));
    } else {
        json_object_set_new(out, "g",
                            fit_results_omitted("ns", "no mpi.send result for this pair"));
    }

    const json_t *fit = NULL;
    size_t i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        const char *p = json_string_value(json_object_get(json_object_get(f, "params"), "pair"));
        if (name && p && strcmp(name, "mpi.pingpong") == 0 && strcmp(p, pair) == 0)
            fit = f;
    }
    const json_t *segs = json_object_get(fit, "segments");
    const json_t *last = json_array_get(segs, json_array_size(segs) - 1);
    const json_t *term, *slope = NULL;
    json_array_foreach(json_object_get(last, "terms"), i, term)
    {
        const char *basis = json_string_value(json_object_get(term, "basis"));
        if (basis && strcmp(basis, "d") == 0)
            slope = json_object_get(term, "coef");
    }
    if (!last) {
        json_object_set_new(out, "G",
                            fit_results_omitted("ns/byte", "no fit of mpi.pingpong for this pair"));
    } else if (!json_is_number(slope) || json_number_value(slope) <= 0) {
        json_object_set_new(
            out, "G",
            fit_results_omitted(
                "ns/byte", "mpi.pingpong's model for its largest sizes has no positive d term"));
    } else {
        snprintf(text, sizeof text,
                 "slope in d of mpi.pingpong's model over its largest sizes (%.0f to %.0f B)",
                 json_number_value(json_object_get(last, "d_min")),
                 json_number_value(json_object_get(last, "d_max")));
        json_object_set_new(out, "G", fit_results_param(json_number_value(slope), "ns/byte", text));
    }
    return out;
}

json_t *mb_fit_loggp(const json_t *root, const json_t *fits)
{
    if (!fits)
        fits = json_object_get(root, "fits");
    json_t *pairs = json_array();
    for (size_t s = 0; s < sizeof fit_results_p2p_sources / sizeof fit_results_p2p_sources[0];
         s++) {
        size_t i;
        const json_t *pt;
        json_array_foreach(
            json_object_get(fit_results_bench(root, fit_results_p2p_sources[s]), "points"), i, pt)
        {
            const json_t *pair = json_object_get(json_object_get(pt, "params"), "pair");
            bool seen = !json_is_string(pair);
            size_t j;
            const json_t *other;
            json_array_foreach(pairs, j, other) seen =
                seen || json_equal((json_t *)pair, (json_t *)other);
            if (!seen)
                json_array_append(pairs, (json_t *)pair);
        }
    }
    json_t *out = json_object();
    size_t i;
    const json_t *pair;
    json_array_foreach(pairs, i, pair)
    {
        const char *p = json_string_value(pair);
        json_object_set_new(out, p, fit_results_loggp_pair(root, fits, p));
    }
    json_decref(pairs);
    return out;
}
