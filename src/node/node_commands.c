/* SPDX-License-Identifier: MIT */
#include "node_commands.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "binding.h"
#include "config.h"
#include "mhz.h"
#include "perturb.h"
#include "timing.h"

/* Bind to one core, as the suite does, so the figures do not depend on the scheduler. */
static int node_bind(void)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
        return -1;
    mb_binding_ensure(topo, mb_binding_local_rank());
    hwloc_topology_destroy(topo);
    return 0;
}

/* Whether one of the arguments asks for the command's help. */
static bool node_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return true;
    return false;
}

int mb_command_mhz(int argc, char **argv)
{
    static const char usage[] =
        "usage: mbsuite mhz\n"
        "Measures this core's clock by lmbench's mhz method (seed 000): times nine\n"
        "interlocked C expressions of different cycle counts and takes the clock period as\n"
        "the greatest common divisor of their times. Prints the MHz, the period and each\n"
        "expression's cycles; exits 1 when the times disagree (system too busy). The suite's\n"
        "pre-flight runs the same test on one rank of every node ([preflight] in the\n"
        "configuration).\n";
    if (node_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "mbsuite mhz: unexpected argument '%s'\n%s", argv[1], usage);
        return 2;
    }
    node_bind();
    mb_config_t cfg;
    mb_config_defaults(&cfg);
    mb_timing_t timing;
    mb_timing_calibrate(&timing, mb_clock_get((mb_clock_id_t)cfg.timing_clock), cfg.timing_enough,
                        cfg.timing_enough_max, cfg.timing_enough_fallback);
    mb_mhz_opts_t opts = {.measurements = (int)cfg.preflight_mhz_measurements, .max_attempts = 3};
    mb_mhz_result_t r;
    if (mb_mhz_measure(&timing, &opts, &r) != 0 || !r.ok) {
        fprintf(stderr, "mbsuite mhz: %s\n", r.why);
        return 1;
    }
    mb_mhz_print(stdout, &r);
    return 0;
}

/* p1bench stops after the current run on Ctrl-C and reports what it has. */
static volatile sig_atomic_t perturb_stop;

static void perturb_on_sigint(int sig)
{
    (void)sig;
    perturb_stop = 1;
}

static int perturb_number(const char *text, const char *what, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(v >= min)) {
        fprintf(stderr, "mbsuite perturb: %s '%s' is not a number >= %g\n", what, text, min);
        return -1;
    }
    *out = v;
    return 0;
}

int mb_command_perturb(int argc, char **argv)
{
    static const char usage[] =
        "usage: mbsuite perturb [-hv] [-m Mbytes] [time(ms) [count]]\n"
        "  -v         verbose: per run details\n"
        "  -m Mbytes  memory test working set, e.g. 1024 (default: CPU spin loop)\n"
        "  time       duration of one run in ms (default 100)\n"
        "  count      number of runs (default 100)\n"
        "The perturbation test of p1bench (seed 002): times count equal runs of a spin loop\n"
        "(or with -m a memory walk) on this core and prints how much slower than the fastest\n"
        "each was, as a histogram and percentiles. The suite's pre-flight runs it on every\n"
        "rank at once ([preflight] in the configuration).\n";
    mb_perturb_opts_t opts = {.target_ms = 100, .count = 100, .stop = &perturb_stop};
    double v;
    int c;
    if (node_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    optind = 1;
    opterr = 0;
    while ((c = getopt(argc, argv, "+vm:")) != -1) {
        switch (c) {
        case 'v': opts.verbose = true; break;
        case 'm':
            if (perturb_number(optarg, "-m Mbytes", 1, &v) != 0)
                return 2;
            opts.mem_bytes = (uint64_t)(v * 1024 * 1024);
            break;
        default:
            fprintf(stderr, "mbsuite perturb: unknown option '-%c' or missing value\n%s", optopt, usage);
            return 2;
        }
    }
    if (argc - optind > 2) {
        fprintf(stderr, "mbsuite perturb: unexpected argument '%s'\n%s", argv[optind + 2], usage);
        return 2;
    }
    if (optind < argc && perturb_number(argv[optind], "time(ms)", 0.001, &opts.target_ms) != 0)
        return 2;
    if (optind + 1 < argc) {
        if (perturb_number(argv[optind + 1], "count", 1, &v) != 0)
            return 2;
        opts.count = (uint64_t)v;
    }

    node_bind();
    signal(SIGINT, perturb_on_sigint);
    mb_perturb_result_t r;
    mb_config_t cfg;
    mb_config_defaults(&cfg);
    if (mb_perturb_run(mb_clock_get((mb_clock_id_t)cfg.timing_clock), &opts, stderr, &r) != 0) {
        fprintf(stderr, "mbsuite perturb: cannot run (out of memory for %llu bytes?)\n",
                (unsigned long long)opts.mem_bytes);
        return 1;
    }
    mb_perturb_print(stdout, &opts, &r);
    mb_perturb_free(&r);
    return 0;
}
