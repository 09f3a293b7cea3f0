/* SPDX-License-Identifier: MIT */
/* report.html without a browser: values escaped, gnuplot's SVG inlined with its prolog and
 * scripts dropped and its ids made unique per plot, every plot of the run either inline or
 * a visible note, and the page self-contained. tests/html_check.sh renders a real run's
 * page in Chromium. Reads tests/data/ from the repository root (tests/run.sh runs there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "html_escape.h"
#include "html_svg.h"
#include "plot.h"
#include "report_html.h"
#include "tmpdir.h"

#define FIXTURE "tests/data/results_plot_fixture/results.json"

/* What fn wrote into a memory stream, as a new string. */
static char *captured(FILE *m, char **buf)
{
    assert_int_equal(fclose(m), 0);
    return *buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_escape(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    mb_html_escape(m, "<script>alert('x & \"y\"')</script>");
    mb_html_escape(m, NULL);
    char *s = captured(m, &buf);
    assert_string_equal(s, "&lt;script&gt;alert(&#39;x &amp; &quot;y&quot;&#39;)&lt;/script&gt;");
    free(s);
    char id[16];
    mb_html_id("mpi.ping pong/x", id, sizeof id);
    assert_string_equal(id, "mpi-ping-pong-x");
    mb_html_id("a-very-long-benchmark-name", id, 8);
    assert_string_equal(id, "a-very-");
}

static void test_svg_inline(void **state)
{
    (void)state;
    static const char svg[] =
        "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\">\n"
        "<svg \n viewBox=\"0 0 960 640\"\n xmlns=\"http://www.w3.org/2000/svg\">\n"
        "<script type=\"text/javascript\" xlink:href=\"gnuplot_svg.js\"/>\n"
        "<script type=\"text/javascript\"><![CDATA[ var a = 1 < 2; ]]></script>\n"
        "<defs><path id='gpPt0' d='M-1,0 h2'/><clipPath id=\"gpClip\"><rect/></clipPath></defs>\n"
        "<g id=\"gnuplot_plot_1\" clip-path=\"url(#gpClip)\"><use xlink:href='#gpPt0'/>"
        "<use href=\"#gpPt0\"/><text>grid='x' valid='y'</text></g>\n</svg>\n<!-- after -->\n";
    char *buf = NULL, why[128];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_int_equal(mb_html_svg_inline_text(m, svg, strlen(svg), "p3-", why, sizeof why), 0);
    char *s = captured(m, &buf);
    assert_true(strncmp(s, "<svg", 4) == 0);
    assert_null(strstr(s, "<?xml"));
    assert_null(strstr(s, "DOCTYPE"));
    assert_null(strstr(s, "script"));
    assert_null(strstr(s, "after"));
    assert_non_null(strstr(s, "id='p3-gpPt0'"));
    assert_non_null(strstr(s, "id=\"p3-gpClip\""));
    assert_non_null(strstr(s, "id=\"p3-gnuplot_plot_1\""));
    assert_non_null(strstr(s, "url(#p3-gpClip)"));
    assert_non_null(strstr(s, "xlink:href='#p3-gpPt0'"));
    assert_non_null(strstr(s, "<use href=\"#p3-gpPt0\""));
    /* Not attributes: text that merely contains "id='" stays as it is. */
    assert_non_null(strstr(s, "valid='y'"));
    assert_true(strstr(s, "</svg>\n") != NULL);
    free(s);

    m = open_memstream(&buf, &len);
    assert_int_equal(mb_html_svg_inline_text(m, "", 0, "p-", why, sizeof why), -1);
    assert_string_equal(why, "the file is empty");
    assert_int_equal(mb_html_svg_inline_text(m, "<html></html>", 13, "p-", why, sizeof why), -1);
    assert_string_equal(why, "no <svg> element in the file");
    assert_int_equal(mb_html_svg_inline(m, "/nonexistent/x.svg", "p-", why, sizeof why), -1);
    assert_string_equal(why, "No such file or directory");
    s = captured(m, &buf);
    assert_string_equal(s, ""); /* nothing written on failure */
    free(s);
}

static json_t *fixture(void)
{
    json_error_t je;
    json_t *root = json_load_file(FIXTURE, 0, &je);
    if (!root)
        fail_msg("%s: %s", FIXTURE, je.text);
    return root;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Every plot that the run has is on the page once: inline when plots/NAME.svg is there, a
 * note naming the file and why when it is not (missing, or not an SVG). */
static void test_page_plots(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("report-html");
    json_t *root = fixture();
    /* A hostile summary must come out as text. */
    json_object_set_new(json_array_get(json_object_get(root, "benchmarks"), 0), "summary",
                        json_string("<img src=x onerror=alert(1)>"));
    /* An expression the mhz tick left out (mb_mhz_tick) is named beside its cycles. */
    json_t *node0 = json_array_get(json_object_get(json_object_get(root, "preflight"), "nodes"), 0);
    json_object_set_new(node0, "mhz_unused", json_pack("[s]", "p=*p;"));
    mb_plot_files_t plan;
    char err[512], path[4096];
    assert_int_equal(mb_plot_plan(root, dir, &plan, err, sizeof err), 0);
    assert_true(plan.nscripts >= 4);
    snprintf(path, sizeof path, "%s/plots", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    /* Plot 0 missing, plot 1 not an SVG, the rest drawn. */
    for (size_t i = 1; i < plan.nscripts; i++) {
        snprintf(path, sizeof path, "%.*s.svg", (int)(strlen(plan.scripts[i]) - 3),
                 plan.scripts[i]);
        write_text(path, i == 1 ? "gnuplot: error\n"
                                : "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\" "
                                  "xmlns=\"http://www.w3.org/2000/svg\"><g id=\"a\"/></svg>\n");
    }
    assert_int_equal(mb_report_html_write_file(dir, root, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/report.html", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char page[1 << 20];
    size_t n = fread(page, 1, sizeof page - 1, f);
    page[n] = '\0';
    fclose(f);

    assert_int_equal(count(page, "<svg"), plan.nscripts - 2);
    assert_int_equal(count(page, "data-plot=\""), plan.nscripts - 2);
    assert_int_equal(count(page, "data-missing-plot=\""), 2);
    assert_int_equal(count(page, "Plot not drawn: "), 2);
    assert_non_null(strstr(page, "no &lt;svg&gt; element in the file"));
    assert_non_null(strstr(page, "No such file or directory"));
    assert_non_null(strstr(page, "\">2</span>plots not drawn"));
    /* Ids of different plots differ. */
    assert_non_null(strstr(page, "id=\"p2-a\""));
    assert_non_null(strstr(page, "id=\"p3-a\""));
    /* Escaped, and self-contained: nothing to fetch. */
    assert_non_null(strstr(page, "&lt;img src=x onerror=alert(1)&gt;"));
    assert_null(strstr(page, "<img"));
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "<link"));
    assert_null(strstr(page, "src=\"http"));
    assert_null(strstr(page, "href=\"http"));
    /* The contents list links every section, warnings first; flagged node first. */
    assert_non_null(strstr(page, "<li><a href=\"#warnings\">Warnings</a></li>\n<li><a "
                                 "href=\"#system\">"));
    assert_int_equal(count(page, "<section id="), count(page, "<li><a href=\"#"));
    char *pre = strstr(page, "<section id=\"preflight\">");
    assert_non_null(pre);
    char *n1 = strstr(pre, "<td>node1</td>"), *n0 = strstr(pre, "<td>node0</td>");
    assert_non_null(n0);
    assert_non_null(n1);
    assert_true(n1 < n0);
    assert_non_null(strstr(page, "pre-flight flagged node node1"));
    assert_non_null(strstr(page, "p=*p; 4.00 (left out) a^=a+a; 2.00 a^=a+a+a;"));
    /* The failed points are warnings, with their reasons. */
    assert_non_null(strstr(page, "setup: no rank on another node"));
    /* The held-out error of a fit, with its points' own scatter. */
    assert_non_null(strstr(page, "<td class=\"n\" rowspan=\"2\">3.1% (points 2.4%)</td>"));
    /* a fit from a results.json without the scatter: the error alone */
    assert_non_null(strstr(page, "<td class=\"n\" rowspan=\"2\">5.2%</td>"));
    assert_non_null(strstr(page, "</html>\n"));

    mb_plot_files_free(&plan);
    json_decref(root);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

/* A page from a document with next to nothing in it still renders, says the run is
 * incomplete, and says why a model that did not fit has no terms. */
static void test_page_minimal(void **state)
{
    (void)state;
    char *dir = mb_tmpdir_new("report-html-min");
    json_t *root = json_pack(
        "{s:s, s:b, s:[{s:s, s:s, s:[]}], s:[{s:s, s:{}, s:[], s:s}]}", "schema",
        "mbsuite-results/2", "complete", 0, "benchmarks", "name", "mpi.x", "group", "mpi",
        "points", "fits", "name", "mpi.x", "params", "segments", "error",
        "no model fits 1 points");
    assert_non_null(root);
    char err[512];
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_int_equal(mb_report_html_write(m, root, dir), 0);
    char *s = captured(m, &buf);
    assert_non_null(strstr(s, "<span class=\"badge bad\">incomplete</span>"));
    assert_non_null(strstr(s, "The run did not finish"));
    assert_int_equal(count(s, "<svg"), 0);
    /* A model that did not fit says why where its terms would be. */
    assert_non_null(strstr(s, "<td colspan=\"5\">no fit: no model fits 1 points</td>"));
    /* No drift section, no drift warning. */
    assert_null(strstr(s, "drift probe"));
    free(s);

    /* A point timed under the clock's step prints as under it, escaped. */
    json_array_append_new(
        json_object_get(json_array_get(json_object_get(root, "benchmarks"), 0), "points"),
        json_pack("{s:{}, s:s, s:i, s:f, s:f, s:[f, f], s:f}", "params", "status", "ok", "n", 11,
                  "min", 0.0, "median", 0.0, "ci95", 0.0, 20.0, "below_resolution_ns", 20.0));
    buf = NULL;
    m = open_memstream(&buf, &len);
    assert_int_equal(mb_report_html_write(m, root, dir), 0);
    s = captured(m, &buf);
    assert_non_null(strstr(s, "<td class=\"n\">&lt;20</td>"));
    free(s);

    /* A benchmark the drift probe flagged is named with its readings, escaped. */
    json_object_set_new(root, "drift",
                        json_pack("{s:f, s:[{s:s, s:f, s:f, s:f}]}", "median_ns", 127.4, "flagged",
                                  "name", "mpi.<x>", "before_ns", 350.0, "after_ns", 362.0, "ratio",
                                  2.79));
    buf = NULL;
    m = open_memstream(&buf, &len);
    assert_int_equal(mb_report_html_write(m, root, dir), 0);
    s = captured(m, &buf);
    assert_non_null(strstr(s, "<span class=\"badge warn\">1</span>benchmark measured while the "
                              "drift probe"));
    assert_non_null(strstr(s, "the run's usual 127 ns"));
    assert_non_null(strstr(s, "<li><code>mpi.&lt;x&gt;</code>: 350 ns before, 362 after</li>"));
    free(s);
    assert_int_equal(mb_report_html_regenerate(dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "results.json"));
    json_decref(root);
    assert_int_equal(mb_tmpdir_free(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_svg_inline),
        cmocka_unit_test(test_page_plots),
        cmocka_unit_test(test_page_minimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
