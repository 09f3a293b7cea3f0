/* SPDX-License-Identifier: MIT */
/* report.html from the results document alone. Each section is rendered into memory first,
 * so that the contents list names only the sections the run has. Facts come from the same
 * helpers as report.txt: values through report_text.h, and the seed tables that report.txt
 * already lays out (Howell's, seed 001's fits, LogGP, families, patterns, cache levels,
 * where the time went) are its text, in a <pre>, rather than computed a second time. */
#include "report_html.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fileutil.h"
#include "html_escape.h"
#include "html_svg.h"
#include "plot.h"
#include "plot_script.h"
#include "record.h"
#include "report_context.h"
#include "report_fits.h"
#include "report_html_bench.h"
#include "report_html_warnings.h"
#include "report_warnings.h"
#include "report_memory.h"
#include "report_node_tables.h"
#include "report_patterns.h"
#include "report_text.h"
#include "report_timings.h"

#define HTML_CELL_MAX 256
#define HTML_MAX_SECTIONS 12

/* One plot that the run has (plot.h's plan), and whether a section showed it yet. */
typedef struct html_plot {
    char *name; /* NAME of plots/NAME.svg */
    bool shown;
} html_plot_t;

typedef struct html_section {
    const char *id;
    const char *title;
    char *body;
} html_section_t;

typedef struct html_ctx {
    const json_t *root;
    const char *dir;
    html_plot_t *plots;
    size_t nplots;
    size_t plots_missing;
    html_section_t sections[HTML_MAX_SECTIONS];
    size_t nsections;
    /* report.txt's blocks that decide whether a section is there, captured once. */
    char *howell, *node_tables, *cache_levels, *patterns;
} html_ctx_t;

static const char html_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2330;"
    "background:#f6f7f9}"
    "header{background:#1f3a5f;color:#fff;padding:18px 28px}"
    "header h1{margin:0 0 4px;font-size:22px}header p{margin:2px 0;opacity:.9}"
    "main{max-width:1180px;margin:0 auto;padding:8px 28px 40px}"
    "section{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin:18px 0;"
    "padding:6px 20px 16px}"
    "h2{font-size:19px;border-bottom:2px solid #1f3a5f;padding-bottom:4px}"
    "h3{font-size:16px;margin:22px 0 4px}h4{font-size:14px;margin:14px 0 4px}"
    "p.measures{color:#4a5160;margin:2px 0 8px}"
    "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
    "th,td{border:1px solid #dde1e7;padding:3px 8px;text-align:left;vertical-align:top}"
    "th{background:#eef1f5}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "table.kv th{width:14em}"
    "tr.flagged td{background:#fde8e8}tr.failed td{background:#fff4e5;color:#7a4b00}"
    "pre{background:#f3f5f8;border:1px solid #e2e6ec;padding:8px 10px;overflow-x:auto;"
    "font-size:12px;line-height:1.35}"
    "figure.plot{margin:10px 0;border:1px solid #e2e6ec;background:#fff}"
    "figure.plot svg{display:block;width:100%;height:auto;max-width:960px}"
    "figure.plot figcaption{font-size:12px;color:#5a6170;padding:2px 8px}"
    "figure.missing{background:#fff4e5;padding:10px 14px;border-color:#f0c36d}"
    ".badge{display:inline-block;border-radius:10px;padding:1px 9px;margin-right:6px;"
    "font-size:12px;font-weight:600}"
    ".ok{background:#dff3e4;color:#1b5e2b}.warn{background:#fff0c2;color:#6b4f00}"
    ".bad{background:#fde0e0;color:#8a1c1c}"
    "ul.warnings li{margin:4px 0}"
    "nav ol{columns:2;margin:6px 0}"
    "details{margin:6px 0}summary{cursor:pointer;color:#1f3a5f}"
    "footer{color:#6a7180;font-size:12px;text-align:center;padding:10px}";

/* fn's report.txt text for arg, its blank lines at both ends cut; NULL when it wrote
 * nothing (or memory ran out). */
static char *html_capture(void (*fn)(FILE *, const json_t *), const json_t *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    fn(m, arg);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    size_t start = 0;
    while (start < len && buf[start] == '\n')
        start++;
    while (len > start && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        len--;
    if (len == start) {
        free(buf);
        return NULL;
    }
    memmove(buf, buf + start, len - start);
    buf[len - start] = '\0';
    return buf;
}

/* Captured report.txt text as preformatted text; nothing for NULL. */
static void html_pre_text(FILE *f, const char *text)
{
    if (!text)
        return;
    fputs("<pre>", f);
    mb_html_escape(f, text);
    fputs("</pre>\n", f);
}

/* A report.txt block as preformatted text; nothing when fn writes nothing. */
static void html_pre(FILE *f, void (*fn)(FILE *, const json_t *), const json_t *arg)
{
    char *text = html_capture(fn, arg);
    html_pre_text(f, text);
    free(text);
}

static html_plot_t *html_plot_find(html_ctx_t *h, const char *name)
{
    for (size_t i = 0; i < h->nplots; i++)
        if (strcmp(h->plots[i].name, name) == 0)
            return &h->plots[i];
    return NULL;
}

/* Plot p inline, or the note that says why it is not there. The SVG goes to memory
 * first: a file that turns out unusable must leave the note, not half a figure. */
static void html_plot_show(FILE *f, html_ctx_t *h, html_plot_t *p)
{
    char why[512] = "out of memory", prefix[64], id[200];
    char *svg = NULL, *buf = NULL;
    size_t len = 0;
    int rc = -1;
    p->shown = true;
    snprintf(prefix, sizeof prefix, "p%zu-", (size_t)(p - h->plots));
    FILE *m = open_memstream(&buf, &len);
    if (m && asprintf(&svg, "%s/plots/%s.svg", h->dir, p->name) >= 0) {
        rc = mb_html_svg_inline(m, svg, prefix, why, sizeof why);
    } else {
        svg = NULL;
    }
    if (m && fclose(m) != 0 && rc == 0) {
        rc = -1;
        snprintf(why, sizeof why, "out of memory");
    }
    mb_html_id(p->name, id, sizeof id);
    if (rc == 0) {
        fprintf(f, "<figure class=\"plot\" id=\"plot-%s\" data-plot=\"", id);
        mb_html_escape(f, p->name);
        fputs("\">\n", f);
        fwrite(buf, 1, len, f);
        fputs("<figcaption>plots/", f);
        mb_html_escape(f, p->name);
        fputs(".svg (also .png; <code>gnuplot ", f);
        mb_html_escape(f, p->name);
        fputs(".gp</code> in plots/ redraws it)</figcaption>\n</figure>\n", f);
    } else {
        h->plots_missing++;
        fprintf(f, "<figure class=\"plot missing\" id=\"plot-%s\" data-missing-plot=\"", id);
        mb_html_escape(f, p->name);
        fputs("\"><strong>Plot not drawn: ", f);
        mb_html_escape(f, p->name);
        fputs("</strong> &mdash; plots/", f);
        mb_html_escape(f, p->name);
        fputs(".svg: ", f);
        mb_html_escape(f, why);
        fputs(". Its data and gnuplot script are in plots/; <code>mbsuite plot ", f);
        mb_html_escape(f, h->dir);
        fputs("</code> draws it (gnuplot needed) and rewrites this page.</figure>\n", f);
    }
    free(buf);
    free(svg);
}

/* The plot named name, if the run has it and no section showed it yet. */
static void html_plot_named(FILE *f, html_ctx_t *h, const char *name)
{
    html_plot_t *p = html_plot_find(h, name);
    if (p && !p->shown)
        html_plot_show(f, h, p);
}

/* The plot of benchmark bench (plot.h names it after the benchmark). */
static void html_plot_of(FILE *f, html_ctx_t *h, const json_t *bench)
{
    char *name = mb_plot_file_name(mb_report_text_str(bench, "name"));
    if (name)
        html_plot_named(f, h, name);
    free(name);
}

static void html_kv_num(FILE *f, const char *key, const json_t *obj, const char *field,
                        const char *unit)
{
    double v;
    char buf[HTML_CELL_MAX];
    if (!mb_report_text_num(obj, field, &v))
        return;
    char num[64];
    mb_report_text_sig(v, num, sizeof num);
    snprintf(buf, sizeof buf, "%s%s%s", num, unit ? " " : "", unit ? unit : "");
    mb_html_kv(f, key, buf);
}

static bool html_bench_has_fit(const json_t *root, const char *name)
{
    size_t i;
    const json_t *fit;
    json_array_foreach(json_object_get(root, "fits"), i, fit)
    {
        const char *n = mb_report_text_str(fit, "name");
        if (n && name && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------- the warnings */

static void html_warnings(FILE *f, html_ctx_t *h)
{
    mb_report_html_warnings(f, h->root, h->plots_missing);
}

/* ------------------------------------------------------- system and provenance */

static void html_system(FILE *f, html_ctx_t *h)
{
    const json_t *root = h->root, *sys = json_object_get(root, "system");
    char buf[HTML_CELL_MAX * 4];
    size_t i;
    const json_t *v;

    fputs("<table class=\"kv\">\n", f);
    snprintf(buf, sizeof buf, "%s %s",
             mb_report_text_dash(mb_report_text_str(json_object_get(sys, "suite"), "name")),
             mb_report_text_dash(mb_report_text_str(json_object_get(sys, "suite"), "version")));
    mb_html_kv(f, "suite", buf);
    mb_html_kv(f, "started (UTC)", mb_report_text_str(root, "started_utc"));
    mb_html_kv(f, "finished (UTC)", mb_report_text_str(root, "finished_utc"));
    mb_html_kv(f, "complete", json_is_true(json_object_get(root, "complete")) ? "yes" : "no");
    buf[0] = '\0';
    json_array_foreach(json_object_get(sys, "command_line"), i, v)
    {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", json_string_value(v) ? json_string_value(v) : "?");
    }
    mb_html_kv(f, "command line", buf);
    mb_html_kv(f, "compiler", mb_report_text_str(sys, "compiler"));
    mb_html_kv(f, "flags", mb_report_text_str(sys, "cflags"));
    const json_t *mpi = json_object_get(sys, "mpi");
    snprintf(buf, sizeof buf, "%s (MPI %s)", mb_report_text_dash(mb_report_text_str(mpi, "library")),
             mb_report_text_dash(mb_report_text_str(mpi, "standard")));
    mb_html_kv(f, "MPI", buf);
    buf[0] = '\0';
    const char *key;
    json_object_foreach(json_object_get(mpi, "env"), key, v)
    {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s=%s", n ? " " : "", key,
                 json_string_value(v) ? json_string_value(v) : "?");
    }
    mb_html_kv(f, "MPI environment", buf[0] ? buf : "(none set)");
    char r[32], n[32];
    mb_report_text_value(json_object_get(sys, "ranks"), r, sizeof r);
    mb_report_text_value(json_object_get(sys, "nodes"), n, sizeof n);
    snprintf(buf, sizeof buf, "%s ranks on %s node(s)", r, n);
    mb_html_kv(f, "ranks", buf);
    const json_t *clock = json_object_get(sys, "clock");
    mb_html_kv(f, "clock", mb_report_text_str(clock, "name"));
    html_kv_num(f, "clock resolution", clock, "resolution_ns", "ns");
    html_kv_num(f, "timing overhead", clock, "overhead_ns", "ns");
    double enough;
    if (mb_report_text_num(clock, "enough_ns", &enough)) {
        char d[64];
        mb_report_text_duration(enough, d, sizeof d);
        snprintf(buf, sizeof buf, "%s (%s%s)", d,
                 mb_report_text_dash(mb_report_text_str(clock, "enough_source")),
                 json_is_true(json_object_get(clock, "enough_verified")) ? ", verified" : "");
        mb_html_kv(f, "enough (experiment length)", buf);
    }
    html_kv_num(f, "loop overhead", clock, "loop_overhead_ns", "ns");
    html_kv_num(f, "largest clock offset between nodes", json_object_get(root, "clock_sync"),
                "max_abs_offset_ns", "ns");
    fputs("</table>\n", f);

    /* The nodes as seed 003's Table 1 describes them, one row each. */
    const json_t *nodes = json_object_get(sys, "node_list");
    if (json_array_size(nodes) > 0) {
        fputs("<h3>Nodes</h3>\n<table>\n<tr>", f);
        static const char *const heads[] = {
            "node",   "host", "CPU",    "sockets",  "cores", "PUs",          "memory",
            "caches", "OS",   "kernel", "governor", "THP",   "clock source", "network"};
        for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
            mb_html_th(f, heads[k]);
        fputs("</tr>\n", f);
        const json_t *node;
        json_array_foreach(nodes, i, node)
        {
            char cell[HTML_CELL_MAX];
            fprintf(f, "<tr><td class=\"n\">%zu</td>", i);
            mb_html_td(f, mb_report_text_str(node, "host"), false);
            mb_html_td(f, mb_report_text_str(node, "cpu_model"), false);
            static const char *const counts[] = {"sockets", "cores", "pus"};
            for (size_t k = 0; k < 3; k++) {
                mb_report_text_value(json_object_get(node, counts[k]), cell, sizeof cell);
                mb_html_td(f, cell, true);
            }
            double mem;
            cell[0] = '\0';
            if (mb_report_text_num(node, "memory_bytes", &mem))
                mb_report_text_bytes(mem, cell, sizeof cell);
            mb_html_td(f, cell, true);
            char caches[HTML_CELL_MAX] = "";
            size_t c;
            const json_t *cache;
            json_array_foreach(json_object_get(node, "caches"), c, cache)
            {
                char sz[32];
                double bytes = 0;
                mb_report_text_num(cache, "size_bytes", &bytes);
                mb_report_text_bytes(bytes, sz, sizeof sz);
                const char *type = mb_report_text_str(cache, "type");
                size_t len = strlen(caches);
                snprintf(caches + len, sizeof caches - len, "%sL%lld%s %s", c ? ", " : "",
                         (long long)json_integer_value(json_object_get(cache, "level")),
                         type && strcmp(type, "instruction") == 0 ? "i" : "", sz);
            }
            mb_html_td(f, caches, false);
            static const char *const texts[] = {"os", "kernel", "governor", "thp", "clocksource"};
            for (size_t k = 0; k < 5; k++)
                mb_html_td(f, mb_report_text_str(node, texts[k]), false);
            char net[1024];
            mb_report_text_network(node, false, net, sizeof net);
            mb_html_td(f, net, false);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    fputs("<details><summary>the whole context, as in report.txt (bindings of every rank, "
          "MPI tuning)</summary>\n",
          f);
    html_pre(f, mb_report_context, root);
    fputs("</details>\n", f);
    if (json_object_get(root, "timings")) {
        fputs("<details><summary>where the run's time went</summary>\n", f);
        html_pre(f, mb_report_timings, root);
        fputs("</details>\n", f);
    }
}

/* ------------------------------------------------------------------ pre-flight */

static void html_preflight_row(FILE *f, size_t index, const json_t *node)
{
    char cell[HTML_CELL_MAX];
    double v;
    bool flagged = json_is_true(json_object_get(node, "flagged"));
    fprintf(f, "<tr%s><td class=\"n\">%zu</td>", flagged ? " class=\"flagged\"" : "", index);
    mb_html_td(f, mb_report_text_str(node, "host"), false);
    cell[0] = '\0';
    if (mb_report_text_num(node, "mhz", &v))
        snprintf(cell, sizeof cell, "%.1f", v);
    mb_html_td(f, cell, true);
    cell[0] = '\0';
    if (mb_report_text_num(node, "tick_ns", &v))
        snprintf(cell, sizeof cell, "%.4f", v);
    mb_html_td(f, cell, true);
    mb_report_text_value(json_object_get(node, "cores"), cell, sizeof cell);
    mb_html_td(f, cell, true);
    mb_report_text_value(json_object_get(node, "ranks"), cell, sizeof cell);
    mb_html_td(f, cell, true);
    static const char *const pcts[] = {"p50_pct", "p90_pct", "p99_pct", "max_pct"};
    for (size_t k = 0; k < 4; k++) {
        cell[0] = '\0';
        if (mb_report_text_num(json_object_get(node, "perturb"), pcts[k], &v))
            snprintf(cell, sizeof cell, "%.2f", v);
        mb_html_td(f, cell, true);
    }
    cell[0] = '\0';
    if (mb_report_text_num(json_object_get(node, "detour"), "lost_pct", &v))
        snprintf(cell, sizeof cell, "%.2f", v);
    mb_html_td(f, cell, true);
    if (flagged) {
        fputs("<td><span class=\"badge bad\">flagged</span>", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(node, "why")));
        fputs("</td>", f);
    } else {
        fputs("<td><span class=\"badge ok\">ok</span></td>", f);
    }
    fputs("</tr>\n", f);
}

static void html_preflight(FILE *f, html_ctx_t *h)
{
    const json_t *pre = json_object_get(h->root, "preflight");
    const json_t *nodes = json_object_get(pre, "nodes"), *node;
    double v;
    size_t i;
    fputs("<p>Every node's clock speed (lmbench's mhz, seed 000) and noise (p1bench's "
          "perturbation test, seed 002: how much slower than its p10 run each equal spin run "
          "was, all ranks at once; away %: the share of time the detour test found the CPU "
          "taken away, which medians of short experiments leave out and a loop timed whole "
          "takes in), before the suite.",
          f);
    if (mb_report_text_num(pre, "median_mhz", &v))
        fprintf(f, " Cluster median %.1f MHz; %lld of %zu node(s) flagged.", v,
                (long long)json_integer_value(json_object_get(pre, "flagged_nodes")),
                json_array_size(nodes));
    fputs(" Flagged nodes first.</p>\n<table>\n<tr>", f);
    static const char *const heads[] = {"node",  "host",  "MHz",   "tick ns", "cores",  "ranks",
                                        "p50 %", "p90 %", "p99 %", "max %",   "away %", "verdict"};
    for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
        mb_html_th(f, heads[k]);
    fputs("</tr>\n", f);
    for (int pass = 0; pass < 2; pass++) {
        json_array_foreach(nodes, i, node)
        {
            if (json_is_true(json_object_get(node, "flagged")) == (pass == 0))
                html_preflight_row(f, i, node);
        }
    }
    fputs("</table>\n", f);
    html_plot_named(f, h, "nodes");
    html_plot_named(f, h, "perturb");
    fputs("<details><summary>every core's noise and the cycles per expression, as in "
          "report.txt</summary>\n",
          f);
    html_pre(f, mb_report_preflight, pre);
    fputs("</details>\n", f);
}

/* --------------------------------------------------------------- node figures */

/* The benchmarks with no fitted model (the harness's, the OS's, threads, memory), by group,
 * the group "os" first: the per-node figures. */
static void html_node_figures(FILE *f, html_ctx_t *h)
{
    const json_t *benches = json_object_get(h->root, "benchmarks"), *bench;
    size_t i;
    fputs("<p>Figures of one node: the operating system's, the timing harness's, threads' "
          "and memory's. Each benchmark's table gives the median (or the minimum where the "
          "benchmark asks for it) of its experiments with the median's 95% confidence "
          "interval.</p>\n",
          f);
    /* Groups in order of first appearance, "os" first. */
    const char *groups[64];
    size_t ngroups = 0;
    groups[ngroups++] = "os";
    json_array_foreach(benches, i, bench)
    {
        const char *g = mb_report_text_str(bench, "group");
        bool seen = false;
        for (size_t k = 0; k < ngroups && g; k++)
            seen |= strcmp(groups[k], g) == 0;
        if (g && !seen && ngroups < 64)
            groups[ngroups++] = g;
    }
    for (size_t k = 0; k < ngroups; k++) {
        bool heading = false;
        json_array_foreach(benches, i, bench)
        {
            const char *g = mb_report_text_str(bench, "group");
            if (!g || strcmp(g, groups[k]) != 0 || !mb_record_ran(bench) ||
                html_bench_has_fit(h->root, mb_report_text_str(bench, "name")))
                continue;
            if (!heading) {
                fputs("<h3 class=\"group\">group <code>", f);
                mb_html_escape(f, groups[k]);
                fputs("</code></h3>\n", f);
                heading = true;
            }
            mb_report_html_bench_heading(f, bench);
            html_plot_of(f, h, bench);
            mb_report_html_points(f, bench);
            mb_report_html_derived(f, bench);
        }
    }
}

static bool html_has_node_figures(const json_t *root)
{
    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        if (mb_record_ran(bench) && !html_bench_has_fit(root, mb_report_text_str(bench, "name")))
            return true;
    }
    return false;
}

/* ---------------------------------------------------------------- fitted models */

static void html_models(FILE *f, html_ctx_t *h)
{
    const json_t *root = h->root, *bench, *fit;
    size_t i, j;
    fputs("<p>Each primitive's time t(p, d) fitted by weighted least squares (seed 001): "
          "segments in d, each a sum of non-negative terms; coefficients in &micro;s "
          "(per byte for d terms) with their standard errors; chi&sup2;/dof and Q say how well "
          "the model fits the points. <strong>Held-out error</strong> is the median error of the "
          "model on points it was not fitted to: the figure to trust when predicting.</p>\n",
          f);
    fputs("<details open><summary>seed 001's table, LogGP parameters and the orders of "
          "magnitude, as in report.txt</summary>\n",
          f);
    html_pre(f, mb_report_fits, root);
    fputs("</details>\n", f);
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        const char *name = mb_report_text_str(bench, "name");
        if (!mb_record_ran(bench) || !html_bench_has_fit(root, name))
            continue;
        mb_report_html_bench_heading(f, bench);
        html_plot_of(f, h, bench);
        fputs("<table>\n<tr>", f);
        static const char *const heads[] = {
            "series",          "d", "model t (\u00b5s)",
            "chi\u00b2 / dof", "Q", "held-out error (points' scatter)"};
        for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
            mb_html_th(f, heads[k]);
        fputs("</tr>\n", f);
        json_array_foreach(json_object_get(root, "fits"), j, fit)
        {
            const char *n = mb_report_text_str(fit, "name");
            if (n && strcmp(n, name) == 0)
                mb_report_html_fit_rows(f, fit);
        }
        fputs("</table>\n", f);
        json_array_foreach(json_object_get(root, "fits"), j, fit)
        {
            const char *n = mb_report_text_str(fit, "name");
            if (n && strcmp(n, name) == 0)
                mb_report_html_fit_family(f, fit);
        }
        mb_report_html_points(f, bench);
        mb_report_html_derived(f, bench);
    }
}

/* ------------------------------------------------------------------- memory */

static bool html_is_memory_plot(const char *name)
{
    return strcmp(name, "bandwidth") == 0 || strncmp(name, "mem_latency", 11) == 0;
}

static void html_memory(FILE *f, html_ctx_t *h)
{
    html_pre_text(f, h->cache_levels);
    for (size_t i = 0; i < h->nplots; i++)
        if (html_is_memory_plot(h->plots[i].name) && !h->plots[i].shown)
            html_plot_show(f, h, &h->plots[i]);
}

static void html_other_plots(FILE *f, html_ctx_t *h)
{
    for (size_t i = 0; i < h->nplots; i++)
        if (!h->plots[i].shown)
            html_plot_show(f, h, &h->plots[i]);
}

/* ------------------------------------------------------------------- the page */

/* Render one section's body with fn into memory and keep it under title. */
static int html_section(html_ctx_t *h, const char *id, const char *title,
                        void (*fn)(FILE *, html_ctx_t *))
{
    char *buf = NULL;
    size_t len = 0;
    if (h->nsections == HTML_MAX_SECTIONS)
        return -1;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return -1;
    fn(m, h);
    if (fclose(m) != 0) {
        free(buf);
        return -1;
    }
    h->sections[h->nsections++] = (html_section_t){.id = id, .title = title, .body = buf};
    return 0;
}

static void html_howell(FILE *f, html_ctx_t *h)
{
    fputs("<p>Howell's table (seed 001): reads and writes of a process's own cache, own "
          "memory and its neighbour's memory, one process active and all at once, with the "
          "harness's empty loop, timer and barrier; average and maximum over the node's "
          "processes, in ns per word.</p>\n",
          f);
    html_pre_text(f, h->howell);
}

static void html_node_tables(FILE *f, html_ctx_t *h)
{
    fputs("<p>Seed 003's lmbench tables, one row per node: mean \u00b1 standard error over "
          "<code>--runs</code> fresh processes where the run had them; a dash has its reason "
          "under its table.</p>\n",
          f);
    html_pre_text(f, h->node_tables);
}

static void html_patterns(FILE *f, html_ctx_t *h)
{
    fputs("<p>The fitted models checked against programs built from them: each composite "
          "pattern measured directly and predicted by summing its components' models.</p>\n",
          f);
    html_pre_text(f, h->patterns);
}

static bool html_has_memory(html_ctx_t *h)
{
    for (size_t i = 0; i < h->nplots; i++)
        if (html_is_memory_plot(h->plots[i].name))
            return true;
    return h->cache_levels != NULL;
}

static bool html_has_other_plots(html_ctx_t *h)
{
    for (size_t i = 0; i < h->nplots; i++)
        if (!h->plots[i].shown)
            return true;
    return false;
}

static void html_head(FILE *f, const html_ctx_t *h)
{
    const json_t *root = h->root, *sys = json_object_get(root, "system");
    const char *host =
        mb_report_text_str(json_array_get(json_object_get(sys, "node_list"), 0), "host");
    const char *started = mb_report_text_str(root, "started_utc");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    mb_html_escapef(f, "mbsuite report: %s, %s", mb_report_text_dash(host),
                    mb_report_text_dash(started));
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>mbsuite report</h1>\n<p>",
            html_style);
    char ranks[32], nodes[32];
    mb_report_text_value(json_object_get(sys, "ranks"), ranks, sizeof ranks);
    mb_report_text_value(json_object_get(sys, "nodes"), nodes, sizeof nodes);
    mb_html_escapef(f, "%s \u00b7 %s ranks on %s node(s) \u00b7 %s \u00b7 started %s",
                    mb_report_text_dash(host), ranks, nodes,
                    mb_report_text_dash(mb_report_text_str(json_object_get(sys, "mpi"), "library")),
                    mb_report_text_dash(started));
    fputs("</p>\n<p>", f);
    size_t i, ran = 0, skipped = 0;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        if (mb_record_ran(bench))
            ran++;
        else
            skipped++;
    }
    size_t failed = mb_warn_count_points(root, MB_WARN_POINT_FAILED);
    if (json_is_true(json_object_get(root, "complete")))
        fputs("<span class=\"badge ok\">complete</span>", f);
    else
        fputs("<span class=\"badge bad\">incomplete</span>", f);
    fprintf(f, "<span class=\"badge ok\">%zu benchmarks</span>", ran);
    if (skipped)
        fprintf(f, "<span class=\"badge warn\">%zu skipped</span>", skipped);
    fprintf(f, "<span class=\"badge %s\">%zu failed points</span>", failed ? "bad" : "ok", failed);
    fprintf(f, "<span class=\"badge %s\">%zu of %zu plots drawn</span>",
            h->plots_missing ? "warn" : "ok", h->nplots - h->plots_missing, h->nplots);
    fputs("</p>\n</header>\n<main>\n", f);
}

static int html_plan(html_ctx_t *h)
{
    mb_plot_files_t files;
    char err[512];
    if (mb_plot_plan(h->root, h->dir, &files, err, sizeof err) != 0) {
        mb_plot_files_free(&files);
        return -1;
    }
    h->plots = calloc(files.nscripts ? files.nscripts : 1, sizeof *h->plots);
    if (!h->plots) {
        mb_plot_files_free(&files);
        return -1;
    }
    for (size_t i = 0; i < files.nscripts; i++) {
        const char *slash = strrchr(files.scripts[i], '/');
        char *name = strdup(slash ? slash + 1 : files.scripts[i]);
        if (!name)
            break;
        size_t n = strlen(name);
        if (n > 3 && strcmp(name + n - 3, ".gp") == 0)
            name[n - 3] = '\0';
        h->plots[h->nplots++].name = name;
    }
    mb_plot_files_free(&files);
    return 0;
}

int mb_report_html_write(FILE *f, const json_t *root, const char *dir)
{
    html_ctx_t h = {.root = root, .dir = dir};
    int ret = -1;
    if (html_plan(&h) != 0)
        goto out;
    h.howell = html_capture(mb_report_memory_howell, root);
    h.node_tables = html_capture(mb_report_node_tables, root);
    h.cache_levels = html_capture(mb_report_memory_cache_levels, root);
    h.patterns = html_capture(mb_report_patterns, root);
    /* The order people read in: the machine, its health, then the figures. Warnings are
     * rendered last (they count the plots that were missing) but shown first. */
    if (html_section(&h, "system", "System and provenance", html_system) != 0)
        goto out;
    if (json_is_object(json_object_get(root, "preflight")) &&
        html_section(&h, "preflight", "Pre-flight: every node's clock and noise",
                     html_preflight) != 0)
        goto out;
    if (h.node_tables &&
        html_section(&h, "node-tables", "Seed 003's tables per node", html_node_tables) != 0)
        goto out;
    if (h.howell &&
        html_section(&h, "howell", "Howell's table", html_howell) != 0)
        goto out;
    if (html_has_memory(&h) &&
        html_section(&h, "memory", "Memory: latency curve, caches, bandwidth", html_memory) != 0)
        goto out;
    if (html_has_node_figures(root) &&
        html_section(&h, "node-figures", "OS and node figures", html_node_figures) != 0)
        goto out;
    if (json_array_size(json_object_get(root, "fits")) > 0 &&
        html_section(&h, "models", "Fitted models", html_models) != 0)
        goto out;
    if (h.patterns &&
        html_section(&h, "patterns", "Predicted vs measured", html_patterns) != 0)
        goto out;
    if (html_has_other_plots(&h) &&
        html_section(&h, "other-plots", "Other plots", html_other_plots) != 0)
        goto out;
    if (html_section(&h, "warnings", "Warnings", html_warnings) != 0)
        goto out;

    html_head(f, &h);
    html_section_t *warn = &h.sections[h.nsections - 1];
    fputs("<nav id=\"contents\">\n<h2>Contents</h2>\n<ol>\n", f);
    fprintf(f, "<li><a href=\"#%s\">%s</a></li>\n", warn->id, warn->title);
    for (size_t s = 0; s + 1 < h.nsections; s++)
        fprintf(f, "<li><a href=\"#%s\">%s</a></li>\n", h.sections[s].id, h.sections[s].title);
    fputs("</ol>\n</nav>\n", f);
    for (size_t k = 0; k < h.nsections; k++) {
        html_section_t *s = k == 0 ? warn : &h.sections[k - 1];
        fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", s->id, s->title);
        fputs(s->body, f);
        fputs("</section>\n", f);
    }
    fputs("</main>\n<footer>Rendered from results.json (schema ", f);
    mb_html_escape(f, mb_report_text_dash(mb_report_text_str(root, "schema")));
    fputs("); report.txt has the same tables as text, results.json every figure.</footer>\n"
          "</body>\n</html>\n",
          f);
    ret = ferror(f) ? -1 : 0;
out:
    for (size_t s = 0; s < h.nsections; s++)
        free(h.sections[s].body);
    for (size_t i = 0; i < h.nplots; i++)
        free(h.plots[i].name);
    free(h.plots);
    free(h.howell);
    free(h.node_tables);
    free(h.cache_levels);
    free(h.patterns);
    return ret;
}

typedef struct html_file_arg {
    const json_t *root;
    const char *dir;
} html_file_arg_t;

static int html_file_writer(FILE *f, void *arg)
{
    const html_file_arg_t *a = arg;
    return mb_report_html_write(f, a->root, a->dir);
}

int mb_report_html_write_file(const char *dir, const json_t *root, char *err, size_t errlen)
{
    char *path = NULL;
    if (asprintf(&path, "%s/report.html", dir) < 0) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    html_file_arg_t arg = {.root = root, .dir = dir};
    int rc = mb_file_write_atomic(path, html_file_writer, &arg, err, errlen);
    free(path);
    return rc;
}

int mb_report_html_regenerate(const char *dir, char *err, size_t errlen)
{
    char *path = NULL;
    json_error_t jerr;
    if (asprintf(&path, "%s/results.json", dir) < 0) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    json_t *root = json_load_file(path, 0, &jerr);
    int rc = -1;
    if (!json_is_object(root)) {
        if (root || jerr.line <= 0)
            snprintf(err, errlen, "%s: cannot read: %s", path, root ? "not an object" : jerr.text);
        else
            snprintf(err, errlen, "%s:%d:%d: malformed JSON: %s", path, jerr.line, jerr.column,
                     jerr.text);
    } else {
        rc = mb_report_html_write_file(dir, root, err, errlen);
    }
    json_decref(root);
    free(path);
    return rc;
}
