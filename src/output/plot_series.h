/* SPDX-License-Identifier: MIT */
/* A benchmark's record of results.json (docs/results.md, schema 2) read into series for the
 * plots: the x axis is found by its role, never by its name; only points whose status is
 * "ok" count; a series holds the points that share the values of every other axis, so
 * label axes (pair, stride, cache) split the curves, and so does a second numeric axis
 * (ranks beside message size), whose points on one line would zigzag. */
#ifndef MB_PLOT_SERIES_H
#define MB_PLOT_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "record.h"

/* The axis a plot puts on x. */
typedef struct mb_plot_x {
    const char *name; /* as params names it; borrowed from the document */
    mb_role_t role;
    bool bytes; /* a size in bytes (message_size, working_set): binary tics, 0 drawn apart */
} mb_plot_x_t;

/* One point: x raw (bytes, ranks, threads), y with its error bar. */
typedef struct mb_plot_pt {
    double x, y, lo, hi;
} mb_plot_pt_t;

/* The points of one benchmark that share the values of every axis but x, sorted by x. */
typedef struct mb_plot_series {
    char *label;          /* "pair=intra", "" when the benchmark has no other axis */
    const json_t *params; /* borrowed: the first point's params */
    mb_plot_pt_t *pts;
    size_t n, cap;
} mb_plot_series_t;

typedef struct mb_plot_set {
    mb_plot_series_t *v;
    size_t n, cap;
} mb_plot_set_t;

/* y, error bar low and high of one ok point, or false to leave the point out. */
typedef bool (*mb_plot_value_fn)(const json_t *bench, const json_t *point, double *y, double *lo,
                                 double *hi);

/* obj[key] into *out when it is a finite number; false otherwise. */
bool mb_plot_num(const json_t *obj, const char *key, double *out);

/* obj[key] when it is a string, else NULL. */
const char *mb_plot_str(const json_t *obj, const char *key);

/* Whether the benchmark's headline statistic is the minimum rather than the median. */
bool mb_plot_is_min(const json_t *bench);

/* The first axis, by the order of roles[], whose value is a number on every ok point (and
 * there is one): into *x and true; false when no axis qualifies. */
bool mb_plot_x_choose(const json_t *bench, const mb_role_t *roles, size_t nroles, mb_plot_x_t *x);

/* Add bench's ok points for which value() gives a figure to set, a series per combination
 * of the other axes' values, its label led by the benchmark's name when prefix. Returns 0,
 * or -1 when memory runs out. */
int mb_plot_set_collect(mb_plot_set_t *set, const json_t *bench, const mb_plot_x_t *x,
                        mb_plot_value_fn value, bool prefix);

/* Free the series of set and zero it. */
void mb_plot_set_free(mb_plot_set_t *set);

/* Whether some series has two different x: one x alone makes no curve. */
bool mb_plot_set_has_curve(const mb_plot_set_t *set);

/* The smallest and largest positive x of the set (INFINITY and 0 when there is none). */
void mb_plot_set_x_span(const mb_plot_set_t *set, double *lo, double *hi);

/* mb_plot_value_fn: the headline time (min or median) with the median's 95% CI, in us. */
bool mb_plot_time_us(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi);

/* The same in ns. */
bool mb_plot_time_ns(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi);

/* mb_plot_value_fn: the median bandwidth_bytes_per_s and its 95% CI, in GB/s (1e9 B/s). */
bool mb_plot_bandwidth_gbs(const json_t *bench, const json_t *pt, double *y, double *lo,
                           double *hi);

#endif
