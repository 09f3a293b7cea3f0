/* SPDX-License-Identifier: MIT */
/* LogGOPSim export (export_loggopsim.h): the run's LogGP parameters rounded to the integer
 * options LogGOPSim's command line takes, in ns and in ps, and a README that says where
 * each comes from, what the rounding did and what the simulator's model makes of the
 * measured pingpong. */
#include "export_loggopsim.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export_util.h"
#include "fit_results.h"
#include "record.h"

/* A rendezvous costs at least one more control message: a step of at least this share of
 * the smallest message's time is one. */
#define LOGGOPSIM_STEP_SHARE 0.5
/* The ranks the fitted models are evaluated at (a pingpong's pair). */
#define LOGGOPSIM_P 2.0

/* The fitted time (ns) of segment `seg` of `fit` at size d, or NAN. */
static double loggopsim_seg_time(const json_t *fit, const json_t *seg, double d)
{
    mb_fit_model_t m;
    char err[128];
    if (!seg || mb_fit_results_segment_model(fit, seg, &m, err, sizeof err) != 0)
        return NAN;
    return mb_fit_predict(&m, LOGGOPSIM_P, d, NULL, NULL);
}

double mb_loggopsim_eager_limit(const json_t *fit, char *why, size_t whylen)
{
    const json_t *segs = json_object_get(fit, "segments");
    const char *name = json_string_value(json_object_get(fit, "name"));
    name = name ? name : "the latency benchmark";
    const json_t *prev = NULL, *first = NULL, *best = NULL, *best_prev = NULL;
    double best_step = 0, d_last = -1;
    size_t i;
    const json_t *seg;
    json_array_foreach(segs, i, seg)
    {
        double d_min = json_number_value(json_object_get(seg, "d_min"));
        if (!(d_min > 0))
            continue;
        d_last = json_number_value(json_object_get(seg, "d_max"));
        if (!first)
            first = seg;
        if (prev) {
            double step =
                loggopsim_seg_time(fit, seg, d_min) - loggopsim_seg_time(fit, prev, d_min);
            if (step > best_step) {
                best_step = step;
                best = seg;
                best_prev = prev;
            }
        }
        prev = seg;
    }
    if (!first) {
        snprintf(why, whylen, "%s's fit has no segment of messages with bytes in them", name);
        return -1;
    }
    double d0 = json_number_value(json_object_get(first, "d_min"));
    double base = loggopsim_seg_time(fit, first, d0);
    if (!best || !(best_step >= LOGGOPSIM_STEP_SHARE * base)) {
        snprintf(why, whylen,
                 "%s's fit shows no step up of half a small message's time (%.3g us at %.0f B) "
                 "up to its largest size: every measured size behaved alike, so S is the "
                 "largest measured size, %.0f B; above it, unknown",
                 name, base / 1e3, d0, d_last);
        return d_last;
    }
    double d_min = json_number_value(json_object_get(best, "d_min"));
    double below = loggopsim_seg_time(fit, best_prev, d_min);
    snprintf(why, whylen,
             "%s's fit steps up most between %.0f and %.0f B (+%.3g us, x%.2f at %.0f B): a "
             "rendezvous from %.0f B on; LogGOPSim sends S bytes or fewer eagerly",
             name, json_number_value(json_object_get(best_prev, "d_max")), d_min, best_step / 1e3,
             (below + best_step) / below, d_min, d_min);
    return d_min - 1;
}

/* The d slope (ns/byte) of a fit's segment over its largest sizes; false when none > 0. */
static bool loggopsim_last_slope(const json_t *fit, double *slope, double *d_min, double *d_max)
{
    const json_t *segs = json_object_get(fit, "segments");
    const json_t *last = json_array_get(segs, json_array_size(segs) - 1);
    size_t i;
    const json_t *t;
    *slope = NAN;
    json_array_foreach(json_object_get(last, "terms"), i, t)
    {
        const char *basis = json_string_value(json_object_get(t, "basis"));
        if (basis && strcmp(basis, "d") == 0)
            *slope = json_number_value(json_object_get(t, "coef"));
    }
    *d_min = json_number_value(json_object_get(last, "d_min"));
    *d_max = json_number_value(json_object_get(last, "d_max"));
    return *slope > 0;
}

/* A LogGP parameter of root's "loggp" for one series: its value, or false with err. */
static bool loggopsim_loggp(const json_t *series, const char *key, const char *what, double *v,
                            const char **derivation, char *err, size_t errlen)
{
    const json_t *p = json_object_get(series, what);
    const json_t *value = json_object_get(p, "value");
    *derivation = json_string_value(json_object_get(p, "derivation"));
    if (json_is_number(value)) {
        *v = json_number_value(value);
        return true;
    }
    const char *omitted = json_string_value(json_object_get(p, "omitted"));
    snprintf(err, errlen, "loggp %s has no %s%s%s", key, what, omitted ? ": " : "",
             omitted ? omitted : "");
    return false;
}

static void loggopsim_set(mb_loggopsim_param_t *p, char option, const char *unit, double value,
                          bool measured, const char *source)
{
    p->option = option;
    p->unit = unit;
    p->value = value;
    p->measured = measured;
    snprintf(p->source, sizeof p->source, "%s", source ? source : "");
}

/* The parameters from a fits array (root's or fitted now) and the latency fit. */
static int loggopsim_from(const json_t *root, const json_t *fits, const json_t *fit,
                          const char *bench, mb_loggopsim_param_t *out, char *err, size_t errlen)
{
    const json_t *loggp = json_object_get(root, "loggp");
    if (!json_is_object(loggp)) {
        snprintf(err, errlen,
                 "no \"loggp\" section (the LogGP parameters a run derives from "
                 "mpi.pingpong, mpi.send, mpi.recvmin and mpi.gap)");
        return -1;
    }
    char key[128];
    mb_record_series_text(json_object_get(fit, "params"), key, sizeof key);
    const char *k = key[0] ? key : "all";
    const json_t *series = json_object_get(loggp, k);
    if (!json_is_object(series)) {
        snprintf(err, errlen, "\"loggp\" has no series %s (%s's)", k, bench);
        return -1;
    }
    double L, o_s, o_r, g, G;
    const char *dL, *do_s, *do_r, *dg, *dG;
    if (!loggopsim_loggp(series, k, "L", &L, &dL, err, errlen) ||
        !loggopsim_loggp(series, k, "o_s", &o_s, &do_s, err, errlen) ||
        !loggopsim_loggp(series, k, "o_r", &o_r, &do_r, err, errlen) ||
        !loggopsim_loggp(series, k, "g", &g, &dg, err, errlen))
        return -1;
    char text[400];
    loggopsim_set(&out[MB_LOGGOPSIM_L], 'L', "ns", L, true, dL);
    snprintf(text, sizeof text,
             "(o_s + o_r) / 2 = (%.4g + %.4g) / 2: LogGOPSim has one o, charged at both ends "
             "(o_s: %s; o_r: %s)",
             o_s, o_r, do_s ? do_s : "?", do_r ? do_r : "?");
    loggopsim_set(&out[MB_LOGGOPSIM_O_CPU], 'o', "ns", (o_s + o_r) / 2, true, text);
    loggopsim_set(&out[MB_LOGGOPSIM_G_MSG], 'g', "ns", g, true, dg);
    char why[400];
    if (loggopsim_loggp(series, k, "G", &G, &dG, why, sizeof why)) {
        loggopsim_set(&out[MB_LOGGOPSIM_G_BYTE], 'G', "ns/byte", G, true, dG);
    } else {
        snprintf(text, sizeof text, "not measured (%s); written as 0", why);
        loggopsim_set(&out[MB_LOGGOPSIM_G_BYTE], 'G', "ns/byte", 0, false, text);
    }
    const json_t *send = mb_fit_loggp_source(root, "o_s");
    const char *send_name = send ? json_string_value(json_object_get(send, "name")) : NULL;
    const json_t *send_fit =
        send_name ? mb_fit_results_find(fits, send_name, json_object_get(fit, "params")) : NULL;
    double O, d_min, d_max;
    if (send_fit && loggopsim_last_slope(send_fit, &O, &d_min, &d_max)) {
        snprintf(text, sizeof text,
                 "slope in d of %s's model over its largest sizes (%.0f to %.0f B): the "
                 "sender's CPU time per byte",
                 send_name, d_min, d_max);
        loggopsim_set(&out[MB_LOGGOPSIM_O_BYTE], 'O', "ns/byte", O, true, text);
    } else {
        snprintf(text, sizeof text, "not measured (%s); written as 0, LogGOPSim's default",
                 !send_name  ? "no benchmark with loggp \"o_s\" ran"
                 : !send_fit ? "no fit of the o_s benchmark for this series"
                             : "the o_s benchmark's model over its largest sizes has no "
                               "positive d term");
        loggopsim_set(&out[MB_LOGGOPSIM_O_BYTE], 'O', "ns/byte", 0, false, text);
    }
    double S = mb_loggopsim_eager_limit(fit, why, sizeof why);
    if (S < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    /* Where the library states its eager limit for the pair (MPI_T), that is S: the fitted
     * step only brackets it between two measured sizes. */
    double limits[4];
    if (mb_fit_results_eager_limits(json_object_get(root, "system"), json_object_get(fit, "params"),
                                    limits, 4) == 1) {
        char fitted[sizeof why];
        snprintf(fitted, sizeof fitted, "%s", why);
        S = limits[0] - 1;
        snprintf(why, sizeof why,
                 "the MPI library's eager limit for this pair, %.0f B (system.mpi.protocol_limits, "
                 "read through MPI_T), less 1: a message of it or more goes by rendezvous (the "
                 "fit: %s)",
                 limits[0], fitted);
    }
    loggopsim_set(&out[MB_LOGGOPSIM_S], 'S', "bytes", S, true, why);
    for (int i = 0; i < MB_LOGGOPSIM_NPARAMS; i++) {
        if (!isfinite(out[i].value) || out[i].value < 0 || out[i].value > INT_MAX) {
            snprintf(err, errlen, "%c = %g %s does not fit LogGOPSim's int option", out[i].option,
                     out[i].value, out[i].unit);
            return -1;
        }
    }
    return 0;
}

/* The first time parameter that overflows LogGOPSim's int in picoseconds (over 2.1 ms, as
 * a pingpong's L on a heavily loaded machine), or NULL when loggopsim-ps.args can be
 * written: such a run still gets its ns file. */
static const mb_loggopsim_param_t *loggopsim_ps_overflow(const mb_loggopsim_param_t *p)
{
    for (int i = 0; i < MB_LOGGOPSIM_NPARAMS; i++)
        if (p[i].option != 'S' && p[i].value * 1e3 > INT_MAX)
            return &p[i];
    return NULL;
}

typedef struct loggopsim_out {
    const mb_export_run_t *run;
    mb_loggopsim_param_t p[MB_LOGGOPSIM_NPARAMS];
} loggopsim_out_t;

/* A parameter as written: whole ns (or bytes), or whole ps. */
static long loggopsim_int(const mb_loggopsim_param_t *p, bool ps)
{
    return lround(p->option == 'S' || !ps ? p->value : p->value * 1e3);
}

static int loggopsim_write_args(FILE *f, const loggopsim_out_t *o, bool ps)
{
    for (int i = 0; i < MB_LOGGOPSIM_NPARAMS; i++)
        fprintf(f, "%s-%c %ld", i ? " " : "", o->p[i].option, loggopsim_int(&o->p[i], ps));
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

static int loggopsim_write_ns(FILE *f, void *arg)
{
    return loggopsim_write_args(f, arg, false);
}

static int loggopsim_write_ps(FILE *f, void *arg)
{
    return loggopsim_write_args(f, arg, true);
}

/* LogGOPSim's half round trip of d bytes (in its time unit) with the written options. */
static double loggopsim_pingpong(const loggopsim_out_t *o, double d, bool ps)
{
    long L = loggopsim_int(&o->p[MB_LOGGOPSIM_L], ps),
         oo = loggopsim_int(&o->p[MB_LOGGOPSIM_O_CPU], ps);
    long G = loggopsim_int(&o->p[MB_LOGGOPSIM_G_BYTE], ps),
         O = loggopsim_int(&o->p[MB_LOGGOPSIM_O_BYTE], ps);
    return (double)(2 * oo + L) + fmax(d - 1, 0) * (double)(G > O ? G : O);
}

static void loggopsim_readme_row(FILE *f, const loggopsim_out_t *o, double d)
{
    double fitted = loggopsim_seg_time(o->run->fit, mb_fit_results_pick_segment(o->run->fit, d), d);
    double ns = loggopsim_pingpong(o, d, false), ps = loggopsim_pingpong(o, d, true) / 1e3;
    fprintf(f, "  %10.0f  %11.4g  %11.4g  %+7.1f%%  %11.4g  %+7.1f%%\n", d, fitted / 1e3, ns / 1e3,
            (ns - fitted) / fitted * 100, ps / 1e3, (ps - fitted) / fitted * 100);
}

static int loggopsim_write_readme(FILE *f, void *arg)
{
    const loggopsim_out_t *o = arg;
    fprintf(f,
            "LogGOPSim parameters from mbsuite (%s, %s; %s)\n\n"
            "  LogGOPSim -f SCHEDULE.bin $(cat loggopsim.args)\n\n"
            "LogGOPSim's options are C ints and its time unit is the nanosecond (it prints its\n"
            "finishing time / 1e9 as seconds): each value below is mbsuite's, rounded to the\n"
            "nearest integer.\n\n",
            o->run->bench, o->run->series, o->run->source);
    fprintf(f, "  option  %10s  %12s  %s\n", "ns", "ps", "measured, and from what");
    char zeroed[64] = "";
    for (int i = 0; i < MB_LOGGOPSIM_NPARAMS; i++) {
        const mb_loggopsim_param_t *p = &o->p[i];
        char ps[32], measured[48];
        if (p->option == 'S')
            snprintf(ps, sizeof ps, "%s", "(bytes)");
        else
            snprintf(ps, sizeof ps, "%ld", loggopsim_int(p, true));
        snprintf(measured, sizeof measured, "%.6g %s", p->value, p->unit);
        fprintf(f, "  -%c      %10ld  %12s  %s\n          %s\n", p->option, loggopsim_int(p, false),
                ps, p->measured ? measured : "not measured", p->source);
        if (p->measured && p->value > 0 && loggopsim_int(p, false) == 0) {
            size_t n = strlen(zeroed);
            snprintf(zeroed + n, sizeof zeroed - n, "%s%c", n ? ", " : "", p->option);
        }
    }
    const mb_loggopsim_param_t *big = loggopsim_ps_overflow(o->p);
    if (big)
        fprintf(f,
                "\nloggopsim-ps.args is not written: -%c = %.6g %s is over LogGOPSim's int\n"
                "(2147483647) in picoseconds; use loggopsim.args.\n",
                big->option, big->value, big->unit);
    if (zeroed[0] && big)
        fprintf(f,
                "\nRounded to 0 ns though measured above 0: %s. LogGOPSim takes them as free,\n"
                "and without the ps file nothing keeps them.\n",
                zeroed);
    else if (zeroed[0])
        fprintf(f,
                "\nRounded to 0 ns though measured above 0: %s. With loggopsim.args LogGOPSim\n"
                "takes them as free. loggopsim-ps.args has every time in picoseconds instead:\n"
                "use it with a GOAL schedule whose calc times are in picoseconds too, and read\n"
                "LogGOPSim's \"(... s)\" figure as milliseconds.\n",
                zeroed);
    fprintf(f,
            "\nWhat LogGOPSim makes of the pingpong it was calibrated on: a half round trip of d\n"
            "bytes takes o + L + o + (d - 1) max(G, O), eager or not (its rendezvous holds the\n"
            "sender until the receive is matched and adds no time of its own):\n\n"
            "  %10s  %11s  %11s  %8s  %11s  %8s\n",
            "bytes", "fitted (us)", "ns args (us)", "error", "ps args (us)", "error");
    size_t i;
    const json_t *seg;
    json_array_foreach(json_object_get(o->run->fit, "segments"), i, seg)
    {
        double d = json_number_value(json_object_get(seg, "d_min"));
        if (d > 0)
            loggopsim_readme_row(f, o, d);
    }
    const json_t *segs = json_object_get(o->run->fit, "segments");
    loggopsim_readme_row(f, o,
                         json_number_value(json_object_get(
                             json_array_get(segs, json_array_size(segs) - 1), "d_max")));
    fputs("\nWhat mbsuite did not measure, or LogGOPSim cannot take:\n"
          "  - one o: mbsuite measures the sender's and the receiver's overheads apart; their\n"
          "    mean keeps the half round trip of a small message.\n"
          "  - O at the receiver: LogGOPSim charges (s - 1) max(O, G) there; O is the sender's.\n"
          "  - the rendezvous step: the fitted model's jump at S + 1 bytes (the handshake) and\n"
          "    each segment's own intercept; LogGP has one line, L + 2o + (s - 1) G.\n"
          "  - contention and topology (LogGOPSim's --network-type simple, --network-file):\n"
          "    mbsuite measured one pair of ranks at a time.\n"
          "  - collectives: LogGOPSim replays the point-to-point messages of a GOAL schedule\n"
          "    (Schedgen writes them for each collective algorithm).\n",
          f);
    return ferror(f) ? -1 : 0;
}

int mb_loggopsim_params(const json_t *root, const char *pair, mb_loggopsim_param_t *out, char *err,
                        size_t errlen)
{
    mb_export_run_t run;
    if (mb_export_run_open(root, pair, &run, err, errlen) != 0)
        return -1;
    int rc = loggopsim_from(root, run.fits, run.fit, run.bench, out, err, errlen);
    mb_export_run_close(&run);
    return rc;
}

int mb_export_loggopsim(const json_t *root, const char *pair, const char *dir, char *err,
                        size_t errlen)
{
    mb_export_run_t run;
    if (mb_export_run_open(root, pair, &run, err, errlen) != 0)
        return -1;
    int rc = -1;
    loggopsim_out_t o = {.run = &run};
    if (loggopsim_from(root, run.fits, run.fit, run.bench, o.p, err, errlen) == 0) {
        static const mb_export_file_t files[] = {{"loggopsim.args", loggopsim_write_ns},
                                                 {"README.txt", loggopsim_write_readme},
                                                 {"loggopsim-ps.args", loggopsim_write_ps}};
        size_t nfiles = sizeof files / sizeof files[0] - (loggopsim_ps_overflow(o.p) ? 1 : 0);
        rc = mb_export_write_files(dir, files, nfiles, &o, err, errlen);
    }
    mb_export_run_close(&run);
    return rc;
}
