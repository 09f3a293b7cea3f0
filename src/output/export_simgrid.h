/* SPDX-License-Identifier: MIT */
/* A measured network as SimGrid 3.32's SMPI simulates it: the fitted half round trip of the
 * run's latency benchmark (the one whose "loggp" is "L", e.g. mpi.pingpong) replayed by a
 * cluster platform and SMPI's piecewise latency and bandwidth factors, one piece per fitted
 * segment (the 0-byte segment first), so that an SMPI pingpong of d bytes takes what the
 * segment's model says.
 *
 * SMPI's time for one message over a route: lat-factor(d) x the route's latency +
 * (d + 16) / (bw-factor(d) x the link bandwidth), the factors of the piece for d (SMPI
 * counts 16 bytes beside the payload, in the time and in the choice of the piece).
 * The platform's links carry the first d > 0 segment's intercept (half of it on each of a
 * route's two links) and the largest sizes' bandwidth; the factors scale each segment to
 * its own intercept and slope, less the time of those 16 bytes. The send and receive
 * overheads are already in the half
 * round trip, so smpi/os, smpi/or and smpi/ois are written as 0: giving them mbsuite's o_s
 * and o_r as well would count them twice. */
#ifndef MB_EXPORT_SIMGRID_H
#define MB_EXPORT_SIMGRID_H

#include <stddef.h>

#include <jansson.h>

#include "fit.h"

/* One piece of a factor list: messages of at least size_bytes. */
typedef struct mb_simgrid_piece {
    double size_bytes;
    double lat_factor, bw_factor;
} mb_simgrid_piece_t;

/* A fit's segments: the 0-byte one and those over d > 0 (fit_results.h). */
#define MB_SIMGRID_MAX_PIECES (MB_FIT_MAX_SEGMENTS + 1)

/* The calibration of a fit entry's segments (fit_results.h): link latency (s), link
 * bandwidth (bytes/s) and the pieces. Returns how many pieces, or -1 with err (no
 * segment, a segment with other terms than 1 and d, no positive time). */
int mb_simgrid_calibrate(const json_t *fit, double *link_latency_s, double *link_bandwidth_Bps,
                         mb_simgrid_piece_t *pieces, char *err, size_t errlen);

/* Write dir/platform.xml (a cluster of `hosts` hosts, host-0 ...), dir/hostfile,
 * dir/smpi.cfg (one --cfg=KEY:VALUE per line, for `smpirun $(cat smpi.cfg)`) and
 * dir/README.txt, each atomically, from root's fits (or fitted now) for the latency
 * benchmark's series `pair` (NULL: its first). Returns 0, or -1 with err. */
int mb_export_simgrid(const json_t *root, const char *pair, const char *dir, char *err,
                      size_t errlen);

#endif
