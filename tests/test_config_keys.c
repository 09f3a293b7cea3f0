/* SPDX-License-Identifier: MIT */
/* The configuration keys: their defaults, the JSON of a configuration and the commented key
 * list, which must parse back to the defaults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "config.h"

#define MiB (UINT64_C(1) << 20)

static void parse_ok(mb_config_t *c, const char *text)
{
    char err[512] = "";
    if (mb_config_parse_string(c, text, "t.ini", err, sizeof err) != 0)
        fail_msg("unexpected error: %s\n--- text:\n%s", err, text);
}

static void test_defaults(void **state)
{
    (void)state;
    mb_config_t c;
    mb_config_defaults(&c);
    assert_int_equal(c.run_min_experiments, 11);
    assert_int_equal(c.run_max_experiments, 51);
    assert_true(c.run_ci_target == 0.02);
    assert_int_equal(c.timing_clock, MB_CLOCK_MONOTONIC);
    assert_int_equal(c.timing_enough, 0); /* auto */
    assert_int_equal(c.timing_enough_max, 100000000);
    assert_int_equal(c.timing_enough_fallback, 0); /* auto */
    assert_int_equal(c.harness_bcopy_sizes.n, 1);
    assert_int_equal(c.harness_bcopy_sizes.bytes[0], MiB);
    assert_int_equal(c.harness_bcopy_cold_span, 0); /* auto */
}

static void test_json_has_every_key(void **state)
{
    (void)state;
    static const struct {
        const char *section, *key, *type, *def;
    } keys[] = {
#define MB_CONFIG_KEY(section, key, type, def, help) {#section, #key, #type, def},
#include "config_keys.def"
#undef MB_CONFIG_KEY
    };
    mb_config_t c;
    mb_config_defaults(&c);
    json_t *j = mb_config_to_json(&c);
    assert_non_null(j);
    size_t total = 0;
    const char *name;
    json_t *sec;
    json_object_foreach(j, name, sec) total += json_object_size(sec);
    assert_int_equal(total, sizeof keys / sizeof keys[0]);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(json_object_get(j, keys[i].section), keys[i].key);
        if (!v)
            fail_msg("JSON lacks %s.%s", keys[i].section, keys[i].key);
        const char *t = keys[i].type;
        int ok = strcmp(t, "SIZE_LIST") == 0 ? json_is_array(v)
                 : strcmp(t, "FRACTION") == 0 ? json_is_real(v)
                 : strcmp(t, "CLOCK") == 0    ? json_is_string(v)
                 : strcmp(t, "NOISE_ACTION") == 0 ? json_is_string(v)
                 : strcmp(t, "SYNC") == 0     ? json_is_string(v)
                 : strcmp(t, "BUFFERS") == 0  ? json_is_string(v)
                 : strcmp(t, "BOOL") == 0     ? json_is_boolean(v)
                                              : json_is_integer(v) ||
                                                 (json_is_string(v) &&
                                                  strcmp(json_string_value(v), keys[i].def) == 0 &&
                                                  (strcmp(keys[i].def, "auto") == 0 ||
                                                   strcmp(keys[i].def, "none") == 0));
        if (!ok)
            fail_msg("%s.%s has the wrong JSON type for %s", keys[i].section, keys[i].key, t);
    }
    json_decref(j);

    /* values: bytes, ns, "auto", config names */
    parse_ok(&c, "[timing]\nclock = monotonic_raw\nenough_max = 1.5ms\n"
                 "[harness]\nbcopy_sizes = 4K, 1M\nbcopy_cold_span = 2G\n");
    j = mb_config_to_json(&c);
    /* Section by section, so a new key elsewhere does not change these. */
    static const struct {
        const char *section, *json;
    } want[] = {
        {"run", "{\"min_experiments\":11,\"max_experiments\":51,\"warmup\":10000000,"
                "\"warmup_next\":1000000,"
                "\"ci_target\":0.02,\"ci_wide\":0.1,\"time_budget\":\"none\",\"drift_remeasure\":true,"
                "\"point_timeout\":300000000000}"},
        {"timing", "{\"clock\":\"monotonic_raw\",\"enough\":\"auto\",\"enough_max\":1500000,"
                   "\"enough_fallback\":\"auto\"}"},
        {"harness", "{\"bcopy_sizes\":[4096,1048576],\"bcopy_cold_span\":2147483648}"},
        {"preflight", "{\"enabled\":true,\"mhz_measurements\":11,\"perturb_duration\":20000000,"
                      "\"perturb_count\":100,\"perturb_memory_count\":20,\"detour_duration\":200000000,\"noise_threshold\":0.05,\"mhz_tolerance\":0.02,"
                      "\"on_noisy\":\"warn\"}"},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        char *s = json_dumps(json_object_get(j, want[w].section),
                             JSON_COMPACT | JSON_REAL_PRECISION(15));
        assert_string_equal(s, want[w].json);
        free(s);
    }
    json_decref(j);
}

static void test_print_keys_round_trip(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    mb_config_print_keys(f);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "[run]\n; (count) fewest experiments per point"));
    assert_non_null(strstr(text, "\nmin_experiments = 11\n"));

    /* start far from the defaults: parsing the listing must bring every key back */
    mb_config_t c, d;
    mb_config_defaults(&d);
    mb_config_defaults(&c);
    parse_ok(&c, "[run]\nmin_experiments = 2\nmax_experiments = 3\nci_target = 0.5\n"
                 "[timing]\nclock = monotonic_raw\nenough = 1s\nenough_max = 2s\n"
                 "enough_fallback = 3s\n[harness]\nbcopy_sizes = 1K, 2K\nbcopy_cold_span = 1G\n");
    parse_ok(&c, text);
    json_t *jc = mb_config_to_json(&c), *jd = mb_config_to_json(&d);
    assert_true(json_equal(jc, jd));
    json_decref(jc);
    json_decref(jd);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_json_has_every_key),
        cmocka_unit_test(test_print_keys_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
