/* SPDX-License-Identifier: MIT */
/* mbsuite's entry point: options first (no MPI needed for --help, --version, --list or a
 * usage error), then the suite under MPI. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <mpi.h>

#include "binding.h"
#include "buildinfo.h"
#include "clock.h"
#include "driver.h"
#include "node_runs.h"
#include "options.h"
#include "plot.h"
#include "registry.h"
#include "results.h"
#include "signals.h"
#include "timings.h"

/* Before MPI_Init only the launcher's environment tells which process is rank 0: it alone
 * prints usage errors, so N ranks do not print N copies, and it alone writes the record of
 * an interrupted run (signals.h). */
static bool main_is_first_process(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v)
            return atoi(v) == 0;
    }
    return true;
}

/* The plots are drawn after results.json is closed, so their phase is added by rewriting
 * the file's "timings" (and the report); the run's figures are all on disk already, so a
 * failure here costs only that line. */
static void main_record_plots(mb_timings_t *timings, double plots_began_s, const char *out_dir)
{
    char err[1024] = "out of memory";
    double now_s = mb_timings_lap(timings, "plots", plots_began_s);
    json_t *section = mb_timings_json(timings, now_s, mb_timings_peak_rss_bytes());
    if (!section || mb_results_update_section(out_dir, "timings", section, err, sizeof err) != 0)
        fprintf(stderr, "mbsuite: warning: the plots' time is not in results.json: %s\n", err);
}

int main(int argc, char **argv)
{
    /* Where the run's time went counts from here: topology and MPI_Init are "startup". */
    mb_timings_t timings;
    mb_timings_init(&timings, mb_clock_elapsed_s());

    /* --runs K's node-only runs (node_runs.h): started by a rank, never under MPI. */
    if (argc == 2 && strcmp(argv[1], MB_NODE_RUNS_CHILD_ARG) == 0)
        return mb_node_runs_child_main();

    /* The commands (the pre-flight's tests alone, work on results already written), without
     * MPI. */
    const mb_command_t *command = argc > 1 ? mb_options_command(argv[1]) : NULL;
    if (command)
        return command->run(argc - 1, argv + 1);

    mb_options_t opts;
    char err[512];
    if (mb_options_parse(argc, argv, &opts, err, sizeof err) != 0) {
        if (main_is_first_process())
            fprintf(stderr, "mbsuite: %s\n", err);
        return 2;
    }
    switch (opts.action) {
    case MB_ACTION_HELP:
        mb_options_usage(stdout);
        return 0;
    case MB_ACTION_VERSION:
        printf("mbsuite %s\n", MB_VERSION);
        return 0;
    case MB_ACTION_LIST:
        mb_registry_print(stdout);
        return 0;
    case MB_ACTION_RUN:
        break;
    }

    /* Topology and binding before MPI_Init, so that what MPI_Init starts runs where we do.
     * hwloc 2 leaves instruction caches out unless asked; the system description lists them. */
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 ||
        hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        hwloc_topology_load(topo) != 0) {
        fprintf(stderr, "mbsuite: hwloc cannot read this machine's topology\n");
        return 1;
    }
    bool self_bound = mb_binding_ensure(topo, mb_binding_local_rank());
    /* Before MPI_Init, so that MPI's own threads leave the signals to ours. */
    if (mb_signals_start(main_is_first_process()) != 0)
        fprintf(stderr, "mbsuite: warning: no signal thread: an interrupted run's results.json "
                        "will not say why\n");

    /* MPI_Init, the thread level of a plain MPI code and of NetPIPE and OSU: asking Open MPI
     * 4.1 for MPI_THREAD_FUNNELED made every small message 40-60 ns slower here. The
     * OpenMP benchmarks' threads never call MPI, and MPI is called outside their regions. */
    MPI_Init(&argc, &argv);
    mb_timings_lap(&timings, "startup", timings.began_s);
    char out_dir[4096] = "";
    int rc = mb_driver_run(&opts, topo, self_bound, argc, argv, &timings, out_dir, sizeof out_dir);
    MPI_Finalize();
    mb_signals_unblock();
    if (self_bound)
        mb_binding_release(topo);
    hwloc_topology_destroy(topo);
    /* Plots last, after MPI is gone: gnuplot is a child process, and forking under some
     * MPI transports is unsafe. A missing gnuplot costs the images, never the tables. */
    if (out_dir[0]) {
        char err[1024];
        double plots_began_s = mb_clock_elapsed_s();
        int prc = mb_plot_results_dir(out_dir, err, sizeof err);
        if (prc == MB_PLOT_NO_GNUPLOT)
            fprintf(stderr, "mbsuite: %s (install gnuplot, then run: mbsuite plot %s)\n", err, out_dir);
        else if (prc != 0)
            fprintf(stderr, "mbsuite: warning: plots: %s\n", err);
        else
            printf("mbsuite: plots:   %s/plots/\n", out_dir);
        main_record_plots(&timings, plots_began_s, out_dir);
    }
    return rc;
}
