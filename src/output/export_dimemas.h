/* SPDX-License-Identifier: MIT */
/* A measured network as BSC's Dimemas simulates it: a configuration file in Dimemas 5's
 * "#DIMEMAS_CONFIGURATION" format (one record a line, "name" {fields};;, the format of the
 * cfgs/ Dimemas ships; the older SDDFA format declared each record's fields first and is
 * parsed by another reader). Dimemas's point-to-point model is linear: a message of d bytes
 * takes a startup latency (seconds) plus d / bandwidth (MB/s, MB = 2^20 bytes: its
 * bw_ns_per_byte divides 1e9 by 1 << 20 and the bandwidth). The startup is the latency
 * benchmark's fit (e.g. mpi.pingpong, half a round trip) at 0 bytes on its first segment of
 * messages with bytes in them, the bandwidth the inverse of its slope over its largest
 * sizes; the protocol steps between its segments are not Dimemas's to take. The run's ranks
 * share one node (intra pair: Dimemas's intra-node model) or have one node each (inter
 * pair: its inter-node model); both models carry the same figures, one of them unused. */
#ifndef MB_EXPORT_DIMEMAS_H
#define MB_EXPORT_DIMEMAS_H

#include <stddef.h>

#include <jansson.h>

/* Dimemas's two figures from a latency benchmark's fits entry: *startup_s (s) and
 * *bandwidth_MBps (MB/s, 2^20 bytes; 0 when no segment has a positive d slope, which
 * Dimemas takes as instantaneous). Returns 0, or -1 with err (no segment of d > 0, no
 * positive startup). */
int mb_dimemas_calibrate(const json_t *fit, double *startup_s, double *bandwidth_MBps, char *err,
                         size_t errlen);

/* Write dir/mbsuite.cfg and dir/README.txt, each atomically, none on an error, from root's
 * fits (or fitted now) for the latency benchmark's series `pair` (NULL: its first).
 * Returns 0, or -1 with err. */
int mb_export_dimemas(const json_t *root, const char *pair, const char *dir, char *err,
                      size_t errlen);

#endif
