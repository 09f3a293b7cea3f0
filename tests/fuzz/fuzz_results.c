/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for what reads a results.json: the input is the document's bytes.
 * Parsed as the commands parse it (jansson, no flags), then walked as predict, plot and
 * export walk it: the fits (the document's, or fitted now where it has none), the LogGP
 * parameters, the pattern predictions, every fit's segments evaluated and formatted, the
 * simulators' calibrations, the plot series; then the commands themselves on the document
 * written to a scratch directory (on tmpfs where there is one): `mbsuite predict` for a
 * fitted benchmark and a composite pattern, the three exports, and every plot's data and
 * script (no gnuplot). */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "export_dimemas.h"
#include "export_loggopsim.h"
#include "export_simgrid.h"
#include "export_util.h"
#include "fit.h"
#include "fit_results.h"
#include "plot_script.h"
#include "plot_series.h"
#include "predict_command.h"
#include "predict_patterns.h"
#include "record.h"
#include "results.h"
#include "fuzz_scratch.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[PATH_MAX];    /* scratch directory, removed at exit */
static char fuzz_json[PATH_MAX];   /* fuzz_dir/results.json: the input */
static char fuzz_export[PATH_MAX]; /* fuzz_dir/export: the exports' files */
static char fuzz_plots[PATH_MAX];  /* fuzz_dir/plots: the plots' files */

/* Remove every file in dir (no subdirectories are made there). */
static void fuzz_empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[PATH_MAX * 2];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        (void)unlink(path);
    }
    closedir(d);
}

static void fuzz_cleanup(void)
{
    fuzz_empty_dir(fuzz_export);
    fuzz_empty_dir(fuzz_plots);
    (void)rmdir(fuzz_export);
    (void)rmdir(fuzz_plots);
    (void)unlink(fuzz_json);
    (void)rmdir(fuzz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_scratch_dir("fuzz_results", fuzz_dir, sizeof fuzz_dir);
    snprintf(fuzz_json, sizeof fuzz_json, "%s/results.json", fuzz_dir);
    snprintf(fuzz_export, sizeof fuzz_export, "%s/export", fuzz_dir);
    snprintf(fuzz_plots, sizeof fuzz_plots, "%s/plots", fuzz_dir);
    if (mkdir(fuzz_plots, 0700) != 0) {
        perror("fuzz_results: mkdir");
        exit(1);
    }
    atexit(fuzz_cleanup);
    return 0;
}

/* Every segment of every fit: the model, a prediction, the text, and the calibrations the
 * exports make of it. */
static void fuzz_fits(const json_t *fits)
{
    static const double sizes[] = {0, 1, 1024, 1 << 20};
    size_t i;
    const json_t *fit;
    json_array_foreach(fits, i, fit)
    {
        size_t j;
        const json_t *seg;
        json_array_foreach(json_object_get(fit, "segments"), j, seg)
        {
            char text[320], err[256];
            mb_fit_results_format_model(seg, false, text, sizeof text);
            mb_fit_results_format_model(seg, true, text, sizeof text);
            mb_fit_model_t m;
            if (mb_fit_results_segment_model(fit, seg, &m, err, sizeof err) == 0) {
                double se;
                bool outside;
                (void)mb_fit_predict(&m, 4, 1024, &se, &outside);
            }
        }
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            (void)mb_fit_results_pick_segment(fit, sizes[k]);
        double a, b;
        char err[256];
        mb_simgrid_piece_t pieces[MB_SIMGRID_MAX_PIECES];
        (void)mb_simgrid_calibrate(fit, &a, &b, pieces, err, sizeof err);
        (void)mb_dimemas_calibrate(fit, &a, &b, err, sizeof err);
        (void)mb_loggopsim_eager_limit(fit, err, sizeof err);
        (void)mb_fit_results_find(fits, json_string_value(json_object_get(fit, "name")),
                                  json_object_get(fit, "params"));
    }
}

/* Each benchmark as the plots read it (series by the x axis' role) and as predict reads a
 * pattern's recipe. */
static void fuzz_benchmarks(const json_t *root, const json_t *fits)
{
    static const mb_role_t roles[] = {MB_ROLE_MESSAGE_SIZE, MB_ROLE_RANKS, MB_ROLE_WORKING_SET,
                                      MB_ROLE_THREADS};
    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        mb_plot_x_t x;
        if (mb_plot_x_choose(bench, roles, sizeof roles / sizeof roles[0], &x)) {
            mb_plot_set_t set = {0};
            double lo, hi;
            if (mb_plot_set_collect(&set, bench, &x, mb_plot_time_us, true) == 0 &&
                mb_plot_set_collect(&set, bench, &x, mb_plot_bandwidth_gbs, false) == 0) {
                (void)mb_plot_set_has_curve(&set);
                mb_plot_set_x_span(&set, &lo, &hi);
            }
            mb_plot_set_free(&set);
        }
        const json_t *recipe = json_object_get(bench, "composed_of");
        if (recipe) {
            char text[512], err[512];
            double t_ns;
            bool outside;
            mb_predict_recipe_text(recipe, text, sizeof text);
            (void)mb_predict_recipe(recipe, root, fits, 4, 1024, &t_ns, &outside, err, sizeof err);
        }
    }
}

/* `mbsuite predict fuzz_json NAME -p 4 -d 1024 [--pair PAIR]`. */
static void fuzz_predict(const char *name, const char *pair)
{
    char *argv[] = {"predict", fuzz_json, (char *)name, "-p",         "4",
                    "-d",      "1024",    "--pair",     (char *)pair, NULL};
    (void)mb_command_predict(pair ? 9 : 7, argv);
}

/* The commands on the document as a file: predict, the exports, the plots' scripts. */
static void fuzz_commands(const uint8_t *data, size_t size, const json_t *root, const json_t *fits,
                          bool computed)
{
    /* The input as it is when it has its fits; otherwise with the fits computed (above). */
    if (!computed) {
        FILE *f = fopen(fuzz_json, "wb");
        if (!f)
            return;
        size_t wrote = fwrite(data, 1, size, f);
        if (fclose(f) != 0 || wrote != size)
            return;
    } else if (json_dump_file(root, fuzz_json, JSON_COMPACT) != 0) {
        return;
    }
    const json_t *fit = json_array_get(fits, 0);
    const char *name = json_string_value(json_object_get(fit, "name"));
    if (name) {
        char series[128];
        mb_record_series_text(json_object_get(fit, "params"), series, sizeof series);
        fuzz_predict(name, series[0] ? series : NULL);
    }
    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench)
    {
        const char *bname = json_string_value(json_object_get(bench, "name"));
        if (bname && json_object_get(bench, "composed_of")) {
            fuzz_predict(bname, NULL);
            break;
        }
    }

    char err[512];
    (void)mb_export_simgrid(root, NULL, fuzz_export, err, sizeof err);
    (void)mb_export_loggopsim(root, NULL, fuzz_export, err, sizeof err);
    (void)mb_export_dimemas(root, NULL, fuzz_export, err, sizeof err);
    fuzz_empty_dir(fuzz_export);

    /* What `mbsuite plot` accepts (plot.c's plot_load): this schema, benchmarks an array. */
    const char *schema = json_string_value(json_object_get(root, "schema"));
    if (json_is_object(root) && schema && strcmp(schema, MB_RESULTS_SCHEMA) == 0 &&
        json_is_array(json_object_get(root, "benchmarks"))) {
        mb_plot_files_t files = {0};
        mb_plot_ctx_t c = {.plots_dir = fuzz_plots,
                           .root = root,
                           .files = &files,
                           .err = err,
                           .errlen = sizeof err};
        (void)mb_plot_write_scripts(&c);
        mb_plot_files_free(&files);
        fuzz_empty_dir(fuzz_plots);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *root = json_loadb((const char *)data, size, 0, &je);
    if (!root)
        return 0;
    json_t *own = NULL;
    char err[512];
    const json_t *fits = mb_fit_results_of(root, &own, err, sizeof err);
    /* What follows takes the fits computed here, as each reader would have computed the
     * same ones (the fitter is most of the cost of an input: each export, the LogGOPSim
     * parameters and predict would fit the document again). */
    if (own && json_is_object(root))
        json_object_set(root, "fits", own);
    if (fits) {
        json_decref(mb_fit_loggp(root, fits));
        json_decref(mb_predict_patterns(root, fits));
        fuzz_fits(fits);
        fuzz_benchmarks(root, fits);
        mb_loggopsim_param_t params[MB_LOGGOPSIM_NPARAMS];
        (void)mb_loggopsim_params(root, NULL, params, err, sizeof err);
        mb_export_run_t run;
        if (mb_export_run_open(root, NULL, &run, err, sizeof err) == 0)
            mb_export_run_close(&run);
        fuzz_commands(data, size, root, fits, own != NULL);
    }
    json_decref(own);
    json_decref(root);
    return 0;
}
