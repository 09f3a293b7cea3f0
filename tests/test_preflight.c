/* SPDX-License-Identifier: MIT */
/* The pre-flight's verdict on synthetic cluster tables with known answers: a node whose
 * clock is off the median, a noisy node, a node whose mhz failed, and a quiet cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "preflight.h"

static json_t *node(const char *host, double mhz, double p99)
{
    json_t *n = json_pack("{s:s, s:f, s:{s:f, s:f}}", "host", host, "mhz", mhz, "perturb",
                          "p50_pct", p99 / 4, "p99_pct", p99);
    if (mhz <= 0) {
        json_object_set_new(n, "mhz", json_null());
        json_object_set_new(n, "mhz_why", json_string("system too busy: 1.0 vs 2.0 MHz"));
    }
    return n;
}

static bool flagged(const json_t *nodes, size_t i)
{
    return json_is_true(json_object_get(json_array_get(nodes, i), "flagged"));
}

static const char *why(const json_t *nodes, size_t i)
{
    return json_string_value(json_object_get(json_array_get(nodes, i), "why"));
}

static void test_quiet_cluster_has_no_flags(void **unused)
{
    (void)unused;
    json_t *nodes = json_pack("[o, o, o]", node("a", 3000, 1), node("b", 3010, 2), node("c", 2995, 0.5));
    int n = -1;
    double median = mb_preflight_verdict(nodes, 0.02, 0.05, &n);
    assert_float_equal(median, 3000, 1e-9);
    assert_int_equal(n, 0);
    for (size_t i = 0; i < 3; i++) {
        assert_false(flagged(nodes, i));
        assert_null(why(nodes, i));
    }
    json_decref(nodes);
}

static void test_slow_node_is_flagged(void **unused)
{
    (void)unused;
    /* 3% below a median of 3000 MHz, with a 2% tolerance. */
    json_t *nodes = json_pack("[o, o, o, o]", node("a", 3000, 1), node("b", 3001, 1),
                              node("slow", 2910, 1), node("d", 2999, 1));
    int n;
    double median = mb_preflight_verdict(nodes, 0.02, 0.05, &n);
    assert_float_equal(median, 2999.5, 1e-9);
    assert_int_equal(n, 1);
    assert_true(flagged(nodes, 2));
    assert_non_null(strstr(why(nodes, 2), "off the cluster median"));
    assert_false(flagged(nodes, 0));
    json_decref(nodes);
}

static void test_noisy_node_is_flagged(void **unused)
{
    (void)unused;
    json_t *nodes = json_pack("[o, o]", node("quiet", 3000, 4.9), node("noisy", 3000, 12.5));
    int n;
    mb_preflight_verdict(nodes, 0.02, 0.05, &n);
    assert_int_equal(n, 1);
    assert_false(flagged(nodes, 0));
    assert_true(flagged(nodes, 1));
    assert_non_null(strstr(why(nodes, 1), "noisy: p99 12.50%"));
    json_decref(nodes);
}

static void test_failed_mhz_is_flagged_and_left_out_of_the_median(void **unused)
{
    (void)unused;
    json_t *nodes = json_pack("[o, o, o]", node("a", 3000, 1), node("busy", 0, 1), node("c", 3100, 1));
    int n;
    double median = mb_preflight_verdict(nodes, 0.05, 0.05, &n);
    assert_float_equal(median, 3050, 1e-9);
    assert_int_equal(n, 1);
    assert_true(flagged(nodes, 1));
    assert_non_null(strstr(why(nodes, 1), "mhz failed (system too busy"));
    json_decref(nodes);
}

static void test_node_noise_for_a_benchmark(void **unused)
{
    (void)unused;
    json_t *nodes = json_pack("[o, o]", node("a", 3000, 2), node("b", 3000, 8));
    int n;
    mb_preflight_verdict(nodes, 0.02, 0.05, &n);
    json_t *pre = json_pack("{s:o}", "nodes", nodes);
    json_t *noise = mb_preflight_node_noise(pre, 1);
    assert_non_null(noise);
    assert_string_equal(json_string_value(json_object_get(noise, "host")), "b");
    assert_float_equal(json_number_value(json_object_get(noise, "p99_pct")), 8, 1e-9);
    assert_float_equal(json_number_value(json_object_get(noise, "p50_pct")), 2, 1e-9);
    assert_true(json_is_true(json_object_get(noise, "flagged")));
    json_decref(noise);
    assert_null(mb_preflight_node_noise(pre, 5));
    assert_null(mb_preflight_node_noise(NULL, 0));
    json_decref(pre);
}

/* The perturbation test's runs cut to a budget's share: by one fraction for both modes,
 * to their floors at the least, never raised. 20 ms runs, a 0.2 s detour test. */
static void test_counts_fit_a_budget(void **state)
{
    (void)state;
    uint64_t count = 100, memory = 20;
    /* 120 runs of 20 ms and the detour: 2.6 s, which fits 3 s. */
    assert_false(mb_preflight_fit_counts(&count, &memory, 0.02, 0.2, 3));
    assert_int_equal(count, 100);
    assert_int_equal(memory, 20);
    /* 1.4 s for the runs' 2.4: 7/12 of each, rounded down (58.33, 11.67). */
    assert_true(mb_preflight_fit_counts(&count, &memory, 0.02, 0.2, 1.6));
    assert_int_equal(count, 58);
    assert_int_equal(memory, 11);
    /* No time at all: the floors. */
    count = 100, memory = 20;
    assert_true(mb_preflight_fit_counts(&count, &memory, 0.02, 0.2, -1));
    assert_int_equal(count, MB_PREFLIGHT_BUDGET_MIN_RUNS);
    assert_int_equal(memory, MB_PREFLIGHT_BUDGET_MIN_MEMORY_RUNS);
    /* At the floors already, or fewer configured: kept, not raised; a memory mode off stays
     * off. */
    assert_false(mb_preflight_fit_counts(&count, &memory, 0.02, 0.2, 0.1));
    count = 8, memory = 0;
    assert_false(mb_preflight_fit_counts(&count, &memory, 0.02, 0.2, 0.1));
    assert_int_equal(count, 8);
    assert_int_equal(memory, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_cluster_has_no_flags),
        cmocka_unit_test(test_slow_node_is_flagged),
        cmocka_unit_test(test_noisy_node_is_flagged),
        cmocka_unit_test(test_failed_mhz_is_flagged_and_left_out_of_the_median),
        cmocka_unit_test(test_node_noise_for_a_benchmark),
        cmocka_unit_test(test_counts_fit_a_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
