/* SPDX-License-Identifier: MIT */
/* The export command: read a run's results.json (RUN is the results directory or the file)
 * and write one simulator's files into DIR: SimGrid (export_simgrid.h), LogGOPSim
 * (export_loggopsim.h) or Dimemas (export_dimemas.h). */
#include "export_command.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "export_dimemas.h"
#include "export_loggopsim.h"
#include "export_simgrid.h"

typedef int (*export_fn)(const json_t *root, const char *pair, const char *dir, char *err,
                         size_t errlen);

/* One export: its option and what it writes. */
typedef struct export_kind {
    const char *option;
    export_fn run;
    const char *files;
} export_kind_t;

static const export_kind_t export_kinds[] = {
    {"--simgrid", mb_export_simgrid, "platform.xml, hostfile, smpi.cfg, README.txt"},
    {"--loggopsim", mb_export_loggopsim,
     "loggopsim.args, README.txt, loggopsim-ps.args (unless README.txt says why not)"},
    {"--dimemas", mb_export_dimemas, "mbsuite.cfg, README.txt"},
};

static const char export_usage[] =
    "usage: mbsuite export --simgrid|--loggopsim|--dimemas RUN --out DIR [--pair intra|inter]\n"
    "Writes a simulator's description of RUN's measured network into DIR. RUN is a results\n"
    "directory or its results.json; the pair picks the latency benchmark's series (default:\n"
    "its first). Exactly one of:\n"
    "  --simgrid    DIR/platform.xml, hostfile, smpi.cfg, README.txt: a SimGrid 3.32 SMPI\n"
    "               platform whose messages take what RUN's fitted pingpong model says:\n"
    "               smpirun -np 2 -platform DIR/platform.xml -hostfile DIR/hostfile \\\n"
    "                   $(cat DIR/smpi.cfg) ./app\n"
    "  --loggopsim  DIR/loggopsim.args (ns), loggopsim-ps.args (ps), README.txt: RUN's LogGP\n"
    "               parameters as LogGOPSim's options:\n"
    "               LogGOPSim -f SCHEDULE.bin $(cat DIR/loggopsim.args)\n"
    "  --dimemas    DIR/mbsuite.cfg, README.txt: a Dimemas configuration (latency, bandwidth)\n"
    "               from the fitted pingpong:\n"
    "               Dimemas --dim app.dim --prv-trace out.prv --config-file DIR/mbsuite.cfg\n";

__attribute__((format(printf, 1, 2))) static int export_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mbsuite export: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n%s", export_usage);
    va_end(ap);
    return 2;
}

int mb_command_export(int argc, char **argv)
{
    const char *run = NULL, *out = NULL, *pair = NULL;
    const export_kind_t *kind = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(export_usage, stdout);
            return 0;
        }
        const export_kind_t *k = NULL;
        for (size_t j = 0; j < sizeof export_kinds / sizeof export_kinds[0]; j++)
            if (strcmp(arg, export_kinds[j].option) == 0)
                k = &export_kinds[j];
        const char **slot = k                            ? &run
                            : strcmp(arg, "--out") == 0  ? &out
                            : strcmp(arg, "--pair") == 0 ? &pair
                                                         : NULL;
        if (!slot)
            return export_usage_error("unknown argument '%s'", arg);
        if (k && kind)
            return export_usage_error("'%s' and '%s': one export at a time", kind->option,
                                      k->option);
        if (!k && *slot)
            return export_usage_error("option '%s' given twice", arg);
        if (i + 1 >= argc || argv[i + 1][0] == '\0')
            return export_usage_error("option '%s' needs a value", arg);
        if (k)
            kind = k;
        *slot = argv[++i];
    }
    if (!kind)
        return export_usage_error("which export? give one of --simgrid, --loggopsim or "
                                  "--dimemas RUN");
    if (!out)
        return export_usage_error("%s: no --out DIR given", kind->option);
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
            fprintf(stderr, "mbsuite export %s: %s:%d: %s\n", kind->option, path, je.line, je.text);
        else
            fprintf(stderr, "mbsuite export %s: %s\n", kind->option, je.text);
        return 1;
    }
    char err[512];
    int rc = kind->run(root, pair, out, err, sizeof err);
    json_decref(root);
    if (rc != 0) {
        fprintf(stderr, "mbsuite export %s: %s: %s\n", kind->option, path, err);
        return 1;
    }
    printf("mbsuite export: %s/%s\n", out, kind->files);
    return 0;
}
