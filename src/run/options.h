/* SPDX-License-Identifier: MIT */
/* The command line of `mbsuite`. Parsed before MPI starts, so --help, --version, --list
 * and usage errors need no MPI launcher. */
#ifndef MB_OPTIONS_H
#define MB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum mb_action {
    MB_ACTION_RUN = 0,
    MB_ACTION_HELP,
    MB_ACTION_VERSION,
    MB_ACTION_LIST,
} mb_action_t;

/* The most --runs: each run is a whole per-node phase. */
#define MB_OPTIONS_RUNS_MAX 1000

typedef struct mb_options {
    mb_action_t action;
    const char *config_path; /* NULL: config/default.ini beside the executable */
    const char *out_dir;     /* NULL: results/<UTC time>-<host> */
    const char *only;        /* comma-separated globs, NULL for all */
    double time_budget_s;    /* --time-budget; 0: not given (the config's), < 0: none */
    int no_raw;              /* --no-raw: no raw.csv.gz, whatever [output] raw_samples says */
    bool force;              /* --force: write into an --out directory that holds files */
    int runs;                /* --runs: the per-node phase's runs in fresh processes; 1: none */
} mb_options_t;

/* A command run as `mbsuite NAME ARGS...`, without MPI: the pre-flight's tests alone, or
 * work on results already written. */
typedef struct mb_command {
    const char *name;
    const char *summary;               /* one line for --help */
    int (*run)(int argc, char **argv); /* argv[0] is the name; returns the exit status */
} mb_command_t;

/* The command named `name`, or NULL: an option or anything else is the suite's. */
const mb_command_t *mb_options_command(const char *name);

/* Parse argv. Returns 0, or -1 with a message naming the option in err. */
int mb_options_parse(int argc, char **argv, mb_options_t *opts, char *err, size_t errlen);

/* The --help text: usage, the commands one line each, the options. */
void mb_options_usage(FILE *f);

#endif
