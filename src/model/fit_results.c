/* SPDX-License-Identifier: MIT */
/* From a results document to models: each benchmark whose "model" is "linear_pd", one fit
 * per series (combination of label values), fitted by fit.c with all eight bases allowed
 * (those the data cannot tell apart drop out there) and written back as JSON. The axes
 * the model uses are found by role, so a new benchmark needs no change here. */
#include "fit_results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "drift.h"
#include "record.h"

/* 95% normal quantile: a CI of the median spans about 2 * 1.96 standard errors. */
#define FIT_RESULTS_Z95 1.96
#define FIT_RESULTS_SD_REL_FLOOR 0.005
/* Without the clock's resolution (a document that does not state it), a point's standard
 * error is at least this. */
#define FIT_RESULTS_SD_ABS_FLOOR_NS 1.0
/* The median's standard error is about sqrt(pi / 2) that of a mean of normal samples. */
#define FIT_RESULTS_MEDIAN_SE_FACTOR 1.2533
#define FIT_RESULTS_MAX_INTEGER 9007199254740992.0
/* A benchmark without a ranks axis runs on a pair (point-to-point): p = 2. */
#define FIT_RESULTS_P_DEFAULT 2.0
/* A point whose CI is this many times wider than its series' median point's (relative to
 * their medians) was measured in a disturbance, not as the library behaves: it may not be
 * a size's own case (mb_fit_segments). Eight default runs at -np 2 (2026-11-28): the
 * 1-byte gather (the library's own case) had 1.0-2.7 times its series' median CI in seven
 * and 3.6 in one; of the 20 other series whose 1-byte point lay over 12% off its
 * neighbours' mean, 15 had 3.0-22 times. */
#define FIT_RESULTS_IMPRECISE_CI 3.0

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

/* The standard error the weights use; see the header. At least what the clock's ticks
 * alone leave unknown, resolution_ns (0: not stated): a duration read between two ticks of
 * resolution r is off by a triangular error of sd r / sqrt(6), an experiment averages
 * "iterations" of them at most (a per-call experiment times each call; a loop experiment
 * spreads one such error over all its iterations, less), and the median of n experiments
 * has sqrt(pi / 2) / sqrt(n) of that. The resolution is the calibration's smallest step
 * between two readings; where a reading takes longer than a tick (kvm-clock: 20-30 ns a
 * reading, 1 ns steps) it is more than the tick, and this floor an upper bound. A fixed
 * 1 ns, the floor before, was 5% of an 18 ns mpi.send and made its flat stretch's Q 0.9999
 * (chi2/dof 0.1) with a 20 ns clock that leaves 0.1 ns unknown there. */
static double fit_results_point_sd(const json_t *pt, double median, double resolution_ns)
{
    const json_t *ci = json_object_get(pt, "ci95");
    double sd = 0;
    if (json_is_array(ci) && json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
        json_is_number(json_array_get(ci, 1)))
        sd = (json_number_value(json_array_get(ci, 1)) - json_number_value(json_array_get(ci, 0))) /
             (2 * FIT_RESULTS_Z95);
    if (!isfinite(sd))
        sd = 0;
    double iters = json_number_value(json_object_get(pt, "iterations"));
    double n = json_number_value(json_object_get(pt, "n"));
    double ticks = resolution_ns > 0 && iters >= 1 && n >= 1
                       ? FIT_RESULTS_MEDIAN_SE_FACTOR * resolution_ns / sqrt(6 * iters * n)
                       : FIT_RESULTS_SD_ABS_FLOOR_NS;
    return fmax(sd, fmax(FIT_RESULTS_SD_REL_FLOOR * median, ticks));
}

/* The value of axis `name` at pt, or dflt when the benchmark has no such axis; NAN when the
 * axis exists but the point has no number for it. */
static double fit_results_coord(const json_t *pt, const char *name, double dflt)
{
    if (!name)
        return dflt;
    const json_t *v = json_object_get(json_object_get(pt, "params"), name);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Marks the points whose relative standard error is over FIT_RESULTS_IMPRECISE_CI times
 * the series' median one. */
static void fit_results_mark_imprecise(mb_fit_point_t *pts, size_t n)
{
    double *rel = n ? malloc(n * sizeof *rel) : NULL;
    if (!rel)
        return;
    for (size_t i = 0; i < n; i++)
        rel[i] = pts[i].sd_ns / pts[i].t_ns;
    gsl_sort(rel, 1, n);
    double median = gsl_stats_median_from_sorted_data(rel, 1, n);
    for (size_t i = 0; i < n; i++)
        pts[i].imprecise = pts[i].sd_ns / pts[i].t_ns > FIT_RESULTS_IMPRECISE_CI * median;
    free(rel);
}

/* How many process counts the n points hold, counted up to 3 (a p-family's least). */
static size_t fit_results_count_p(const mb_fit_point_t *pts, size_t n)
{
    double seen[3];
    size_t np = 0;
    for (size_t i = 0; i < n && np < 3; i++) {
        bool known = false;
        for (size_t k = 0; k < np; k++)
            known = known || seen[k] == pts[i].p;
        if (!known)
            seen[np++] = pts[i].p;
    }
    return np;
}

/* Of the n points with states state[] (mb_drift_point_state), which state's to keep:
 * where some were measured in the usual state and some off it, the larger group's (the usual
 * one's on a tie), when it has at least MB_FIT_SEGMENT_MIN_SIZES points; else -1, all. A
 * point whose state cannot be told stays either way. */
static int fit_results_keep_state(const int *state, size_t n)
{
    size_t on = 0, off = 0;
    for (size_t i = 0; i < n; i++) {
        on += state[i] == 1;
        off += state[i] == 0;
    }
    if (on == 0 || off == 0)
        return -1;
    int keep = on >= off ? 1 : 0;
    return (keep ? on : off) >= MB_FIT_SEGMENT_MIN_SIZES ? keep : -1;
}

/* The benchmark's measured points of this series, as fit points (malloc'd). Where the drift
 * probe around each point (measure.h) read the node in two states during the benchmark, only
 * the points of one state are fitted (fit_results_keep_state): on the 2-vCPU VMs the host moves
 * the vCPUs every few seconds, a 0-byte pingpong reading 170-200 ns in one state and 400-460
 * in the other, and a sweep that met both was fitted as breaks where the state changed
 * (docs/fitting.md). *left_out and *kept_state say how many were left out and which state was
 * kept (1 usual, 0 the other; -1 none left out), *measured_p how many process counts the
 * points held before (up to 3). */
static size_t fit_results_points(const json_t *bench, const json_t *series, double resolution_ns,
                                 double usual_ns, mb_fit_point_t **out, size_t *left_out,
                                 int *kept_state, size_t *measured_p)
{
    const json_t *points = json_object_get(bench, "points");
    const char *p_axis = mb_record_axis(bench, MB_ROLE_RANKS);
    const char *d_axis = mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE);
    size_t cap = json_array_size(points), n = 0, i;
    const json_t *pt;
    *out = malloc((cap ? cap : 1) * sizeof **out);
    int *state = malloc((cap ? cap : 1) * sizeof *state);
    *left_out = 0;
    *kept_state = -1;
    *measured_p = 0;
    if (!*out || !state) {
        free(state);
        return 0;
    }
    json_array_foreach(points, i, pt)
    {
        const json_t *median = json_object_get(pt, "median");
        if (!mb_record_point_ok(pt) || !json_is_number(median))
            continue;
        json_t *mine = mb_record_series(bench, pt);
        bool same = json_equal(mine, (json_t *)series);
        json_decref(mine);
        double t = json_number_value(median);
        double p = fit_results_coord(pt, p_axis, FIT_RESULTS_P_DEFAULT);
        double d = fit_results_coord(pt, d_axis, 0.0);
        if (!same || !isfinite(t) || t <= 0 || !isfinite(p) || p < 1 || !isfinite(d) || d < 0)
            continue;
        /* A 0-byte point is never left out: it is its own model (below), and an export or a
         * prediction at 0 B would otherwise have none. */
        state[n] = d == 0 ? -1 : mb_drift_point_state(pt, usual_ns);
        (*out)[n++] = (mb_fit_point_t){
            .p = p, .d = d, .t_ns = t, .sd_ns = fit_results_point_sd(pt, t, resolution_ns)};
    }
    *measured_p = fit_results_count_p(*out, n);
    int keep = fit_results_keep_state(state, n);
    if (keep >= 0) {
        size_t kept = 0;
        for (size_t j = 0; j < n; j++)
            if (state[j] != !keep)
                (*out)[kept++] = (*out)[j];
        *left_out = n - kept;
        *kept_state = keep;
        n = kept;
    }
    free(state);
    fit_results_mark_imprecise(*out, n);
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
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}", "d_min",
                     fit_results_number(m->d_min), "d_max", fit_results_number(m->d_max), "terms",
                     terms, "cov", cov, "chi2", fit_results_real(m->chi2), "dof",
                     (json_int_t)m->dof, "chi2_reduced",
                     fit_results_real(m->chi2 / (double)m->dof), "Q", fit_results_real(m->q));
}

/* The bases the series is fitted with: with 3 or more process counts, those of the
 * collective family that best predicts the largest p from the others (fit_family.c),
 * recorded in the entry's "p_family"; else the generic ones. measured_p: the process counts
 * measured, before the points of another state of the node were left out. */
static unsigned fit_results_family(json_t *entry, const mb_fit_point_t *pts, size_t n,
                                   size_t measured_p)
{
    double error_pct[MB_FIT_NFAMILIES], largest_p = NAN;
    char err[256];
    int f = n ? mb_fit_family_select(pts, n, MB_FIT_BREAK_MARGIN, error_pct, &largest_p, err,
                                     sizeof err)
              : -1;
    if (f < 0) {
        /* Measured at 3 process counts or more, yet no family: why, for the report. */
        size_t np = fit_results_count_p(pts, n);
        if (np >= 3)
            json_object_set_new(entry, "p_family_why", json_string(err));
        else if (measured_p >= 3)
            /* a whole p read in the other state (4 ranks as 2 pseudo-nodes on the 2-vCPU
             * VM: 1 of 9 collectives in one CI run) */
            json_object_set_new(
                entry, "p_family_why",
                json_sprintf("measured at 3 process counts or more, %zu left once its points "
                             "measured in another state of the node were left out "
                             "(drift_left_out): no p to hold out",
                             np));
        return MB_FIT_GENERIC;
    }
    json_t *candidates = json_array();
    for (int c = 0; c < MB_FIT_NFAMILIES; c++)
        json_array_append_new(candidates,
                              json_pack("{s:s, s:o}", "family", mb_fit_families[c].name,
                                        "error_pct", fit_results_real(error_pct[c])));
    const mb_fit_family_t *fam = &mb_fit_families[f];
    json_object_set_new(
        entry, "p_family",
        json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "family", fam->name, "latency_basis",
                  mb_fit_basis_name(fam->latency), "bandwidth_basis",
                  mb_fit_basis_name(fam->bandwidth), "held_out_p", fit_results_number(largest_p),
                  "error_at_largest_p_pct", fit_results_real(error_pct[f]), "candidates",
                  candidates));
    return mb_fit_family_bases(fam);
}

size_t mb_fit_results_eager_limits(const json_t *system, const json_t *series, double *out,
                                   size_t max)
{
    const char *pair = json_string_value(json_object_get(series, "pair"));
    bool one_node = json_integer_value(json_object_get(system, "nodes")) == 1;
    bool shm = pair ? strcmp(pair, "intra") == 0 : one_node;
    bool net = pair && strcmp(pair, "inter") == 0;
    const json_t *limits = json_object_get(json_object_get(system, "mpi"), "protocol_limits");
    const char *name;
    const json_t *v;
    size_t n = 0;
    json_object_foreach((json_t *)limits, name, v)
    {
        bool is_shm = strstr(name, "vader") || strstr(name, "btl_sm_") || strstr(name, "SHM");
        if (n < max && json_is_integer(v) && json_integer_value(v) > 0 && !strstr(name, "rndv") &&
            !strstr(name, "self") && (shm ? is_shm : net && !is_shm))
            out[n++] = (double)json_integer_value(v);
    }
    return n;
}

/* One "fits" entry for a benchmark and series. */
static json_t *fit_results_entry(const json_t *bench, const json_t *series, double resolution_ns,
                                 const json_t *system, double usual_ns)
{
    json_t *vars = json_array();
    if (mb_record_axis(bench, MB_ROLE_RANKS))
        json_array_append_new(vars, json_string("p"));
    if (mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE))
        json_array_append_new(vars, json_string("d"));
    json_t *entry = json_pack("{s:O, s:O, s:o}", "name", json_object_get(bench, "name"), "params",
                              series, "variables", vars);
    json_t *segs = json_array();
    json_object_set_new(entry, "segments", segs);

    char err[256] = "";
    mb_fit_point_t *pts = NULL;
    size_t n = 0, left_out = 0, measured_p = 0;
    int kept_state = -1;
    if (json_array_size(vars) == 0)
        snprintf(err, sizeof err, "model linear_pd, but no axis has role message_size or ranks");
    else if ((n = fit_results_points(bench, series, resolution_ns, usual_ns, &pts, &left_out,
                                     &kept_state, &measured_p)) == 0)
        snprintf(err, sizeof err, "no measured point with a positive median");
    else if (n == 1 && !mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE))
        /* A benchmark over p alone (mpi.barrier) run on 2 ranks: p = 2 is all there is. */
        snprintf(err, sizeof err,
                 "one process count measured (p = %g): a model in p needs two or more; run on "
                 "3 ranks or more",
                 pts[0].p);
    else if (n == 1)
        snprintf(err, sizeof err, "one point measured: a model needs two or more");
    json_object_set_new(entry, "points", json_integer((json_int_t)n));
    if (left_out)
        json_object_set_new(entry, "drift_left_out",
                            json_pack("{s:I, s:s, s:f}", "points", (json_int_t)left_out, "kept",
                                      kept_state ? "usual" : "other", "usual_ns", usual_ns));
    /* The points with their errors as measured, for the holdout check, which weighs its
     * training points on their own. */
    mb_fit_point_t *stated = n ? malloc(n * sizeof *stated) : NULL;
    if (stated)
        memcpy(stated, pts, n * sizeof *stated);
    else if (!err[0])
        snprintf(err, sizeof err, "out of memory");
    if (!err[0]) {
        /* No point is trusted more closely than the scatter of its neighbours. */
        double floor_rel = mb_fit_scatter_weights(pts, n, FIT_RESULTS_SD_REL_FLOOR);
        json_object_set_new(entry, "scatter_floor_pct",
                            fit_results_real(100 * fmax(floor_rel, FIT_RESULTS_SD_REL_FLOOR)));
        /* Named, since the fit all but ignores them (fit.h): each is measured as it was. */
        json_t *spikes = json_array();
        for (size_t i = 0; i < n; i++)
            if (pts[i].spike)
                json_array_append_new(spikes,
                                      json_pack("{s:o, s:o}", "p", fit_results_number(pts[i].p),
                                                "d", fit_results_number(pts[i].d)));
        if (json_array_size(spikes))
            json_object_set_new(entry, "spikes", spikes);
        else
            json_decref(spikes);
    }
    /* The 0-byte points apart, in front: their own model, the segments over d > 0. */
    size_t nz = 0;
    for (size_t i = 0; stated && i < n && mb_record_axis(bench, MB_ROLE_MESSAGE_SIZE); i++)
        if (pts[i].d == 0) {
            mb_fit_point_t z = pts[i], zs = stated[i];
            pts[i] = pts[nz];
            stated[i] = stated[nz];
            stated[nz] = zs;
            pts[nz++] = z;
        }
    if (nz == n)
        nz = 0; /* nothing but 0 bytes: the segments fit them */
    unsigned allowed =
        err[0] ? MB_FIT_GENERIC : fit_results_family(entry, pts + nz, n - nz, measured_p);
    mb_fit_segments_t fit;
    mb_fit_model_t zero;
    if (err[0] || (nz && mb_fit_one_size(pts, nz, allowed, &zero, err, sizeof err) != 0) ||
        mb_fit_segments(pts + nz, n - nz, allowed, MB_FIT_BREAK_MARGIN, &fit, err, sizeof err) !=
            0) {
        json_object_set_new(entry, "error", json_string(err));
        json_object_set_new(entry, "holdout_error_pct", json_null());
        free(stated);
        free(pts);
        return entry;
    }
    double limit_bytes[16];
    mb_fit_limits_t limits = {limit_bytes,
                              mb_fit_results_eager_limits(system, series, limit_bytes, 16)};
    mb_fit_segments_place_breaks(&fit, &limits);
    double p_min = INFINITY, p_max = -INFINITY;
    if (nz) {
        p_min = zero.p_min;
        p_max = zero.p_max;
        json_array_append_new(segs, fit_results_segment_json(&zero));
    }
    for (size_t s = 0; s < fit.count; s++) {
        p_min = fmin(p_min, fit.seg[s].p_min);
        p_max = fmax(p_max, fit.seg[s].p_max);
        json_array_append_new(segs, fit_results_segment_json(&fit.seg[s]));
    }
    json_object_set_new(entry, "p_min", fit_results_number(p_min));
    json_object_set_new(entry, "p_max", fit_results_number(p_max));
    double mape;
    if (mb_fit_holdout(stated + nz, n - nz, allowed, MB_FIT_BREAK_MARGIN, FIT_RESULTS_SD_REL_FLOOR,
                       &limits, &mape, NULL, err, sizeof err) == 0) {
        json_object_set_new(entry, "holdout_error_pct", fit_results_real(mape));
    } else {
        json_object_set_new(entry, "holdout_error_pct", json_null());
        json_object_set_new(entry, "holdout_note", json_string(err));
    }
    free(stated);
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
    /* The clock the points were timed with (docs/results.md's "system"), for their floor. */
    const json_t *clock = json_object_get(json_object_get(root, "system"), "clock");
    double resolution_ns = json_number_value(json_object_get(clock, "resolution_ns"));
    /* The node's usual state over the run (drift.h), against which each point's readings say
     * in which state it was measured; a document without one fits every point. */
    const json_t *usual = json_object_get(json_object_get(root, "drift"), "usual_ns");
    double usual_ns = json_is_number(usual) ? json_number_value(usual) : NAN;
    json_t *fits = json_array();
    size_t i;
    const json_t *bench;
    json_array_foreach(benchmarks, i, bench)
    {
        if (!mb_record_has_model(bench, "linear_pd") || !mb_record_ran(bench) ||
            !json_is_string(json_object_get(bench, "name")))
            continue;
        /* One fit per series, in order of first appearance; a series whose points all
         * failed still gets its entry, which says so. */
        json_t *all = json_array();
        mb_record_series_add(bench, all, false);
        size_t j;
        const json_t *series;
        json_array_foreach(all, j, series) json_array_append_new(
            fits, fit_results_entry(bench, series, resolution_ns, json_object_get(root, "system"),
                                    usual_ns));
        json_decref(all);
    }
    return fits;
}

const json_t *mb_fit_results_find(const json_t *fits, const char *name, const json_t *params)
{
    size_t i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        const char *fname = json_string_value(json_object_get(f, "name"));
        if (fname && name && strcmp(fname, name) == 0 &&
            json_equal(json_object_get(f, "params"), (json_t *)params))
            return f;
    }
    return NULL;
}

const json_t *mb_fit_results_of(const json_t *root, json_t **own, char *err, size_t errlen)
{
    const json_t *fits = json_object_get(root, "fits");
    *own = NULL;
    if (json_is_array(fits))
        return fits;
    return *own = mb_fit_results(root, err, errlen);
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
