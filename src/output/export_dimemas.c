/* SPDX-License-Identifier: MIT */
/* Dimemas export (export_dimemas.h): startup and bandwidth from the fitted latency
 * benchmark, the configuration records around them, and a README with what Dimemas's
 * linear model makes of the fitted one. */
#include "export_dimemas.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "export_util.h"
#include "fit_results.h"
#include "record.h"

/* Dimemas's MB, in bytes (communic.c's bw_ns_per_byte: 1e9 / (1 << 20) / bandwidth). */
#define DIMEMAS_MB 1048576.0
/* The ranks the fitted models are evaluated at (a pingpong's pair). */
#define DIMEMAS_P 2.0

/* The fitted time (ns) of segment `seg` of `fit` at size d, or NAN. */
static double dimemas_seg_time(const json_t *fit, const json_t *seg, double d)
{
    mb_fit_model_t m;
    char err[128];
    if (!seg || mb_fit_results_segment_model(fit, seg, &m, err, sizeof err) != 0)
        return NAN;
    return mb_fit_predict(&m, DIMEMAS_P, d, NULL, NULL);
}

int mb_dimemas_calibrate(const json_t *fit, double *startup_s, double *bandwidth_MBps, char *err,
                         size_t errlen)
{
    const json_t *first = NULL, *seg;
    double slope = 0;
    size_t i, j;
    json_array_foreach(json_object_get(fit, "segments"), i, seg)
    {
        if (!(json_number_value(json_object_get(seg, "d_min")) > 0))
            continue;
        if (!first)
            first = seg;
        const json_t *t;
        json_array_foreach(json_object_get(seg, "terms"), j, t)
        {
            const char *basis = json_string_value(json_object_get(t, "basis"));
            double c = json_number_value(json_object_get(t, "coef"));
            if (basis && strcmp(basis, "d") == 0 && c > 0)
                slope = c; /* the last, the largest sizes' */
        }
    }
    if (!first) {
        snprintf(err, errlen, "the fit has no segment of messages with bytes in them");
        return -1;
    }
    double t0 = dimemas_seg_time(fit, first, 0);
    if (!(t0 > 0)) /* a segment of d alone: its smallest size's time */
        t0 = dimemas_seg_time(fit, first, json_number_value(json_object_get(first, "d_min")));
    if (!(t0 > 0) || !isfinite(t0)) {
        snprintf(err, errlen, "the fit's first segment gives no positive time to start from");
        return -1;
    }
    *startup_s = t0 * 1e-9;
    *bandwidth_MBps = slope > 0 ? 1e9 / slope / DIMEMAS_MB : 0;
    return 0;
}

typedef struct dimemas_out {
    const mb_export_run_t *run;
    double startup_s, bw_MBps;
    bool inter;
} dimemas_out_t;

static int dimemas_write_cfg(FILE *f, void *arg)
{
    const dimemas_out_t *o = arg;
    int nodes = o->inter ? o->run->ranks : 1, cpus = o->inter ? 1 : o->run->ranks;
    /* Dimemas 5 skips the first line and lines with a "//"; a record is one line. */
    fprintf(f,
            "#DIMEMAS_CONFIGURATION\n"
            "// mbsuite export --dimemas: %s (%s) from %s; see README.txt.\n"
            "// A message of d bytes: %.6g s + d / %.10g MB/s (MB = 1048576 bytes).\n"
            "// %d node(s) of %d processor(s): the %s-node model is the measured one.\n\n",
            o->run->bench, o->run->series, o->run->source, o->startup_s, o->bw_MBps, nodes, cpus,
            o->inter ? "inter" : "intra");
    fprintf(f, "\"wide area network information\" {\"\", 1, 0, 4, 0.0, 0.0, 1};;\n\n");
    /* name, machine id, architecture, nodes, inter-node bandwidth (MB/s), buses (0: no
     * limit), collective model (1: constant) */
    fprintf(f, "\"environment information\" {\"mbsuite\", 0, \"\", %d, %.10g, 0, 1};;\n\n", nodes,
            o->bw_MBps);
    /* machine id, nodes, architecture, processors, speed ratio, intra-node startup (s),
     * bandwidth (MB/s), buses, input and output links, inter-node startup (s), input and
     * output links, WAN startup (s) */
    fprintf(f,
            "\"multi node information\" {0, %d, \"mbsuite\", %d, 1.0, %.10g, %.10g, 0, 1, 1, "
            "%.10g, 1, 1, 0.0};;\n\n",
            nodes, cpus, o->startup_s, o->bw_MBps, o->startup_s);
    fprintf(f, "\"predefined mapping information\" {\"%s\"};;\n\n",
            o->inter ? "1 TASKS_PER_NODE" : "FILL_NODES");
    fprintf(f, "\"configuration files\" {\"\", \"\", \"\", \"\"};;\n\n");
    fprintf(f, "\"file system parameters\" {0.0, 0.0, 8.0, 0, 1.0};;\n");
    return ferror(f) ? -1 : 0;
}

static void dimemas_readme_row(FILE *f, const dimemas_out_t *o, double d)
{
    double fitted = dimemas_seg_time(o->run->fit, mb_fit_results_pick_segment(o->run->fit, d), d);
    double t = o->startup_s * 1e9 + (o->bw_MBps > 0 ? d / (o->bw_MBps * DIMEMAS_MB) * 1e9 : 0);
    fprintf(f, "  %10.0f  %11.4g  %11.4g  %+7.1f%%\n", d, fitted / 1e3, t / 1e3,
            (t - fitted) / fitted * 100);
}

static int dimemas_write_readme(FILE *f, void *arg)
{
    const dimemas_out_t *o = arg;
    fprintf(f,
            "Dimemas configuration from mbsuite (%s, %s; %s)\n\n"
            "  Dimemas --dim app.dim --prv-trace app.sim.prv --config-file mbsuite.cfg\n\n"
            "(Dimemas 5; app.dim is the application's trace: Extrae's app.prv through\n"
            "prv2dim --prv-trace app.prv --dim-trace app.dim.)\n\n"
            "Dimemas's model of a message of d bytes is linear: a startup latency + d /\n"
            "bandwidth. From the fitted model of %s (half a round trip):\n"
            "  startup   %.6g s: the first segment of messages with bytes in them, at 0 bytes\n"
            "  bandwidth %.10g MB/s (MB = 1048576 bytes, as Dimemas counts): 1 / the slope in\n"
            "            d over the largest sizes%s\n"
            "The run had %d ranks: mbsuite.cfg has %s, so the %s-node\n"
            "fields are the ones Dimemas uses; the others carry the same figures (not measured).\n"
            "Buses are 0 (no limit) and links 1 in, 1 out: mbsuite measured one message at a\n"
            "time, not how many the node or network carries at once.\n\n"
            "What Dimemas makes of the pingpong it was calibrated on:\n\n"
            "  %10s  %11s  %11s  %8s\n",
            o->run->bench, o->run->series, o->run->source, o->run->bench, o->startup_s, o->bw_MBps,
            o->bw_MBps > 0 ? "" : " (no positive slope: 0, which Dimemas takes as instantaneous)",
            o->run->ranks, o->inter ? "one node per rank" : "one node with a processor per rank",
            o->inter ? "inter" : "intra", "bytes", "fitted (us)", "Dimemas (us)", "error");
    size_t i;
    const json_t *seg;
    const json_t *segs = json_object_get(o->run->fit, "segments");
    json_array_foreach(segs, i, seg)
    {
        double d = json_number_value(json_object_get(seg, "d_min"));
        if (d > 0)
            dimemas_readme_row(f, o, d);
    }
    dimemas_readme_row(f, o,
                       json_number_value(json_object_get(
                           json_array_get(segs, json_array_size(segs) - 1), "d_max")));
    fputs("\nNot in this configuration: the steps between the fitted segments (an eager to\n"
          "rendezvous switch; Dimemas's communications fine-tuning file could add a round trip\n"
          "above an eager size), CPU overheads apart from the startup, contention, and\n"
          "collectives (Dimemas models them from its own collective model, not calibrated\n"
          "here).\n",
          f);
    return ferror(f) ? -1 : 0;
}

/* Whether the series is an inter-node pair (a label value "inter"). */
static bool dimemas_inter(const json_t *fit)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(fit, "params"), key, v)
    {
        if (json_is_string(v) && strcmp(json_string_value(v), "inter") == 0)
            return true;
    }
    return false;
}

int mb_export_dimemas(const json_t *root, const char *pair, const char *dir, char *err,
                      size_t errlen)
{
    mb_export_run_t run;
    if (mb_export_run_open(root, pair, &run, err, errlen) != 0)
        return -1;
    int rc = -1;
    dimemas_out_t o = {.run = &run, .inter = dimemas_inter(run.fit)};
    if (mb_dimemas_calibrate(run.fit, &o.startup_s, &o.bw_MBps, err, errlen) == 0) {
        static const mb_export_file_t files[] = {{"mbsuite.cfg", dimemas_write_cfg},
                                                 {"README.txt", dimemas_write_readme}};
        rc = mb_export_write_files(dir, files, sizeof files / sizeof files[0], &o, err, errlen);
    }
    mb_export_run_close(&run);
    return rc;
}
