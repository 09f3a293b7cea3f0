/* SPDX-License-Identifier: MIT */
/* The fitter applied to results documents (schema 2): which benchmarks are fitted, along
 * which axes and in which series, all by the records' fields and axis roles; LogGP from the
 * benchmarks' "loggp" fields; fits.csv; the report's fit sections. The documents' failed
 * points carry a bogus median (testdoc.h), so any reader that used one would be caught. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "fit.h"
#include "fit_results.h"
#include "report_fits.h"
#include "results.h"
#include "testdoc.h"

static const json_t *find_fit(const json_t *fits, const char *name, const char *key,
                              const char *value)
{
    size_t i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        const json_t *params = json_object_get(f, "params");
        const char *v = key ? json_string_value(json_object_get(params, key)) : NULL;
        if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0 &&
            (key ? v && strcmp(v, value) == 0 : json_object_size(params) == 0))
            return f;
    }
    return NULL;
}

static double term_coef(const json_t *seg, const char *basis)
{
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(seg, "terms"), i, t)
    {
        if (strcmp(json_string_value(json_object_get(t, "basis")), basis) == 0)
            return json_number_value(json_object_get(t, "coef"));
    }
    return NAN;
}

static double loggp_value(const json_t *loggp, const char *series, const char *param)
{
    const json_t *v =
        json_object_get(json_object_get(json_object_get(loggp, series), param), "value");
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *loggp_text(const json_t *loggp, const char *series, const char *param,
                              const char *key)
{
    return json_string_value(
        json_object_get(json_object_get(json_object_get(loggp, series), param), key));
}

/* --- fits and LogGP --- */

/* A collective at three process counts whose smaller two hold one size each: no family can be
 * fitted below the largest p, and the entry says why (the report's table too), where one at
 * two process counts has no family and no reason of its own. */
static void test_no_family_says_why(void **state)
{
    (void)state;
    json_t *g = mb_testdoc_bench("mpi.gather", "linear_pd", NULL, "size_bytes:message_size",
                                 "ranks:ranks", NULL);
    mb_testdoc_point(g, json_pack("{s:f, s:f}", "size_bytes", 64.0, "ranks", 2.0), 1100);
    mb_testdoc_point(g, json_pack("{s:f, s:f}", "size_bytes", 64.0, "ranks", 3.0), 1300);
    for (double d = 64; d <= 65536; d *= 2)
        mb_testdoc_point(g, json_pack("{s:f, s:f}", "size_bytes", d, "ranks", 4.0), 1500 + d);
    json_t *root = json_pack("{s:s, s:b, s:[o], s:i}", "schema", MB_RESULTS_SCHEMA, "complete", 1,
                             "benchmarks", g, "failed_points", 0);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    const json_t *fit = find_fit(fits, "mpi.gather", NULL, NULL);
    assert_non_null(fit);
    assert_null(json_object_get(fit, "p_family"));
    const char *why = json_string_value(json_object_get(fit, "p_family_why"));
    assert_non_null(why);
    assert_non_null(strstr(why, "below p = 4"));
    json_object_set_new(root, "fits", fits);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mb_report_fits(f, root);
    fclose(f);
    assert_non_null(strstr(text, "mpi.gather"));
    assert_non_null(strstr(text, "(no family: "));
    free(text);
    json_decref(root);
}

/* A collective at three process counts whose p = 3 points were all measured in another state
 * of the node: the fit keeps the usual state's, two process counts are left, and the entry
 * says so, where it would read as though only two were measured. */
static void test_no_family_drift_says_why(void **state)
{
    (void)state;
    json_t *g = mb_testdoc_bench("mpi.gather", "linear_pd", NULL, "size_bytes:message_size",
                                 "ranks:ranks", NULL);
    for (double p = 2; p <= 4; p++)
        for (double d = 64; d <= 8192; d *= 2) {
            json_t *pt =
                json_pack("{s:{s:f, s:f}, s:s, s:i, s:i, s:f, s:[f, f]}", "params", "size_bytes", d,
                          "ranks", p, "status", "ok", "n", 51, "iterations", 1, "median",
                          1000 * p + d, "ci95", (1000 * p + d) * 0.99, (1000 * p + d) * 1.01);
            double ns = p == 3 ? 185.0 : 400.0;
            json_object_set_new(pt, "drift_probe",
                                json_pack("{s:f, s:f}", "before_ns", ns, "after_ns", ns));
            json_array_append_new(json_object_get(g, "points"), pt);
        }
    json_t *root =
        json_pack("{s:[o], s:{s:{s:f}}, s:{s:f, s:f}}", "benchmarks", g, "system", "clock",
                  "resolution_ns", 1.0, "drift", "usual_ns", 400.0, "other_ns", 185.0);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    const json_t *fit = find_fit(fits, "mpi.gather", NULL, NULL);
    assert_non_null(fit);
    assert_int_equal(
        json_integer_value(json_object_get(json_object_get(fit, "drift_left_out"), "points")), 8);
    assert_null(json_object_get(fit, "p_family"));
    const char *why = json_string_value(json_object_get(fit, "p_family_why"));
    assert_non_null(why);
    assert_non_null(strstr(why, "2 left once its points measured in another state"));
    json_decref(fits);
    json_decref(root);
}

static void test_fit_results(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_mpi();
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    assert_int_equal(json_array_size(fits), 5); /* pingpong x2, allgather, send, recvmin */
    const json_t *pp = find_fit(fits, "mpi.pingpong", "pair", "intra");
    assert_non_null(pp);
    assert_int_equal(json_integer_value(json_object_get(pp, "points")), 33); /* failed one out */
    /* The 0-byte point is its own segment, in front; the line is fitted over d > 0. */
    const json_t *zero = json_array_get(json_object_get(pp, "segments"), 0);
    assert_int_equal(json_array_size(json_object_get(pp, "segments")), 2);
    assert_int_equal(json_integer_value(json_object_get(zero, "d_max")), 0);
    assert_true(fabs(term_coef(zero, "1") - 500) < 1e-6);
    assert_true(json_is_null(json_object_get(zero, "Q"))); /* one point: nothing to test */
    const json_t *seg = json_array_get(json_object_get(pp, "segments"), 1);
    assert_true(json_number_value(json_object_get(seg, "d_min")) > 0);
    assert_int_equal(json_array_size(json_object_get(seg, "terms")), 2);
    assert_true(fabs(term_coef(seg, "1") - 500) < 1e-6);
    assert_true(fabs(term_coef(seg, "d") - 0.1) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(seg, "d_max")), 65536);
    assert_true(json_number_value(json_object_get(seg, "Q")) > 0.99);
    assert_true(json_number_value(json_object_get(pp, "holdout_error_pct")) < 1e-6);
    assert_int_equal(json_array_size(json_object_get(pp, "variables")), 1);

    const json_t *ag = find_fit(fits, "mpi.allgather", NULL, NULL);
    assert_non_null(ag);
    /* Its 0-byte points vary in p: their own model over p. */
    zero = json_array_get(json_object_get(ag, "segments"), 0);
    assert_true(fabs(term_coef(zero, "1") - 1000) < 1e-6);
    assert_true(fabs(term_coef(zero, "p") - 2000) < 1e-6);
    assert_true(json_number_value(json_object_get(zero, "Q")) > 0.99);
    seg = json_array_get(json_object_get(ag, "segments"), 1);
    assert_true(fabs(term_coef(seg, "1") - 1000) < 1e-6);
    assert_true(fabs(term_coef(seg, "p") - 2000) < 1e-6);
    assert_true(fabs(term_coef(seg, "d") - 0.5) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(ag, "p_max")), 8);
    /* p = 2, 4, 8: the family is chosen by predicting p = 8 (exactly, on exact data); the
     * pair's fit, at one p, has none. */
    const json_t *fam = json_object_get(ag, "p_family");
    assert_string_equal(json_string_value(json_object_get(fam, "family")), "linear in p");
    assert_int_equal(json_integer_value(json_object_get(fam, "held_out_p")), 8);
    assert_true(json_number_value(json_object_get(fam, "error_at_largest_p_pct")) < 1e-6);
    assert_int_equal(json_array_size(json_object_get(fam, "candidates")), MB_FIT_NFAMILIES);
    assert_null(json_object_get(pp, "p_family"));
    char text[256];
    mb_fit_results_format_model(seg, false, text, sizeof text);
    assert_string_equal(text, "1 + 2*p + 0.0005*d");
    assert_null(find_fit(fits, "mpi.barrier", NULL, NULL));           /* skipped */
    assert_null(find_fit(fits, "harness.timer", "quantity", "read")); /* no model */

    /* the model read back from JSON predicts like the fit */
    mb_fit_model_t m;
    assert_int_equal(mb_fit_results_segment_model(ag, seg, &m, err, sizeof err), 0);
    bool out;
    double se, t = mb_fit_predict(&m, 4, 1024, &se, &out);
    assert_true(fabs(t - 9512) < 1e-6);
    assert_true(se > 0 && se < 50);
    assert_false(out);
    mb_fit_predict(&m, 16, 1024, NULL, &out);
    assert_true(out);

    json_t *loggp = mb_fit_loggp(root, fits);
    assert_true(fabs(loggp_value(loggp, "intra", "o_s") - 150) < 1e-9);
    assert_true(fabs(loggp_value(loggp, "intra", "o_r") - 100) < 1e-9);
    assert_true(fabs(loggp_value(loggp, "intra", "L") - 250) < 1e-9);
    assert_true(fabs(loggp_value(loggp, "intra", "G") - 0.1) < 1e-9);
    assert_non_null(strstr(loggp_text(loggp, "intra", "L", "derivation"), "mpi.pingpong"));
    /* g: the o_s source, labelled as the stand-in it is */
    assert_true(fabs(loggp_value(loggp, "intra", "g") - 150) < 1e-9);
    assert_non_null(strstr(loggp_text(loggp, "intra", "g", "derivation"), "stand-in: mpi.send"));
    assert_true(isnan(loggp_value(loggp, "inter", "L")));
    assert_non_null(loggp_text(loggp, "inter", "o_r", "omitted"));
    assert_true(fabs(loggp_value(loggp, "inter", "G") - 0.05) < 1e-9);
    json_decref(loggp);

    json_t *empty = json_object();
    assert_null(mb_fit_results(empty, err, sizeof err));
    assert_non_null(strstr(err, "benchmarks"));
    json_decref(empty);
    json_decref(fits);
    json_decref(root);
}

/* A fast call timed on a coarse clock: 18 ns with 1% scatter from point to point, every
 * point's experiments alike (a CI of zero width). Its error floor is what the clock leaves
 * unknown of the median, 1.2533 * 20 / sqrt(6 * 90 * 51) = 0.15 ns, below the scatter, so
 * the right model (a constant) gets a reduced chi2 near 1. A document that states no clock
 * keeps a 1 ns floor, 5.5% of the time, and the same points fit far too well. */
static json_t *clock_floor_doc(bool with_clock)
{
    json_t *b = mb_testdoc_bench("mpi.fast", "linear_pd", NULL, "size_bytes:message_size",
                                 "pair:label:intra", NULL);
    /* A fixed pseudo-random walk of +-1% (no library seed to drift between builds). */
    uint32_t x = 12345;
    for (double d = 1; d <= 4096; d *= 1.5) {
        double u = 0;
        for (int k = 0; k < 12; k++) { /* Irwin-Hall: 12 uniforms less 6, ~ N(0, 1) */
            x = x * 1664525u + 1013904223u;
            u += (x >> 8) / 16777216.0;
        }
        double t = 18.0 * exp(0.01 * (u - 6));
        json_array_append_new(json_object_get(b, "points"),
                              json_pack("{s:{s:f, s:s}, s:s, s:i, s:i, s:f, s:[f, f]}", "params",
                                        "size_bytes", floor(d), "pair", "intra", "status", "ok",
                                        "n", 51, "iterations", 90, "median", t, "ci95", t, t));
    }
    json_t *root = json_pack("{s:[o]}", "benchmarks", b);
    if (with_clock)
        json_object_set_new(root, "system", json_pack("{s:{s:f}}", "clock", "resolution_ns", 20.0));
    return root;
}

static void test_clock_floor(void **state)
{
    (void)state;
    double chi2r[2];
    for (int with_clock = 0; with_clock <= 1; with_clock++) {
        json_t *root = clock_floor_doc(with_clock);
        char err[256];
        json_t *fits = mb_fit_results(root, err, sizeof err);
        assert_non_null(fits);
        const json_t *f = find_fit(fits, "mpi.fast", "pair", "intra");
        assert_non_null(f);
        assert_int_equal(json_array_size(json_object_get(f, "segments")), 1);
        const json_t *seg = json_array_get(json_object_get(f, "segments"), 0);
        chi2r[with_clock] = json_number_value(json_object_get(seg, "chi2_reduced"));
        json_decref(fits);
        json_decref(root);
    }
    assert_true(chi2r[1] > 0.3 && chi2r[1] < 3);
    assert_true(chi2r[0] < 0.1);
}

/* A series whose 1-byte point is 1.5 times its line (Open MPI's MPI_Gather on 2 ranks): the
 * point is a case of its own, d_min = d_max = 1 with its time and a null Q, after the 0-byte
 * one and before a segment from 2 B; with its CI 30 times wider than the others' (a point
 * measured in a disturbance) it is not, and stays in the segment. */
static json_t *first_size_doc(double first_ci_rel)
{
    json_t *b = mb_testdoc_bench("mpi.gatherlike", "linear_pd", NULL, "size_bytes:message_size",
                                 "pair:label:intra", NULL);
    for (double p = 0; p <= 4096; p = p < 1 ? 1 : p * 2)
        for (int k = 0; k < (p >= 2 && p < 4096 ? 2 : 1); k++) {
            double d = k ? 1.5 * p : p, t = (d == 0 ? 10 : 200 + 0.1 * d) * (d == 1 ? 1.5 : 1);
            double rel = d == 1 ? first_ci_rel : 0.01;
            json_array_append_new(json_object_get(b, "points"),
                                  json_pack("{s:{s:f, s:s}, s:s, s:i, s:i, s:f, s:[f, f]}",
                                            "params", "size_bytes", d, "pair", "intra", "status",
                                            "ok", "n", 51, "iterations", 1, "median", t, "ci95",
                                            t * (1 - rel), t * (1 + rel)));
        }
    return json_pack("{s:[o], s:{s:{s:f}}}", "benchmarks", b, "system", "clock", "resolution_ns",
                     1.0);
}

static void test_fit_first_size(void **state)
{
    (void)state;
    for (int imprecise = 0; imprecise <= 1; imprecise++) {
        json_t *root = first_size_doc(imprecise ? 0.3 : 0.01);
        char err[256];
        json_t *fits = mb_fit_results(root, err, sizeof err);
        assert_non_null(fits);
        const json_t *f = find_fit(fits, "mpi.gatherlike", "pair", "intra");
        assert_non_null(f);
        const json_t *segs = json_object_get(f, "segments");
        const json_t *zero = json_array_get(segs, 0), *first = json_array_get(segs, 1);
        assert_int_equal(json_integer_value(json_object_get(zero, "d_max")), 0);
        if (!imprecise) {
            assert_int_equal(json_array_size(segs), 3);
            assert_int_equal(json_integer_value(json_object_get(first, "d_min")), 1);
            assert_int_equal(json_integer_value(json_object_get(first, "d_max")), 1);
            assert_true(fabs(term_coef(first, "1") - 300.15) < 1e-6);
            assert_true(json_is_null(json_object_get(first, "Q")));
            assert_int_equal(json_integer_value(json_object_get(first, "dof")), 0);
            const json_t *rest = json_array_get(segs, 2);
            assert_int_equal(json_integer_value(json_object_get(rest, "d_min")), 2);
            assert_true(fabs(term_coef(rest, "d") - 0.1) < 1e-6);
        } else {
            assert_int_equal(json_integer_value(json_object_get(first, "d_min")), 1);
            assert_true(json_integer_value(json_object_get(first, "d_max")) > 1);
        }
        json_decref(fits);
        json_decref(root);
    }
}

/* A pingpong-like series (200 ns + 0.1 ns/B) whose sizes from 16 to 2048 B were measured
 * while the node sat in its other state, at twice the time, as the drift probe around each
 * point says (measure.h), against a run whose usual state reads 400 ns, and the 0-byte point
 * too: the fit keeps the usual state's points and recovers the line, and says how many it
 * left out, the 0-byte point kept as its own model; where most
 * points are in the other state it keeps those. Without the run's usual state (no "drift"
 * section) or without the points' readings, every point is fitted, and the mixture is not
 * the line. */
static json_t *two_state_doc(bool with_usual, bool with_probes, double other_from, double other_to)
{
    json_t *b = mb_testdoc_bench("mpi.twostate", "linear_pd", NULL, "size_bytes:message_size",
                                 "pair:label:intra", NULL);
    for (double p = 0; p <= 65536; p = p < 1 ? 1 : p * 2)
        for (int k = 0; k < (p >= 2 && p < 65536 ? 2 : 1); k++) {
            double d = k ? 1.5 * p : p;
            bool other = (d >= other_from && d <= other_to) || d == 0;
            double t = (200 + 0.1 * d) * (other ? 2 : 1);
            json_t *pt = json_pack("{s:{s:f, s:s}, s:s, s:i, s:i, s:f, s:[f, f]}", "params",
                                   "size_bytes", d, "pair", "intra", "status", "ok", "n", 51,
                                   "iterations", 1, "median", t, "ci95", t * 0.99, t * 1.01);
            if (with_probes)
                json_object_set_new(pt, "drift_probe",
                                    json_pack("{s:f, s:f}", "before_ns", other ? 180.0 : 410.0,
                                              "after_ns", other ? 190.0 : 395.0));
            json_array_append_new(json_object_get(b, "points"), pt);
        }
    json_t *root =
        json_pack("{s:[o], s:{s:{s:f}}}", "benchmarks", b, "system", "clock", "resolution_ns", 1.0);
    if (with_usual)
        json_object_set_new(root, "drift",
                            json_pack("{s:f, s:f}", "usual_ns", 400.0, "other_ns", 185.0));
    return root;
}

static void test_fit_drift_states(void **state)
{
    (void)state;
    char err[256];
    /* 16..2048 B in the other state: 15 of 32 points */
    json_t *root = two_state_doc(true, true, 16, 2048);
    json_t *fits = mb_fit_results(root, err, sizeof err);
    const json_t *f = find_fit(fits, "mpi.twostate", "pair", "intra");
    assert_non_null(f);
    const json_t *left = json_object_get(f, "drift_left_out");
    assert_non_null(left);
    assert_int_equal(json_integer_value(json_object_get(left, "points")), 15);
    assert_string_equal(json_string_value(json_object_get(left, "kept")), "usual");
    /* the 0-byte point, in the other state too, is kept: its own model */
    assert_int_equal(json_integer_value(json_object_get(f, "points")), 18);
    const json_t *segs = json_object_get(f, "segments");
    assert_int_equal(json_array_size(segs), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(segs, 0), "d_max")), 0);
    const json_t *seg = json_array_get(segs, 1);
    assert_true(fabs(term_coef(seg, "1") - 200) < 0.5);
    assert_true(fabs(term_coef(seg, "d") - 0.1) < 1e-4);
    assert_true(json_number_value(json_object_get(f, "holdout_error_pct")) < 1);
    /* The report names the fit and the count. */
    json_object_set(root, "fits", fits);
    char *text = mb_testdoc_render(mb_report_fits, root);
    assert_non_null(strstr(text, "mpi.twostate intra: 15 of 33 points; fitted on the usual"));
    free(text);
    json_decref(fits);
    json_decref(root);

    /* most points in the other state: those are kept, at twice the line */
    root = two_state_doc(true, true, 4, 65536);
    fits = mb_fit_results(root, err, sizeof err);
    f = find_fit(fits, "mpi.twostate", "pair", "intra");
    left = json_object_get(f, "drift_left_out");
    assert_string_equal(json_string_value(json_object_get(left, "kept")), "other");
    assert_int_equal(json_integer_value(json_object_get(left, "points")), 3);
    seg = json_array_get(json_object_get(f, "segments"), 1);
    assert_true(fabs(term_coef(seg, "1") - 400) < 1);
    json_decref(fits);
    json_decref(root);

    /* no usual state, or no readings: every point, and no note */
    for (int without = 0; without < 2; without++) {
        root = two_state_doc(without != 0, without == 0, 16, 2048);
        fits = mb_fit_results(root, err, sizeof err);
        f = find_fit(fits, "mpi.twostate", "pair", "intra");
        assert_null(json_object_get(f, "drift_left_out"));
        assert_int_equal(json_integer_value(json_object_get(f, "points")), 33);
        json_decref(fits);
        json_decref(root);
    }
}

/* Names mean nothing: a benchmark outside group mpi with unusual axis names is fitted by
 * its roles, one in group mpi with a size_bytes axis but no model is not. */
static void test_fit_by_roles(void **state)
{
    (void)state;
    json_t *x = mb_testdoc_transfer();
    json_t *plain = mb_testdoc_bench("mpi.plain", NULL, NULL, "size_bytes:message_size", NULL);
    mb_testdoc_point(plain, json_pack("{s:f}", "size_bytes", 8.0), 100);
    json_t *counts = mb_testdoc_bench("x.counted", "linear_pd", NULL, "instances:count", NULL);
    mb_testdoc_point(counts, json_pack("{s:f}", "instances", 1.0), 100);
    json_t *root = json_pack("{s:[o, o, o]}", "benchmarks", x, plain, counts);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    assert_int_equal(json_array_size(fits), 3); /* near, far, and counted's error */
    const json_t *far = find_fit(fits, "x.transfer", "route", "far");
    assert_non_null(far);
    const json_t *vars = json_object_get(far, "variables");
    assert_int_equal(json_array_size(vars), 2);
    assert_string_equal(json_string_value(json_array_get(vars, 0)), "p");
    assert_string_equal(json_string_value(json_array_get(vars, 1)), "d");
    const json_t *seg = json_array_get(json_object_get(far, "segments"), 1); /* after 0 bytes */
    assert_true(fabs(term_coef(seg, "1") - 900) < 1e-6);
    assert_true(fabs(term_coef(seg, "p") - 100) < 1e-6);
    assert_true(fabs(term_coef(seg, "d") - 0.25) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(far, "p_max")), 6);
    const json_t *counted = find_fit(fits, "x.counted", NULL, NULL);
    assert_non_null(counted);
    assert_int_equal(json_array_size(json_object_get(counted, "segments")), 0);
    assert_non_null(strstr(json_string_value(json_object_get(counted, "error")), "role"));
    assert_null(find_fit(fits, "mpi.plain", NULL, NULL));
    json_decref(fits);
    json_decref(root);
}

/* The library's eager limits (system.mpi.protocol_limits) place a break that falls between
 * two sizes: shared memory's for the intra-node pair, the network's for the inter-node one;
 * a rendezvous's first fragment (rndv) and a rank's own transport (self) never. The step
 * here is at 5000 B, between the sizes 4096 and 6144. */
static void test_fit_limits(void **state)
{
    (void)state;
    json_t *b = mb_testdoc_bench("mpi.step", "linear_pd", NULL, "size_bytes:message_size",
                                 "pair:label:intra,inter", NULL);
    for (int k = 0; k < 2; k++)
        for (double d = 1; d <= 1048576; d *= 2)
            for (int half = 0; half < 2 && (d > 1 || !half); half++) {
                double x = half ? 1.5 * d : d;
                if (x <= 1048576)
                    mb_testdoc_point(
                        b, json_pack("{s:f, s:s}", "size_bytes", x, "pair", k ? "inter" : "intra"),
                        x < 5000 ? 300 + 0.05 * x : 2000 + 0.07 * x);
            }
    json_t *limits =
        json_pack("{s:I, s:I, s:I, s:I}", "btl_vader_eager_limit", (json_int_t)5000,
                  "btl_tcp_eager_limit", (json_int_t)5500, "btl_vader_rndv_eager_limit",
                  (json_int_t)4500, "btl_self_eager_limit", (json_int_t)4800);
    json_t *root = json_pack("{s:[o], s:{s:i, s:{s:o}}}", "benchmarks", b, "system", "nodes", 2,
                             "mpi", "protocol_limits", limits);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    const char *pairs[] = {"intra", "inter"};
    double starts[] = {5000, 5500};
    for (int k = 0; k < 2; k++) {
        const json_t *f = find_fit(fits, "mpi.step", "pair", pairs[k]);
        assert_non_null(f);
        const json_t *segs = json_object_get(f, "segments");
        assert_int_equal(json_array_size(segs), 2); /* eager, rendezvous */
        const json_t *up = json_array_get(segs, 1);
        assert_true(json_number_value(json_object_get(up, "d_min")) == starts[k]);
        assert_true(json_number_value(json_object_get(json_array_get(segs, 0), "d_max")) == 4096);
    }
    json_decref(fits);
    /* None stated (a run from before): the segment starts at the first size above. */
    json_object_del(json_object_get(json_object_get(root, "system"), "mpi"), "protocol_limits");
    fits = mb_fit_results(root, err, sizeof err);
    const json_t *segs = json_object_get(find_fit(fits, "mpi.step", "pair", "intra"), "segments");
    assert_true(json_number_value(json_object_get(json_array_get(segs, 1), "d_min")) == 6144);
    json_decref(fits);
    json_decref(root);
}

/* One point is no model, and the entry says what to do: a barrier over p alone on 2 ranks
 * is told to run on more ranks; a one-size benchmark is told it has one point. */
static void test_fit_one_point(void **state)
{
    (void)state;
    json_t *bar = mb_testdoc_bench("mpi.barrier", "linear_pd", NULL, "ranks:ranks", NULL);
    mb_testdoc_point(bar, json_pack("{s:f}", "ranks", 2.0), 900);
    json_t *one = mb_testdoc_bench("mpi.one", "linear_pd", NULL, "size_bytes:message_size", NULL);
    mb_testdoc_point(one, json_pack("{s:f}", "size_bytes", 64.0), 300);
    json_t *root = json_pack("{s:[o, o]}", "benchmarks", bar, one);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(fits);
    const json_t *f = find_fit(fits, "mpi.barrier", NULL, NULL);
    assert_non_null(f);
    assert_int_equal(json_array_size(json_object_get(f, "segments")), 0);
    assert_string_equal(json_string_value(json_object_get(f, "error")),
                        "one process count measured (p = 2): a model in p needs two or more; "
                        "run on 3 ranks or more");
    f = find_fit(fits, "mpi.one", NULL, NULL);
    assert_non_null(f);
    assert_string_equal(json_string_value(json_object_get(f, "error")),
                        "one point measured: a model needs two or more");
    json_decref(fits);
    json_decref(root);
}

/* LogGP sources are found by their "loggp" field: a benchmark named mpi.send without one is
 * no source, and sources with other names are. Series are keyed by their label values. */
static void test_loggp_by_field(void **state)
{
    (void)state;
    json_t *rtt =
        mb_testdoc_bench("x.rtt", "linear_pd", "L", "len:message_size", "link:label:a", NULL);
    json_t *post =
        mb_testdoc_bench("x.post", NULL, "o_s", "len:message_size", "link:label:a", NULL);
    json_t *take =
        mb_testdoc_bench("x.take", "linear_pd", "o_r", "len:message_size", "link:label:a", NULL);
    json_t *decoy =
        mb_testdoc_bench("mpi.send", NULL, NULL, "size_bytes:message_size", "pair:label:a", NULL);
    for (double d = 0; d <= 8192; d += 1024) {
        mb_testdoc_point(rtt, json_pack("{s:f, s:s}", "len", d, "link", "a"), 1000 + 0.2 * d);
        mb_testdoc_point(post, json_pack("{s:f, s:s}", "len", d + 8, "link", "a"), 300 + d);
        mb_testdoc_point(take, json_pack("{s:f, s:s}", "len", d + 8, "link", "a"), 200 + d);
        mb_testdoc_point(decoy, json_pack("{s:f, s:s}", "size_bytes", d, "pair", "a"), 5);
    }
    mb_testdoc_failed(take, json_pack("{s:f, s:s}", "len", 0.0, "link", "a"), 1.0);
    json_t *root = json_pack("{s:[o, o, o, o]}", "benchmarks", decoy, rtt, post, take);
    char err[256];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    json_t *loggp = mb_fit_loggp(root, fits);
    assert_int_equal(json_object_size(loggp), 1);
    assert_true(fabs(loggp_value(loggp, "a", "o_s") - 300) < 1e-9);
    assert_true(fabs(loggp_value(loggp, "a", "o_r") - 200) < 1e-9); /* failed 0 B ignored */
    assert_true(fabs(loggp_value(loggp, "a", "L") - 500) < 1e-9);
    assert_true(fabs(loggp_value(loggp, "a", "G") - 0.2) < 1e-9);
    assert_non_null(strstr(loggp_text(loggp, "a", "o_s", "derivation"), "x.post"));
    assert_non_null(strstr(loggp_text(loggp, "a", "o_s", "derivation"), "(8 B)"));
    assert_non_null(strstr(loggp_text(loggp, "a", "g", "derivation"), "stand-in: x.post"));
    assert_non_null(strstr(loggp_text(loggp, "a", "G", "derivation"), "x.rtt"));
    /* o_r as a function of d: its source's fitted line, 192 + 1 * len over 8..8200 B; o_s's
     * source has no model, so no of_d. */
    const json_t *of_d = json_object_get(json_object_get(json_object_get(loggp, "a"), "o_r"), "of_d");
    assert_int_equal(json_array_size(of_d), 1);
    assert_true(fabs(json_number_value(json_object_get(json_array_get(of_d, 0), "start_ns")) - 192) < 1e-6);
    assert_true(fabs(json_number_value(json_object_get(json_array_get(of_d, 0), "per_byte_ns")) - 1) < 1e-9);
    assert_null(json_object_get(json_object_get(json_object_get(loggp, "a"), "o_s"), "of_d"));
    json_decref(loggp);

    /* A benchmark timing back-to-back sends (loggp "g") gives g; the stand-in is gone. */
    json_t *stream = mb_testdoc_bench("x.stream", "linear_pd", "g", "len:message_size",
                                      "link:label:a", NULL);
    for (double d = 16; d <= 8192; d *= 2)
        mb_testdoc_point(stream, json_pack("{s:f, s:s}", "len", d, "link", "a"), 40 + 0.1 * d);
    json_array_append_new(json_object_get(root, "benchmarks"), stream);
    loggp = mb_fit_loggp(root, fits);
    assert_true(fabs(loggp_value(loggp, "a", "g") - 41.6) < 1e-9);
    assert_non_null(strstr(loggp_text(loggp, "a", "g", "derivation"), "x.stream median"));
    assert_non_null(strstr(loggp_text(loggp, "a", "g", "derivation"), "back-to-back"));
    json_decref(loggp);
    json_array_remove(json_object_get(root, "benchmarks"), 4);

    /* Without an o_r source, L cannot be derived and says why. */
    json_array_remove(json_object_get(root, "benchmarks"), 3);
    loggp = mb_fit_loggp(root, fits);
    assert_true(isnan(loggp_value(loggp, "a", "o_r")));
    assert_non_null(strstr(loggp_text(loggp, "a", "o_r", "omitted"), "loggp \"o_r\""));
    assert_true(isnan(loggp_value(loggp, "a", "L")));
    json_decref(loggp);
    json_decref(fits);

    json_t *none = json_pack("{s:[]}", "benchmarks");
    loggp = mb_fit_loggp(none, NULL);
    assert_int_equal(json_object_size(loggp), 0);
    json_decref(loggp);
    json_decref(none);
    json_decref(root);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_csv(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_mpi();
    char err[256], dir[] = "/tmp/test_fit.XXXXXX", path[128];
    json_t *fits = mb_fit_results(root, err, sizeof err);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/fits.csv", dir);
    assert_int_equal(mb_fit_results_write_csv(fits, path, err, sizeof err), 0);
    char *csv = slurp(path);
    assert_non_null(csv);
    assert_memory_equal(
        csv,
        "name,params,segment,d_min,d_max,basis,coef_ns,stderr_ns,chi2,dof,Q,holdout_error_pct\n",
        84);
    assert_non_null(strstr(csv, "\nmpi.pingpong,pair=intra,0,0,0,1,500,"));
    assert_non_null(strstr(csv, "\nmpi.pingpong,pair=intra,1,1,65536,1,500,"));
    assert_non_null(strstr(csv, "\nmpi.pingpong,pair=intra,1,1,65536,d,0.1,"));
    assert_non_null(strstr(csv, "\nmpi.allgather,,0,0,0,p,2000,"));
    assert_non_null(strstr(csv, "\nmpi.allgather,,1,64,32768,p,2000,"));
    size_t lines = 0;
    for (const char *c = csv; *c; c++)
        lines += *c == '\n';
    size_t rows = 0, i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        size_t s;
        const json_t *seg;
        json_array_foreach(json_object_get(f, "segments"), s, seg) rows +=
            json_array_size(json_object_get(seg, "terms"));
    }
    assert_int_equal(lines, rows + 1);
    /* nothing else left in the directory */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/nosuchdir/fits.csv", dir);
    assert_int_equal(mb_fit_results_write_csv(fits, path, err, sizeof err), -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    json_decref(fits);
    json_decref(root);
}

static void test_report(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_mpi();
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mb_report_fits(f, root); /* no fits: only the magnitudes */
    fclose(f);
    assert_null(strstr(text, "MPI Function"));
    assert_non_null(strstr(text, "1e-7 s"));
    assert_non_null(strstr(text, "harness.timer (read)"));
    free(text);

    json_object_set_new(root, "fits", mb_fit_results(root, err, sizeof err));
    f = open_memstream(&text, &len);
    mb_report_fits(f, root);
    fclose(f);
    assert_non_null(strstr(text, "MPI Function"));
    assert_non_null(strstr(text, "Goodness of fit (Q)"));
    /* each held-out error with the points' own scatter beside it */
    assert_non_null(strstr(text, "holdout error (points' scatter)"));
    assert_non_null(strstr(text, "% (points "));
    assert_non_null(strstr(text, "mpi.allgather"));
    assert_non_null(strstr(text, "mpi.pingpong intra"));
    assert_null(strstr(text, "harness.timer read")); /* no model: not in the fits table */
    assert_non_null(strstr(text, "1(0.0") /* allgather's constant, 1 us with its stderr */);
    assert_non_null(strstr(text, "LogGP"));
    assert_null(strstr(text, "spikes:")); /* the test document's curves are smooth */
    /* pingpong intra at 0 B is 500 ns: the 1e-7 s column, same as where its header starts */
    const char *head = strstr(text, "1e-9 s");
    assert_non_null(head);
    const char *line_start = head;
    while (line_start > text && line_start[-1] != '\n')
        line_start--;
    size_t col = (size_t)(strstr(head, "1e-7 s") - line_start);
    const char *item = strstr(head, "mpi.pingpong (intra)");
    assert_non_null(item);
    const char *item_line = item;
    while (item_line[-1] != '\n')
        item_line--;
    assert_int_equal((size_t)(item - item_line), col);
    /* mpi.send's failed 0 B point (a bogus 1 ns) is not its smallest: 150 ns is, 1e-7 s */
    item = strstr(head, "mpi.send (intra)");
    assert_non_null(item);
    item_line = item;
    while (item_line[-1] != '\n')
        item_line--;
    assert_int_equal((size_t)(item - item_line), col);
    free(text);
    /* A fit's spikes are named under the models, each by its size. */
    json_t *fit =
        (json_t *)find_fit(json_object_get(root, "fits"), "mpi.pingpong", "pair", "intra");
    assert_non_null(fit);
    json_object_set_new(fit, "spikes",
                        json_pack("[{s:i, s:i}, {s:i, s:i}]", "p", 2, "d", 4096, "p", 2, "d",
                                  786432));
    f = open_memstream(&text, &len);
    mb_report_fits(f, root);
    fclose(f);
    assert_non_null(strstr(text, "spikes: points alone far off"));
    assert_non_null(strstr(text, "mpi.pingpong intra: d=4096 d=786432\n"));
    free(text);
    json_decref(root);
}

/* Run the command (arguments up to a NULL) with stdout and stderr captured into *out. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_results),
        cmocka_unit_test(test_no_family_says_why),
        cmocka_unit_test(test_no_family_drift_says_why),
        cmocka_unit_test(test_fit_by_roles),
        cmocka_unit_test(test_loggp_by_field),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_clock_floor),
        cmocka_unit_test(test_fit_one_point),
        cmocka_unit_test(test_fit_limits),
        cmocka_unit_test(test_fit_first_size),
        cmocka_unit_test(test_fit_drift_states),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
