/* SPDX-License-Identifier: MIT */
/* Seed 003's tables (lmbench results for a cluster node), one row per node: each figure is
 * the mean ± standard error over --runs K fresh processes where the record has "runs"
 * (the one run's median otherwise), "-" where it is missing, with the reason below the
 * table. */
#include "report_node_tables.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report_text.h"
#include "stats.h"

#define NT_INDENT "  "
#define NT_MAX_COLS 12
#define NT_CELL 48

typedef enum nt_unit {
    NT_US,   /* a time in ns shown in microseconds */
    NT_MBPS, /* a time per operation shown as 10^6 bytes/s from its bytes_per_op */
    NT_ASIS, /* a derived figure in its own unit (MFLOPS) */
} nt_unit_t;

/* One column: benchmark `bench`, its point with key=value (NULL: its first point), or its
 * derived figure `derived`; or, with bench NULL, a figure mbsuite does not measure. */
typedef struct nt_fig {
    const char *head, *bench, *key, *value, *derived;
    nt_unit_t unit;
} nt_fig_t;

typedef struct nt_table {
    const char *title;
    nt_fig_t cols[NT_MAX_COLS];
} nt_table_t;

/* One cell's figure: mean over k runs (k 1: the one run's median) and its error. */
typedef struct nt_value {
    int k;
    double mean, se;
    char why[160]; /* k == 0: why there is none */
} nt_value_t;

static const json_t *nt_bench(const json_t *root, const char *name)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *n = mb_report_text_str(b, "name");
        if (n && strcmp(n, name) == 0)
            return b;
    }
    return NULL;
}

static const json_t *nt_point(const json_t *bench, const char *key, const char *value)
{
    const json_t *pts = json_object_get(bench, "points"), *pt;
    size_t i;
    if (!key)
        return json_array_get(pts, 0);
    json_array_foreach(pts, i, pt)
    {
        char v[64];
        mb_report_text_value(json_object_get(json_object_get(pt, "params"), key), v, sizeof v);
        if (strcmp(v, value) == 0)
            return pt;
    }
    return NULL;
}

/* Why a derived figure of 0 is shown as none: a cost less its base (os_util.h,
 * mb_os_subtract_ns) is clamped at 0 where the base read as long, as lmbench's lat_ctx and
 * lat_sig do; 0 us is no context switch's or signal's cost, only a difference lost in noise. */
#define NT_CLAMPED_WHY                                                                             \
    "read 0: the time it is corrected by read as long or longer (the difference is lost in "       \
    "their noise)"

/* The figure of node `node` from a "runs" record (node_runs.h): its per-node values,
 * each converted (bandwidth from time) before the mean and error are taken. */
static void nt_from_runs(const json_t *runs, const char *bench, int node, double bytes,
                         nt_value_t *out)
{
    const json_t *mine = json_array_get(json_object_get(runs, "per_node"), (size_t)node);
    const json_t *values = json_object_get(mine, "values"), *x;
    size_t n = json_array_size(values), k = 0, zeros = 0, i;
    double *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return;
    json_array_foreach(values, i, x)
    {
        if (json_is_number(x) && json_number_value(x) > 0)
            v[k++] = bytes > 0 ? bytes / json_number_value(x) * 1e3 : json_number_value(x);
        else if (json_is_number(x) && json_number_value(x) == 0)
            zeros++;
    }
    if (k > 0) {
        out->k = (int)k;
        mb_stats_mean_stderr(v, k, &out->mean, &out->se);
    } else if (zeros > 0) {
        snprintf(out->why, sizeof out->why, "%s, every run: " NT_CLAMPED_WHY, bench);
    } else {
        snprintf(out->why, sizeof out->why, "no run gave it: %s",
                 mb_report_text_dash(mb_report_text_str(mine, "failed_why")));
    }
    free(v);
}

static void nt_one(nt_value_t *out, double v)
{
    out->k = 1;
    out->mean = v;
    out->se = NAN;
}

static void nt_lookup(const json_t *root, const nt_fig_t *fig, int node, nt_value_t *out)
{
    *out = (nt_value_t){0};
    const json_t *b = fig->bench ? nt_bench(root, fig->bench) : NULL;
    if (!fig->bench) {
        snprintf(out->why, sizeof out->why, "not measured by mbsuite");
        return;
    }
    if (!b || !mb_record_ran(b)) {
        snprintf(out->why, sizeof out->why, "%s %s", fig->bench,
                 b ? mb_report_text_dash(mb_report_text_str(b, "skipped")) : "not run");
        return;
    }
    double v;
    if (fig->derived) {
        const json_t *runs = json_object_get(json_object_get(b, "derived_runs"), fig->derived);
        if (runs)
            nt_from_runs(runs, fig->bench, node, 0, out);
        else if (node == 0 && mb_report_text_num(json_object_get(b, "derived"), fig->derived, &v)) {
            if (v == 0)
                snprintf(out->why, sizeof out->why, "%s " NT_CLAMPED_WHY, fig->bench);
            else
                nt_one(out, v);
        } else
            snprintf(out->why, sizeof out->why,
                     node == 0 ? "%s: no %s (a point it needs failed)"
                               : "%s: %s is derived from node 0's points only (--runs 2 or "
                                 "more derives it on every node)",
                     fig->bench, fig->derived);
        return;
    }
    const json_t *pt = nt_point(b, fig->key, fig->value);
    if (!pt || !mb_record_point_ok(pt)) {
        snprintf(out->why, sizeof out->why, "%s %s%s%s: %s", fig->bench,
                 fig->key ? fig->key : "", fig->key ? "=" : "", fig->key ? fig->value : "",
                 pt ? mb_report_text_dash(mb_report_text_str(pt, "reason")) : "no such point");
        return;
    }
    double bytes = 0;
    if (fig->unit == NT_MBPS && !mb_report_text_num(pt, "bytes_per_op", &bytes)) {
        snprintf(out->why, sizeof out->why, "%s: no bytes_per_op", fig->bench);
        return;
    }
    const json_t *runs = json_object_get(pt, "runs");
    if (runs) {
        nt_from_runs(runs, fig->bench, node, bytes, out);
        return;
    }
    const json_t *per = json_object_get(json_object_get(pt, "over_nodes"), "median_per_rank_ns");
    const json_t *x = per ? json_array_get(per, (size_t)node) : NULL;
    if (json_is_number(x))
        v = json_number_value(x);
    else if (!(node == 0 && mb_report_text_num(pt, "median", &v))) {
        snprintf(out->why, sizeof out->why, "%s: measured on node 0 only", fig->bench);
        return;
    }
    nt_one(out, bytes > 0 ? bytes / v * 1e3 : v);
}

/* "12.34 ± 0.05", "12.34" (one run), or "-". */
static void nt_cell(const nt_value_t *v, nt_unit_t unit, char *buf, size_t len)
{
    if (v->k == 0) {
        snprintf(buf, len, "-");
        return;
    }
    double scale = unit == NT_US ? 1e-3 : 1.0;
    char m[32], e[32];
    mb_report_text_sig(v->mean * scale, m, sizeof m);
    if (v->k < 2 || !isfinite(v->se)) {
        snprintf(buf, len, "%s", m);
        return;
    }
    /* As seed 003 writes them: the error to two significant digits, the mean to as many
     * decimals. */
    double se = v->se * scale;
    int decimals = se > 0 ? 1 - (int)floor(log10(se)) : 0;
    decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
    if (se > 0)
        snprintf(m, sizeof m, "%.*f", decimals, v->mean * scale);
    snprintf(e, sizeof e, "%.*f", decimals, se);
    snprintf(buf, len, "%s \u00b1 %s", m, e);
}

/* Columns of text in characters, not bytes (± is two bytes of UTF-8). */
static size_t nt_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void nt_pad(FILE *f, const char *s, size_t width, bool left)
{
    size_t w = nt_width(s);
    if (left)
        fputs(s, f);
    for (; w < width; w++)
        fputc(' ', f);
    if (!left)
        fputs(s, f);
}

/* A table of cells[node][col] under heads, hosts first, then the reasons for its dashes. */
static void nt_print(FILE *f, const char *title, const char *const *heads, size_t ncols,
                     const json_t *nodes, char (*cells)[NT_MAX_COLS][NT_CELL],
                     char (*whys)[NT_MAX_COLS][160], bool left)
{
    size_t nnodes = json_array_size(nodes), width[NT_MAX_COLS + 1];
    fprintf(f, "\n%s\n", title);
    width[0] = 4;
    for (size_t n = 0; n < nnodes; n++) {
        size_t w = nt_width(mb_report_text_dash(
            mb_report_text_str(json_array_get(nodes, n), "host")));
        width[0] = w > width[0] ? w : width[0];
    }
    for (size_t c = 0; c < ncols; c++) {
        width[c + 1] = nt_width(heads[c]);
        for (size_t n = 0; n < nnodes; n++)
            if (nt_width(cells[n][c]) > width[c + 1])
                width[c + 1] = nt_width(cells[n][c]);
    }
    fputs(NT_INDENT, f);
    nt_pad(f, "host", width[0], true);
    for (size_t c = 0; c < ncols; c++) {
        fputs("  ", f);
        nt_pad(f, heads[c], width[c + 1], left);
    }
    fputc('\n', f);
    for (size_t n = 0; n < nnodes; n++) {
        fputs(NT_INDENT, f);
        nt_pad(f, mb_report_text_dash(mb_report_text_str(json_array_get(nodes, n), "host")),
               width[0], true);
        for (size_t c = 0; c < ncols; c++) {
            fputs("  ", f);
            nt_pad(f, cells[n][c], width[c + 1], left);
        }
        fputc('\n', f);
    }
    /* Each distinct reason once, with the columns it explains. */
    for (size_t n = 0; n < nnodes; n++)
        for (size_t c = 0; c < ncols; c++) {
            if (!whys[n][c][0])
                continue;
            bool seen = false;
            for (size_t m = 0; m <= n && !seen; m++)
                for (size_t d = 0; d < (m == n ? c : ncols) && !seen; d++)
                    seen = strcmp(whys[m][d], whys[n][c]) == 0;
            if (seen)
                continue;
            fprintf(f, NT_INDENT "- %s", heads[c]);
            for (size_t d = c + 1; d < ncols; d++)
                if (strcmp(whys[n][d], whys[n][c]) == 0)
                    fprintf(f, ", %s", heads[d]);
            fprintf(f, "%s: %s\n", nnodes > 1 ? " (some nodes)" : "", whys[n][c]);
        }
}

static void nt_table(FILE *f, const json_t *root, const nt_table_t *t, const json_t *nodes)
{
    size_t nnodes = json_array_size(nodes), ncols = 0;
    const char *heads[NT_MAX_COLS];
    char(*cells)[NT_MAX_COLS][NT_CELL] = calloc(nnodes, sizeof *cells);
    char(*whys)[NT_MAX_COLS][160] = calloc(nnodes, sizeof *whys);
    if (!cells || !whys)
        goto done;
    for (; ncols < NT_MAX_COLS && t->cols[ncols].head; ncols++) {
        heads[ncols] = t->cols[ncols].head;
        for (size_t n = 0; n < nnodes; n++) {
            nt_value_t v;
            nt_lookup(root, &t->cols[ncols], (int)n, &v);
            nt_cell(&v, t->cols[ncols].unit, cells[n][ncols], NT_CELL);
            snprintf(whys[n][ncols], 160, "%s", v.k ? "" : v.why);
        }
    }
    nt_print(f, t->title, heads, ncols, nodes, cells, whys, false);
done:
    free(cells);
    free(whys);
}

/* Seed 003's Tables 2, 3, 4, 7 and 9 (its Tables 5 and 8 are the network's, mbsuite's
 * mpi group). lmbench's "select" summary is select on 100 TCP descriptors; its "sig hndl"
 * the catch less the send; lat_ctx runs unpinned. */
static const nt_table_t nt_tables[] = {
    {.title = "Table 2: latencies of processor/process activities, in microseconds (smaller is better)",
     .cols = {{.head = "null call", .bench = "os.null_call"},
      {.head = "null I/O", .bench = "os.null_io", .derived = "null_io_ns"},
      {.head = "stat", .bench = "os.stat"},
      {.head = "open/close", .bench = "os.open_close"},
      {.head = "select", .bench = "os.select_tcp", .key = "fds", .value = "100"},
      {.head = "sig inst", .bench = "os.signal", .key = "op", .value = "install"},
      {.head = "sig hndl", .bench = "os.signal", .derived = "catch_overhead_ns"},
      {.head = "fork proc", .bench = "os.fork"},
      {.head = "exec proc", .bench = "os.exec"},
      {.head = "sh proc", .bench = "os.shell"}}},
    {.title = "Table 3: context switches, in microseconds (smaller is better; lat_ctx, unpinned)",
     .cols = {{.head = "2p/0K", .bench = "os.ctx", .derived = "ctx_2p_0K_unpinned_ns"},
      {.head = "2p/16K", .bench = "os.ctx", .derived = "ctx_2p_16K_unpinned_ns"},
      {.head = "2p/64K", .bench = "os.ctx", .derived = "ctx_2p_64K_unpinned_ns"},
      {.head = "8p/0K", .bench = "os.ctx", .derived = "ctx_8p_0K_unpinned_ns"},
      {.head = "8p/16K", .bench = "os.ctx", .derived = "ctx_8p_16K_unpinned_ns"},
      {.head = "8p/64K", .bench = "os.ctx", .derived = "ctx_8p_64K_unpinned_ns"},
      {.head = "16p/0K", .bench = "os.ctx", .derived = "ctx_16p_0K_unpinned_ns"},
      {.head = "16p/16K", .bench = "os.ctx", .derived = "ctx_16p_16K_unpinned_ns"},
      {.head = "16p/64K", .bench = "os.ctx", .derived = "ctx_16p_64K_unpinned_ns"}}},
    {.title = "Table 3 (pinned): the same rings bound to the rank's core, in microseconds",
     .cols = {{.head = "2p/0K", .bench = "os.ctx", .derived = "ctx_2p_0K_pinned_ns"},
      {.head = "2p/16K", .bench = "os.ctx", .derived = "ctx_2p_16K_pinned_ns"},
      {.head = "2p/64K", .bench = "os.ctx", .derived = "ctx_2p_64K_pinned_ns"},
      {.head = "8p/0K", .bench = "os.ctx", .derived = "ctx_8p_0K_pinned_ns"},
      {.head = "8p/16K", .bench = "os.ctx", .derived = "ctx_8p_16K_pinned_ns"},
      {.head = "8p/64K", .bench = "os.ctx", .derived = "ctx_8p_64K_pinned_ns"},
      {.head = "16p/0K", .bench = "os.ctx", .derived = "ctx_16p_0K_pinned_ns"},
      {.head = "16p/16K", .bench = "os.ctx", .derived = "ctx_16p_16K_pinned_ns"},
      {.head = "16p/64K", .bench = "os.ctx", .derived = "ctx_16p_64K_pinned_ns"}}},
    {.title = "Table 4: local communication latencies, in microseconds (smaller is better; unpinned)",
     .cols = {{.head = "pipe", .bench = "os.lat_pipe", .key = "placement", .value = "unpinned"},
      {.head = "AF UNIX", .bench = "os.lat_unix", .key = "placement", .value = "unpinned"},
      {.head = "UDP", .bench = "os.lat_udp", .key = "placement", .value = "unpinned"},
      {.head = "TCP", .bench = "os.lat_tcp", .key = "placement", .value = "unpinned"},
      {.head = "TCP conn", .bench = "os.tcp_connect", .key = "placement", .value = "unpinned"},
      {.head = "RPC/UDP"},
      {.head = "RPC/TCP"}}},
    {.title = "Table 4 (bound): the same round trips, both ends on one CPU (1 CPU) or on two cores (2 cores), in microseconds",
     .cols = {{.head = "pipe 1 CPU", .bench = "os.lat_pipe", .key = "placement", .value = "one_cpu"},
      {.head = "AF UNIX 1 CPU", .bench = "os.lat_unix", .key = "placement", .value = "one_cpu"},
      {.head = "UDP 1 CPU", .bench = "os.lat_udp", .key = "placement", .value = "one_cpu"},
      {.head = "TCP 1 CPU", .bench = "os.lat_tcp", .key = "placement", .value = "one_cpu"},
      {.head = "TCP conn 1 CPU", .bench = "os.tcp_connect", .key = "placement", .value = "one_cpu"},
      {.head = "pipe 2 cores", .bench = "os.lat_pipe", .key = "placement", .value = "two_cores"},
      {.head = "AF UNIX 2 cores", .bench = "os.lat_unix", .key = "placement", .value = "two_cores"},
      {.head = "UDP 2 cores", .bench = "os.lat_udp", .key = "placement", .value = "two_cores"},
      {.head = "TCP 2 cores", .bench = "os.lat_tcp", .key = "placement", .value = "two_cores"},
      {.head = "TCP conn 2 cores", .bench = "os.tcp_connect", .key = "placement", .value = "two_cores"}}},
    {.title = "Table 7: local communication bandwidths, in 10^6 bytes/s (bigger is better; unpinned)",
     .cols = {{.head = "pipe", .bench = "os.bw_pipe", .key = "placement", .value = "unpinned", .unit = NT_MBPS},
      {.head = "AF UNIX", .bench = "os.bw_unix", .key = "placement", .value = "unpinned", .unit = NT_MBPS},
      {.head = "TCP", .bench = "os.bw_tcp", .key = "placement", .value = "unpinned", .unit = NT_MBPS},
      {.head = "UDP"},
      {.head = "file reread", .bench = "os.file_rd", .key = "access", .value = "read", .unit = NT_MBPS},
      {.head = "mmap reread", .bench = "os.file_rd", .key = "access", .value = "mmap", .unit = NT_MBPS}}},
    {.title = "Table 7 (bound): the same transfers, reader and writer on one CPU (1 CPU) or on two cores (2 cores), in 10^6 bytes/s",
     .cols = {{.head = "pipe 1 CPU", .bench = "os.bw_pipe", .key = "placement", .value = "one_cpu", .unit = NT_MBPS},
      {.head = "AF UNIX 1 CPU", .bench = "os.bw_unix", .key = "placement", .value = "one_cpu", .unit = NT_MBPS},
      {.head = "TCP 1 CPU", .bench = "os.bw_tcp", .key = "placement", .value = "one_cpu", .unit = NT_MBPS},
      {.head = "pipe 2 cores", .bench = "os.bw_pipe", .key = "placement", .value = "two_cores", .unit = NT_MBPS},
      {.head = "AF UNIX 2 cores", .bench = "os.bw_unix", .key = "placement", .value = "two_cores", .unit = NT_MBPS},
      {.head = "TCP 2 cores", .bench = "os.bw_tcp", .key = "placement", .value = "two_cores", .unit = NT_MBPS}}},
    {.title = "Table 9: CPU rates in BOGOMFLOPS, 10^6 operations/s of y += a*x in L1 (bigger is better)",
     .cols = {{.head = "single", .bench = "os.daxpy", .derived = "mflops_single_L1", .unit = NT_ASIS},
      {.head = "double", .bench = "os.daxpy", .derived = "mflops_double_L1", .unit = NT_ASIS}}},
};

/* Table 1 from the node descriptions (sysdesc) and the pre-flight's MHz. */
static void nt_system(FILE *f, const json_t *root, const json_t *nodes)
{
    static const char *const heads[] = {"CPU",     "family/model/stepping",
                                        "MHz",     "L1 cache (data/code)",
                                        "L2 cache", "LLC",
                                        "memory",  "OS kernel",
                                        "network"};
    enum { NCOLS = sizeof heads / sizeof heads[0] };
    size_t nnodes = json_array_size(nodes);
    char(*cells)[NT_MAX_COLS][NT_CELL] = calloc(nnodes, sizeof *cells);
    char(*whys)[NT_MAX_COLS][160] = calloc(nnodes, sizeof *whys);
    if (!cells || !whys)
        goto done;
    for (size_t n = 0; n < nnodes; n++) {
        const json_t *d = json_array_get(nodes, n), *c;
        char(*cell)[NT_CELL] = cells[n];
        size_t i;
        snprintf(cell[0], NT_CELL, "%s", mb_report_text_dash(mb_report_text_str(d, "cpu_model")));
        snprintf(cell[1], NT_CELL, "%s/%s/%s",
                 mb_report_text_dash(mb_report_text_str(d, "cpu_family")),
                 mb_report_text_dash(mb_report_text_str(d, "cpu_model_number")),
                 mb_report_text_dash(mb_report_text_str(d, "cpu_stepping")));
        snprintf(cell[2], NT_CELL, "-");
        snprintf(whys[n][2], 160, "no pre-flight mhz for this node");
        const json_t *pn;
        json_array_foreach(json_object_get(json_object_get(root, "preflight"), "nodes"), i, pn)
        {
            double mhz;
            if ((size_t)json_integer_value(json_object_get(pn, "node")) == n &&
                mb_report_text_num(pn, "mhz", &mhz)) {
                snprintf(cell[2], NT_CELL, "%.0f", mhz);
                whys[n][2][0] = '\0';
            }
        }
        char l1d[32] = "-", l1i[32] = "-", l2[32] = "-", llc[32] = "-";
        json_array_foreach(json_object_get(d, "caches"), i, c)
        {
            double size;
            json_int_t level = json_integer_value(json_object_get(c, "level"));
            const char *type = mb_report_text_dash(mb_report_text_str(c, "type"));
            if (!mb_report_text_num(c, "size_bytes", &size))
                continue;
            char *to = level == 1 ? (strcmp(type, "instruction") == 0 ? l1i : l1d)
                       : level == 2 ? l2
                                    : NULL;
            if (to)
                mb_report_text_bytes(size, to, 32);
            if (strcmp(type, "instruction") != 0)
                mb_report_text_bytes(size, llc, sizeof llc);
        }
        snprintf(cell[3], NT_CELL, "%s/%s", l1d, l1i);
        snprintf(cell[4], NT_CELL, "%s", l2);
        snprintf(cell[5], NT_CELL, "%s", llc);
        double mem = 0;
        char membuf[32] = "-";
        if (mb_report_text_num(d, "memory_bytes", &mem))
            mb_report_text_bytes(mem, membuf, sizeof membuf);
        snprintf(cell[6], NT_CELL, "%s %s %s", membuf,
                 mb_report_text_dash(mb_report_text_str(d, "memory_type")),
                 mb_report_text_dash(mb_report_text_str(d, "memory_speed")));
        snprintf(cell[7], NT_CELL, "%s", mb_report_text_dash(mb_report_text_str(d, "kernel")));
        mb_report_text_network(d, true, cell[8], NT_CELL);
    }
    nt_print(f, "Table 1: system description (sysdesc; \"unknown\" where the machine does not "
                "expose it, ? a link speed it does not report)",
             heads, NCOLS, nodes, cells, whys, true);
done:
    free(cells);
    free(whys);
}

/* Table 6 from shm.latency's cache levels: each level's latency is the median over its
 * sizes of the random-order curve (load to use); the level past hwloc's caches is main
 * memory. */
static void nt_memory(FILE *f, const json_t *root, const json_t *nodes)
{
    static const char *const heads[] = {"L1", "L2", "LLC", "main mem"};
    size_t nnodes = json_array_size(nodes);
    char(*cells)[NT_MAX_COLS][NT_CELL] = calloc(nnodes, sizeof *cells);
    char(*whys)[NT_MAX_COLS][160] = calloc(nnodes, sizeof *whys);
    if (!cells || !whys)
        goto done;
    const json_t *b = nt_bench(root, "shm.latency");
    const json_t *levels = json_object_get(json_object_get(b, "derived"), "levels");
    const json_t *closed[8];
    const json_t *open = NULL, *lv;
    size_t nclosed = 0, i;
    json_array_foreach(levels, i, lv)
    {
        if (json_is_true(json_object_get(lv, "open")))
            open = lv;
        else if (nclosed < 8)
            closed[nclosed++] = lv;
    }
    /* hwloc's data cache levels on node 0: the curve's first levels are those caches, and
     * its open level is memory only once it has shown them all. */
    size_t ncaches = 0;
    const json_t *c;
    json_array_foreach(json_object_get(json_array_get(nodes, 0), "caches"), i, c)
    {
        size_t level = (size_t)json_integer_value(json_object_get(c, "level"));
        const char *type = mb_report_text_str(c, "type");
        if (!(type && strcmp(type, "instruction") == 0) && level > ncaches)
            ncaches = level;
    }
    bool all = ncaches > 0 && nclosed >= ncaches;
    /* Memory: the open level past them, or else the first closed one past them (a curve
     * whose last point or two went off the memory plateau, too few to be a level: on the
     * 2-vCPU VM the page curve's 128 MiB point read 1.5x the plateau's 35 ns in one default
     * run, while the random order's stayed level). */
    const json_t *memory = open ? open : nclosed > ncaches ? closed[ncaches] : NULL;
    const json_t *pick[4] = {nclosed > 0 ? closed[0] : NULL,
                             nclosed > 1 && ncaches >= 2 ? closed[1] : NULL,
                             all ? closed[ncaches - 1] : NULL, all ? memory : NULL};
    for (size_t n = 0; n < nnodes; n++)
        for (size_t col = 0; col < 4; col++) {
            double v;
            snprintf(cells[n][col], NT_CELL, "-");
            if (!b || !mb_record_ran(b))
                snprintf(whys[n][col], 160, "shm.latency not run");
            else if (n > 0)
                snprintf(whys[n][col], 160, "the cache levels are found on node 0's curve only");
            else if (!pick[col])
                snprintf(whys[n][col], 160,
                         "the latency curve shows %zu cache level%s of hwloc's %zu%s", nclosed,
                         nclosed == 1 ? "" : "s", ncaches,
                         open ? " (its end may be a cache: a larger [shm] latency_max reaches "
                                "memory)"
                              : "");
            else if (mb_report_text_num(pick[col], "random_latency_ns", &v) ||
                     mb_report_text_num(pick[col], "latency_ns", &v))
                mb_report_text_sig(v, cells[n][col], NT_CELL);
        }
    nt_print(f, "Table 6: memory latencies, in nanoseconds (smaller is better; one run: the "
                "latency curve is not part of --runs)",
             heads, 4, nodes, cells, whys, false);
done:
    free(cells);
    free(whys);
}

/* Whether root has any benchmark of group "os" or shm.latency that ran. */
static bool nt_any(const json_t *root)
{
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const char *g = mb_report_text_str(b, "group"), *n = mb_report_text_str(b, "name");
        if (mb_record_ran(b) && ((g && strcmp(g, "os") == 0) || (n && strcmp(n, "shm.latency") == 0)))
            return true;
    }
    return false;
}

void mb_report_node_tables(FILE *f, const json_t *root)
{
    if (!nt_any(root))
        return;
    const json_t *nodes = json_object_get(json_object_get(root, "system"), "node_list");
    int k = 0;
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b)
    {
        const json_t *runs = json_object_get(json_array_get(json_object_get(b, "points"), 0), "runs");
        int n = (int)json_integer_value(json_object_get(runs, "k"));
        k = n > k ? n : k;
    }
    fprintf(f, "\nthe node tables of seed 003 (lmbench), one row per node — ");
    if (k >= 2)
        fprintf(f, "mean \u00b1 standard error over --runs fresh processes (up to %d runs; "
                   "not MPI processes, as lmbench's; the benchmark tables hold the first "
                   "run's medians)\n",
                k);
    else
        fprintf(f, "each figure the median of one fresh process per node (one run; --runs K "
                   "gives mean \u00b1 standard error over K)\n");
    /* How each point was timed: lmbench 3's experiments unless [os] says otherwise. */
    const json_t *phase = json_object_get(json_object_get(root, "system"), "os_phase");
    double min_ns;
    json_int_t per_point = json_integer_value(json_object_get(phase, "experiments_per_point"));
    if (per_point > 0 && mb_report_text_num(phase, "enough_min_ns", &min_ns))
        fprintf(f, "each point %lld experiments of at least %g ms, the median ([os] experiments, "
                   "enough_min; lmbench 3 times 11 of at least 5 ms)\n",
                (long long)per_point, min_ns / 1e6);
    nt_system(f, root, nodes);
    for (size_t t = 0; t < sizeof nt_tables / sizeof nt_tables[0]; t++)
        nt_table(f, root, &nt_tables[t], nodes);
    nt_memory(f, root, nodes);
}
