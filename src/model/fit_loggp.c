/* SPDX-License-Identifier: MIT */
/* LogGP parameters from the benchmarks that declare which parameter their small-message
 * figure stands for (their "loggp" field: "L", "o_s", "o_r", "g"), per series. The sources are
 * found by that field, never by name; the derivation texts name them from their records. */
#include "fit_results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

#define FIT_LOGGP_TEXT_MAX 320

static json_t *fit_loggp_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

const json_t *mb_fit_loggp_source(const json_t *root, const char *what)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *loggp = json_string_value(json_object_get(b, "loggp"));
        if (loggp && strcmp(loggp, what) == 0 && mb_record_ran(b) &&
            json_is_string(json_object_get(b, "name")))
            return b;
    }
    return NULL;
}

static const char *fit_loggp_name(const json_t *bench)
{
    return json_string_value(json_object_get(bench, "name"));
}

/* The median of bench's measured point of this series at its smallest message size (any
 * point of the series when it has no message_size axis). */
static bool fit_loggp_small(const json_t *bench, const json_t *series, double *median_ns, double *d)
{
    const char *d_axis = mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE);
    bool found = false;
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt)
    {
        const json_t *size = d_axis ? json_object_get(json_object_get(pt, "params"), d_axis) : NULL;
        double t = json_number_value(json_object_get(pt, "median"));
        double di = json_is_number(size) ? json_number_value(size) : 0.0;
        if (!mb_record_point_ok(pt) || (d_axis && !json_is_number(size)) || !isfinite(t) || t <= 0)
            continue;
        json_t *mine = mb_record_series(bench, pt);
        bool same = json_equal(mine, (json_t *)series);
        json_decref(mine);
        if (same && (!found || di < *d)) {
            *d = di;
            *median_ns = t;
            found = true;
        }
    }
    return found;
}

static json_t *fit_loggp_param(double value, const char *unit, const char *derivation)
{
    return json_pack("{s:o, s:s, s:s}", "value", fit_loggp_real(value), "unit", unit, "derivation",
                     derivation);
}

static json_t *fit_loggp_omitted(const char *unit, const char *why)
{
    return json_pack("{s:n, s:s, s:s}", "value", "unit", unit, "omitted", why);
}

/* The coefficient of `basis` in a segment's model, 0 when it has no such term. */
static double fit_loggp_coef(const json_t *segment, const char *basis)
{
    size_t i;
    const json_t *term;
    json_array_foreach(json_object_get(segment, "terms"), i, term)
    {
        const char *b = json_string_value(json_object_get(term, "basis"));
        if (b && strcmp(b, basis) == 0)
            return json_number_value(json_object_get(term, "coef"));
    }
    return 0;
}

/* An overhead as a function of d (issue 13: o_s(d), o_r(d) as LogGP's successors use them):
 * the pieces of its source's fitted model, each start-up + per byte * d over its sizes. */
static json_t *fit_loggp_of_d(const json_t *fit)
{
    json_t *pieces = json_array();
    size_t i;
    const json_t *seg;
    json_array_foreach(json_object_get(fit, "segments"), i, seg)
    {
        char model[160];
        mb_fit_results_format_model(seg, false, model, sizeof model);
        json_array_append_new(
            pieces, json_pack("{s:O, s:O, s:o, s:o, s:s}", "d_min", json_object_get(seg, "d_min"),
                              "d_max", json_object_get(seg, "d_max"), "start_ns",
                              fit_loggp_real(fit_loggp_coef(seg, "1")), "per_byte_ns",
                              fit_loggp_real(fit_loggp_coef(seg, "d")), "model_us", model));
    }
    return pieces;
}

/* An overhead (o_s or o_r) from its source benchmark; NAN in *ns when it cannot be had. */
static json_t *fit_loggp_overhead(const json_t *src, const char *what, const char *whose,
                                  const json_t *fits, const json_t *series, double *ns)
{
    char text[FIT_LOGGP_TEXT_MAX];
    double d = 0;
    *ns = NAN;
    if (!src) {
        snprintf(text, sizeof text, "no benchmark with loggp \"%s\" ran", what);
        return fit_loggp_omitted("ns", text);
    }
    if (!fit_loggp_small(src, series, ns, &d)) {
        snprintf(text, sizeof text, "%s has no measured point for this series",
                 fit_loggp_name(src));
        return fit_loggp_omitted("ns", text);
    }
    snprintf(text, sizeof text,
             "%s median at its smallest size (%.0f B): the %s time; of_d: its fitted model",
             fit_loggp_name(src), d, whose);
    json_t *param = fit_loggp_param(*ns, "ns", text);
    const json_t *fit = mb_fit_results_find(fits, fit_loggp_name(src), series);
    if (json_array_size(json_object_get(fit, "segments")) > 0)
        json_object_set_new(param, "of_d", fit_loggp_of_d(fit));
    return param;
}

static json_t *fit_loggp_latency(const json_t *src, const json_t *series, double o_s_ns,
                                 double o_r_ns)
{
    char text[FIT_LOGGP_TEXT_MAX];
    double t, d = 0;
    if (!src)
        return fit_loggp_omitted("ns", "no benchmark with loggp \"L\" ran");
    const char *name = fit_loggp_name(src);
    if (!fit_loggp_small(src, series, &t, &d)) {
        snprintf(text, sizeof text, "%s has no measured point for this series", name);
        return fit_loggp_omitted("ns", text);
    }
    if (isnan(o_s_ns) || isnan(o_r_ns)) {
        snprintf(text, sizeof text,
                 "%s(%.0f B) = %.4g ns, but L = half a round trip - o_s - o_r needs both "
                 "overheads",
                 name, d, t);
        return fit_loggp_omitted("ns", text);
    }
    if (t - o_s_ns - o_r_ns <= 0) {
        snprintf(text, sizeof text, "%s(%.0f B) = %.4g ns is not more than o_s + o_r = %.4g ns",
                 name, d, t, o_s_ns + o_r_ns);
        return fit_loggp_omitted("ns", text);
    }
    snprintf(text, sizeof text, "%s (half a round trip) at %.0f B, minus o_s and o_r", name, d);
    return fit_loggp_param(t - o_s_ns - o_r_ns, "ns", text);
}

/* g from the benchmark that times back-to-back messages (loggp "g"), at its smallest size;
 * without one (a run before it existed, or --only), the o_s source stands in, and the
 * derivation says so. */
static json_t *fit_loggp_gap(const json_t *gap, const json_t *src, const json_t *series)
{
    char text[FIT_LOGGP_TEXT_MAX];
    double t, d = 0;
    if (gap && fit_loggp_small(gap, series, &t, &d)) {
        snprintf(text, sizeof text,
                 "%s median at its smallest size (%.0f B): time per message of a stream of "
                 "back-to-back sends (netgauge's method)",
                 fit_loggp_name(gap), d);
        return fit_loggp_param(t, "ns", text);
    }
    if (!src || !fit_loggp_small(src, series, &t, &d))
        return fit_loggp_omitted("ns", "stand-in for g: no o_s figure for this series");
    snprintf(text, sizeof text,
             "stand-in: %s median at %.0f B, one send (so o_s); no benchmark times "
             "back-to-back sends, which LogP spaces max(g, o_s) apart",
             fit_loggp_name(src), d);
    return fit_loggp_param(t, "ns", text);
}

/* G: the d slope of the L source's fit over its largest sizes. */
static json_t *fit_loggp_gap_per_byte(const json_t *src, const json_t *fits, const json_t *series)
{
    char text[FIT_LOGGP_TEXT_MAX];
    const char *name = src ? fit_loggp_name(src) : NULL;
    const json_t *segs = json_object_get(mb_fit_results_find(fits, name, series), "segments");
    const json_t *last = json_array_get(segs, json_array_size(segs) - 1);
    if (!last) {
        snprintf(text, sizeof text, "no fit of %s for this series",
                 name ? name : "a benchmark with loggp \"L\"");
        return fit_loggp_omitted("ns/byte", text);
    }
    double slope = fit_loggp_coef(last, "d");
    if (!(slope > 0)) {
        snprintf(text, sizeof text, "%s's model for its largest sizes has no positive d term",
                 name);
        return fit_loggp_omitted("ns/byte", text);
    }
    snprintf(text, sizeof text, "slope in d of %s's model over its largest sizes (%.0f to %.0f B)",
             name, json_number_value(json_object_get(last, "d_min")),
             json_number_value(json_object_get(last, "d_max")));
    return fit_loggp_param(slope, "ns/byte", text);
}

static json_t *fit_loggp_series(const json_t *const src[4], const json_t *fits,
                                const json_t *series)
{
    json_t *out = json_object();
    double o_s_ns, o_r_ns;
    json_t *o_s = fit_loggp_overhead(src[1], "o_s", "sender's", fits, series, &o_s_ns);
    json_t *o_r = fit_loggp_overhead(src[2], "o_r", "receiver's", fits, series, &o_r_ns);
    json_object_set_new(out, "L", fit_loggp_latency(src[0], series, o_s_ns, o_r_ns));
    json_object_set_new(out, "o_s", o_s);
    json_object_set_new(out, "o_r", o_r);
    json_object_set_new(out, "g", fit_loggp_gap(src[3], src[1], series));
    json_object_set_new(out, "G", fit_loggp_gap_per_byte(src[0], fits, series));
    return out;
}

json_t *mb_fit_loggp(const json_t *root, const json_t *fits)
{
    if (!fits)
        fits = json_object_get(root, "fits");
    const json_t *const src[4] = {mb_fit_loggp_source(root, "L"), mb_fit_loggp_source(root, "o_s"),
                                  mb_fit_loggp_source(root, "o_r"), mb_fit_loggp_source(root, "g")};
    /* Every series any source measured, in the order the sources first show them. */
    json_t *all = json_array();
    for (size_t s = 0; s < 3; s++)
        mb_record_series_add(src[s], all, true);
    json_t *out = json_object();
    size_t i;
    const json_t *series;
    json_array_foreach(all, i, series)
    {
        char key[256];
        mb_record_series_text(series, key, sizeof key);
        json_object_set_new(out, key[0] ? key : "all", fit_loggp_series(src, fits, series));
    }
    json_decref(all);
    return out;
}
