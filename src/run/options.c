/* SPDX-License-Identifier: MIT */
#include "options.h"

#include "compare_command.h"
#include "config_units.h"
#include "export_command.h"
#include "node_commands.h"
#include "plot_command.h"
#include "predict_command.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct option options_long[] = {
    {"help", no_argument, NULL, 'h'},          {"version", no_argument, NULL, 'V'},
    {"list", no_argument, NULL, 'l'},          {"only", required_argument, NULL, 'o'},
    {"config", required_argument, NULL, 'c'},  {"out", required_argument, NULL, 'd'},
    {"time-budget", required_argument, NULL, 't'},
    {"no-raw", no_argument, NULL, 'R'},
    {"force", no_argument, NULL, 'f'},
    {"runs", required_argument, NULL, 'k'},
    {NULL, 0, NULL, 0},
};

/* The commands, in the order --help lists them; `mbsuite NAME --help` prints each one's
 * usage. */
static const mb_command_t options_commands[] = {
    {.name = "mhz",
     .summary = "this core's clock speed, by the GCD of nine expressions' times",
     .run = mb_command_mhz},
    {.name = "perturb",
     .summary = "p1bench's perturbation test: how much equal spin-loop runs vary",
     .run = mb_command_perturb},
    {.name = "predict",
     .summary = "a benchmark's time at P processes and BYTES from a run's models",
     .run = mb_command_predict},
    {.name = "plot",
     .summary = "draw a results directory's plots (again): data, scripts, images",
     .run = mb_command_plot},
    {.name = "export",
     .summary = "a run's network for a simulator: SimGrid, LogGOPSim, Dimemas",
     .run = mb_command_export},
    {.name = "compare",
     .summary = "two runs side by side: what differs, and each point's change beyond noise",
     .run = mb_command_compare},
};

const mb_command_t *mb_options_command(const char *name)
{
    for (size_t i = 0; i < sizeof options_commands / sizeof options_commands[0]; i++)
        if (strcmp(name, options_commands[i].name) == 0)
            return &options_commands[i];
    return NULL;
}

void mb_options_usage(FILE *f)
{
    fputs("usage: mpirun -np N mbsuite [options]\n"
          "       mbsuite COMMAND [arguments]     (no MPI launcher needed)\n"
          "       mbsuite COMMAND --help          the command's usage and what it does\n"
          "\n"
          "Measures the timing harness, nodes, shared memory and message passing of a\n"
          "parallel machine; writes results.json and report.txt into the output directory.\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof options_commands / sizeof options_commands[0]; i++)
        fprintf(f, "  %-9s %s\n", options_commands[i].name, options_commands[i].summary);
    fputs("\n"
          "options:\n"
          "  --config FILE       run configuration (INI); default config/default.ini\n"
          "                      beside the executable\n"
          "  --out DIR           output directory; default results/<UTC time>-<host>/;\n"
          "                      one that exists must be empty, unless --force\n"
          "  --force             write into an --out directory that holds files: the run's\n"
          "                      files of the same names are replaced, others left\n"
          "  --only GLOB[,GLOB]  run only what matches, of the names --list shows (e.g.\n"
          "                      'harness.*'); naming node.mhz or node.perturb runs the\n"
          "                      pre-flight (both its tests, even where [preflight] enabled\n"
          "                      = no), and 'node.*' alone runs only the pre-flight; where\n"
          "                      no node.* name matches, [preflight] enabled decides\n"
          "  --time-budget TIME  end the run within about TIME (seconds, or with a unit: 90s;\n"
          "                      none: no budget), overriding [run] time_budget: smaller\n"
          "                      working sets, fewer repetitions (at least 3 per point),\n"
          "                      then coarser size grids and fewer process counts, each\n"
          "                      recorded in results.json and the report\n"
          "  --runs K            run the per-node phase (the os.* benchmarks) K times,\n"
          "                      each in a fresh process per node, and report each\n"
          "                      figure's mean +- standard error over the K runs beside\n"
          "                      the first run's (seed 003); default 1: measured once\n"
          "  --no-raw            keep no raw.csv.gz (every experiment's time), only the\n"
          "                      statistics: for huge runs (overrides [output]\n"
          "                      raw_samples)\n"
          "  --list              list the benchmarks (then those run only on request) and\n"
          "                      the pre-flight's tests, one line each, and exit\n"
          "  --version           print the version and exit\n"
          "  --help              print this help and exit\n"
          "\n"
          "exit status: 0 success, 1 a failure while running, 2 bad options or configuration\n",
          f);
}

int mb_options_parse(int argc, char **argv, mb_options_t *opts, char *err, size_t errlen)
{
    *opts = (mb_options_t){.action = MB_ACTION_RUN, .runs = 1};
    opterr = 0;
    /* 0, not 1: glibc then forgets the previous argv (its place in a cluster such as -xy),
     * so that a second parse in one process reads only its own. */
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", options_long, NULL)) != -1) {
        switch (c) {
        case 'h': opts->action = MB_ACTION_HELP; break;
        case 'V': opts->action = MB_ACTION_VERSION; break;
        case 'l': opts->action = MB_ACTION_LIST; break;
        case 'o': opts->only = optarg; break;
        case 'c': opts->config_path = optarg; break;
        case 'd': opts->out_dir = optarg; break;
        case 'R': opts->no_raw = 1; break;
        case 'f': opts->force = true; break;
        case 'k': {
            char *end;
            errno = 0;
            long k = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || k < 1 || k > MB_OPTIONS_RUNS_MAX) {
                snprintf(err, errlen,
                         "option '--runs': '%s' is not a whole number of runs from 1 to %d",
                         optarg, MB_OPTIONS_RUNS_MAX);
                return -1;
            }
            opts->runs = (int)k;
            break;
        }
        case 't': {
            char *end;
            uint64_t ns = 0;
            double s = strtod(optarg, &end);
            if (end == optarg || *end)
                s = mb_units_parse_duration(optarg, &ns, NULL, 0) == 0 ? (double)ns / 1e9 : 0;
            /* none: no budget, even where the configuration sets one */
            opts->time_budget_s = strcmp(optarg, "none") == 0 ? -1 : s;
            if (!isfinite(s) || (s <= 0 && opts->time_budget_s != -1)) {
                snprintf(err, errlen,
                         "option '--time-budget': '%s' is not a time > 0 (seconds, or with a unit "
                         "as in 90s), nor none",
                         optarg);
                return -1;
            }
            break;
        }
        case ':':
            snprintf(err, errlen, "option '%s' needs a value (see mbsuite --help)", argv[optind - 1]);
            return -1;
        default:
            /* No short option is known. In a cluster (-xy) optind stays on it, so
             * argv[optind - 1] is the argument before (argv[0] at first): name the letter.
             * A long option given a value it does not take (--help=x) sets optopt too. */
            if (optopt &&
                !(strncmp(argv[optind - 1], "--", 2) == 0 && strchr(argv[optind - 1], '=')))
                snprintf(err, errlen, "unknown option '-%c' (see mbsuite --help)", optopt);
            else
                snprintf(err, errlen, "unknown option '%s' (see mbsuite --help)",
                         argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (see mbsuite --help)", argv[optind]);
        return -1;
    }
    if (opts->out_dir && !*opts->out_dir) {
        snprintf(err, errlen, "option '--out' needs a non-empty directory name");
        return -1;
    }
    return 0;
}
