/* SPDX-License-Identifier: MIT */
/* A benchmark on report.html: values through report_text.h, as report.txt shows them. */
#include "report_html_bench.h"

#include <stdbool.h>
#include <string.h>

#include "html_escape.h"
#include "record.h"
#include "report_fits.h"
#include "report_text.h"

#define HTML_CELL_MAX 256

/* The points of bench as a table: parameters, the headline statistic with its CI, n,
 * bandwidth when there is one, and what is wrong with a point (failed, CI too wide,
 * trimmed). */
void mb_report_html_points(FILE *f, const json_t *bench)
{
    const json_t *points = json_object_get(bench, "points"), *pt;
    size_t i, npoints = json_array_size(points);
    const char *names[32];
    size_t nnames = mb_report_text_axis_names(bench, names, 32);
    const char *unit = mb_report_text_str(bench, "unit");
    const char *statistic = mb_report_text_str(bench, "statistic");
    char cell[HTML_CELL_MAX], head[HTML_CELL_MAX];
    bool bandwidth = false;
    if (!statistic || strcmp(statistic, "min") != 0)
        statistic = "median";
    if (!unit)
        unit = "ns";
    json_array_foreach(points, i, pt) bandwidth |=
        json_object_get(pt, "bandwidth_bytes_per_s") != NULL;
    if (npoints == 0) {
        fputs("<p>(no points)</p>\n", f);
        return;
    }
    if (npoints > MB_REPORT_HTML_OPEN_POINTS)
        fprintf(f, "<details><summary>the %zu points</summary>\n", npoints);
    fputs("<table>\n<tr>", f);
    for (size_t k = 0; k < nnames; k++)
        mb_html_th(f, names[k]);
    snprintf(head, sizeof head, "%s %s", statistic, unit);
    mb_html_th(f, head);
    snprintf(head, sizeof head, "95%% CI (%s)", unit);
    mb_html_th(f, head);
    mb_html_th(f, "n");
    if (bandwidth) {
        mb_html_th(f, "MB/s");
        mb_html_th(f, "best MB/s"); /* STREAM's statistic (report.c) */
    }
    mb_html_th(f, "notes");
    fputs("</tr>\n", f);
    json_array_foreach(points, i, pt)
    {
        bool ok = mb_record_point_ok(pt);
        fputs(ok ? "<tr>" : "<tr class=\"failed\">", f);
        for (size_t k = 0; k < nnames; k++) {
            const json_t *v = json_object_get(json_object_get(pt, "params"), names[k]);
            mb_report_text_value(v, cell, sizeof cell);
            mb_html_td(f, cell, json_is_number(v));
        }
        if (!ok) {
            fprintf(f, "<td colspan=\"%d\">failed: ", 3 + (bandwidth ? 2 : 0));
            mb_html_escape(f, mb_report_text_dash(mb_report_text_str(pt, "reason")));
            fputs("</td><td></td></tr>\n", f);
            continue;
        }
        double v, lo, hi;
        cell[0] = '\0';
        mb_report_text_stat(pt, statistic, cell, sizeof cell);
        mb_html_td(f, cell, true);
        const json_t *ci = json_object_get(pt, "ci95");
        cell[0] = '\0';
        if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
            char a[48], b[48];
            lo = json_number_value(json_array_get(ci, 0));
            hi = json_number_value(json_array_get(ci, 1));
            mb_report_text_sig(lo, a, sizeof a);
            mb_report_text_sig(hi, b, sizeof b);
            snprintf(cell, sizeof cell, "%s \u2013 %s", a, b);
        }
        mb_html_td(f, cell, true);
        mb_report_text_value(json_object_get(pt, "n"), cell, sizeof cell);
        mb_html_td(f, cell, true);
        for (int k = 0; bandwidth && k < 2; k++) {
            cell[0] = '\0';
            if (mb_report_text_num(json_object_get(pt, "bandwidth_bytes_per_s"),
                                   k ? "best" : "median", &v))
                mb_report_text_sig(v / 1e6, cell, sizeof cell);
            mb_html_td(f, cell, true);
        }
        fputs("<td>", f);
        if (json_is_true(json_object_get(pt, "ci_too_wide")))
            fputs("<span class=\"badge warn\">CI too wide</span>", f);
        else if (json_is_false(json_object_get(pt, "ci_target_met")))
            fputs("<span class=\"badge warn\">CI target missed</span>", f);
        if (json_object_get(pt, "ci95_serial_factor"))
            fputs("<span class=\"badge\" title=\"" MB_REPORT_TEXT_SERIAL_CI
                  "\">CI widened: runs</span>",
                  f);
        if (json_is_true(json_object_get(pt, "trimmed_by_budget")))
            fputs("<span class=\"badge warn\">trimmed</span>", f);
        if (json_is_object(json_object_get(pt, "two_levels")))
            fputs("<span class=\"badge warn\">two levels</span>", f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    if (npoints > MB_REPORT_HTML_OPEN_POINTS)
        fputs("</details>\n", f);
}

void mb_report_html_bench_heading(FILE *f, const json_t *bench)
{
    char id[200];
    const char *name = mb_report_text_dash(mb_report_text_str(bench, "name"));
    mb_html_id(name, id, sizeof id);
    fprintf(f, "<h3 id=\"bench-%s\"><code>", id);
    mb_html_escape(f, name);
    fputs("</code> &mdash; ", f);
    mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "summary")));
    fputs("</h3>\n<p class=\"measures\">", f);
    mb_html_escape(f, mb_report_text_dash(mb_report_text_str(bench, "measures")));
    const char *by = mb_report_text_str(bench, "measured_by");
    if (by) {
        fputs("; measured by ", f);
        mb_html_escape(f, by);
    }
    fputs("</p>\n", f);
}

void mb_report_html_derived(FILE *f, const json_t *bench)
{
    const json_t *derived = json_object_get(bench, "derived"), *v;
    const char *key;
    char cell[HTML_CELL_MAX];
    if (json_object_size(derived) == 0)
        return;
    fputs("<table class=\"kv\">\n", f);
    json_object_foreach((json_t *)derived, key, v)
    {
        mb_report_text_derived_value(v, cell, sizeof cell);
        mb_html_kv(f, key, cell);
    }
    fputs("</table>\n", f);
}

void mb_report_html_fit_rows(FILE *f, const json_t *fit)
{
    char params[256], cell[HTML_CELL_MAX * 2];
    mb_record_params_text(json_object_get(fit, "params"), " ", params, sizeof params);
    const json_t *segs = json_object_get(fit, "segments"), *seg;
    size_t s, nseg = json_array_size(segs);
    char heldout[320];
    mb_report_fits_holdout(fit, true, heldout, sizeof heldout);
    if (nseg == 0) {
        /* No model fits: the row says why instead of a model. */
        fputs("<tr>", f);
        mb_html_td(f, params[0] ? params : "(all)", false);
        fputs("<td colspan=\"5\">no fit: ", f);
        mb_html_escape(f, mb_report_text_dash(mb_report_text_str(fit, "error")));
        fputs("</td></tr>\n", f);
        return;
    }
    json_array_foreach(segs, s, seg)
    {
        fputs("<tr>", f);
        if (s == 0) {
            fprintf(f, "<td rowspan=\"%zu\">", nseg);
            mb_html_escape(f, params[0] ? params : "(all)");
            fputs("</td>", f);
        }
        double dmin, dmax;
        cell[0] = '\0';
        if (mb_report_text_num(seg, "d_min", &dmin) && mb_report_text_num(seg, "d_max", &dmax)) {
            char a[32], b[32];
            mb_report_text_bytes(dmin, a, sizeof a);
            mb_report_text_bytes(dmax, b, sizeof b);
            snprintf(cell, sizeof cell, "%s \u2013 %s", a, b);
        }
        mb_html_td(f, cell, true);
        /* t = c0 + c1 basis1 + ..., each coefficient with its standard error, in us. */
        cell[0] = '\0';
        size_t t;
        const json_t *term;
        json_array_foreach(json_object_get(seg, "terms"), t, term)
        {
            double coef = 0, se = 0;
            char c[48], e[48];
            mb_report_text_num(term, "coef", &coef);
            mb_report_text_num(term, "stderr", &se);
            mb_report_text_sig(coef / 1e3, c, sizeof c);
            mb_report_text_sig(se / 1e3, e, sizeof e);
            const char *basis = mb_report_text_str(term, "basis");
            size_t len = strlen(cell);
            snprintf(cell + len, sizeof cell - len, "%s(%s \u00b1 %s)%s%s", t ? " + " : "", c, e,
                     basis && strcmp(basis, "1") != 0 ? "\u00b7" : "",
                     basis && strcmp(basis, "1") != 0 ? basis : "");
        }
        mb_html_td(f, cell, false);
        double chi2, dof, q;
        cell[0] = '\0';
        if (mb_report_text_num(seg, "chi2", &chi2) && mb_report_text_num(seg, "dof", &dof))
            snprintf(cell, sizeof cell, "%.3g / %.0f", chi2, dof);
        mb_html_td(f, cell, true);
        cell[0] = '\0';
        if (mb_report_text_num(seg, "Q", &q))
            snprintf(cell, sizeof cell, "%.3g", q);
        mb_html_td(f, cell, true);
        if (s == 0) {
            fprintf(f, "<td class=\"n\" rowspan=\"%zu\">", nseg);
            mb_html_escape(f, heldout);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
}

void mb_report_html_fit_family(FILE *f, const json_t *fit)
{
    const json_t *fam = json_object_get(fit, "p_family");
    double err;
    if (!json_is_object(fam))
        return;
    fputs("<p>Growth with p: <strong>", f);
    mb_html_escape(f, mb_report_text_dash(mb_report_text_str(fam, "family")));
    fputs("</strong>", f);
    if (mb_report_text_num(fam, "error_at_largest_p_pct", &err))
        fprintf(f, ", %.1f%% off at the largest p when fitted without it", err);
    fputs(" (chosen on held-out p among the collective algorithms' families).</p>\n", f);
}
