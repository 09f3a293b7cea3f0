/* SPDX-License-Identifier: MIT */
/* The drift probes read back (drift.h), on hand-made records with known readings: the
 * run's median, which benchmarks are flagged and why, which of them the time left lets the
 * run measure again and the notes it leaves, a pattern's ratio to its recipe's benchmarks
 * (predict_patterns.h) and the report's lines (report_drift.h, report_patterns.h). */
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

#include "drift.h"
#include "predict_patterns.h"
#include "report_drift.h"
#include "report_patterns.h"
#include "testdoc.h"

static void probe(json_t *bench, double before_ns, double after_ns)
{
    json_object_set_new(bench, "drift_probe",
                        json_pack("{s:f, s:f}", "before_ns", before_ns, "after_ns", after_ns));
}

static json_t *bench(const char *name)
{
    return json_pack("{s:s, s:n, s:[]}", "name", name, "skipped", "points");
}

/* Readings 100 110 | 120 105 | 300 310 | 100 200, one benchmark unprobed: the median of the
 * eight is (110 + 120) / 2 = 115. Sorted, their widest gap is 120 to 200 (1.67x, over 1.3):
 * the usual state is the larger group's, 100 100 105 110 120, median 105; 1.3x is 136.5,
 * 1/1.3 of it 80.8. A benchmark is flagged by the mean of its two readings: c's 305, e's 150
 * (one reading off by 1.9x); not a and b. */
static json_t *doc(void)
{
    json_t *benches = json_array();
    const struct {
        const char *name;
        double before, after;
    } b[] = {{"a", 100, 110}, {"b", 120, 105}, {"c", 300, 310}, {"d", 0, 0}, {"e", 100, 200}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        json_t *x = bench(b[i].name);
        if (b[i].before > 0)
            probe(x, b[i].before, b[i].after);
        json_array_append_new(benches, x);
    }
    return json_pack("{s:o}", "benchmarks", benches);
}

static void test_summary(void **state)
{
    (void)state;
    json_t *root = doc();
    double ns;
    assert_true(mb_drift_record_ns(json_array_get(json_object_get(root, "benchmarks"), 2), &ns));
    assert_true(fabs(ns - 305) < 1e-9);
    assert_false(mb_drift_record_ns(json_array_get(json_object_get(root, "benchmarks"), 3), &ns));

    json_t *s = mb_drift_summary(root, "method text", "intra");
    assert_non_null(s);
    assert_string_equal(json_string_value(json_object_get(s, "method")), "method text");
    assert_string_equal(json_string_value(json_object_get(s, "pair")), "intra");
    assert_true(fabs(json_number_value(json_object_get(s, "median_ns")) - 115) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(s, "usual_ns")) - 105) < 1e-9);
    /* the other group: 200 300 310 */
    assert_true(fabs(json_number_value(json_object_get(s, "other_ns")) - 300) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(s, "other_probes")), 3);
    assert_int_equal(json_integer_value(json_object_get(s, "probes")), 8);
    const json_t *flagged = json_object_get(s, "flagged");
    /* c and e over 136.5; a and b within */
    assert_int_equal(json_array_size(flagged), 2);
    const json_t *c = json_array_get(flagged, 0), *e = json_array_get(flagged, 1);
    assert_string_equal(json_string_value(json_object_get(c, "name")), "c");
    assert_true(fabs(json_number_value(json_object_get(c, "ratio")) - 305.0 / 105) < 1e-9);
    assert_string_equal(json_string_value(json_object_get(e, "name")), "e");
    assert_true(fabs(json_number_value(json_object_get(e, "after_ns")) - 200) < 1e-9);
    json_decref(s);

    /* under 1/1.3 of the usual state is flagged as well: with d's 60 and 70 the widest gap
     * is still 120 to 200, the larger group 60 70 100 100 105 110 120, its median 100, 1/1.3
     * of it 76.9, d's mean 65 */
    probe(json_array_get(json_object_get(root, "benchmarks"), 3), 60, 70);
    s = mb_drift_summary(root, "m", NULL);
    assert_int_equal(json_array_size(json_object_get(s, "flagged")), 3);
    assert_null(json_object_get(s, "pair"));
    json_decref(s);
    json_decref(root);

    /* one state: no other */
    root = json_pack("{s:[o, o]}", "benchmarks", bench("p"), bench("q"));
    probe(json_array_get(json_object_get(root, "benchmarks"), 0), 100, 110);
    probe(json_array_get(json_object_get(root, "benchmarks"), 1), 120, 105);
    s = mb_drift_summary(root, "m", "intra");
    assert_null(json_object_get(s, "other_ns"));
    assert_null(json_object_get(s, "other_probes"));
    json_decref(s);
    char *text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(strstr(text, "median 108 ns over 4 readings; 0 benchmark(s) measured in "
                                 "another state: a quarter or more of their points' readings "
                                 "(or, without those, their own two) averaged over 1.3x that or "
                                 "under 1/1.3 of it"));
    assert_null(strstr(text, "two groups"));
    free(text);
    json_decref(root);

    /* no probe, no section */
    root = json_pack("{s:[o]}", "benchmarks", bench("x"));
    assert_null(mb_drift_summary(root, "m", "intra"));
    json_decref(root);
}

/* The probe around each point: where a record's points have readings, they decide, not its
 * own two: one whose own readings are in the usual state (105 ns, doc's) is flagged when a
 * quarter or more of its probed points were measured off it, and the summary and the report
 * count them; one such point in 5 is not enough, nor one in 8 of a record whose own readings
 * average off (the node changed state during its first point); a point without readings
 * counts for neither. */
static void points_probed(json_t *b, int off, int on, int unprobed)
{
    for (int i = 0; i < off + on + unprobed; i++) {
        json_t *pt = json_pack("{s:s, s:f}", "status", "ok", "median", 50.0);
        if (i < off + on)
            probe(pt, i < off ? 250 : 100, i < off ? 240 : 110);
        json_array_append_new(json_object_get(b, "points"), pt);
    }
}

static void test_points_off(void **state)
{
    (void)state;
    json_t *root = doc();
    json_t *benches = json_object_get(root, "benchmarks");
    json_t *f = bench("f"), *g = bench("g"), *h = bench("h");
    probe(f, 100, 110);
    probe(g, 100, 110);
    probe(h, 300, 110);        /* its own mean 205: off */
    points_probed(f, 2, 6, 3); /* 2 of 8 probed off: flagged */
    points_probed(g, 1, 4, 0); /* 1 of 5: not */
    points_probed(h, 1, 7, 0); /* 1 of 8: not, whatever its own two readings */
    json_array_append_new(benches, f);
    json_array_append_new(benches, g);
    json_array_append_new(benches, h);
    size_t probed = 0;
    assert_int_equal(mb_drift_points_off(f, 105, &probed), 2);
    assert_int_equal(probed, 8);
    assert_true(mb_drift_record_off(f, 105));
    assert_false(mb_drift_record_off(g, 105));
    assert_false(mb_drift_record_off(h, 105));
    assert_int_equal(mb_drift_point_state(json_array_get(json_object_get(f, "points"), 0), 105), 0);
    assert_int_equal(mb_drift_point_state(json_array_get(json_object_get(f, "points"), 2), 105), 1);
    assert_int_equal(mb_drift_point_state(json_array_get(json_object_get(f, "points"), 9), 105),
                     -1);
    assert_int_equal(mb_drift_point_state(json_array_get(json_object_get(f, "points"), 2), NAN),
                     -1);
    /* the reading that says the state: the median of the probed points' means (f: 2 at 245,
     * 6 at 105; h: its own 205 outvoted by 7 at 105), else the record's own two's */
    double ns = 0;
    assert_true(mb_drift_record_state_ns(f, &ns));
    assert_float_equal(ns, 105, 1e-9);
    assert_true(mb_drift_record_state_ns(h, &ns));
    assert_float_equal(ns, 105, 1e-9);
    json_t *bare = bench("bare");
    probe(bare, 300, 110);
    assert_true(mb_drift_record_state_ns(bare, &ns));
    assert_float_equal(ns, 205, 1e-9);
    json_decref(bare);
    bare = bench("none");
    assert_false(mb_drift_record_state_ns(bare, &ns));
    json_decref(bare);
    json_t *summary = mb_drift_summary(root, "m", "intra");
    json_t *flagged = json_object_get(summary, "flagged");
    assert_int_equal(json_array_size(flagged), 3); /* c, e, f; not g, h */
    const json_t *last = json_array_get(flagged, 2);
    assert_string_equal(json_string_value(json_object_get(last, "name")), "f");
    assert_int_equal(json_integer_value(json_object_get(last, "points_off")), 2);
    assert_int_equal(json_integer_value(json_object_get(last, "points_probed")), 8);
    json_object_set_new(root, "drift", summary);
    char *text = mb_testdoc_render(mb_report_drift, root);
    /* h's readings move the usual state to 107.5 ns */
    assert_non_null(strstr(text, "  f: 100 ns before, 110 after (0.98x), 2 of its 8 points off "
                                 "the usual: measured in another state"));
    assert_null(strstr(text, "  g: "));
    free(text);
    json_decref(root);
}

/* After the re-measures, the flagged benchmarks whose records carry no note: those the
 * measurements again did not choose (flagged only by the usual reading they moved), which
 * the run then notes. doc() flags c and e. */
static void test_unnoted_flags(void **state)
{
    (void)state;
    json_t *root = doc();
    json_t *benches = json_object_get(root, "benchmarks");
    json_t *s = mb_drift_summary(root, "m", "intra");
    json_t *names = mb_drift_unnoted_flags(s, root);
    assert_int_equal(json_array_size(names), 2);
    assert_string_equal(json_string_value(json_array_get(names, 0)), "c");
    assert_string_equal(json_string_value(json_array_get(names, 1)), "e");
    json_decref(names);
    /* c measured again (a note, its readings kept off: still flagged), e not yet noted */
    json_object_set_new(json_array_get(benches, 2), "drift_remeasure",
                        mb_drift_remeasured_json(json_array_get(benches, 2), 105, 1));
    names = mb_drift_unnoted_flags(s, root);
    assert_int_equal(json_array_size(names), 1);
    assert_string_equal(json_string_value(json_array_get(names, 0)), "e");
    json_decref(names);
    json_object_set_new(json_array_get(benches, 4), "drift_remeasure",
                        mb_drift_not_remeasured_json("no time"));
    names = mb_drift_unnoted_flags(s, root);
    assert_int_equal(json_array_size(names), 0);
    json_decref(names);
    json_decref(s);
    json_decref(root);
}

/* The flagged c (wall 2 s) and e (wall 3 s) of doc(): as many as the time left holds, the
 * shortest first, named in the order measured. */
static void test_remeasure_names(void **state)
{
    (void)state;
    json_t *root = doc();
    json_t *benches = json_object_get(root, "benchmarks");
    json_object_set_new(json_array_get(benches, 2), "wall_s", json_real(2));
    json_object_set_new(json_array_get(benches, 4), "wall_s", json_real(3));
    json_t *s = mb_drift_summary(root, "m", "intra");
    const struct {
        double left_s;
        size_t n;
    } cases[] = {{-1, 2}, {100, 2}, {5, 2}, {4.9, 1}, {2, 1}, {1.9, 0}, {0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *names = mb_drift_remeasure_names(s, root, cases[i].left_s);
        assert_int_equal(json_array_size(names), cases[i].n);
        if (cases[i].n > 0)
            assert_string_equal(json_string_value(json_array_get(names, 0)), "c");
        if (cases[i].n > 1)
            assert_string_equal(json_string_value(json_array_get(names, 1)), "e");
        json_decref(names);
    }
    /* The shortest first, c now 4 s and e 3 s: with 3.5 s or 6 s left, e alone (in the order
     * measured, c would have taken 4 of the 6); with 7 s, both, c named first. */
    json_object_set_new(json_array_get(benches, 2), "wall_s", json_real(4));
    const double lefts[] = {3.5, 6};
    for (size_t i = 0; i < 2; i++) {
        json_t *names = mb_drift_remeasure_names(s, root, lefts[i]);
        assert_int_equal(json_array_size(names), 1);
        assert_string_equal(json_string_value(json_array_get(names, 0)), "e");
        json_decref(names);
    }
    json_t *names = mb_drift_remeasure_names(s, root, 7);
    assert_int_equal(json_array_size(names), 2);
    assert_string_equal(json_string_value(json_array_get(names, 0)), "c");
    json_decref(names);
    json_object_set_new(json_array_get(benches, 2), "wall_s", json_real(2));
    json_decref(s);

    /* c measured again (its record now reads 110 and 112, its first readings kept in its
     * note), e not: the summary lists each, and c is no longer flagged. */
    json_t *c = json_array_get(benches, 2);
    json_t *note = mb_drift_remeasured_json(c, 108, 1);
    assert_true(json_is_true(json_object_get(note, "measured_again")));
    assert_int_equal(json_integer_value(json_object_get(note, "attempts")), 1);
    assert_true(fabs(json_number_value(json_object_get(note, "first_before_ns")) - 300) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(note, "first_after_ns")) - 310) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(note, "first_wall_s")) - 2) < 1e-9);
    json_t *c_first = json_deep_copy(c);
    json_object_set_new(c, "drift_remeasure", note);
    probe(c, 110, 112);
    json_object_set_new(json_array_get(benches, 4), "drift_remeasure",
                        mb_drift_not_remeasured_json("no time"));
    s = mb_drift_summary(root, "m", "intra");
    const json_t *flagged = json_object_get(s, "flagged");
    assert_int_equal(json_array_size(flagged), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(flagged, 0), "name")), "e");
    const json_t *done = json_object_get(s, "remeasured"), *not_done = json_object_get(s, "not_remeasured");
    assert_int_equal(json_array_size(done), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(done, 0), "name")), "c");
    assert_true(fabs(json_number_value(json_object_get(json_array_get(done, 0), "before_ns")) - 110) <
                1e-9);
    assert_int_equal(json_array_size(not_done), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(not_done, 0), "why")),
                        "no time");
    json_object_set_new(root, "drift", s);
    char *text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "  c: measured again at the run's end (its figures are the "
                                 "second measurement's): 300 and 310 ns around the first, 110 "
                                 "and 112 around the second\n"));
    assert_non_null(strstr(text, "  e: not measured again: no time\n"));
    /* the count of flagged benchmarks is the one left after the re-measurement */
    assert_non_null(strstr(text, "; 1 benchmark(s) measured again at the run's end (below), "
                                 "after which 1 benchmark(s) measured in another state"));
    free(text);

    /* c measured again twice (the node changed state during the first time): the summary
     * and the report say so */
    json_object_set_new(c, "drift_remeasure", mb_drift_remeasured_json(c_first, 109, 2));
    json_decref(c_first);
    json_object_set_new(root, "drift", mb_drift_summary(root, "m", "intra"));
    done = json_object_get(json_object_get(root, "drift"), "remeasured");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(done, 0), "attempts")), 2);
    text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "  c: measured again at the run's end, twice (its figures are the "
                                 "third measurement's): 300 and 310 ns around the first, 110 "
                                 "and 112 around the third\n"));
    free(text);
    json_decref(root);

    /* the flag ratio both ways */
    assert_true(mb_drift_off(131, 100));
    assert_false(mb_drift_off(129, 100));
    assert_true(mb_drift_off(76, 100));
    assert_false(mb_drift_off(77, 100));
}

/* The usual state's reading on sorted readings with known answers. */
static void test_usual(void **state)
{
    (void)state;
    const struct {
        double v[8];
        size_t n;
        double want, other;
        size_t other_n;
    } cases[] = {
        /* one state, no gap over 1.3x: the median of all */
        {{117, 120, 125, 130, 140, 150}, 6, 127.5, NAN, 0},
        /* two states, the slow one larger (a run that went slow early) */
        {{120, 130, 340, 350, 360, 370, 380}, 7, 360, 125, 2},
        /* the fast one larger */
        {{118, 120, 125, 130, 140, 350, 360}, 7, 125, 355, 2},
        /* as many of each: the lower */
        {{120, 130, 140, 350, 360, 370}, 6, 130, 360, 3},
        /* one reading far off: the rest's median */
        {{120, 121, 122, 123, 124, 1500}, 6, 122, 1500, 1},
        /* a single reading */
        {{200}, 1, 200, NAN, 0},
        /* a spread of small steps (a crowded node): the median of all */
        {{300, 380, 480, 600, 760, 950, 1200, 1500}, 8, 680, NAN, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double other;
        size_t other_n;
        double usual = mb_drift_states(cases[i].v, cases[i].n, &other, &other_n);
        if (fabs(usual - cases[i].want) > 1e-9)
            fail_msg("case %zu: %g, want %g", i, usual, cases[i].want);
        if (other_n != cases[i].other_n ||
            (other_n ? !(fabs(other - cases[i].other) < 1e-9) : !isnan(other)))
            fail_msg("case %zu: the other state %g over %zu, want %g over %zu", i, other, other_n,
                     cases[i].other, cases[i].other_n);
    }
}


static void test_report(void **state)
{
    (void)state;
    json_t *root = doc();
    char *text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "drift: a 0-byte pingpong between world rank 0 and another "
                                 "rank, before and after each benchmark: "));
    assert_non_null(strstr(text, "median 115 ns over 8 readings; they fall into two groups, the "
                                 "node's two states, and the larger group's median, 105 ns, is "
                                 "the node's usual state (the other group: 3 readings, median "
                                 "300 ns); 2 benchmark(s) measured in another state: a quarter "
                                 "or more of their points' readings (or, without those, their "
                                 "own two) averaged over 1.3x the usual or under 1/1.3 of it\n"));
    assert_non_null(strstr(text, "  c: 300 ns before, 310 after (2.90x): measured in another "
                                 "state"));
    assert_non_null(strstr(text, "  e: 100 ns before, 200 after (1.43x)"));
    assert_null(strstr(text, "  a: "));
    free(text);

    /* the pair the run's section names: inter where rank 0's node had no other rank */
    json_object_set_new(root, "drift", mb_drift_summary(root, "m", "inter"));
    text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "between world rank 0 and the first rank of node 1, before"));
    free(text);
    json_decref(root);

    /* without probes: nothing */
    root = json_pack("{s:[o]}", "benchmarks", bench("x"));
    text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_string_equal(text, "");
    free(text);
    json_decref(root);
}

/* The patterns fixture (test_predict_patterns.c) with probes: halo2 measured at 3x the
 * reading of its recipe's mpi.sendrecv, allreduce_compute at 1.1x mpi.allreduce's. */
/* The benchmarks not measured again, one line per reason, in the order first named: a run
 * that gave up waiting for the node gives them all one reason, written once. */
static void test_report_not_remeasured_by_reason(void **state)
{
    (void)state;
    json_t *root = json_pack("{s:{s:f, s:i, s:[], s:[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}]}}",
                             "drift", "median_ns", 100.0, "probes", 8, "flagged", "not_remeasured",
                             "name", "x", "why", "the probe still read", "name", "y", "why",
                             "no time", "name", "z", "why", "the probe still read");
    char *text = mb_testdoc_render(mb_report_drift, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "\n  x, z: not measured again: the probe still read\n"
                                 "  y: not measured again: no time\n"));
    assert_null(strstr(text, "  z: not"));
    free(text);
    json_decref(root);
}

static void test_pattern_ratio(void **state)
{
    (void)state;
    json_t *root = mb_testdoc_fixture("results_patterns_fixture.json");
    assert_non_null(root);
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *name = json_string_value(json_object_get(b, "name"));
        if (strcmp(name, "mpi.halo2") == 0)
            probe(b, 290, 310);
        else if (strcmp(name, "mpi.sendrecv") == 0)
            probe(b, 100, 100);
        else if (strcmp(name, "mpi.allreduce_compute") == 0)
            probe(b, 110, 110);
        else if (strcmp(name, "mpi.allreduce") == 0)
            probe(b, 100, 100);
    }
    json_t *pred = mb_predict_patterns(root, NULL);
    json_t *halo2 = NULL, *arc = NULL, *ring = NULL;
    json_array_foreach(pred, i, b)
    {
        const char *name = json_string_value(json_object_get(b, "name"));
        halo2 = strcmp(name, "mpi.halo2") == 0 ? b : halo2;
        arc = strcmp(name, "mpi.allreduce_compute") == 0 ? b : arc;
        ring = strcmp(name, "mpi.ring_shift") == 0 ? b : ring;
    }
    assert_non_null(halo2);
    assert_non_null(arc);
    assert_non_null(ring);
    assert_true(fabs(json_number_value(json_object_get(halo2, "drift_ratio")) - 3.0) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(arc, "drift_ratio")) - 1.1) < 1e-9);
    /* ring_shift itself was not probed */
    assert_true(json_is_null(json_object_get(ring, "drift_ratio")));
    json_object_set_new(root, "predictions", pred);

    char *text = mb_testdoc_render(mb_report_patterns, root);
    assert_non_null(text);
    assert_non_null(strstr(text, "mpi.halo2              median |error| 24.4% over 3 of 3 points; "
                                 "measured while the drift probe read 3.00x what it read during "
                                 "the recipe's benchmarks"));
    /* 1.1x is within the flag ratio: no word of it */
    const char *line = strstr(text, "mpi.allreduce_compute  median");
    assert_non_null(line);
    assert_true(strchr(line, '\n') < strstr(line, "median |error|") + 60);
    assert_null(strstr(line, "drift probe"));
    free(text);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_points_off),
        cmocka_unit_test(test_usual),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_remeasure_names),
        cmocka_unit_test(test_unnoted_flags),
        cmocka_unit_test(test_report_not_remeasured_by_reason),
        cmocka_unit_test(test_pattern_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
