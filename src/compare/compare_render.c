/* SPDX-License-Identifier: MIT */
#include "compare_render.h"

#include <stdbool.h>
#include <string.h>

#include "drift.h"
#include "html_escape.h"

/* At most this many differences in the text; compare.json and compare.html list all. */
#define RENDER_TEXT_DIFFS 40

static const char *render_str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static void render_run_line(FILE *f, const char *which, const json_t *r)
{
    const json_t *raw = json_object_get(r, "raw");
    fprintf(f, "%s = %s (started %s, %lld ranks on %lld nodes, %s%s; raw samples: %s)\n", which,
            render_str(r, "dir"), render_str(r, "started_utc"),
            (long long)json_integer_value(json_object_get(r, "ranks")),
            (long long)json_integer_value(json_object_get(r, "nodes")), render_str(r, "mpi"),
            json_is_true(json_object_get(r, "complete")) ? "" : ", INCOMPLETE",
            json_is_string(json_object_get(raw, "file")) ? render_str(raw, "file")
                                                         : render_str(raw, "note"));
}

/* A number for the tables: "-" where a point has none. */
static void render_num(char *buf, size_t len, const json_t *v, const char *fmt, double scale)
{
    if (json_is_number(v))
        snprintf(buf, len, fmt, json_number_value(v) * scale);
    else
        snprintf(buf, len, "-");
}

typedef struct render_row {
    char a[32], b[32], change[32], p[32], ci[48];
    const char *params; /* "-" for a benchmark without parameters */
} render_row_t;

static void render_row(const json_t *p, render_row_t *r)
{
    r->params = render_str(p, "params")[0] ? render_str(p, "params") : "-";
    render_num(r->a, sizeof r->a, json_object_get(p, "median_a_ns"), "%.4g", 1);
    render_num(r->b, sizeof r->b, json_object_get(p, "median_b_ns"), "%.4g", 1);
    render_num(r->change, sizeof r->change, json_object_get(p, "change"), "%+.1f%%", 100);
    render_num(r->p, sizeof r->p, json_object_get(p, "p_value"), "%.2g", 1);
    const json_t *ci = json_object_get(p, "ratio_ci95");
    if (json_array_size(ci) == 2)
        snprintf(r->ci, sizeof r->ci, "[%.4g, %.4g]", json_number_value(json_array_get(ci, 0)),
                 json_number_value(json_array_get(ci, 1)));
    else
        snprintf(r->ci, sizeof r->ci, "%s",
                 strcmp(render_str(p, "method"), "ci95") == 0 ? "(CIs)" : "-");
}

/* The runs' drift probe medians (drift.h), where both have one, and whether the node was
 * in another state in one of them: then a difference beyond noise may be that alone. Into
 * line (empty where a run has none). */
static void render_drift(const json_t *cmp, char *line, size_t len)
{
    const json_t *a = json_object_get(json_object_get(cmp, "a"), "drift_median_ns"),
                 *b = json_object_get(json_object_get(cmp, "b"), "drift_median_ns");
    line[0] = '\0';
    if (!json_is_number(a) || !json_is_number(b) || json_number_value(a) <= 0)
        return;
    double ratio = json_number_value(b) / json_number_value(a);
    bool apart = mb_drift_off(json_number_value(b), json_number_value(a));
    snprintf(line, len, "drift probe (0-byte pingpong), run median: A %.0f ns, B %.0f ns (%.2fx)%s",
             json_number_value(a), json_number_value(b), ratio,
             apart ? ": the node was in another state in one run, and a difference beyond "
                     "noise may be that alone"
                   : "");
}

/* The runs' clock speeds (the pre-flight's mhz, median over nodes), where both have one, and
 * whether they differ by more than the pre-flight's own tolerance for a node's clock (2%):
 * the VMs' host moves a core's clock, by 5.6% between two default runs half an hour apart
 * (2026-11-28), and every point a core's cycles bound (calls, loops, caches) moves with it,
 * beyond noise; from one second to the next it wanders too (a dependent add chain, best of
 * 500 windows, read 4139-4266 MHz over 20 s), so one reading is no closer than that. */
#define RENDER_CLOCK_APART 1.02
static void render_clock(const json_t *cmp, char *line, size_t len)
{
    const json_t *a = json_object_get(json_object_get(cmp, "a"), "median_mhz"),
                 *b = json_object_get(json_object_get(cmp, "b"), "median_mhz");
    line[0] = '\0';
    if (!json_is_number(a) || !json_is_number(b) || json_number_value(a) <= 0 ||
        json_number_value(b) <= 0)
        return;
    double ratio = json_number_value(b) / json_number_value(a);
    char why[160] = "";
    if (ratio > RENDER_CLOCK_APART || ratio * RENDER_CLOCK_APART < 1)
        snprintf(why, sizeof why,
                 ": the cores ran at another speed in one run, and a point bound by their "
                 "cycles moves with it (by %+.1f%%)",
                 100 * (1 / ratio - 1));
    snprintf(line, len,
             "clock speed at each run's start (pre-flight mhz, median over nodes): "
             "A %.1f MHz, B %.1f MHz (%.3fx)%s",
             json_number_value(a), json_number_value(b), ratio, why);
}

/* A benchmark's drift probe readings in both runs (compare_runs.c), into line; empty where
 * a run did not probe it. */
static void render_bench_drift(const json_t *cmp, const char *bench, char *line, size_t len)
{
    const json_t *d = json_object_get(json_object_get(cmp, "drift_by_benchmark"), bench);
    const json_t *a = json_object_get(d, "a_ns"), *b = json_object_get(d, "b_ns");
    line[0] = '\0';
    if (!d)
        return;
    snprintf(line, len,
             "drift probe before and after it: A %.0f and %.0f ns, B %.0f and %.0f ns "
             "(%.2fx)%s",
             json_number_value(json_array_get(a, 0)), json_number_value(json_array_get(a, 1)),
             json_number_value(json_array_get(b, 0)), json_number_value(json_array_get(b, 1)),
             json_number_value(json_object_get(d, "ratio")),
             json_is_true(json_object_get(d, "apart"))
                 ? ": measured in another state of the node in one run, and a difference "
                   "beyond noise may be that alone"
                 : "");
}

int mb_compare_write_text(FILE *f, const json_t *cmp)
{
    fputs("mbsuite compare: B against A\n", f);
    render_run_line(f, "A", json_object_get(cmp, "a"));
    render_run_line(f, "B", json_object_get(cmp, "b"));
    char line[512];
    render_drift(cmp, line, sizeof line);
    if (line[0])
        fprintf(f, "%s\n", line);
    render_clock(cmp, line, sizeof line);
    if (line[0])
        fprintf(f, "%s\n", line);
    fprintf(f, "method: %s\n\n", render_str(json_object_get(cmp, "method"), "text"));

    const json_t *diffs = json_object_get(cmp, "differences");
    fprintf(f, "differences in system, configuration, methods and budget cuts: %zu\n",
            json_array_size(diffs));
    for (size_t i = 0; i < json_array_size(diffs) && i < RENDER_TEXT_DIFFS; i++) {
        const json_t *d = json_array_get(diffs, i);
        const char *va = json_string_value(json_object_get(d, "a"));
        const char *vb = json_string_value(json_object_get(d, "b"));
        fprintf(f, "  %s: %s -> %s\n", render_str(d, "path"), va ? va : "(absent)",
                vb ? vb : "(absent)");
    }
    if (json_array_size(diffs) > RENDER_TEXT_DIFFS)
        fprintf(f, "  ... and %zu more (compare.json lists all)\n",
                json_array_size(diffs) - RENDER_TEXT_DIFFS);

    fprintf(f, "\nsummary: %s\n", render_str(json_object_get(cmp, "summary"), "text"));

    const json_t *points = json_object_get(cmp, "points");
    const char *bench = NULL;
    fprintf(f, "\nper point (median ns; change = B / A - 1; p: Mann-Whitney; CI: bootstrap of "
               "B / A):\n");
    for (size_t i = 0; i < json_array_size(points); i++) {
        const json_t *p = json_array_get(points, i);
        if (!bench || strcmp(bench, render_str(p, "benchmark")) != 0) {
            bench = render_str(p, "benchmark");
            fprintf(f, "\n%s\n", bench);
            render_bench_drift(cmp, bench, line, sizeof line);
            if (line[0])
                fprintf(f, "  %s\n", line);
            fprintf(f, "  %-36s %11s %11s %8s %8s %17s  %s\n", "params", "A", "B", "change", "p",
                    "ratio 95% CI", "verdict");
        }
        render_row_t r;
        render_row(p, &r);
        const char *verdict = render_str(p, "verdict");
        bool marked = strcmp(verdict, "slower") == 0 || strcmp(verdict, "faster") == 0;
        fprintf(f, "  %-36s %11s %11s %8s %8s %17s  %s%s%s%s\n", r.params, r.a,
                r.b, r.change, r.p, r.ci, marked ? "** " : "", verdict,
                json_object_get(p, "why") ? ": " : "", render_str(p, "why"));
    }
    for (int side = 0; side < 2; side++) {
        const json_t *only = json_object_get(cmp, side ? "only_b" : "only_a");
        if (json_array_size(only))
            fprintf(f, "\nonly in %s:\n", side ? "B" : "A");
        for (size_t i = 0; i < json_array_size(only); i++)
            fprintf(f, "  %s %s\n", render_str(json_array_get(only, i), "benchmark"),
                    render_str(json_array_get(only, i), "params"));
    }
    return ferror(f) ? -1 : 0;
}

static void render_html_run(FILE *f, const char *which, const json_t *r)
{
    const json_t *raw = json_object_get(r, "raw");
    fprintf(f, "<tr><th>%s</th><td>", which);
    mb_html_escape(f, render_str(r, "dir"));
    fputs("</td><td>", f);
    mb_html_escape(f, render_str(r, "started_utc"));
    fprintf(f, "</td><td>%lld</td><td>%lld</td><td>",
            (long long)json_integer_value(json_object_get(r, "ranks")),
            (long long)json_integer_value(json_object_get(r, "nodes")));
    mb_html_escape(f, render_str(r, "mpi"));
    fprintf(f, "</td><td>%s</td><td>", json_is_true(json_object_get(r, "complete")) ? "yes" : "no");
    mb_html_escape(f, json_is_string(json_object_get(raw, "file")) ? render_str(raw, "file")
                                                                     : render_str(raw, "note"));
    fputs("</td></tr>\n", f);
}

/* A paragraph of text, nothing for an empty one. */
static void render_html_line(FILE *f, const char *line)
{
    if (!line[0])
        return;
    fputs("<p>", f);
    mb_html_escape(f, line);
    fputs("</p>\n", f);
}

int mb_compare_write_html(FILE *f, const json_t *cmp)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<title>mbsuite compare</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
          "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
          "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\n"
          "td.n{text-align:right;font-family:monospace}\n"
          "tr.slower td{background:#f8d0d0}\ntr.faster td{background:#d0f0d0}\n"
          "tr.untested td{background:#e8e8e8;color:#666}\n"
          ".summary{font-size:1.1em;font-weight:bold}\n"
          ".key span{padding:2px 8px;margin-right:6px}\n"
          "</style></head><body>\n<h1>mbsuite compare: B against A</h1>\n"
          "<table><tr><th></th><th>directory</th><th>started</th><th>ranks</th>"
          "<th>nodes</th><th>MPI</th><th>complete</th><th>raw samples</th></tr>\n",
          f);
    render_html_run(f, "A", json_object_get(cmp, "a"));
    render_html_run(f, "B", json_object_get(cmp, "b"));
    fputs("</table>\n", f);
    char line[512];
    render_drift(cmp, line, sizeof line);
    render_html_line(f, line);
    render_clock(cmp, line, sizeof line);
    render_html_line(f, line);
    fputs("<p>", f);
    mb_html_escape(f, render_str(json_object_get(cmp, "method"), "text"));
    fputs("</p>\n<p class=\"summary\">", f);
    mb_html_escape(f, render_str(json_object_get(cmp, "summary"), "text"));
    fputs("</p>\n", f);

    const json_t *diffs = json_object_get(cmp, "differences");
    fprintf(f, "<h2>Differences in system, configuration, methods and budget cuts (%zu)</h2>\n",
            json_array_size(diffs));
    if (json_array_size(diffs)) {
        fputs("<table><tr><th>path</th><th>A</th><th>B</th></tr>\n", f);
        for (size_t i = 0; i < json_array_size(diffs); i++) {
            const json_t *d = json_array_get(diffs, i);
            const char *va = json_string_value(json_object_get(d, "a"));
            const char *vb = json_string_value(json_object_get(d, "b"));
            fputs("<tr><td>", f);
            mb_html_escape(f, render_str(d, "path"));
            fputs("</td><td>", f);
            mb_html_escape(f, va ? va : "(absent)");
            fputs("</td><td>", f);
            mb_html_escape(f, vb ? vb : "(absent)");
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }

    fputs("<h2>Per point</h2>\n<p class=\"key\"><span style=\"background:#f8d0d0\">slower "
          "beyond noise</span><span style=\"background:#d0f0d0\">faster beyond noise</span>"
          "<span style=\"background:#e8e8e8\">untested (failed)</span>unchanged: no colour. "
          "Medians in ns; change = B / A - 1; p: Mann-Whitney; CI: bootstrap of B / A.</p>\n",
          f);
    const json_t *points = json_object_get(cmp, "points");
    const char *bench = NULL;
    for (size_t i = 0; i < json_array_size(points); i++) {
        const json_t *p = json_array_get(points, i);
        if (!bench || strcmp(bench, render_str(p, "benchmark")) != 0) {
            if (bench)
                fputs("</table>\n", f);
            bench = render_str(p, "benchmark");
            fputs("<h3>", f);
            mb_html_escape(f, bench);
            fputs("</h3>\n", f);
            render_bench_drift(cmp, bench, line, sizeof line);
            render_html_line(f, line);
            fputs("<table><tr><th>params</th><th>A</th><th>B</th><th>change</th>"
                  "<th>p</th><th>ratio 95% CI</th><th>verdict</th></tr>\n",
                  f);
        }
        render_row_t r;
        render_row(p, &r);
        fprintf(f, "<tr class=\"%s\"><td>", render_str(p, "verdict"));
        mb_html_escape(f, r.params);
        fprintf(f,
                "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                "<td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s",
                r.a, r.b, r.change, r.p, r.ci, render_str(p, "verdict"));
        if (json_object_get(p, "why")) {
            fputs(": ", f);
            mb_html_escape(f, render_str(p, "why"));
        }
        fputs("</td></tr>\n", f);
    }
    if (bench)
        fputs("</table>\n", f);
    for (int side = 0; side < 2; side++) {
        const json_t *only = json_object_get(cmp, side ? "only_b" : "only_a");
        if (!json_array_size(only))
            continue;
        fprintf(f, "<h2>Only in %s (%zu)</h2>\n<ul>\n", side ? "B" : "A", json_array_size(only));
        for (size_t i = 0; i < json_array_size(only); i++) {
            fputs("<li>", f);
            mb_html_escape(f, render_str(json_array_get(only, i), "benchmark"));
            fputc(' ', f);
            mb_html_escape(f, render_str(json_array_get(only, i), "params"));
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
