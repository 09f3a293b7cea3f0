/* SPDX-License-Identifier: MIT */
/* Plots of a result directory (issue 6): from DIR/results.json, for each plot NAME,
 * DIR/plots/NAME.dat (gnuplot data, commented column headers with units) and NAME.gp (a
 * standalone gnuplot script, filled in from a template of the repository's plots/
 * directory), then gnuplot draws NAME.png and NAME.svg. Which plots a benchmark gets
 * follows from its record's axis roles and fields (docs/results.md), never from its name;
 * points whose status is not "ok" are left out. A benchmark's x axis is its first numeric
 * axis of the roles message_size, ranks, working_set, threads, in that order. The plots:
 *   - one per benchmark whose x is not a working set: time per operation in us, log-log,
 *     points with their 95% CI, one series per combination of the other axes' values, and
 *     the fitted model's curves when the benchmark has a model (plot_latency.h);
 *   - mem_latency: a benchmark whose x is a working set and which derived cache levels,
 *     with those levels and hwloc's sizes (plot_memory.h; a second one is
 *     mem_latency_NAME); one whose x is a working set without levels (os.ctx) is drawn the
 *     same way under its own name;
 *   - bandwidth: GB/s against the message_size or working_set axis, every benchmark whose
 *     points carry bandwidth_bytes_per_s;
 *   - perturb: the pre-flight perturbation test's percentiles per rank;
 *   - nodes: the pre-flight's MHz and p99 noise per node.
 * Templates are looked for in MB_PLOTS_DIR when it is defined at compile time, then in
 * plots/ beside the executable, then in plots/ of the current directory. */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include <stddef.h>

#include <jansson.h>

/* mb_plot_results_dir's return when gnuplot is not in PATH: data and scripts are written. */
#define MB_PLOT_NO_GNUPLOT 1

/* What one call wrote: full paths, in the order written. */
typedef struct mb_plot_files {
    char **scripts; /* DIR/plots/NAME.gp (each with its NAME.dat) */
    size_t nscripts;
    char **images; /* DIR/plots/NAME.png and NAME.svg that gnuplot drew */
    size_t nimages;
} mb_plot_files_t;

/* Plot DIR/results.json into DIR/plots/ (created). Returns 0 when every image was drawn,
 * MB_PLOT_NO_GNUPLOT with err "gnuplot not found: ..." when gnuplot is not in PATH, or -1
 * with err (a results.json that cannot be read or parsed, a missing template, a file that
 * cannot be written, or a gnuplot run that failed: the other plots are still drawn). */
int mb_plot_results_dir(const char *dir, char *err, size_t errlen);

/* mb_plot_results_dir that also lists in *files what it wrote (even on failure); free the
 * list with mb_plot_files_free. */
int mb_plot_results_dir_files(const char *dir, mb_plot_files_t *files, char *err, size_t errlen);

/* The plots that mb_plot_results_dir would draw for the results document root of
 * directory dir, without writing anything: files->scripts lists each DIR/plots/NAME.gp
 * (its images are NAME.png and NAME.svg beside it). Returns 0, or -1 with err; free the
 * list with mb_plot_files_free. */
int mb_plot_plan(const json_t *root, const char *dir, mb_plot_files_t *files, char *err,
                 size_t errlen);

/* Free the lists in *files and zero it. */
void mb_plot_files_free(mb_plot_files_t *files);

#endif
