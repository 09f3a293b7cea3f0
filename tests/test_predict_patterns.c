/* SPDX-License-Identifier: MIT */
/* Predicted vs measured (predict_patterns.h, report_patterns.h) on a hand-written fixture
 * with known fits: sendrecv intra = 400 ns at 0 B and 500 + 0.25 d above; allreduce =
 * 100 + 300 log2(p) + 0.5 d for p = 2..8. Each recipe's prediction, error and median
 * |error| is checked exactly, and a recipe whose component has no model says why. */
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

#include "predict_patterns.h"
#include "report_patterns.h"
#include "testdoc.h"

#define FIXTURE "results_patterns_fixture.json"

static const json_t *entry(const json_t *pred, const char *name)
{
    size_t i;
    const json_t *e;
    json_array_foreach(pred, i, e)
    {
        if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0)
            return e;
    }
    fail_msg("no predictions entry for %s", name);
    return NULL;
}

static double num(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        fail_msg("%s is not a number", key);
    return json_number_value(v);
}

static void assert_close(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want)))
        fail_msg("got %.12g, want %.12g", got, want);
}

/* Point i of an entry: measured, predicted, error. */
static void check_point(const json_t *e, size_t i, double measured, double predicted,
                        bool extrapolated)
{
    const json_t *pt = json_array_get(json_object_get(e, "points"), i);
    assert_non_null(pt);
    assert_close(num(pt, "measured_ns"), measured);
    assert_close(num(pt, "predicted_ns"), predicted);
    assert_close(num(pt, "error_pct"), (predicted - measured) / measured * 100.0);
    assert_int_equal(json_is_true(json_object_get(pt, "extrapolated")), extrapolated);
    assert_null(json_object_get(pt, "error"));
}

static void test_predictions(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture(FIXTURE);
    assert_non_null(root);
    json_t *pred = mb_predict_patterns(root, NULL);
    /* every benchmark that ran with a recipe, none for the skipped one */
    assert_int_equal(json_array_size(pred), 4);

    /* 2 x sendrecv intra, p not a variable of the component; the failed point left out */
    const json_t *halo2 = entry(pred, "mpi.halo2");
    assert_string_equal(json_string_value(json_object_get(halo2, "recipe")),
                        "2 x mpi.sendrecv intra");
    assert_int_equal(json_array_size(json_object_get(halo2, "points")), 3);
    check_point(halo2, 0, 1000, 2 * 400.0, false);
    check_point(halo2, 1, 2000, 2 * (500 + 0.25 * 1024), false);
    check_point(halo2, 2, 2500, 2 * (500 + 0.25 * 1024), false);
    assert_int_equal(num(json_array_get(json_object_get(halo2, "points"), 2), "p"), 4);
    assert_int_equal(num(halo2, "predicted_points"), 3);
    /* |errors| 20, 24.4, 39.52: the median is the middle one */
    assert_close(num(halo2, "median_abs_error_pct"), 24.4);

    /* a constant plus the allreduce at the point's p; p = 16 is past the fit's 2..8 */
    const json_t *arc = entry(pred, "mpi.allreduce_compute");
    assert_string_equal(json_string_value(json_object_get(arc, "recipe")), "20 us + mpi.allreduce");
    check_point(arc, 0, 22000, 20000 + 100 + 300 * 1 + 0.5 * 64, false);
    check_point(arc, 1, 30000, 20000 + 100 + 300 * 4 + 0.5 * 64, true);
    double e0 = (20432.0 - 22000) / 22000 * 100, e1 = (21332.0 - 30000) / 30000 * 100;
    assert_close(num(arc, "median_abs_error_pct"), (fabs(e0) + fabs(e1)) / 2);

    /* components without a model: the point says why, no figure */
    const struct {
        const char *name, *why;
    } missing[] = {
        {"mpi.ring_shift", "mpi.sendrecv has no fit for the series pair=inter"},
        {"mpi.halo4", "mpi.nosuch was not run (not in the results)"},
    };
    for (size_t m = 0; m < sizeof missing / sizeof missing[0]; m++) {
        const json_t *e = entry(pred, missing[m].name);
        const json_t *pt = json_array_get(json_object_get(e, "points"), 0);
        assert_true(json_is_null(json_object_get(pt, "predicted_ns")));
        assert_true(json_is_null(json_object_get(pt, "error_pct")));
        assert_string_equal(json_string_value(json_object_get(pt, "error")), missing[m].why);
        assert_true(json_is_null(json_object_get(e, "median_abs_error_pct")));
        assert_int_equal(num(e, "predicted_points"), 0);
    }
    json_decref(pred);

    /* without fits, nothing is made up */
    json_object_del(root, "fits");
    pred = mb_predict_patterns(root, NULL);
    const json_t *pt = json_array_get(json_object_get(entry(pred, "mpi.halo2"), "points"), 0);
    assert_string_equal(json_string_value(json_object_get(pt, "error")), "mpi.sendrecv has no fit");
    json_decref(pred);
    json_decref(root);
}

static void test_recipe_errors(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture(FIXTURE);
    assert_non_null(root);
    const json_t *fits = json_object_get(root, "fits");
    double t;
    bool out;
    char err[256];
    json_t *bad = json_pack("[{s:s}]", "what", "nothing");
    assert_int_equal(mb_predict_recipe(bad, root, fits, 2, 8, &t, &out, err, sizeof err), -1);
    assert_string_equal(err, "recipe term 0 has neither a benchmark nor a constant");
    json_decref(bad);
    json_t *empty = json_array();
    assert_int_equal(mb_predict_recipe(empty, root, fits, 2, 8, &t, &out, err, sizeof err), -1);
    json_decref(empty);
    /* a skipped component names its reason */
    json_t *skip = json_pack("[{s:s, s:i}]", "benchmark", "mpi.halo8", "times", 1);
    assert_int_equal(mb_predict_recipe(skip, root, fits, 2, 8, &t, &out, err, sizeof err), -1);
    assert_string_equal(err, "mpi.halo8 was skipped: needs at least 9 ranks, the run has 2");
    json_decref(skip);
    /* a benchmark measured but without a model */
    json_t *nomodel = json_pack("[{s:s, s:i}]", "benchmark", "mpi.halo2", "times", 1);
    assert_int_equal(mb_predict_recipe(nomodel, root, fits, 2, 8, &t, &out, err, sizeof err), -1);
    assert_string_equal(err, "mpi.halo2 has no model to predict from");
    json_decref(nomodel);
    json_decref(root);
}

/* A recipe with an inter-node series: used at the points whose ranks span nodes (ranks 0-1
 * on node 0, 2-3 on node 1), the intra-node one below. */
static void test_series_across_nodes(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture(FIXTURE);
    assert_non_null(root);
    json_array_append_new(
        json_object_get(root, "fits"),
        json_pack("{s:s, s:{s:s}, s:[s], s:i, s:[{s:i, s:i, s:[{s:s, s:f, s:f}], s:f, s:i, "
                  "s:f}]}",
                  "name", "mpi.sendrecv", "params", "pair", "inter", "variables", "d", "points",
                  5, "segments", "d_min", 1, "d_max", 65536, "terms", "basis", "1", "coef",
                  5000.0, "stderr", 1.0, "chi2", 1.0, "dof", 4, "Q", 0.5));
    json_object_set_new(root, "system",
                        json_pack("{s:[{s:i, s:i}, {s:i, s:i}, {s:i, s:i}, {s:i, s:i}]}",
                                  "bindings", "rank", 0, "node", 0, "rank", 1, "node", 0, "rank",
                                  2, "node", 1, "rank", 3, "node", 1));
    json_t *recipe = json_pack("[{s:s, s:i, s:{s:s}, s:{s:s}}]", "benchmark", "mpi.sendrecv",
                               "times", 1, "series", "pair", "intra", "series_across_nodes",
                               "pair", "inter");
    const json_t *fits = json_object_get(root, "fits");
    double t;
    bool out;
    char err[256];
    assert_int_equal(mb_predict_recipe(recipe, root, fits, 2, 1024, &t, &out, err, sizeof err), 0);
    assert_close(t, 500 + 0.25 * 1024);
    assert_int_equal(mb_predict_recipe(recipe, root, fits, 3, 1024, &t, &out, err, sizeof err), 0);
    assert_close(t, 5000);
    char text[128];
    mb_predict_recipe_text(recipe, text, sizeof text);
    assert_string_equal(text, "mpi.sendrecv intra (inter across nodes)");
    /* without bindings, nothing spans nodes */
    json_object_del(root, "system");
    assert_int_equal(mb_predict_recipe(recipe, root, fits, 4, 1024, &t, &out, err, sizeof err), 0);
    assert_close(t, 500 + 0.25 * 1024);
    json_decref(recipe);
    json_decref(root);
}

static void test_report_table(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture(FIXTURE);
    assert_non_null(root);
    char *text = mb_testdoc_render(mb_report_patterns, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "predicted vs measured (composite patterns"));
    assert_non_null(strstr(text, "  pattern                 p  d (B)  measured us  predicted us  "
                                 "error %  predicted from\n"));
    assert_non_null(strstr(text, "  mpi.halo2               2     1K        2.000         1.512    "
                                 "-24.4  2 x mpi.sendrecv intra\n"));
    assert_non_null(strstr(text, "  mpi.allreduce_compute  16     64        30.00         21.33    "
                                 "-28.9  20 us + mpi.allreduce (extrapolated)\n"));
    assert_non_null(strstr(text,
                           "  mpi.ring_shift          2     16       0.6000             -        "
                           "-  cannot predict: mpi.sendrecv has no fit for the series "
                           "pair=inter\n"));
    assert_non_null(strstr(text, "cannot predict: mpi.nosuch was not run (not in the results)"));
    assert_non_null(
        strstr(text, "mpi.halo2              median |error| 24.4% over 3 of 3 points\n"));
    assert_non_null(strstr(text, "mpi.halo4              not predicted: mpi.nosuch was not run"));
    free(text);

    /* a run still measuring (no fits, no predictions): no section */
    json_object_del(root, "fits");
    text = mb_testdoc_render(mb_report_patterns, root);
    assert_non_null(text);
    assert_string_equal(text, "");
    free(text);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predictions),
        cmocka_unit_test(test_recipe_errors),
        cmocka_unit_test(test_series_across_nodes),
        cmocka_unit_test(test_report_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
