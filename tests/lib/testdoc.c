/* SPDX-License-Identifier: MIT */
/* Test documents built in code or read from tests/data; the header says what each holds. */
#include "testdoc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

static size_t testdoc_sizes(double *out, double top)
{
    size_t n = 0;
    out[n++] = 0;
    for (double p = 1; p <= top; p *= 2) {
        out[n++] = p;
        if (p >= 2 && p * 1.5 <= top)
            out[n++] = p * 1.5;
    }
    return n;
}

json_t *mb_testdoc_bench(const char *name, const char *model, const char *loggp, ...)
{
    json_t *params = json_array(), *axes = json_array();
    va_list ap;
    va_start(ap, loggp);
    const char *spec;
    while ((spec = va_arg(ap, const char *)) != NULL) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", spec);
        char *role = strchr(buf, ':');
        if (!role)
            abort();
        *role++ = '\0';
        char *labels = strchr(role, ':');
        if (labels)
            *labels++ = '\0';
        json_t *axis = json_pack("{s:s, s:s}", "name", buf, "role", role);
        if (labels) {
            json_t *list = json_array();
            char *save = NULL;
            for (char *l = strtok_r(labels, ",", &save); l; l = strtok_r(NULL, ",", &save))
                json_array_append_new(list, json_string(l));
            json_object_set_new(axis, "labels", list);
        }
        json_array_append_new(params, json_string(buf));
        json_array_append_new(axes, axis);
    }
    va_end(ap);
    json_t *b = json_pack("{s:s, s:s, s:s, s:o, s:o, s:s?, s:s?, s:s, s:[], s:i, s:n}", "name",
                          name, "group", "mpi", "unit", "ns", "params", params, "axes", axes,
                          "model", model, "loggp", loggp, "measured_by", "synthetic", "points",
                          "failed_points", 0, "skipped");
    if (!b)
        abort();
    if (!model)
        json_object_set_new(b, "model", json_null());
    if (!loggp)
        json_object_set_new(b, "loggp", json_null());
    return b;
}

void mb_testdoc_point(json_t *bench, json_t *params, double median_ns)
{
    json_array_append_new(json_object_get(bench, "points"),
                          json_pack("{s:o, s:s, s:i, s:f, s:[f, f]}", "params", params, "status",
                                    "ok", "n", 11, "median", median_ns, "ci95", median_ns * 0.995,
                                    median_ns * 1.005));
}

void mb_testdoc_failed(json_t *bench, json_t *params, double bogus_median_ns)
{
    json_array_append_new(json_object_get(bench, "points"),
                          json_pack("{s:o, s:s, s:s, s:f}", "params", params, "status", "failed",
                                    "reason", "setup: wrong data", "median", bogus_median_ns));
    json_t *n = json_object_get(bench, "failed_points");
    json_integer_set(n, json_integer_value(n) + 1);
}

static json_t *testdoc_pair(double d, const char *pair)
{
    return json_pack("{s:f, s:s}", "size_bytes", d, "pair", pair);
}

json_t *mb_testdoc_mpi(void)
{
    json_t *pp = mb_testdoc_bench("mpi.pingpong", "linear_pd", "L", "size_bytes:message_size",
                                  "pair:label:intra,inter", NULL);
    json_t *ag = mb_testdoc_bench("mpi.allgather", "linear_pd", NULL, "size_bytes:message_size",
                                  "ranks:ranks", NULL);
    json_t *send = mb_testdoc_bench("mpi.send", "linear_pd", "o_s", "size_bytes:message_size",
                                    "pair:label:intra,inter", NULL);
    json_t *rmin = mb_testdoc_bench("mpi.recvmin", "linear_pd", "o_r", "size_bytes:message_size",
                                    "pair:label:intra,inter", NULL);
    json_t *bar = mb_testdoc_bench("mpi.barrier", "linear_pd", NULL, "ranks:ranks", NULL);
    json_t *timer = mb_testdoc_bench("harness.timer", NULL, NULL, "quantity:label:read", NULL);
    json_object_set_new(bar, "skipped", json_string("needs 3 ranks"));
    json_object_set_new(timer, "group", json_string("harness"));
    mb_testdoc_point(timer, json_pack("{s:s}", "quantity", "read"), 21.5);
    mb_testdoc_failed(send, testdoc_pair(0, "intra"), 1.0);
    double ds[64];
    size_t nd = testdoc_sizes(ds, 65536);
    for (size_t j = 0; j < nd; j++) {
        mb_testdoc_point(pp, testdoc_pair(ds[j], "intra"), 500 + 0.1 * ds[j]);
        mb_testdoc_point(pp, testdoc_pair(ds[j], "inter"), 2000 + 0.05 * ds[j]);
        mb_testdoc_point(send, testdoc_pair(ds[j], "intra"), 150 + 0.05 * ds[j]);
        mb_testdoc_point(rmin, testdoc_pair(ds[j], "intra"), 100 + 0.02 * ds[j]);
    }
    mb_testdoc_failed(pp, testdoc_pair(131072, "intra"), 1.0);
    double agd[] = {0, 64, 512, 4096, 32768};
    for (double p = 2; p <= 8; p++)
        for (size_t j = 0; j < 5; j++)
            mb_testdoc_point(ag, json_pack("{s:f, s:f}", "size_bytes", agd[j], "ranks", p),
                             1000 + 2000 * p + 0.5 * agd[j]);
    mb_testdoc_failed(ag, json_pack("{s:f, s:f}", "size_bytes", 1024.0, "ranks", 9.0), 1.0);
    return json_pack("{s:s, s:b, s:[o, o, o, o, o, o], s:i}", "schema", MB_RESULTS_SCHEMA,
                     "complete", 1, "benchmarks", pp, ag, send, rmin, bar, timer, "failed_points",
                     3);
}

json_t *mb_testdoc_transfer(void)
{
    json_t *x = mb_testdoc_bench("x.transfer", "linear_pd", NULL, "route:label:near,far",
                                 "procs:ranks", "bytes:message_size", NULL);
    json_object_set_new(x, "group", json_string("other"));
    for (double p = 2; p <= 6; p++)
        for (double d = 0; d <= 4096; d += 1024) {
            mb_testdoc_point(x,
                             json_pack("{s:s, s:f, s:f}", "route", "near", "procs", p, "bytes", d),
                             300 + 100 * p + 0.25 * d);
            mb_testdoc_point(x,
                             json_pack("{s:s, s:f, s:f}", "route", "far", "procs", p, "bytes", d),
                             900 + 100 * p + 0.25 * d);
        }
    return x;
}

/* The document at path, or NULL with the reason on stderr. */
static json_t *testdoc_load(const char *path)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
    return root;
}

json_t *mb_testdoc_fixture(const char *name)
{
    /* Beside this file: tests are built from the repository root, so __FILE__ is relative. */
    const char *file = __FILE__;
    const char *slash = strrchr(file, '/');
    char path[1024];
    snprintf(path, sizeof path, "%.*s/../data/%s", slash ? (int)(slash - file) : 1,
             slash ? file : ".", name);
    return testdoc_load(path);
}

json_t *mb_testdoc_results(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/results.json", dir);
    return testdoc_load(path);
}

char *mb_testdoc_render(void (*fn)(FILE *, const json_t *), const json_t *root)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fn(f, root);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
