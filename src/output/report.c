/* SPDX-License-Identifier: MIT */
/* report.txt from the results document alone: a context block (what the numbers were
 * measured on and with which clock), the summary tables (pre-flight, Howell's, the fitted
 * models, cache levels), one table per benchmark, then the points whose confidence
 * target was missed. Everything optional prints as "-", so a partial or older
 * document still renders. Times keep 4 significant digits, sizes print as plain integers. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_fits.h"

#define REPORT_CELL_MAX 128
#define REPORT_MAX_LISTED_BINDINGS 16
#define REPORT_INDENT "  "
#define REPORT_MAX_CI_MISSED 20
#define REPORT_GAP "  "

typedef enum report_col_kind {
    REPORT_COL_PARAM = 0,
    REPORT_COL_HEADLINE, /* the benchmark's "statistic": median, or min where it asks */
    REPORT_COL_CI,
    REPORT_COL_N,
    REPORT_COL_CI_OK,
    REPORT_COL_BANDWIDTH,
    REPORT_COL_RANKS_AVG, /* several ranks measured: the mean and max of their medians */
    REPORT_COL_RANKS_MAX,
    REPORT_COL_NODE_BANDWIDTH, /* all ranks at once: the node's aggregate */
} report_col_kind_t;

typedef struct report_col {
    report_col_kind_t kind;
    const char *param; /* REPORT_COL_PARAM: the parameter's name; HEADLINE: the statistic */
    char header[64];
    size_t width;
    bool left;
} report_col_t;

static const char *report_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static bool report_num(const json_t *obj, const char *key, double *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static const char *report_or_dash(const char *s)
{
    return s && *s ? s : "-";
}

/* 4 significant digits without an exponent for everything a benchmark produces: all integer
 * digits from 1000 up, decimals below (e.g. 40123, 123.5, 1.235, 0.01235). */
static void report_fmt_sig(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (!isfinite(v) || a == 0) {
        snprintf(buf, len, "%g", v);
        return;
    }
    int decimals = 3 - (int)floor(log10(a));
    if (decimals < 0)
        decimals = 0;
    if (decimals > 6)
        snprintf(buf, len, "%.3e", v);
    else
        snprintf(buf, len, "%.*f", decimals, v);
}

void mb_report_fmt_bytes(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"", "K", "M", "G", "T", "P"};
    size_t u = 0;
    double unit = 1;
    while (u + 1 < sizeof units / sizeof units[0] && bytes >= unit * 1024) {
        unit *= 1024;
        u++;
    }
    double q = bytes / unit;
    if (q == floor(q))
        snprintf(buf, len, "%.0f%s", q, units[u]);
    else
        snprintf(buf, len, "%.3g%s", q, units[u]);
}

static void report_fmt_duration_ns(double ns, char *buf, size_t len)
{
    static const struct {
        double scale;
        const char *name;
    } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && fabs(ns) < units[i].scale)
        i++;
    char num[40];
    report_fmt_sig(ns / units[i].scale, num, sizeof num);
    snprintf(buf, len, "%s %s", num, units[i].name);
}

/* A parameter or derived value: strings as-is, integral numbers as integers. */
static void report_fmt_value(const json_t *v, char *buf, size_t len)
{
    if (json_is_string(v)) {
        snprintf(buf, len, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d == floor(d) && fabs(d) < 9007199254740992.0)
            snprintf(buf, len, "%.0f", d);
        else
            report_fmt_sig(d, buf, len);
    } else if (json_is_boolean(v)) {
        snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
    } else if (!v || json_is_null(v)) {
        snprintf(buf, len, "-");
    } else {
        char *s = json_dumps(v, JSON_COMPACT);
        snprintf(buf, len, "%s", s ? s : "-");
        free(s);
    }
}

static void report_label(FILE *f, const char *label)
{
    fprintf(f, REPORT_INDENT "%-16s", label);
}

static void report_caches(FILE *f, const json_t *caches)
{
    size_t i;
    const json_t *c;
    report_label(f, "caches");
    if (!json_is_array(caches) || json_array_size(caches) == 0) {
        fprintf(f, "-\n");
        return;
    }
    json_array_foreach(caches, i, c) {
        const char *type = report_str(c, "type");
        const char *suffix = !type                        ? "?"
                             : strcmp(type, "data") == 0        ? "d"
                             : strcmp(type, "instruction") == 0 ? "i"
                                                                : "";
        double size;
        char sz[32] = "-";
        if (report_num(c, "size_bytes", &size))
            mb_report_fmt_bytes(size, sz, sizeof sz);
        fprintf(f, "%sL%" JSON_INTEGER_FORMAT "%s %s x%" JSON_INTEGER_FORMAT, i ? ", " : "",
                json_integer_value(json_object_get(c, "level")), suffix, sz,
                json_integer_value(json_object_get(c, "count")));
    }
    fprintf(f, "\n");
}

/* Node 0's description (the node of rank 0), as seed 003's system table. */
static void report_node(FILE *f, const json_t *system)
{
    const json_t *nodes = json_object_get(system, "node_list");
    const json_t *node = json_array_get(nodes, 0);
    char buf[64];

    report_label(f, "host");
    if (json_array_size(nodes) > 1)
        fprintf(f, "%s (node 0 of %zu)\n", report_or_dash(report_str(node, "host")), json_array_size(nodes));
    else
        fprintf(f, "%s\n", report_or_dash(report_str(node, "host")));

    report_label(f, "CPU");
    fprintf(f, "%s", report_or_dash(report_str(node, "cpu_model")));
    static const struct {
        const char *key, *one, *many;
    } counts[] = {{"sockets", "socket", "sockets"},
                  {"cores", "core", "cores"},
                  {"pus", "PU", "PUs"},
                  {"numa_nodes", "NUMA node", "NUMA nodes"}};
    const char *sep = "; ";
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const json_t *v = json_object_get(node, counts[i].key);
        if (!json_is_integer(v))
            continue;
        json_int_t n = json_integer_value(v);
        fprintf(f, "%s%" JSON_INTEGER_FORMAT " %s", sep, n, n == 1 ? counts[i].one : counts[i].many);
        sep = ", ";
    }
    fprintf(f, "\n");

    report_caches(f, json_object_get(node, "caches"));

    double mem;
    report_label(f, "memory");
    if (report_num(node, "memory_bytes", &mem)) {
        mb_report_fmt_bytes(mem, buf, sizeof buf);
        fprintf(f, "%s\n", buf);
    } else {
        fprintf(f, "-\n");
    }

    report_label(f, "OS / kernel");
    fprintf(f, "%s / %s\n", report_or_dash(report_str(node, "os")), report_or_dash(report_str(node, "kernel")));

    const char *governor = report_str(node, "governor");
    report_label(f, "tuning");
    fprintf(f, "governor %s, THP %s, clocksource %s\n", report_or_dash(governor),
            report_or_dash(report_str(node, "thp")), report_or_dash(report_str(node, "clocksource")));
    if (governor && strcmp(governor, "performance") != 0) {
        report_label(f, "warning");
        fprintf(f, "CPU frequency governor is \"%s\": times may follow the clock speed\n", governor);
    }
}

static void report_mpi(FILE *f, const json_t *system)
{
    const json_t *mpi = json_object_get(system, "mpi");
    const char *lib = report_str(mpi, "library");
    /* Open MPI's version string goes on with package and build details after a comma,
     * MPICH's on further lines; what precedes them names the library. */
    int liblen = lib ? (int)strcspn(lib, ",\n") : 1;
    report_label(f, "MPI");
    fprintf(f, "%.*s (MPI %s)\n", liblen, lib ? lib : "-", report_or_dash(report_str(mpi, "standard")));

    const json_t *env = json_object_get(mpi, "env");
    const char *key;
    const json_t *v;
    report_label(f, "MPI env");
    if (json_object_size(env) == 0)
        fprintf(f, "(none)\n");
    bool first = true;
    json_object_foreach((json_t *)env, key, v) {
        if (!first)
            fprintf(f, REPORT_INDENT "%-16s", "");
        fprintf(f, "%s=%s\n", key, report_or_dash(json_string_value(v)));
        first = false;
    }
}

static void report_clock(FILE *f, const json_t *system)
{
    const json_t *clock = json_object_get(system, "clock");
    char a[48], b[48], c[48];
    double v;

    report_label(f, "clock");
    fprintf(f, "%s\n", report_or_dash(report_str(clock, "name")));
    report_label(f, "resolution");
    snprintf(a, sizeof a, "-");
    snprintf(b, sizeof b, "-");
    if (report_num(clock, "nominal_resolution_ns", &v))
        report_fmt_duration_ns(v, a, sizeof a);
    if (report_num(clock, "resolution_ns", &v))
        report_fmt_duration_ns(v, b, sizeof b);
    fprintf(f, "%s measured (%s nominal)\n", b, a);
    report_label(f, "overhead");
    snprintf(c, sizeof c, "-");
    if (report_num(clock, "overhead_ns", &v))
        report_fmt_duration_ns(v, c, sizeof c);
    fprintf(f, "%s per clock read\n", c);

    report_label(f, "enough");
    snprintf(a, sizeof a, "-");
    if (report_num(clock, "enough_ns", &v))
        report_fmt_duration_ns(v, a, sizeof a);
    const json_t *verified = json_object_get(clock, "enough_verified");
    const char *source = report_or_dash(report_str(clock, "enough_source"));
    if (json_is_true(verified))
        fprintf(f, "%s (verified by the jiggle test; %s)\n", a, source);
    else if (json_is_false(verified))
        fprintf(f, "%s (NOT verified; %s)\n", a, source);
    else
        fprintf(f, "%s (%s)\n", a, source);

    report_label(f, "loop overhead");
    snprintf(a, sizeof a, "-");
    if (report_num(clock, "loop_overhead_ns", &v))
        report_fmt_duration_ns(v, a, sizeof a);
    fprintf(f, "%s per iteration\n", a);
}

static void report_bindings(FILE *f, const json_t *system)
{
    const json_t *bindings = json_object_get(system, "bindings");
    size_t i;
    const json_t *b;
    report_label(f, "bindings");
    if (!json_is_array(bindings) || json_array_size(bindings) == 0) {
        fprintf(f, "-\n");
        return;
    }
    /* Only a small run is listed rank by rank; the JSON has them all. */
    if (json_array_size(bindings) > REPORT_MAX_LISTED_BINDINGS) {
        fprintf(f, "%zu ranks (listed in results.json)\n", json_array_size(bindings));
        return;
    }
    json_array_foreach(bindings, i, b) {
        char rank[32], node[32];
        report_fmt_value(json_object_get(b, "rank"), rank, sizeof rank);
        report_fmt_value(json_object_get(b, "node"), node, sizeof node);
        if (i)
            fprintf(f, REPORT_INDENT "%-16s", "");
        fprintf(f, "rank %s: node %s (%s), cpus %s\n", rank, node, report_or_dash(report_str(b, "host")),
                report_or_dash(report_str(b, "cpus")));
    }
}

static void report_context(FILE *f, const json_t *root)
{
    const json_t *system = json_object_get(root, "system");
    const json_t *suite = json_object_get(system, "suite");
    const char *name = report_str(suite, "name");
    char a[32], b[32];

    fprintf(f, "%s %s results (%s)\n", name ? name : "mbsuite", report_or_dash(report_str(suite, "version")),
            report_or_dash(report_str(root, "schema")));
    report_label(f, "status");
    fprintf(f, "%s\n", json_is_true(json_object_get(root, "complete")) ? "complete" : "INCOMPLETE (run stopped early)");
    report_label(f, "started");
    fprintf(f, "%s\n", report_or_dash(report_str(root, "started_utc")));
    report_label(f, "finished");
    fprintf(f, "%s\n", report_or_dash(report_str(root, "finished_utc")));

    const json_t *argv = json_object_get(system, "command_line");
    size_t i;
    const json_t *arg;
    report_label(f, "command");
    if (json_array_size(argv) == 0)
        fprintf(f, "-");
    json_array_foreach(argv, i, arg)
        fprintf(f, "%s%s", i ? " " : "", report_or_dash(json_string_value(arg)));
    fprintf(f, "\n");

    report_fmt_value(json_object_get(system, "ranks"), a, sizeof a);
    report_fmt_value(json_object_get(system, "nodes"), b, sizeof b);
    report_label(f, "ranks / nodes");
    fprintf(f, "%s / %s\n", a, b);

    report_node(f, system);
    report_mpi(f, system);
    report_label(f, "compiler");
    fprintf(f, "%s\n", report_or_dash(report_str(system, "compiler")));
    report_label(f, "cflags");
    fprintf(f, "%s\n", report_or_dash(report_str(system, "cflags")));
    report_clock(f, system);
    report_bindings(f, system);
}

/* Parameter names: the benchmark's list, else the keys of its first point. */
static size_t report_param_names(const json_t *bench, const char **names, size_t max)
{
    size_t n = 0, i;
    const json_t *p;
    const json_t *params = json_object_get(bench, "params");
    if (json_is_array(params)) {
        json_array_foreach(params, i, p) {
            if (json_is_string(p) && n < max)
                names[n++] = json_string_value(p);
        }
        return n;
    }
    const json_t *first = json_object_get(json_array_get(json_object_get(bench, "points"), 0), "params");
    const char *key;
    json_object_foreach((json_t *)first, key, p) {
        if (n < max)
            names[n++] = key;
    }
    return n;
}

static void report_cell(const json_t *pt, const report_col_t *col, char *buf, size_t len)
{
    double v, lo, hi;
    const json_t *ci, *bw;
    snprintf(buf, len, "-");
    switch (col->kind) {
    case REPORT_COL_PARAM:
        report_fmt_value(json_object_get(json_object_get(pt, "params"), col->param), buf, len);
        break;
    case REPORT_COL_HEADLINE:
        if (report_num(pt, col->param, &v))
            report_fmt_sig(v, buf, len);
        break;
    case REPORT_COL_CI:
        ci = json_object_get(pt, "ci95");
        if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
            char a[48], b[48];
            lo = json_number_value(json_array_get(ci, 0));
            hi = json_number_value(json_array_get(ci, 1));
            report_fmt_sig(lo, a, sizeof a);
            report_fmt_sig(hi, b, sizeof b);
            snprintf(buf, len, "%s - %s", a, b);
        }
        break;
    case REPORT_COL_N:
        if (json_object_get(pt, "n"))
            report_fmt_value(json_object_get(pt, "n"), buf, len);
        break;
    case REPORT_COL_CI_OK:
        if (json_is_boolean(json_object_get(pt, "ci_target_met")))
            snprintf(buf, len, "%s", json_is_true(json_object_get(pt, "ci_target_met")) ? "yes" : "no");
        break;
    case REPORT_COL_BANDWIDTH:
        bw = json_object_get(pt, "bandwidth_bytes_per_s");
        if (report_num(bw, "median", &v))
            report_fmt_sig(v / 1e6, buf, len);
        break;
    case REPORT_COL_RANKS_AVG:
    case REPORT_COL_RANKS_MAX:
        if (report_num(json_object_get(pt, "over_ranks"),
                       col->kind == REPORT_COL_RANKS_AVG ? "avg_ns" : "max_ns", &v))
            report_fmt_sig(v, buf, len);
        break;
    case REPORT_COL_NODE_BANDWIDTH:
        if (report_num(json_object_get(pt, "over_ranks"), "aggregate_bytes_per_s", &v))
            report_fmt_sig(v / 1e6, buf, len);
        break;
    }
}

static void report_row(FILE *f, const json_t *pt, const report_col_t *cols, size_t ncols)
{
    char cell[REPORT_CELL_MAX];
    fprintf(f, REPORT_INDENT);
    for (size_t c = 0; c < ncols; c++) {
        const char *text = cell;
        if (pt)
            report_cell(pt, &cols[c], cell, sizeof cell);
        else
            text = cols[c].header;
        bool last = c + 1 == ncols;
        if (cols[c].left)
            fprintf(f, "%s%-*s", c ? REPORT_GAP : "", last ? 0 : (int)cols[c].width, text);
        else
            fprintf(f, "%s%*s", c ? REPORT_GAP : "", (int)cols[c].width, text);
    }
    fprintf(f, "\n");
}

/* Columns: the parameters, then the median (or min), CI, n, whether the CI met its target, and the
 * bandwidth when any point has one. Two passes over the points: widths, then rows. */
static int report_table(FILE *f, const json_t *bench)
{
    const json_t *points = json_object_get(bench, "points");
    const char *unit = report_str(bench, "unit");
    size_t npoints = json_array_size(points);
    size_t i;
    const json_t *pt;
    char cell[REPORT_CELL_MAX];

    if (!unit)
        unit = "ns";
    if (npoints == 0) {
        fprintf(f, REPORT_INDENT "(no points)\n");
        return 0;
    }
    size_t nparams = json_array_size(json_object_get(bench, "params"));
    if (nparams == 0)
        nparams = json_object_size(json_object_get(pt = json_array_get(points, 0), "params"));
    bool bandwidth = false, ranks = false, node_bw = false;
    json_array_foreach(points, i, pt) {
        if (json_object_get(pt, "bandwidth_bytes_per_s"))
            bandwidth = true;
        if (json_object_get(pt, "over_ranks"))
            ranks = true;
        if (json_object_get(json_object_get(pt, "over_ranks"), "aggregate_bytes_per_s"))
            node_bw = true;
    }

    size_t ncols = nparams + 5 + (bandwidth ? 1 : 0) + (ranks ? 2 : 0) + (node_bw ? 1 : 0);
    report_col_t *cols = calloc(ncols, sizeof *cols);
    const char **names = calloc(nparams ? nparams : 1, sizeof *names);
    if (!cols || !names) {
        free(cols);
        free(names);
        return -1;
    }
    nparams = report_param_names(bench, names, nparams);
    size_t c = 0;
    for (size_t p = 0; p < nparams; p++, c++) {
        cols[c].kind = REPORT_COL_PARAM;
        cols[c].param = names[p];
        snprintf(cols[c].header, sizeof cols[c].header, "%s", names[p]);
    }
    const char *statistic = report_str(bench, "statistic");
    if (!statistic || strcmp(statistic, "min") != 0)
        statistic = "median";
    cols[c].kind = REPORT_COL_HEADLINE;
    cols[c].param = statistic;
    snprintf(cols[c++].header, sizeof cols[0].header, "%s %s", statistic, unit);
    cols[c].kind = REPORT_COL_CI;
    snprintf(cols[c++].header, sizeof cols[0].header, "95%% CI (%s)", unit);
    cols[c].kind = REPORT_COL_N;
    snprintf(cols[c++].header, sizeof cols[0].header, "n");
    cols[c].kind = REPORT_COL_CI_OK;
    cols[c].left = true;
    snprintf(cols[c++].header, sizeof cols[0].header, "CI ok");
    if (ranks) {
        cols[c].kind = REPORT_COL_RANKS_AVG;
        snprintf(cols[c++].header, sizeof cols[0].header, "ranks avg %s", unit);
        cols[c].kind = REPORT_COL_RANKS_MAX;
        snprintf(cols[c++].header, sizeof cols[0].header, "ranks max %s", unit);
    }
    if (bandwidth) {
        cols[c].kind = REPORT_COL_BANDWIDTH;
        snprintf(cols[c++].header, sizeof cols[0].header, "bandwidth MB/s");
    }
    if (node_bw) {
        cols[c].kind = REPORT_COL_NODE_BANDWIDTH;
        snprintf(cols[c++].header, sizeof cols[0].header, "node MB/s");
    }
    ncols = c;

    for (c = 0; c < ncols; c++) {
        cols[c].width = strlen(cols[c].header);
        json_array_foreach(points, i, pt) {
            report_cell(pt, &cols[c], cell, sizeof cell);
            size_t w = strlen(cell);
            if (w > cols[c].width)
                cols[c].width = w;
            /* Labels (strings) read best left-aligned, numbers right-aligned. */
            if (cols[c].kind == REPORT_COL_PARAM &&
                json_is_string(json_object_get(json_object_get(pt, "params"), cols[c].param)))
                cols[c].left = true;
        }
    }
    report_row(f, NULL, cols, ncols);
    json_array_foreach(points, i, pt)
        report_row(f, pt, cols, ncols);

    free(cols);
    free(names);
    return 0;
}

static void report_derived(FILE *f, const json_t *derived)
{
    const char *key;
    const json_t *v;
    size_t width = 0;
    char buf[REPORT_CELL_MAX];
    if (json_object_size(derived) == 0)
        return;
    json_object_foreach((json_t *)derived, key, v) {
        if (strlen(key) > width)
            width = strlen(key);
    }
    fprintf(f, REPORT_INDENT "derived:\n");
    json_object_foreach((json_t *)derived, key, v) {
        report_fmt_value(v, buf, sizeof buf);
        fprintf(f, REPORT_INDENT REPORT_INDENT "%-*s  %s\n", (int)width, key, buf);
    }
}

static int report_benchmark(FILE *f, const json_t *bench)
{
    const char *name = report_or_dash(report_str(bench, "name"));
    const char *skipped = report_str(bench, "skipped");
    double elapsed;

    if (skipped) {
        fprintf(f, "%s \u2014 skipped: %s\n", name, skipped);
        return 0;
    }
    fprintf(f, "%s \u2014 %s\n", name, report_or_dash(report_str(bench, "summary")));
    fprintf(f, REPORT_INDENT "measures: %s\n", report_or_dash(report_str(bench, "measures")));
    if (report_table(f, bench) != 0)
        return -1;
    report_derived(f, json_object_get(bench, "derived"));
    if (report_num(bench, "elapsed_s", &elapsed))
        fprintf(f, REPORT_INDENT "elapsed %.1f s\n", elapsed);
    return 0;
}

/* "name size_bytes=1048576 cache=cold" for the list of missed CI targets. */
static void report_point_label(FILE *f, const json_t *bench, const json_t *pt)
{
    const char *key;
    const json_t *v;
    char buf[REPORT_CELL_MAX];
    fprintf(f, REPORT_INDENT "%s", report_or_dash(report_str(bench, "name")));
    json_object_foreach(json_object_get(pt, "params"), key, v) {
        report_fmt_value(v, buf, sizeof buf);
        fprintf(f, " %s=%s", key, buf);
    }
}

static void report_ci_missed(FILE *f, const json_t *benchmarks)
{
    size_t i, j;
    const json_t *bench, *pt;
    size_t shown = 0, missed = 0;
    json_array_foreach(benchmarks, i, bench) {
        if (report_str(bench, "skipped"))
            continue;
        json_array_foreach(json_object_get(bench, "points"), j, pt) {
            if (!json_is_false(json_object_get(pt, "ci_target_met")))
                continue;
            if (missed++ == 0)
                fprintf(f, "\nCI target not met (the median's 95%% CI is wider than the target):\n");
            /* A long list hides more than it shows: the rest are in results.json. */
            if (shown == REPORT_MAX_CI_MISSED)
                continue;
            shown++;
            report_point_label(f, bench, pt);
            double rel;
            char n[32];
            report_fmt_value(json_object_get(pt, "n"), n, sizeof n);
            if (report_num(pt, "ci95_rel_halfwidth", &rel))
                fprintf(f, ": CI half-width %.2f%% of the median after %s experiments\n", rel * 100, n);
            else
                fprintf(f, ": after %s experiments\n", n);
        }
    }
    if (missed > shown)
        fprintf(f, REPORT_INDENT "... and %zu more (ci_target_met is false in results.json)\n",
                missed - shown);
}

static void report_pct(FILE *f, const json_t *obj, const char *key)
{
    double v;
    if (report_num(obj, key, &v))
        fprintf(f, " %8.2f", v);
    else
        fprintf(f, " %8s", "-");
}

/* The cluster table of the pre-flight: per node its clock and its noisiest core, then
 * every core's noise while the run is small enough to read. */
static void report_preflight(FILE *f, const json_t *pre)
{
    const json_t *nodes = json_object_get(pre, "nodes");
    double v, dur = 0, thr = 0, tol = 0;
    report_num(pre, "perturb_duration_ms", &dur);
    report_num(pre, "noise_threshold_pct", &thr);
    report_num(pre, "mhz_tolerance_pct", &tol);
    fprintf(f, "\npre-flight — clock speed (mhz, seed 000) and noise (perturbation test, seed 002)\n");
    fprintf(f, REPORT_INDENT "noise: how much slower than its fastest each %.4g ms spin run was, "
               "all ranks at once; flagged above p99 %.4g%% or %.4g%% off the median clock\n",
            dur, thr, tol);
    fprintf(f, REPORT_INDENT "node  %-20s %9s %8s %5s %5s %8s %8s  verdict\n", "host", "MHz",
            "tick ns", "cores", "ranks", "p50 %", "p99 %");
    size_t i, nranks = 0;
    const json_t *node;
    json_array_foreach(nodes, i, node) {
        fprintf(f, REPORT_INDENT "%4zu  %-20s", i, report_or_dash(report_str(node, "host")));
        if (report_num(node, "mhz", &v))
            fprintf(f, " %9.1f", v);
        else
            fprintf(f, " %9s", "-");
        if (report_num(node, "tick_ns", &v))
            fprintf(f, " %8.4f", v);
        else
            fprintf(f, " %8s", "-");
        fprintf(f, " %5lld", (long long)json_integer_value(json_object_get(node, "cores")));
        fprintf(f, " %5lld", (long long)json_integer_value(json_object_get(node, "ranks")));
        report_pct(f, json_object_get(node, "perturb"), "p50_pct");
        report_pct(f, json_object_get(node, "perturb"), "p99_pct");
        if (json_is_true(json_object_get(node, "flagged")))
            fprintf(f, "  FLAGGED: %s\n", report_or_dash(report_str(node, "why")));
        else
            fprintf(f, "  ok\n");
        nranks += json_array_size(json_object_get(node, "per_rank"));
    }
    if (report_num(pre, "median_mhz", &v))
        fprintf(f, REPORT_INDENT "cluster median %.1f MHz; %lld of %zu node(s) flagged\n", v,
                (long long)json_integer_value(json_object_get(pre, "flagged_nodes")),
                json_array_size(nodes));
    const json_t *cycles = json_object_get(json_array_get(nodes, 0), "cycles");
    if (json_object_size(cycles) > 0) {
        const char *expr;
        const json_t *c;
        fprintf(f, REPORT_INDENT "cycles per expression on node 0:");
        json_object_foreach((json_t *)cycles, expr, c) {
            if (json_is_number(c))
                fprintf(f, " %s %.2f", expr, json_number_value(c));
        }
        fprintf(f, "\n");
    }
    if (nranks > 64) {
        fprintf(f, REPORT_INDENT "per-core noise of %zu ranks: see results.json\n", nranks);
        return;
    }
    fprintf(f, REPORT_INDENT "per core:  rank  node  cpus     p50 %%    p99 %%    max %%\n");
    json_array_foreach(nodes, i, node) {
        size_t j;
        const json_t *rec;
        json_array_foreach(json_object_get(node, "per_rank"), j, rec) {
            fprintf(f, REPORT_INDENT "          %5lld %5zu  %-6s",
                    (long long)json_integer_value(json_object_get(rec, "rank")), i,
                    report_or_dash(report_str(rec, "cpus")));
            report_pct(f, rec, "p50_pct");
            report_pct(f, rec, "p99_pct");
            report_pct(f, rec, "max_pct");
            fprintf(f, "\n");
        }
    }
}

/* The point of benchmark `name` whose params include key=value (and key2=value2 when key2
 * is not NULL); NULL when the run has none. */
static const json_t *report_find_point(const json_t *root, const char *name, const char *key,
                                       const char *value, const char *key2, const char *value2)
{
    size_t i, j;
    const json_t *b, *pt;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
        if (strcmp(report_or_dash(report_str(b, "name")), name) != 0)
            continue;
        json_array_foreach(json_object_get(b, "points"), j, pt) {
            const json_t *params = json_object_get(pt, "params");
            char a[64], c[64];
            report_fmt_value(json_object_get(params, key), a, sizeof a);
            if (strcmp(a, value) != 0)
                continue;
            if (key2) {
                report_fmt_value(json_object_get(params, key2), c, sizeof c);
                if (strcmp(c, value2) != 0)
                    continue;
            }
            return pt;
        }
    }
    return NULL;
}

/* "avg max" over processes: over_ranks when several ranks measured, else the median. */
static void report_avg_max(FILE *f, const json_t *pt)
{
    const json_t *over = json_object_get(pt, "over_ranks");
    double avg, max;
    char a[48] = "-", b[48] = "-";
    if (over && report_num(over, "avg_ns", &avg) && report_num(over, "max_ns", &max)) {
        report_fmt_sig(avg, a, sizeof a);
        report_fmt_sig(max, b, sizeof b);
    } else if (pt && report_num(pt, "median", &avg)) {
        report_fmt_sig(avg, a, sizeof a);
        report_fmt_sig(avg, b, sizeof b);
    }
    fprintf(f, " %10s %10s", a, b);
}

/* The cache levels found on the latency curve beside hwloc's sizes for node 0. */
static void report_cache_levels(FILE *f, const json_t *root)
{
    size_t i;
    const json_t *b, *derived = NULL;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
        if (strcmp(report_or_dash(report_str(b, "name")), "shm.latency") == 0)
            derived = json_object_get(b, "derived");
    }
    const json_t *levels = json_object_get(derived, "levels");
    if (json_array_size(levels) == 0)
        return;
    fprintf(f, "\ncache levels from the %s latency curve (shm.latency), beside hwloc's\n",
            report_or_dash(report_str(derived, "levels_from")));
    const json_t *lv;
    json_array_foreach(levels, i, lv) {
        double size = 0, lat = 0, mid = 0;
        char a[32] = "-", c[32] = "-";
        if (report_num(lv, "size_bytes", &size))
            mb_report_fmt_bytes(size, a, sizeof a);
        if (report_num(lv, "midpoint_bytes", &mid))
            mb_report_fmt_bytes(mid, c, sizeof c);
        report_num(lv, "latency_ns", &lat);
        if (json_is_true(json_object_get(lv, "open")))
            fprintf(f, REPORT_INDENT "level %zu: from %s on, %.4g ns (memory, or the curve's end)\n",
                    i + 1, a, lat);
        else
            fprintf(f, REPORT_INDENT "level %zu: up to %s (half-way to the next at %s), %.4g ns\n",
                    i + 1, a, c, lat);
    }
    const json_t *caches = json_object_get(
        json_array_get(json_object_get(json_object_get(root, "system"), "node_list"), 0), "caches");
    fprintf(f, REPORT_INDENT "hwloc:");
    const json_t *cache;
    json_array_foreach(caches, i, cache) {
        const char *type = report_str(cache, "type");
        double size;
        char sz[32];
        if (type && strcmp(type, "instruction") == 0)
            continue;
        if (report_num(cache, "size_bytes", &size)) {
            mb_report_fmt_bytes(size, sz, sizeof sz);
            fprintf(f, " L%lld %s", (long long)json_integer_value(json_object_get(cache, "level")), sz);
        }
    }
    fprintf(f, "\n");
}

/* Howell's shared-memory table (seed 001), from the harness and shm benchmarks that ran. */
static void report_howell(FILE *f, const json_t *root)
{
    static const char *const targets[] = {"localcache", "local", "neighbour", "neighbour_far"};
    if (!report_find_point(root, "shm.read", "target", "localcache", NULL, NULL) &&
        !report_find_point(root, "shm.write", "target", "localcache", NULL, NULL))
        return;
    fprintf(f, "\nshared memory (Howell's table, seed 001) — ns per operation, avg and max over "
               "the node's processes\n");
    fprintf(f, REPORT_INDENT "reads: latency of dependent random loads, streaming rate per word "
               "beside it; writes: streaming stores per word\n");
    fprintf(f, REPORT_INDENT "%-22s %10s %10s %10s %10s\n", "function", "avg", "max", "stream avg",
            "stream max");
    const struct {
        const char *row, *bench, *key, *value;
    } fixed[] = {{"empty loop", "harness.empty_loop", "instances", "0"},
                 {"timer()", "harness.timer", "quantity", "read"},
                 {"barrier", "shm.barrier", "comm", "node"}};
    for (size_t r = 0; r < sizeof fixed / sizeof fixed[0]; r++) {
        const json_t *pt = report_find_point(root, fixed[r].bench, fixed[r].key, fixed[r].value, NULL, NULL);
        fprintf(f, REPORT_INDENT "%-22s", fixed[r].row);
        report_avg_max(f, pt);
        fprintf(f, "\n");
    }
    for (int w = 0; w < 2; w++) {
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            for (int all = 0; all < 2; all++) {
                char row[64], bench[32];
                snprintf(row, sizeof row, "%s%s_%s", all ? "all" : "", w ? "write" : "read", targets[t]);
                snprintf(bench, sizeof bench, "shm.%s%s", all ? "all" : "", w ? "write" : "read");
                const json_t *lat = w ? NULL : report_find_point(root, bench, "target", targets[t], "access", "latency");
                const json_t *str = report_find_point(root, bench, "target", targets[t], "access", "stream");
                if (!lat && !str && t == 3)
                    continue; /* one NUMA node: only Howell's own rows */
                fprintf(f, REPORT_INDENT "%-22s", row);
                if (!lat && !str) {
                    bool ran = report_find_point(root, bench, "target", "localcache", NULL, NULL);
                    fprintf(f, " %s\n", !ran ? "(not run)" : t == 2 ? "(needs 2 ranks on a node)" : "-");
                    continue;
                }
                report_avg_max(f, w ? str : lat);
                if (w)
                    fprintf(f, " %10s %10s", "", "");
                else
                    report_avg_max(f, str);
                fprintf(f, "\n");
            }
        }
    }
}

int mb_report_write(FILE *f, const json_t *root)
{
    const json_t *benchmarks = json_object_get(root, "benchmarks");
    size_t i;
    const json_t *bench;

    /* The summary tables first (seed 001's), then every benchmark's own table. */
    report_context(f, root);
    if (json_object_get(root, "preflight"))
        report_preflight(f, json_object_get(root, "preflight"));
    report_howell(f, root);
    mb_report_fits(f, root);
    report_cache_levels(f, root);
    json_array_foreach(benchmarks, i, bench) {
        fprintf(f, "\n");
        if (report_benchmark(f, bench) != 0)
            return -1;
    }
    if (json_array_size(benchmarks) == 0)
        fprintf(f, "\n(no benchmarks finished)\n");
    report_ci_missed(f, benchmarks);
    return ferror(f) ? -1 : 0;
}
