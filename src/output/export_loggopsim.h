/* SPDX-License-Identifier: MIT */
/* A measured network as LogGOPSim (spcl/LogGOPSim, Hoefler et al.) simulates it: the run's
 * LogGP parameters ("loggp", fit_results.h) as the simulator's options -L -o -g -G -O -S.
 * LogGOPSim takes each as a C int (gengetopt "int") and counts time in nanoseconds (it
 * prints its finishing time divided by 1e9 as seconds), so every value is rounded to whole
 * ns; a per-byte cost below 0.5 ns/byte rounds to 0, so the same options are also written
 * with every time in picoseconds. Its model of a message of s bytes: o + (s - 1) O of the
 * sender's CPU, g + (s - 1) G between messages on its NIC, first byte at the receiver L
 * after o, then o + (s - 1) max(O, G) of the receiver's CPU; messages over S bytes use
 * rendezvous (the send completes once the receive is matched).
 *
 * The mapping: L, g and G are the run's; LogGOPSim has one o for both ends, so
 * o = (o_s + o_r) / 2, which keeps a 1-byte half round trip, o + L + o, at the measured
 * o_s + L + o_r; O is the slope in d of the o_s benchmark's fit (e.g. mpi.send) over its
 * largest sizes, the sender's CPU time per byte; S is one byte below the size where the
 * latency benchmark's fit steps up most (mb_loggopsim_eager_limit). */
#ifndef MB_EXPORT_LOGGOPSIM_H
#define MB_EXPORT_LOGGOPSIM_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

enum {
    MB_LOGGOPSIM_L,
    MB_LOGGOPSIM_O_CPU,
    MB_LOGGOPSIM_G_MSG,
    MB_LOGGOPSIM_G_BYTE,
    MB_LOGGOPSIM_O_BYTE,
    MB_LOGGOPSIM_S,
    MB_LOGGOPSIM_NPARAMS
};

/* One LogGOPSim option: its letter, mbsuite's value (ns, ns/byte, or bytes for S), whether
 * it was measured (an unmeasured one is written as 0), and where it comes from. */
typedef struct mb_loggopsim_param {
    char option;
    const char *unit;
    double value;
    bool measured;
    char source[400];
} mb_loggopsim_param_t;

/* The eager limit S (bytes) from a fits entry of a latency benchmark: among the breaks
 * between its segments of d > 0, the one where the model steps up most (a rendezvous adds
 * at least one control message), if that step is at least half the time of the smallest
 * message with bytes in it; S is one below the first size after that break. Without such
 * a step, the largest fitted size (every size behaved the same). `why` gets the reason.
 * Returns S, or -1 when the fit has no segment of d > 0. */
double mb_loggopsim_eager_limit(const json_t *fit, char *why, size_t whylen);

/* The six parameters for the series of the latency benchmark's fit with label value `pair`
 * (NULL: its first), from root's "loggp" and the fits (root's "fits" or fitted now).
 * Returns 0, or -1 with err (no "loggp", no such series, L, o_s or o_r not derived). */
int mb_loggopsim_params(const json_t *root, const char *pair, mb_loggopsim_param_t *out, char *err,
                        size_t errlen);

/* Write dir/loggopsim.args (the options, one line: -L .. -o .. -g .. -G .. -O .. -S .., in
 * ns), dir/loggopsim-ps.args (the same with times in ps) and dir/README.txt, each
 * atomically, none of them on an error. Returns 0, or -1 with err. */
int mb_export_loggopsim(const json_t *root, const char *pair, const char *dir, char *err,
                        size_t errlen);

#endif
