/* SPDX-License-Identifier: MIT */
#include "plot_command.h"

#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "report_html.h"

static const char plot_command_usage[] =
    "usage: mbsuite plot RESULTS_DIR\n"
    "Draws RESULTS_DIR/results.json into RESULTS_DIR/plots/: for each plot NAME, NAME.dat\n"
    "(data), NAME.gp (gnuplot script; `gnuplot NAME.gp` there redraws it), and with gnuplot\n"
    "NAME.png and NAME.svg. Prints the images written. A run draws its plots itself; this\n"
    "redraws them, e.g. where gnuplot was missing on the machine that ran it. Then rewrites\n"
    "RESULTS_DIR/report.html with the plots inlined.\n";

int mb_command_plot(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(plot_command_usage, stdout);
            return 0;
        }
    }
    if (argc != 2 || argv[1][0] == '\0' || argv[1][0] == '-') {
        if (argc > 1 && argv[1][0] == '-')
            fprintf(stderr, "mbsuite plot: unknown option '%s'\n", argv[1]);
        else
            fprintf(stderr, "mbsuite plot: %s\n",
                    argc < 2 ? "no results directory given" : "one results directory, please");
        fputs(plot_command_usage, stderr);
        return 2;
    }
    mb_plot_files_t files;
    char err[1024];
    int rc = mb_plot_results_dir_files(argv[1], &files, err, sizeof err);
    for (size_t i = 0; i < files.nimages; i++)
        printf("%s\n", files.images[i]);
    if (rc == MB_PLOT_NO_GNUPLOT) {
        for (size_t i = 0; i < files.nscripts; i++)
            printf("%s\n", files.scripts[i]);
        fprintf(stderr, "mbsuite plot: %s\n", err);
        rc = 0;
    } else if (rc != 0) {
        fprintf(stderr, "mbsuite plot: %s\n", err);
        rc = 1;
    } else if (files.nscripts == 0) {
        fprintf(stderr, "mbsuite plot: %s/results.json has nothing to plot\n", argv[1]);
    }
    /* The page shows what was drawn and a note for what was not; it is written whenever
     * results.json could be read. */
    if (rc == 0 || files.nscripts > 0) {
        if (mb_report_html_regenerate(argv[1], err, sizeof err) != 0) {
            fprintf(stderr, "mbsuite plot: %s\n", err);
            rc = 1;
        } else {
            printf("%s/report.html\n", argv[1]);
        }
    }
    mb_plot_files_free(&files);
    return rc;
}
