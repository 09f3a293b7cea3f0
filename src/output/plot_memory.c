/* SPDX-License-Identifier: MIT */
/* Memory curves (time per operation against working set, with the cache levels) and the
 * bandwidth plot. */
#include "plot_memory.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_axes.h"
#include "report_text.h"

/* Vertical lines and labels for the cache levels found on the curve (derived.levels) and
 * for node 0's caches as hwloc reports them; their figures also go into the data file. */
static void plot_memory_marks(const mb_plot_ctx_t *c, const json_t *bench, double lo, double hi,
                              FILE *marks, FILE *dat)
{
    const json_t *derived = json_object_get(bench, "derived");
    const json_t *levels = json_object_get(derived, "levels");
    size_t i;
    const json_t *lv;
    char sz[32], label[160];
    fprintf(dat,
            "# cache levels found on the %s curve (derived.levels; not plotted as data)\n"
            "# size_bytes latency_ns midpoint_bytes open\n",
            mb_plot_str(derived, "levels_from") ? mb_plot_str(derived, "levels_from") : "latency");
    json_array_foreach(levels, i, lv) {
        double size, lat = NAN, mid;
        if (!mb_plot_num(lv, "size_bytes", &size))
            continue;
        mb_plot_num(lv, "latency_ns", &lat);
        bool open = json_is_true(json_object_get(lv, "open"));
        fprintf(dat, "%.15g %.6g ", size, lat);
        if (mb_plot_num(lv, "midpoint_bytes", &mid))
            fprintf(dat, "%.15g", mid);
        else
            fputc('?', dat);
        fprintf(dat, " %d\n", open);
        if (!(size >= lo && size <= hi) || !(lat > 0))
            continue;
        mb_report_text_bytes(size, sz, sizeof sz);
        if (open) {
            /* Not a capacity but where the curve stops (memory, or the curve's end): marked as
             * a point with its latency. */
            snprintf(label, sizeof label, "level %zu: %.3g ns", i + 1, lat);
            fputs("set label ", marks);
            mb_plot_gp_quote(marks, label);
            fprintf(marks,
                    " at first %.17g, first %.17g right offset character -1, character -1.2 "
                    "point ls 11 pt 6 ps 2 tc ls 11 front\n",
                    size, lat);
            continue;
        }
        snprintf(label, sizeof label, "level %zu: %s, %.3g ns", i + 1, sz, lat);
        fprintf(marks,
                "set arrow from first %.17g, graph 0 to first %.17g, graph 1 nohead ls 11 back\n",
                size, size);
        fputs("set label ", marks);
        mb_plot_gp_quote(marks, label);
        fprintf(marks,
                " at first %.17g, graph 0.97 right rotate by 90 offset character -0.6, 0 "
                "tc ls 11 front\n",
                size);
    }
    fputs("\n\n# caches of node 0 as hwloc reports them (system.node_list[0].caches)\n"
          "# size_bytes level type\n",
          dat);
    const json_t *caches = json_object_get(
        json_array_get(json_object_get(json_object_get(c->root, "system"), "node_list"), 0),
        "caches");
    const json_t *cache;
    json_array_foreach(caches, i, cache) {
        const char *type = mb_plot_str(cache, "type");
        double size, level;
        if (!mb_plot_num(cache, "size_bytes", &size) || !mb_plot_num(cache, "level", &level) ||
            (type && strcmp(type, "instruction") == 0))
            continue;
        fprintf(dat, "%.15g %.0f %s\n", size, level, type ? type : "?");
        if (!(size >= lo && size <= hi))
            continue;
        mb_report_text_bytes(size, sz, sizeof sz);
        snprintf(label, sizeof label, "hwloc L%.0f%s %s", level,
                 type && strcmp(type, "data") == 0 ? "d" : "", sz);
        fprintf(marks,
                "set arrow from first %.17g, graph 0 to first %.17g, graph 1 nohead ls 12 back\n",
                size, size);
        fputs("set label ", marks);
        mb_plot_gp_quote(marks, label);
        fprintf(marks,
                " at first %.17g, graph 0.03 left rotate by 90 offset character 1.4, 0 "
                "tc ls 12 front\n",
                size);
    }
    fputs("\n\n", dat);
}

int mb_plot_memory_curve(mb_plot_ctx_t *c, const json_t *bench, const mb_plot_x_t *x,
                         const char *file)
{
    const char *name = mb_plot_str(bench, "name");
    bool min = mb_plot_is_min(bench);
    mb_plot_set_t set = {0};
    mb_plot_parts_t p;
    int ret = -1;
    if (mb_plot_parts_open(&p) != 0 ||
        mb_plot_set_collect(&set, bench, x, mb_plot_time_ns, false) != 0)
        goto oom;
    if (!mb_plot_set_has_curve(&set)) {
        ret = 0;
        goto out;
    }
    fprintf(p.dat.f,
            "# %s: %s time per operation against the working set (axis %s; mbsuite plot, from "
            "results.json)\n# blocks (gnuplot index): each series, then the cache levels "
            "found, then hwloc's caches\n",
            name, min ? "minimum" : "median", x->name);
    char columns[160];
    snprintf(columns, sizeof columns, "x_plot %s time_ns ci95_lo_ns ci95_hi_ns", x->name);
    for (size_t k = 0; k < set.n; k++) {
        char style[32];
        mb_plot_axes_style(k, style, sizeof style);
        mb_plot_axes_block(p.dat.f, &set.v[k], k, columns, true);
        fprintf(p.clauses.f,
                MB_PLOT_CLAUSE_SEP "data index %zu using 1:3 with linespoints %s title ", k, style);
        mb_plot_gp_quote(p.clauses.f, set.v[k].label[0] ? set.v[k].label : "measured");
    }
    double lo, hi;
    char range[96], yrange[96], ylabel[160];
    mb_plot_set_x_span(&set, &lo, &hi);
    plot_memory_marks(c, bench, lo, hi, p.marks.f, p.dat.f);
    mb_plot_axes_x(&set, true, p.tics.f, range, sizeof range);
    mb_plot_axes_y(&set, p.ytics.f, yrange, sizeof yrange);
    snprintf(ylabel, sizeof ylabel, "time per operation (ns), %s",
             min ? "minimum over experiments" : "median");
    p.file = strdup(file);
    p.title = mb_plot_title(name, mb_plot_str(bench, "measures"), true);
    p.xlabel = mb_plot_quoted("working set (bytes; K = 1024)");
    p.ylabel = mb_plot_quoted(ylabel);
    if (mb_plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const mb_plot_sub_t subs[] = {
        {"TITLE", p.title},   {"XLABEL", p.xlabel}, {"YLABEL", p.ylabel},
        {"XRANGE", range},    {"XTICS", p.tics_s},  {"YRANGE", yrange},
        {"YTICS", p.ytics_s}, {"MARKS", p.marks_s}, {"PLOTS", mb_plot_parts_clauses(&p)}};
    ret = mb_plot_emit(c, p.file, "mem_latency.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = mb_plot_oom(c, name);
out:
    mb_plot_set_free(&set);
    mb_plot_parts_free(&p);
    return ret;
}

int mb_plot_bandwidth(mb_plot_ctx_t *c)
{
    static const mb_role_t roles[] = {MB_ROLE_MESSAGE_SIZE, MB_ROLE_WORKING_SET};
    mb_plot_set_t set = {0};
    mb_plot_parts_t p;
    int ret = -1;
    size_t i;
    const json_t *bench;
    if (mb_plot_parts_open(&p) != 0)
        goto oom;
    json_array_foreach(json_object_get(c->root, "benchmarks"), i, bench) {
        mb_plot_x_t x;
        if (!mb_record_ran(bench) || !mb_plot_str(bench, "name") ||
            !mb_plot_x_choose(bench, roles, sizeof roles / sizeof roles[0], &x))
            continue;
        if (mb_plot_set_collect(&set, bench, &x, mb_plot_bandwidth_gbs, true) != 0)
            goto oom;
    }
    if (set.n == 0) {
        ret = 0;
        goto out;
    }
    fputs("# bandwidth against size, one block (gnuplot index) per benchmark and parameters "
          "(mbsuite plot, from results.json)\n# GB/s = 1e9 bytes/s; ci95: the bandwidth of the "
          "95% CI of the median time\n",
          p.dat.f);
    for (size_t k = 0; k < set.n; k++) {
        char style[32];
        mb_plot_axes_style(k, style, sizeof style);
        mb_plot_axes_block(p.dat.f, &set.v[k], k,
                           "x_plot size_bytes bandwidth_GBps ci95_lo_GBps ci95_hi_GBps", true);
        fprintf(p.clauses.f,
                MB_PLOT_CLAUSE_SEP "data index %zu using 1:3:4:5 with yerrorlines %s title ", k,
                style);
        mb_plot_gp_quote(p.clauses.f, set.v[k].label);
    }
    char range[96];
    mb_plot_axes_x(&set, true, p.tics.f, range, sizeof range);
    p.file = strdup("bandwidth");
    p.title = mb_plot_title(
        "Bandwidth against size",
        "median of each point; bars: the bandwidth of the 95% CI of the median time", false);
    p.xlabel = mb_plot_quoted("size: message or working set (bytes; K = 1024)");
    p.ylabel = mb_plot_quoted("bandwidth (GB/s = 10^9 bytes/s)");
    if (mb_plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const mb_plot_sub_t subs[] = {{"TITLE", p.title},   {"XLABEL", p.xlabel},
                                  {"YLABEL", p.ylabel}, {"XRANGE", range},
                                  {"XTICS", p.tics_s},  {"PLOTS", mb_plot_parts_clauses(&p)}};
    ret = mb_plot_emit(c, p.file, "bandwidth.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = mb_plot_oom(c, "bandwidth");
out:
    mb_plot_set_free(&set);
    mb_plot_parts_free(&p);
    return ret;
}
