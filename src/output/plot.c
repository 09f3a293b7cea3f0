/* SPDX-License-Identifier: MIT */
/* Plots of a result directory: which plots a results document gets, chosen by the axis
 * roles and fields of each benchmark's record (docs/results.md), never by its name; the
 * plots themselves are drawn by plot_latency.c, plot_memory.c and plot_preflight.c. */
#include "plot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "fileutil.h"
#include "plot_gnuplot.h"
#include "plot_latency.h"
#include "plot_memory.h"
#include "plot_preflight.h"
#include "plot_script.h"
#include "plot_series.h"
#include "results.h"

/* DIR/results.json, parsed and checked to be a results document of this schema, or NULL
 * with err. */
static json_t *plot_load(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    char *path = mb_plot_path(dir, "results", ".json");
    json_t *root = NULL;
    if (!path) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory (a results directory holds results.json)", dir);
    } else if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    } else {
        json_error_t je;
        root = json_load_file(path, 0, &je);
        if (!root && je.line > 0)
            snprintf(err, errlen, "%s:%d:%d: malformed JSON: %s", path, je.line, je.column,
                     je.text);
        else if (!root)
            snprintf(err, errlen, "%s: %s", path, je.text);
        else if (!json_is_object(root) || !mb_plot_str(root, "schema") ||
                 strcmp(mb_plot_str(root, "schema"), MB_RESULTS_SCHEMA) != 0) {
            snprintf(err, errlen, "%s: not an mbsuite results document (\"schema\" is not \"%s\")",
                     path, MB_RESULTS_SCHEMA);
            json_decref(root);
            root = NULL;
        } else if (!json_is_array(json_object_get(root, "benchmarks"))) {
            snprintf(err, errlen, "%s: \"benchmarks\" is not an array", path);
            json_decref(root);
            root = NULL;
        }
    }
    free(path);
    return root;
}

/* One benchmark's plot: a memory curve when its x axis is a working set, the time plot
 * otherwise. A memory curve that derived cache levels (derived.levels) is the memory
 * latency curve: the first keeps the name mem_latency, later ones add their benchmark's.
 * Any other (os.ctx's context switch against the ring's working set) is named after its
 * benchmark: since the os phase's records came first, os.ctx had taken mem_latency, and
 * the report's memory section showed it as the memory latency curve. */
static int plot_benchmark(mb_plot_ctx_t *c, const json_t *bench, size_t *memory_curves)
{
    static const mb_role_t roles[] = {MB_ROLE_MESSAGE_SIZE, MB_ROLE_RANKS,
                                        MB_ROLE_WORKING_SET, MB_ROLE_THREADS};
    mb_plot_x_t x;
    if (!mb_plot_x_choose(bench, roles, sizeof roles / sizeof roles[0], &x))
        return 0;
    if (x.role != MB_ROLE_WORKING_SET)
        return mb_plot_latency(c, bench, &x);
    bool levels = json_array_size(json_object_get(json_object_get(bench, "derived"), "levels")) > 0;
    char *base = mb_plot_file_name(mb_plot_str(bench, "name")), *file = NULL;
    if (!base || (levels ? asprintf(&file, "mem_latency%s%s", *memory_curves ? "_" : "",
                                    *memory_curves ? base : "")
                         : asprintf(&file, "%s", base)) < 0) {
        free(base);
        return mb_plot_oom(c, mb_plot_str(bench, "name"));
    }
    int rc = mb_plot_memory_curve(c, bench, &x, file);
    *memory_curves += levels;
    free(base);
    free(file);
    return rc;
}

/* Every plot of c->root: one per benchmark that ran, bandwidth, the pre-flight's two.
 * Returns 0, or -1 with c->err. */
int mb_plot_write_scripts(mb_plot_ctx_t *c)
{
    size_t i, memory_curves = 0;
    const json_t *bench;
    json_array_foreach(json_object_get(c->root, "benchmarks"), i, bench) {
        if (!mb_plot_str(bench, "name") || !mb_record_ran(bench))
            continue;
        if (plot_benchmark(c, bench, &memory_curves) != 0)
            return -1;
    }
    if (mb_plot_bandwidth(c) != 0)
        return -1;
    const json_t *preflight = json_object_get(c->root, "preflight");
    if (json_is_object(preflight) &&
        (mb_plot_perturb(c, preflight) != 0 || mb_plot_nodes(c, preflight) != 0))
        return -1;
    return 0;
}

int mb_plot_plan(const json_t *root, const char *dir, mb_plot_files_t *files, char *err,
                 size_t errlen)
{
    *files = (mb_plot_files_t){0};
    mb_plot_ctx_t c = {.root = root, .files = files, .err = err, .errlen = errlen,
                       .plan_only = true};
    c.plots_dir = mb_plot_path(dir, "plots", "");
    if (!c.plots_dir) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    int rc = mb_plot_write_scripts(&c);
    free(c.plots_dir);
    return rc;
}

int mb_plot_results_dir_files(const char *dir, mb_plot_files_t *files, char *err, size_t errlen)
{
    *files = (mb_plot_files_t){0};
    mb_plot_ctx_t c = {.files = files, .err = err, .errlen = errlen};
    int ret = -1;
    char *gnuplot = NULL;
    json_t *root = plot_load(dir, err, errlen);
    if (!root)
        return -1;
    c.root = root;
    c.plots_dir = mb_plot_path(dir, "plots", "");
    if (!c.plots_dir) {
        snprintf(err, errlen, "%s: out of memory", dir);
        goto out;
    }
    if (mb_mkdir_p(c.plots_dir, err, errlen) != 0 || mb_plot_write_scripts(&c) != 0)
        goto out;

    gnuplot = mb_plot_gnuplot_find();
    if (!gnuplot) {
        snprintf(err, errlen, "gnuplot not found: scripts and data written, no images (%s)",
                 c.plots_dir);
        ret = MB_PLOT_NO_GNUPLOT;
        goto out;
    }
    ret = mb_plot_gnuplot_draw(&c, gnuplot);
out:
    free(gnuplot);
    free(c.plots_dir);
    json_decref(root);
    return ret;
}

int mb_plot_results_dir(const char *dir, char *err, size_t errlen)
{
    mb_plot_files_t files;
    int rc = mb_plot_results_dir_files(dir, &files, err, errlen);
    mb_plot_files_free(&files);
    return rc;
}

void mb_plot_files_free(mb_plot_files_t *files)
{
    for (size_t i = 0; i < files->nscripts; i++)
        free(files->scripts[i]);
    for (size_t i = 0; i < files->nimages; i++)
        free(files->images[i]);
    free(files->scripts);
    free(files->images);
    *files = (mb_plot_files_t){0};
}
