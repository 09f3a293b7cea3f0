/* SPDX-License-Identifier: MIT */
/* The export command: read a run's results.json (RUN is the results directory or the file)
 * and write the simulator's files into DIR. */
#include "export_command.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "export_simgrid.h"

static const char export_usage[] =
    "usage: mbsuite export --simgrid RUN --out DIR [--pair intra|inter]\n"
    "Writes DIR/platform.xml, DIR/hostfile, DIR/smpi.cfg and DIR/README.txt: a SimGrid 3.32\n"
    "SMPI platform whose messages take what RUN's fitted pingpong model says. RUN is a\n"
    "results directory or its results.json. Run an MPI program on it with\n"
    "  smpirun -np 2 -platform DIR/platform.xml -hostfile DIR/hostfile $(cat DIR/smpi.cfg) ./app\n";

static int export_usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "mbsuite export: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n%s", export_usage);
    return 2;
}

int mb_command_export(int argc, char **argv)
{
    const char *run = NULL, *out = NULL, *pair = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(export_usage, stdout);
            return 0;
        }
        const char **slot = strcmp(arg, "--simgrid") == 0 ? &run
                            : strcmp(arg, "--out") == 0   ? &out
                            : strcmp(arg, "--pair") == 0  ? &pair
                                                          : NULL;
        if (!slot)
            return export_usage_error("unknown argument '%s'", arg);
        if (i + 1 >= argc || argv[i + 1][0] == '\0')
            return export_usage_error("option '%s' needs a value", arg);
        *slot = argv[++i];
    }
    if (!run)
        return export_usage_error("%s", "which export? --simgrid RUN is the one there is");
    if (!out)
        return export_usage_error("%s", "no --out DIR given");
    char path[PATH_MAX];
    struct stat st;
    if (stat(run, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(path, sizeof path, "%s/results.json", run);
    else
        snprintf(path, sizeof path, "%s", run);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        if (je.line > 0)
            fprintf(stderr, "mbsuite export: %s:%d: %s\n", path, je.line, je.text);
        else
            fprintf(stderr, "mbsuite export: %s\n", je.text);
        return 1;
    }
    char err[512];
    int rc = mb_export_simgrid(root, pair, out, err, sizeof err);
    json_decref(root);
    if (rc != 0) {
        fprintf(stderr, "mbsuite export: %s: %s\n", path, err);
        return 1;
    }
    printf("mbsuite export: %s/platform.xml, hostfile, smpi.cfg, README.txt\n", out);
    return 0;
}
