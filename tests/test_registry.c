/* SPDX-License-Identifier: MIT */
/* The benchmark table: every descriptor is complete and well named, globs select the
 * right benchmarks, and a benchmark that needs more ranks is skipped with the reason. */
#include <fnmatch.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"
#include "registry.h"

static void test_descriptors_are_complete(void **unused)
{
    (void)unused;
    assert_true(mb_registry_count() > 0);
    for (size_t i = 0; i < mb_registry_count(); i++) {
        const mb_bench_t *b = mb_registry_get(i);
        assert_non_null(b->name);
        assert_non_null(b->group);
        /* "group.function" */
        size_t g = strlen(b->group);
        assert_int_equal(strncmp(b->name, b->group, g), 0);
        assert_int_equal(b->name[g], '.');
        assert_true(b->summary && *b->summary);
        assert_true(b->measures && *b->measures);
        /* A timed loop or a per-call operation, not both. */
        assert_true((b->run != NULL) != (b->op != NULL));
        assert_true(b->ndims <= MB_MAX_DIMS);
        assert_true(b->ndims == 0 || b->dims != NULL);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(b->name, mb_registry_get(j)->name);
        /* Every axis says what it means: a numeric one is never a label. */
        bool has_d = false, has_p = false;
        for (size_t d = 0; d < b->ndims; d++) {
            const mb_dim_t *dim = &b->dims[d];
            assert_true(dim->labels ? dim->role == MB_ROLE_LABEL : dim->role != MB_ROLE_LABEL);
            has_d |= dim->role == MB_ROLE_MESSAGE_SIZE;
            has_p |= dim->role == MB_ROLE_RANKS;
        }
        /* A fitted model needs a d or a p to fit in. */
        if (b->model == MB_MODEL_LINEAR_PD)
            assert_true(has_d || has_p);
        if (b->scope == MB_SCOPE_FIRST_RANKS && !b->scope_of)
            assert_int_equal(b->dims[b->ranks_dim].role, MB_ROLE_RANKS);
        assert_ptr_equal(mb_registry_find(b->name), b);
    }
    assert_null(mb_registry_find("no.such"));
}

/* Whether component c has a label axis `axis` with the label `label`. */
static bool has_series(const mb_bench_t *c, const char *axis, const char *label)
{
    for (size_t d = 0; d < c->ndims; d++) {
        if (strcmp(c->dims[d].name, axis) != 0 || !c->dims[d].labels)
            continue;
        for (const char *const *l = c->dims[d].labels; *l; l++)
            if (strcmp(*l, label) == 0)
                return true;
    }
    return false;
}

/* A composite pattern's recipe names fitted benchmarks that run before it, with series
 * they have, and positive multipliers; the constant term is the configuration's. */
static void test_recipes_name_fitted_components(void **unused)
{
    (void)unused;
    mb_config_t cfg;
    mb_config_defaults(&cfg);
    size_t composites = 0;
    for (size_t i = 0; i < mb_registry_count(); i++) {
        const mb_bench_t *b = mb_registry_get(i);
        if (!b->compose)
            continue;
        composites++;
        for (int inter = 0; inter <= 1; inter++) {
            mb_context_t ctx = {.config = &cfg, .arg = b->arg, .has_pair_intra = true,
                                .has_pair_inter = inter};
            mb_compose_t terms[MB_COMPOSE_MAX];
            size_t n = b->compose(&ctx, terms, MB_COMPOSE_MAX);
            assert_true(n >= 1 && n <= MB_COMPOSE_MAX);
            assert_int_equal(b->model, MB_MODEL_NONE);
            for (size_t t = 0; t < n; t++) {
                if (!terms[t].benchmark) {
                    assert_true(terms[t].constant_ns == (double)cfg.mpi_pattern_compute);
                    continue;
                }
                const mb_bench_t *c = mb_registry_find(terms[t].benchmark);
                assert_non_null(c);
                size_t ci = 0;
                while (mb_registry_get(ci) != c)
                    ci++;
                assert_true(ci < i);
                assert_int_equal(c->model, MB_MODEL_LINEAR_PD);
                assert_true(terms[t].times > 0);
                if (terms[t].series_axis) {
                    /* intra within a node; inter across nodes, when the run has such a pair */
                    assert_true(has_series(c, terms[t].series_axis, terms[t].series_label));
                    assert_string_equal(terms[t].series_label, "intra");
                    if (inter) {
                        assert_non_null(terms[t].series_label_across);
                        assert_true(
                            has_series(c, terms[t].series_axis, terms[t].series_label_across));
                        assert_string_equal(terms[t].series_label_across, "inter");
                    } else {
                        assert_null(terms[t].series_label_across);
                    }
                }
            }
        }
    }
    assert_int_equal(composites, 4);
}

static size_t count_selected(const bool *sel)
{
    size_t n = 0;
    for (size_t i = 0; i < mb_registry_count(); i++)
        n += sel[i];
    return n;
}

/* Benchmarks kept for comparison with a peer tool, run only when named in full. */
static size_t count_on_request(void)
{
    size_t n = 0;
    for (size_t i = 0; i < mb_registry_count(); i++)
        n += mb_registry_get(i)->on_request;
    return n;
}

static void test_select_globs(void **unused)
{
    (void)unused;
    bool sel[256], preflight = true;
    char err[256];
    assert_true(mb_registry_count() <= 256);
    assert_int_equal(mb_registry_select(NULL, sel, &preflight, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), mb_registry_count() - count_on_request());
    assert_false(preflight); /* no --only: the configuration decides */

    size_t harness = 0;
    for (size_t i = 0; i < mb_registry_count(); i++)
        harness += fnmatch("harness.*", mb_registry_get(i)->name, 0) == 0;
    assert_int_equal(mb_registry_select("harness.*", sel, &preflight, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), harness);
    assert_false(preflight);

    assert_int_equal(
        mb_registry_select("harness.timer, harness.bcopy", sel, &preflight, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), 2);
    assert_true(sel[0]); /* harness.timer is first in bench_list.def */

    assert_int_equal(mb_registry_select("harness.timer,nope*", sel, &preflight, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "'nope*' matches no benchmark"));
}

/* Every name --list shows is accepted by --only: the pre-flight's tests select the
 * pre-flight, alone or beside benchmarks; a glob matching only them is not "nothing". */
static void test_select_preflight(void **unused)
{
    (void)unused;
    bool sel[256], preflight = false;
    char err[256];
    assert_int_equal(mb_registry_select("node.*", sel, &preflight, err, sizeof err), 0);
    assert_true(preflight);
    assert_int_equal(count_selected(sel), 0);

    preflight = false;
    assert_int_equal(mb_registry_select("node.mhz", sel, &preflight, err, sizeof err), 0);
    assert_true(preflight);
    assert_int_equal(count_selected(sel), 0);

    preflight = false;
    assert_int_equal(
        mb_registry_select("node.perturb,mpi.pingpong", sel, &preflight, err, sizeof err), 0);
    assert_true(preflight);
    assert_int_equal(count_selected(sel), 1);
    assert_string_equal(mb_registry_get(0)->name, "harness.timer");
    assert_false(sel[0]);

    /* "*" names everything --list shows before its on-request part, the pre-flight
     * included. */
    assert_int_equal(mb_registry_select("*", sel, &preflight, err, sizeof err), 0);
    assert_true(preflight);
    assert_int_equal(count_selected(sel), mb_registry_count() - count_on_request());

    assert_int_equal(mb_registry_select("node.nope", sel, &preflight, err, sizeof err), -1);
    assert_non_null(strstr(err, "'node.nope' matches no benchmark and no pre-flight test"));
}

/* An on-request benchmark (mpi.pingpong_one_buffer, NetPIPE's method) runs when --only names
 * it in full, beside others or alone; no wildcard and no default run selects it. */
static void test_select_on_request(void **unused)
{
    (void)unused;
    bool sel[256], preflight = false;
    char err[256];
    const mb_bench_t *one = mb_registry_find("mpi.pingpong_one_buffer");
    assert_non_null(one);
    assert_true(one->on_request);
    assert_int_equal(count_on_request(), 1);
    size_t at = 0;
    while (mb_registry_get(at) != one)
        at++;

    assert_int_equal(mb_registry_select(NULL, sel, &preflight, err, sizeof err), 0);
    assert_false(sel[at]);
    assert_int_equal(mb_registry_select("mpi.*", sel, &preflight, err, sizeof err), 0);
    assert_false(sel[at]);
    assert_true(sel[at - 1]); /* mpi.pingpong, listed before it */
    assert_int_equal(mb_registry_select("mpi.pingpong*", sel, &preflight, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), 1);
    assert_false(sel[at]);

    assert_int_equal(
        mb_registry_select("mpi.pingpong_one_buffer", sel, &preflight, err, sizeof err), 0);
    assert_int_equal(count_selected(sel), 1);
    assert_true(sel[at]);
    assert_int_equal(mb_registry_select("mpi.pingpong,mpi.pingpong_one_buffer", sel, &preflight,
                                        err, sizeof err),
                     0);
    assert_int_equal(count_selected(sel), 2);

    /* A wildcard that only it would match matches nothing. */
    assert_int_equal(mb_registry_select("*_one_buffer", sel, &preflight, err, sizeof err), -1);
    assert_non_null(strstr(err, "'*_one_buffer' matches no benchmark"));
}

/* --list shows the pre-flight's tests after the benchmarks, each name once. */
static void test_print_lists_preflight(void **unused)
{
    (void)unused;
    char buf[65536] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    mb_registry_print(f);
    fclose(f);
    assert_non_null(strstr(buf, "\nnode.mhz "));
    assert_non_null(strstr(buf, "\nnode.perturb "));
    assert_non_null(strstr(buf, "\nmpi.pingpong "));
    assert_true(strstr(buf, "node.mhz") > strstr(buf, "mpi.pingpong"));
    /* The on-request ones after a blank line and a heading, apart from the default run's. */
    const char *heading = strstr(buf, "\n\non request");
    assert_non_null(heading);
    assert_true(strstr(buf, "\nmpi.pingpong_one_buffer ") > heading);
    assert_true(strstr(buf, "\nmpi.pingpong ") < heading);
}

static void test_skip_reason_names_the_need(void **unused)
{
    (void)unused;
    mb_bench_t b = {.name = "t.two", .group = "t", .summary = "s", .measures = "m", .min_ranks = 2};
    mb_context_t one = {.size = 1}, two = {.size = 2};
    char buf[128];
    const char *why = mb_measure_skip_reason(&b, &one, buf, sizeof buf);
    assert_non_null(why);
    assert_string_equal(why, "needs at least 2 ranks, the run has 1");
    assert_null(mb_measure_skip_reason(&b, &two, buf, sizeof buf));

    json_t *j = mb_measure_skipped_json(&b, why);
    assert_string_equal(json_string_value(json_object_get(j, "skipped")), why);
    assert_int_equal(json_array_size(json_object_get(j, "points")), 0);
    /* Every record has an elapsed_s, a skipped one 0 (results_check requires it). */
    assert_true(json_is_number(json_object_get(j, "elapsed_s")));
    json_decref(j);
}

static const char *skip_one_node(const mb_context_t *ctx, char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return ctx->has_pair_inter ? NULL : "needs ranks on 2 nodes, the run has one node";
}

/* A descriptor's own reason (skip_reason) applies after min_ranks. */
static void test_skip_reason_hook(void **unused)
{
    (void)unused;
    mb_bench_t b = {.name = "t.nodes", .group = "t", .min_ranks = 2, .skip_reason = skip_one_node};
    mb_context_t one = {.size = 1}, node = {.size = 2}, nodes = {.size = 2, .has_pair_inter = true};
    char buf[128];
    assert_string_equal(mb_measure_skip_reason(&b, &one, buf, sizeof buf),
                        "needs at least 2 ranks, the run has 1");
    assert_string_equal(mb_measure_skip_reason(&b, &node, buf, sizeof buf),
                        "needs ranks on 2 nodes, the run has one node");
    assert_null(mb_measure_skip_reason(&b, &nodes, buf, sizeof buf));
}

static void test_params_json(void **unused)
{
    (void)unused;
    static const char *const labels[] = {"warm", "cold", NULL};
    const mb_dim_t dims[] = {{.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
                             {.name = "cache", .labels = labels}};
    mb_bench_t b = {.name = "t.p", .group = "t", .dims = dims, .ndims = 2};
    mb_point_t pt = {.v = {4096, 1}};
    json_t *p = mb_measure_params_json(&b, &pt);
    assert_int_equal(json_integer_value(json_object_get(p, "size_bytes")), 4096);
    assert_string_equal(json_string_value(json_object_get(p, "cache")), "cold");
    json_decref(p);
}

/* The record's header carries each axis's role, the model and the LogGP term. */
static void test_header_carries_roles(void **unused)
{
    (void)unused;
    static const char *const labels[] = {"intra", "inter", NULL};
    const mb_dim_t dims[] = {{.name = "size_bytes", .role = MB_ROLE_MESSAGE_SIZE},
                             {.name = "pair", .labels = labels}};
    mb_bench_t b = {.name = "t.p", .group = "t", .dims = dims, .ndims = 2,
                    .model = MB_MODEL_LINEAR_PD, .loggp = "L"};
    json_t *j = mb_measure_json_header(&b, NULL);
    const json_t *axes = json_object_get(j, "axes");
    assert_int_equal(json_array_size(axes), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(axes, 0), "role")),
                        "message_size");
    assert_string_equal(json_string_value(json_object_get(json_array_get(axes, 1), "role")), "label");
    assert_int_equal(json_array_size(json_object_get(json_array_get(axes, 1), "labels")), 2);
    assert_string_equal(json_string_value(json_object_get(j, "model")), "linear_pd");
    assert_string_equal(json_string_value(json_object_get(j, "loggp")), "L");
    assert_int_equal(json_integer_value(json_object_get(j, "failed_points")), 0);
    json_decref(j);
    b.model = MB_MODEL_NONE;
    b.loggp = NULL;
    j = mb_measure_json_header(&b, NULL);
    assert_true(json_is_null(json_object_get(j, "model")));
    assert_true(json_is_null(json_object_get(j, "loggp")));
    json_decref(j);
}

/* A failed point is recorded with its reason and no statistics. */
static void test_failed_point_json(void **unused)
{
    (void)unused;
    const mb_dim_t dims[] = {{.name = "ranks", .role = MB_ROLE_RANKS}};
    mb_bench_t b = {.name = "t.f", .group = "t", .dims = dims, .ndims = 1};
    mb_point_t pt = {.v = {4}};
    json_t *j = mb_measure_json_failed(&b, &pt, "setup: out of memory");
    assert_string_equal(json_string_value(json_object_get(j, "status")), "failed");
    assert_string_equal(json_string_value(json_object_get(j, "reason")), "setup: out of memory");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "params"), "ranks")), 4);
    assert_null(json_object_get(j, "median"));
    json_decref(j);
}

/* A family's entries share code and differ by their argument, which reaches points(). */
static int arg_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err, size_t len)
{
    (void)err;
    (void)len;
    int n = *(const int *)ctx->arg;
    for (int i = 0; i < n && (size_t)i < max; i++)
        pts[i].v[0] = i;
    return n;
}

static void test_family_arg_reaches_points(void **unused)
{
    (void)unused;
    static const int three = 3, five = 5;
    const mb_bench_t family[] = {{.name = "t.a", .points = arg_points, .arg = &three},
                                 {.name = "t.b", .points = arg_points, .arg = &five}};
    mb_context_t ctx = {.size = 1};
    mb_point_t pts[8];
    char err[64];
    assert_int_equal(mb_measure_points(&family[0], &ctx, pts, 8, err, sizeof err), 3);
    assert_int_equal(mb_measure_points(&family[1], &ctx, pts, 8, err, sizeof err), 5);
    assert_null(ctx.arg);
    const mb_bench_t single = {.name = "t.c"};
    assert_int_equal(mb_measure_points(&single, &ctx, pts, 8, err, sizeof err), 1);
}

/* harness.empty_loop's derive (seed 000 6.3: l = 2 T1/N1 - T2/N2) on known medians, and
 * its note where two operations cost more than twice one (no overhead to subtract). */
static void test_empty_loop_derive(void **unused)
{
    (void)unused;
    const mb_bench_t *b = mb_registry_find("harness.empty_loop");
    assert_non_null(b);
    assert_non_null(b->derive);
    const mb_point_t pts[] = {{.v = {0}}, {.v = {1}}, {.v = {2}}};
    mb_measurement_t ms[3] = {{0}};
    ms[0].stats.median = 0.3, ms[1].stats.median = 1.5, ms[2].stats.median = 2.5;
    json_t *d = b->derive(pts, ms, 3);
    assert_non_null(d);
    assert_true(fabs(json_real_value(json_object_get(d, "loop_overhead_ns")) - 0.5) < 1e-12);
    assert_true(fabs(json_real_value(json_object_get(d, "operation_ns")) - 1.0) < 1e-12);
    assert_null(json_object_get(d, "loop_overhead_note"));
    json_decref(d);
    ms[1].stats.median = 0.95, ms[2].stats.median = 2.12;
    d = b->derive(pts, ms, 3);
    assert_non_null(d);
    assert_true(json_real_value(json_object_get(d, "loop_overhead_ns")) < 0);
    const char *note = json_string_value(json_object_get(d, "loop_overhead_note"));
    assert_non_null(note);
    assert_non_null(strstr(note, "negative"));
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptors_are_complete),
        cmocka_unit_test(test_recipes_name_fitted_components),
        cmocka_unit_test(test_select_globs),
        cmocka_unit_test(test_select_preflight),
        cmocka_unit_test(test_select_on_request),
        cmocka_unit_test(test_print_lists_preflight),
        cmocka_unit_test(test_skip_reason_names_the_need),
        cmocka_unit_test(test_skip_reason_hook),
        cmocka_unit_test(test_params_json),
        cmocka_unit_test(test_header_carries_roles),
        cmocka_unit_test(test_failed_point_json),
        cmocka_unit_test(test_family_arg_reaches_points),
        cmocka_unit_test(test_empty_loop_derive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
