/* SPDX-License-Identifier: MIT */
/* How report.txt writes values, shared by its sections: figures at 4 significant digits,
 * parameters as plain integers or labels, "-" for anything missing. */
#ifndef MB_REPORT_TEXT_H
#define MB_REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* What a CI widened for experiments in runs is (results.json: ci95_serial_factor), in both
 * reports' words. */
#define MB_REPORT_TEXT_SERIAL_CI                                                                   \
    "a CI widened for experiments that came in runs of one level (the runs test about the "        \
    "median): the interval of as many independent ones as they are worth"

/* obj.key if it is a string (borrowed), else NULL. */
const char *mb_report_text_str(const json_t *obj, const char *key);

/* obj.key into *out if it is a number; returns whether it was. */
bool mb_report_text_num(const json_t *obj, const char *key, double *out);

/* s, or "-" when s is NULL or empty. */
const char *mb_report_text_dash(const char *s);

/* v at 4 significant digits without an exponent: 40123, 123.5, 1.235, 0.01235. */
void mb_report_text_sig(double v, char *buf, size_t len);

/* A point's statistic pt.key as mb_report_text_sig writes it, or "<20" where the point was
 * timed under the clock's step (below_resolution_ns, here 20 ns) and the value is under it.
 * Returns whether pt.key was a number; buf is left as it was when not. */
bool mb_report_text_stat(const json_t *pt, const char *key, char *buf, size_t len);

/* bytes in the units the config accepts (K = 1024): "48K", "1.25M", "15.6G". */
void mb_report_text_bytes(double bytes, char *buf, size_t len);

/* A duration given in ns, in the largest unit it reaches: "5.000 ms", "20.50 ns". */
void mb_report_text_duration(double ns, char *buf, size_t len);

/* A parameter or derived value: strings as-is, integral numbers as integers, booleans as
 * yes/no, null or missing as "-", anything else as compact JSON. */
void mb_report_text_value(const json_t *v, char *buf, size_t len);

/* A derived value for the text and HTML reports: as mb_report_text_value, but a list or
 * object longer than buf (shm.latency's cache levels, which the cache-levels table shows) is
 * counted, "3 entries (whole in results.json)", not cut off mid-way. */
void mb_report_text_derived_value(const json_t *v, char *buf, size_t len);

/* bench's axis names in order (its "params", else the keys of its first point's params),
 * at most max of them, borrowed from bench; returns how many. */
size_t mb_report_text_axis_names(const json_t *bench, const char **names, size_t max);

/* A point's parameters as "size_bytes=1048576 cache=cold", in the order of bench's axes. */
void mb_report_text_params(const json_t *bench, const json_t *pt, char *buf, size_t len);

/* A node's network in words, from its "nics" and "rdma_ports" (system description): in full,
 * "eth0 (virtio_net, speed unknown), ib0 (mlx5_core, 100000 Mb/s); RDMA: mlx5_0 port 1
 * 100 Gb/sec (4X EDR), InfiniBand, ACTIVE; virtual: ifb0, ifb1"; briefly (a table's cell),
 * the hardware alone, "eth0 ?, ib0 100000M, mlx5_0:1 100 Gb/sec". "-" when none is known;
 * in full, "none but loopback" where the node has no interface but lo. */
void mb_report_text_network(const json_t *node, bool brief, char *buf, size_t len);

#endif
