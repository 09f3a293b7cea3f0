/* SPDX-License-Identifier: MIT */
/* The LogGOPSim and Dimemas exports on a hand-made results document (the quick run's
 * pingpong segments, LogGP figures and mpi.send fit): where S falls, how values round to
 * LogGOPSim's integer ns and ps, Dimemas's units, the configuration file read back with
 * the field counts Dimemas 5's reader scans for, and that an error leaves no file; the
 * library's stated eager limit as LogGOPSim's S and SMPI's detached threshold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "export_dimemas.h"
#include "export_loggopsim.h"
#include "export_simgrid.h"
#include "tmpdir.h"

/* The quick run's mpi.pingpong segments (ns): a rendezvous from 4096 B. */
#define DOC_PINGPONG_SEGMENTS                                                                      \
    "[{\"d_min\": 0, \"d_max\": 0, \"terms\": [{\"basis\": \"1\", \"coef\": 377.16}]},"            \
    " {\"d_min\": 1, \"d_max\": 8, \"terms\": [{\"basis\": \"1\", \"coef\": 389.13}]},"            \
    " {\"d_min\": 12, \"d_max\": 256, \"terms\": [{\"basis\": \"1\", \"coef\": 451.6},"            \
    "   {\"basis\": \"d\", \"coef\": 0.2133}]},"                                                   \
    " {\"d_min\": 384, \"d_max\": 3072, \"terms\": [{\"basis\": \"1\", \"coef\": 738.26},"         \
    "   {\"basis\": \"d\", \"coef\": 0.0893}]},"                                                   \
    " {\"d_min\": 4096, \"d_max\": 65536, \"terms\": [{\"basis\": \"1\", \"coef\": 3836.1},"       \
    "   {\"basis\": \"d\", \"coef\": 0.11418}]}]"

static const char doc_text[] =
    "{\"started_utc\": \"2026-01-01T00:00:00Z\", \"system\": {\"ranks\": 2},"
    " \"benchmarks\": [{\"name\": \"mpi.pingpong\", \"loggp\": \"L\"},"
    "                 {\"name\": \"mpi.send\", \"loggp\": \"o_s\"},"
    "                 {\"name\": \"mpi.recvmin\", \"loggp\": \"o_r\"}],"
    " \"fits\": [{\"name\": \"mpi.pingpong\", \"params\": {\"pair\": \"intra\"}, "
    "\"segments\": " DOC_PINGPONG_SEGMENTS "},"
    "   {\"name\": \"mpi.send\", \"params\": {\"pair\": \"intra\"}, \"segments\": ["
    "     {\"d_min\": 4096, \"d_max\": 65536, \"terms\": [{\"basis\": \"1\", \"coef\": 3500},"
    "      {\"basis\": \"d\", \"coef\": 0.03056}]}]}],"
    " \"loggp\": {\"intra\": {"
    "   \"L\": {\"value\": 243.16, \"unit\": \"ns\", \"derivation\": \"pingpong minus o_s, o_r\"},"
    "   \"o_s\": {\"value\": 11.087, \"unit\": \"ns\", \"derivation\": \"mpi.send\"},"
    "   \"o_r\": {\"value\": 122.913, \"unit\": \"ns\", \"derivation\": \"mpi.recvmin\"},"
    "   \"g\": {\"value\": 125.706, \"unit\": \"ns\", \"derivation\": \"mpi.gap\"},"
    "   \"G\": {\"value\": 0.11418, \"unit\": \"ns/byte\", \"derivation\": \"slope\"}}}}";

static json_t *doc_load(void)
{
    json_error_t je;
    json_t *root = json_loads(doc_text, 0, &je);
    if (!root)
        fail_msg("the test document: line %d: %s", je.line, je.text);
    return root;
}

static const json_t *doc_fit(const json_t *root, size_t i)
{
    return json_array_get(json_object_get(root, "fits"), i);
}

/* The whole of dir/name (caller frees), or NULL. */
static char *file_read(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 65536);
    assert_non_null(buf);
    size_t n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static bool file_exists(const char *dir, const char *name)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void test_eager_limit(void **state)
{
    (void)state;
    json_t *root = doc_load();
    char why[400];
    /* Steps: 8->12 B +65 ns, 256->384 B +239 ns, 3072->4096 B +3.2 us: the last. */
    assert_float_equal(mb_loggopsim_eager_limit(doc_fit(root, 0), why, sizeof why), 4095, 0);
    assert_non_null(strstr(why, "between 3072 and 4096 B"));
    /* One line over every size: no switch seen, S is the largest measured size. */
    json_t *one = json_pack("{s:s, s:[{s:i, s:i, s:[{s:s, s:f}, {s:s, s:f}]}]}", "name",
                            "mpi.pingpong", "segments", "d_min", 1, "d_max", 65536, "terms",
                            "basis", "1", "coef", 500.0, "basis", "d", "coef", 0.1);
    assert_float_equal(mb_loggopsim_eager_limit(one, why, sizeof why), 65536, 0);
    assert_non_null(strstr(why, "no step up"));
    /* A small step (less than half a small message's time) is no rendezvous. */
    json_t *small =
        json_pack("{s:[{s:i, s:i, s:[{s:s, s:f}]}, {s:i, s:i, s:[{s:s, s:f}]}]}", "segments",
                  "d_min", 1, "d_max", 64, "terms", "basis", "1", "coef", 400.0, "d_min", 128,
                  "d_max", 1024, "terms", "basis", "1", "coef", 500.0);
    assert_float_equal(mb_loggopsim_eager_limit(small, why, sizeof why), 1024, 0);
    /* Only the 0-byte segment: nothing to say. */
    json_t *zero = json_pack("{s:[{s:i, s:i, s:[{s:s, s:f}]}]}", "segments", "d_min", 0, "d_max", 0,
                             "terms", "basis", "1", "coef", 400.0);
    assert_true(mb_loggopsim_eager_limit(zero, why, sizeof why) < 0);
    json_decref(one);
    json_decref(small);
    json_decref(zero);
    json_decref(root);
}

static void test_loggopsim_params(void **state)
{
    (void)state;
    json_t *root = doc_load();
    mb_loggopsim_param_t p[MB_LOGGOPSIM_NPARAMS];
    char err[512];
    assert_int_equal(mb_loggopsim_params(root, NULL, p, err, sizeof err), 0);
    assert_int_equal(p[MB_LOGGOPSIM_L].option, 'L');
    assert_float_equal(p[MB_LOGGOPSIM_O_CPU].value, 67.0, 1e-9); /* (11.087 + 122.913) / 2 */
    assert_float_equal(p[MB_LOGGOPSIM_O_BYTE].value, 0.03056, 1e-12);
    assert_true(p[MB_LOGGOPSIM_O_BYTE].measured);
    assert_non_null(strstr(p[MB_LOGGOPSIM_O_BYTE].source, "mpi.send"));
    /* A pair that was not measured. */
    assert_int_equal(mb_loggopsim_params(root, "inter", p, err, sizeof err), -1);
    assert_non_null(strstr(err, "no fit for pair inter"));
    json_decref(root);
}

static void test_loggopsim_files(void **state)
{
    (void)state;
    json_t *root = doc_load();
    char *dir = mb_tmpdir_new("export"), err[512], out[600];
    snprintf(out, sizeof out, "%s/lg", dir);
    assert_int_equal(mb_export_loggopsim(root, "intra", out, err, sizeof err), 0);
    char *ns = file_read(out, "loggopsim.args"), *ps = file_read(out, "loggopsim-ps.args");
    char *readme = file_read(out, "README.txt");
    assert_non_null(ns);
    assert_non_null(ps);
    assert_non_null(readme);
    /* Whole ns: G = 0.114 and O = 0.031 ns/byte round to 0; in ps they do not. */
    assert_string_equal(ns, "-L 243 -o 67 -g 126 -G 0 -O 0 -S 4095\n");
    assert_string_equal(ps, "-L 243160 -o 67000 -g 125706 -G 114 -O 31 -S 4095\n");
    assert_non_null(strstr(readme, "Rounded to 0 ns though measured above 0: G, O."));
    free(ns);
    free(ps);
    free(readme);
    assert_int_equal(mb_tmpdir_free(dir), 0);
    json_decref(root);
}

/* An L over 2.1 ms (a pingpong on a machine loaded far past its cores) overflows LogGOPSim's
 * int in picoseconds only: the ns file and the README are written, the README says why the
 * ps file is not. */
static void test_loggopsim_large_L(void **state)
{
    (void)state;
    json_t *root = doc_load();
    json_t *L = json_object_get(json_object_get(json_object_get(root, "loggp"), "intra"), "L");
    json_object_set_new(L, "value", json_real(5e6));
    char *dir = mb_tmpdir_new("export"), err[512], out[600];
    snprintf(out, sizeof out, "%s/lg", dir);
    assert_int_equal(mb_export_loggopsim(root, "intra", out, err, sizeof err), 0);
    char *ns = file_read(out, "loggopsim.args"), *readme = file_read(out, "README.txt");
    assert_non_null(ns);
    assert_string_equal(ns, "-L 5000000 -o 67 -g 126 -G 0 -O 0 -S 4095\n");
    assert_false(file_exists(out, "loggopsim-ps.args"));
    assert_non_null(readme);
    assert_non_null(strstr(readme, "loggopsim-ps.args is not written: -L = 5e+06 ns"));
    assert_non_null(strstr(readme, "Rounded to 0 ns though measured above 0: G, O. LogGOPSim"));
    free(ns);
    free(readme);
    /* Over 2.1 s even the ns file cannot hold it: an error, nothing written. */
    json_object_set_new(L, "value", json_real(3e9));
    snprintf(out, sizeof out, "%s/lg2", dir);
    assert_int_equal(mb_export_loggopsim(root, "intra", out, err, sizeof err), -1);
    assert_non_null(strstr(err, "L = 3e+09 ns does not fit LogGOPSim's int option"));
    assert_false(file_exists(dir, "lg2"));
    assert_int_equal(mb_tmpdir_free(dir), 0);
    json_decref(root);
}

static void test_loggopsim_errors(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("export"), err[512], out[600];
    snprintf(out, sizeof out, "%s/lg", dir);
    /* No "loggp": nothing written, not even the directory. */
    json_t *root = doc_load();
    json_object_del(root, "loggp");
    assert_int_equal(mb_export_loggopsim(root, NULL, out, err, sizeof err), -1);
    assert_non_null(strstr(err, "no \"loggp\" section"));
    assert_false(file_exists(dir, "lg"));
    json_decref(root);
    /* L not derived: its reason is passed on. */
    root = doc_load();
    json_t *L = json_object_get(json_object_get(json_object_get(root, "loggp"), "intra"), "L");
    json_object_set_new(L, "value", json_null());
    json_object_set_new(L, "omitted", json_string("no benchmark with loggp \"o_r\" ran"));
    assert_int_equal(mb_export_loggopsim(root, NULL, out, err, sizeof err), -1);
    assert_non_null(strstr(err, "loggp intra has no L: no benchmark"));
    json_decref(root);
    /* A file that cannot be written: the ones written before it are removed again. */
    root = doc_load();
    assert_int_equal(mkdir(out, 0755), 0);
    snprintf(err, sizeof err, "%s/README.txt", out);
    assert_int_equal(mkdir(err, 0755), 0);
    snprintf(err, sizeof err, "%s/README.txt/x", out);
    FILE *f = fopen(err, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(mb_export_loggopsim(root, NULL, out, err, sizeof err), -1);
    assert_false(file_exists(out, "loggopsim.args"));
    assert_false(file_exists(out, "loggopsim-ps.args"));
    json_decref(root);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

static void test_dimemas_calibrate(void **state)
{
    (void)state;
    json_t *root = doc_load();
    double lat, bw;
    char err[256];
    assert_int_equal(mb_dimemas_calibrate(doc_fit(root, 0), &lat, &bw, err, sizeof err), 0);
    /* The first segment of d > 0 at 0 bytes; MB/s of 2^20 bytes from the last slope. */
    assert_float_equal(lat, 389.13e-9, 1e-15);
    assert_float_equal(bw, 1e9 / 0.11418 / 1048576, 1e-6);
    json_t *flat = json_pack("{s:[{s:i, s:i, s:[{s:s, s:f}]}]}", "segments", "d_min", 1, "d_max",
                             64, "terms", "basis", "1", "coef", 400.0);
    assert_int_equal(mb_dimemas_calibrate(flat, &lat, &bw, err, sizeof err), 0);
    assert_float_equal(bw, 0, 0); /* no slope: Dimemas's "instantaneous" */
    json_decref(flat);
    json_decref(root);
}

/* Read mbsuite.cfg as Dimemas 5's reader does: skip the first line, blank lines and lines
 * with "//"; every other line is one record "NAME" {FIELDS};; whose field count is fixed. */
static void test_dimemas_file(void **state)
{
    (void)state;
    json_t *root = doc_load();
    char *dir = mb_tmpdir_new("export"), err[512];
    assert_int_equal(mb_export_dimemas(root, NULL, dir, err, sizeof err), 0);
    char *cfg = file_read(dir, "mbsuite.cfg");
    assert_non_null(cfg);
    assert_true(file_exists(dir, "README.txt"));
    assert_int_equal(strncmp(cfg, "#DIMEMAS_CONFIGURATION\n", 23), 0);
    static const struct {
        const char *name;
        int fields;
    } records[] = {{"wide area network information", 7}, {"environment information", 7},
                   {"multi node information", 14},       {"predefined mapping information", 1},
                   {"configuration files", 4},           {"file system parameters", 5}};
    int seen[6] = {0};
    char *save = NULL;
    strtok_r(cfg, "\n", &save); /* the header */
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strstr(line, "//"))
            continue;
        assert_null(strstr(line, "/*"));
        char name[64], fields[512];
        assert_int_equal(sscanf(line, "\"%63[^\"]\" {%511[^}]};;", name, fields), 2);
        int n = 1;
        for (const char *c = fields; *c; c++)
            n += *c == ',';
        bool known = false;
        for (size_t r = 0; r < 6; r++) {
            if (strcmp(name, records[r].name) == 0) {
                assert_int_equal(n, records[r].fields);
                seen[r]++;
                known = true;
            }
        }
        assert_true(known);
        int id, nodes, cpus, buses, in, out, in2, out2;
        double speed, lat, bw, lat2, wan;
        char arch[64];
        if (strcmp(name, "multi node information") == 0) {
            assert_int_equal(sscanf(fields,
                                    "%d, %d,%63[^,], %d, %lf, %lf, %lf, %d, %d, %d, %lf, %d, %d, "
                                    "%lf",
                                    &id, &nodes, arch, &cpus, &speed, &lat, &bw, &buses, &in, &out,
                                    &lat2, &in2, &out2, &wan),
                             14);
            assert_int_equal(nodes, 1); /* the intra pair: one node, a processor per rank */
            assert_int_equal(cpus, 2);
            assert_float_equal(lat, 389.13e-9, 1e-15);
            assert_float_equal(bw, 1e9 / 0.11418 / 1048576, 1e-3);
        }
    }
    for (size_t r = 0; r < 6; r++)
        assert_int_equal(seen[r], 1);
    free(cfg);
    assert_int_equal(mb_tmpdir_free(dir), 0);
    json_decref(root);
}

/* Where the run recorded the library's eager limit for the pair (MPI_T), LogGOPSim's S is
 * it less 1 and SMPI's MPI_Send stops being detached there; without one, S is the fitted
 * step's and SMPI keeps its default. The limit here (8192) is not the fitted step (4096),
 * so the test tells them apart; the rendezvous first-fragment size is not a limit. */
static void test_stated_eager_limit(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("export"), err[512], out[600];
    for (int stated = 0; stated < 2; stated++) {
        json_t *root = doc_load();
        if (stated)
            json_object_set_new(json_object_get(root, "system"), "mpi",
                                json_pack("{s:{s:I, s:I}}", "protocol_limits",
                                          "btl_vader_eager_limit", (json_int_t)8192,
                                          "btl_vader_rndv_eager_limit", (json_int_t)32768));
        mb_loggopsim_param_t p[MB_LOGGOPSIM_NPARAMS];
        assert_int_equal(mb_loggopsim_params(root, "intra", p, err, sizeof err), 0);
        assert_float_equal(p[MB_LOGGOPSIM_S].value, stated ? 8191 : 4095, 0);
        assert_int_equal(strstr(p[MB_LOGGOPSIM_S].source, "eager limit for this pair") != NULL,
                         stated);
        snprintf(out, sizeof out, "%s/sg%d", dir, stated);
        assert_int_equal(mb_export_simgrid(root, "intra", out, err, sizeof err), 0);
        char *cfg = file_read(out, "smpi.cfg"), *readme = file_read(out, "README.txt");
        assert_non_null(cfg);
        assert_non_null(readme);
        assert_int_equal(strstr(cfg, "--cfg=smpi/send-is-detached-thresh:8192\n") != NULL, stated);
        assert_int_equal(strstr(cfg, "send-is-detached") != NULL, stated);
        assert_non_null(strstr(readme, stated ? "is 8192, the MPI library's eager limit"
                                              : "is SMPI's default (65536)"));
        free(cfg);
        free(readme);
        json_decref(root);
    }
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eager_limit),      cmocka_unit_test(test_loggopsim_params),
        cmocka_unit_test(test_loggopsim_files),  cmocka_unit_test(test_loggopsim_large_L),
        cmocka_unit_test(test_loggopsim_errors), cmocka_unit_test(test_dimemas_calibrate),
        cmocka_unit_test(test_dimemas_file),     cmocka_unit_test(test_stated_eager_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
