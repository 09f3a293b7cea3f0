/* SPDX-License-Identifier: MIT */
/* SimGrid/SMPI export (export_simgrid.h): calibration from the fitted segments, then the
 * platform, host file, SMPI options and a README, each written atomically. */
#include "export_simgrid.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "export_util.h"
#include "fit_results.h"
#include "record.h"

/* A segment with no d term moves bytes for free; its pieces get this bandwidth factor. */
#define SIMGRID_FREE_BW_FACTOR 1e6
/* SMPI 3.32 counts a message as its payload and this many bytes more, both for its time on
 * the links and for picking its factors (measured: a 0-byte message takes 16 bytes' time;
 * network_smpi.cpp gives a factor of size t to messages over t). So a piece for payloads
 * from d bytes has size d + 15, and the latency factors leave room for the 16 bytes. */
#define SIMGRID_ENVELOPE_BYTES 16.0
/* Without any d term at all, the links' bandwidth (bytes/s). */
#define SIMGRID_DEFAULT_BW_BPS 1e12

/* A segment's intercept (ns) and slope (ns/byte); false with err on another term. */
static bool simgrid_terms(const json_t *seg, double *a_ns, double *b_ns, char *err, size_t errlen)
{
    *a_ns = *b_ns = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(seg, "terms"), i, t)
    {
        const char *basis = json_string_value(json_object_get(t, "basis"));
        double c = json_number_value(json_object_get(t, "coef"));
        if (basis && strcmp(basis, "1") == 0) {
            *a_ns = c;
        } else if (basis && strcmp(basis, "d") == 0) {
            *b_ns = c;
        } else {
            snprintf(err, errlen, "a segment has a %s term; a network model takes 1 and d only",
                     basis ? basis : "nameless");
            return false;
        }
    }
    return true;
}

int mb_simgrid_calibrate(const json_t *fit, double *link_latency_s, double *link_bandwidth_Bps,
                         mb_simgrid_piece_t *pieces, char *err, size_t errlen)
{
    const json_t *segs = json_object_get(fit, "segments");
    size_t n = json_array_size(segs);
    if (n == 0 || n > MB_SIMGRID_MAX_PIECES) {
        snprintf(err, errlen, "the fit has %zu segments (1 to %d needed)", n,
                 MB_SIMGRID_MAX_PIECES);
        return -1;
    }
    double a[MB_SIMGRID_MAX_PIECES], b[MB_SIMGRID_MAX_PIECES], ref_a = 0, ref_b = 0;
    for (size_t s = 0; s < n; s++) {
        const json_t *seg = json_array_get(segs, s);
        if (!simgrid_terms(seg, &a[s], &b[s], err, errlen))
            return -1;
        pieces[s].size_bytes = json_number_value(json_object_get(seg, "d_min"));
        /* The reference intercept: the first segment of messages with bytes in them. */
        if (!(ref_a > 0) && a[s] > 0 && (pieces[s].size_bytes > 0 || s + 1 == n))
            ref_a = a[s];
        if (b[s] > 0)
            ref_b = b[s]; /* the last, the largest sizes' */
    }
    for (size_t s = 0; !(ref_a > 0) && s < n; s++)
        ref_a = a[s];
    if (!(ref_a > 0)) {
        snprintf(err, errlen, "no segment has a positive intercept to set a latency from");
        return -1;
    }
    /* A route of the cluster crosses two links: each carries half the latency. */
    *link_latency_s = ref_a / 2 * 1e-9;
    *link_bandwidth_Bps = ref_b > 0 ? 1e9 / ref_b : SIMGRID_DEFAULT_BW_BPS;
    for (size_t s = 0; s < n; s++) {
        pieces[s].lat_factor = fmax(a[s] - SIMGRID_ENVELOPE_BYTES * b[s], 0) / ref_a;
        pieces[s].bw_factor =
            b[s] > 0 ? 1e9 / (b[s] * *link_bandwidth_Bps) : SIMGRID_FREE_BW_FACTOR;
    }
    return (int)n;
}

typedef struct simgrid_out {
    const mb_export_run_t *run; /* a host per rank */
    double lat_s, bw_Bps;
    const mb_simgrid_piece_t *pieces;
    int npieces;
    double eager_bytes; /* the library's eager limit for the pair, 0: none known */
} simgrid_out_t;

static int simgrid_write_platform(FILE *f, void *arg)
{
    const simgrid_out_t *o = arg;
    fprintf(f,
            "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<!-- mbsuite: %s %s from %s; with smpi.cfg, an SMPI message takes what its fitted "
            "model says (README.txt) -->\n"
            "<platform version=\"4.1\">\n"
            "  <cluster id=\"mbsuite\" prefix=\"host-\" suffix=\"\" radical=\"0-%d\" "
            "speed=\"1Gf\" bw=\"%.10gBps\" lat=\"%.10gs\"/>\n"
            "</platform>\n",
            o->run->bench, o->run->series, o->run->source, o->run->ranks - 1, o->bw_Bps, o->lat_s);
    return ferror(f) ? -1 : 0;
}

static int simgrid_write_hostfile(FILE *f, void *arg)
{
    const simgrid_out_t *o = arg;
    for (int h = 0; h < o->run->ranks; h++)
        fprintf(f, "host-%d\n", h);
    return ferror(f) ? -1 : 0;
}

static void simgrid_factor_list(FILE *f, const simgrid_out_t *o, bool bw)
{
    for (int s = 0; s < o->npieces; s++)
        fprintf(f, "%s%.0f:%.10g", s ? ";" : "",
                o->pieces[s].size_bytes + SIMGRID_ENVELOPE_BYTES - 1,
                bw ? o->pieces[s].bw_factor : o->pieces[s].lat_factor);
}

static int simgrid_write_cfg(FILE *f, void *arg)
{
    const simgrid_out_t *o = arg;
    fputs("--cfg=smpi/lat-factor:", f);
    simgrid_factor_list(f, o, false);
    fputs("\n--cfg=smpi/bw-factor:", f);
    simgrid_factor_list(f, o, true);
    fputs("\n--cfg=smpi/os:0:0:0\n--cfg=smpi/or:0:0:0\n--cfg=smpi/ois:0:0:0\n", f);
    if (o->eager_bytes > 0)
        fprintf(f, "--cfg=smpi/send-is-detached-thresh:%.0f\n", o->eager_bytes);
    return ferror(f) ? -1 : 0;
}

static int simgrid_write_readme(FILE *f, void *arg)
{
    const simgrid_out_t *o = arg;
    fprintf(f,
            "SimGrid/SMPI platform from mbsuite (SimGrid 3.32; %s)\n\n"
            "  smpirun -np %d -platform platform.xml -hostfile hostfile $(cat smpi.cfg) ./app\n\n"
            "Calibrated on the fitted model of %s (%s), half a round trip: each SMPI message of\n"
            "d bytes takes lat-factor(d) x %.6g us (the route: two links of %.6g us) +\n"
            "(d + 16) / (bw-factor(d) x %.6g GB/s), the factors of the last piece from d bytes\n"
            "or fewer (SMPI counts 16 bytes more than the payload, and smpi.cfg's sizes say d + "
            "15):\n\n",
            o->run->source, o->run->ranks, o->run->bench, o->run->series, 2 * o->lat_s * 1e6,
            o->lat_s * 1e6, o->bw_Bps / 1e9);
    fprintf(f, "  %12s  %-44s %12s %12s\n", "from bytes", "fitted model (us)", "lat-factor",
            "bw-factor");
    const json_t *segs = json_object_get(o->run->fit, "segments");
    for (int s = 0; s < o->npieces; s++) {
        char model[256];
        mb_fit_results_format_model(json_array_get(segs, (size_t)s), false, model, sizeof model);
        fprintf(f, "  %12.0f  %-44s %12.6g %12.6g\n", o->pieces[s].size_bytes, model,
                o->pieces[s].lat_factor, o->pieces[s].bw_factor);
    }
    fputs("\nsmpi/os, smpi/or and smpi/ois are 0: the send and receive overheads are already in\n"
          "the half round trip the factors replay, and SMPI would add them again.\n",
          f);
    if (o->eager_bytes > 0)
        fprintf(f,
                "\nsmpi/send-is-detached-thresh is %.0f, the MPI library's eager limit for this "
                "pair\n(system.mpi.protocol_limits, read through MPI_T): an MPI_Send of that many "
                "bytes or more\nwaits for its receive, as the library's rendezvous does (SMPI's "
                "default is 65536).\n",
                o->eager_bytes);
    else
        fputs("\nsmpi/send-is-detached-thresh is SMPI's default (65536): the run recorded no "
              "eager limit\nfor this pair (system.mpi.protocol_limits).\n",
              f);
    return ferror(f) ? -1 : 0;
}

int mb_export_simgrid(const json_t *root, const char *pair, const char *dir, char *err,
                      size_t errlen)
{
    mb_export_run_t run;
    if (mb_export_run_open(root, pair, &run, err, errlen) != 0)
        return -1;
    int rc = -1;
    mb_simgrid_piece_t pieces[MB_SIMGRID_MAX_PIECES];
    simgrid_out_t o = {.run = &run, .pieces = pieces};
    /* Where MPI_Send stops returning before its receive: one limit for the pair, or none. */
    double limits[4];
    if (mb_fit_results_eager_limits(json_object_get(root, "system"),
                                    json_object_get(run.fit, "params"), limits, 4) == 1)
        o.eager_bytes = limits[0];
    o.npieces = mb_simgrid_calibrate(run.fit, &o.lat_s, &o.bw_Bps, pieces, err, errlen);
    if (o.npieces >= 0) {
        static const mb_export_file_t files[] = {{"platform.xml", simgrid_write_platform},
                                                 {"hostfile", simgrid_write_hostfile},
                                                 {"smpi.cfg", simgrid_write_cfg},
                                                 {"README.txt", simgrid_write_readme}};
        rc = mb_export_write_files(dir, files, sizeof files / sizeof files[0], &o, err, errlen);
    }
    mb_export_run_close(&run);
    return rc;
}
