/* SPDX-License-Identifier: MIT */
/* Which of a benchmark's points a time budget that may not hold them all leaves out, and in
 * what order the rest are measured (measure.c): the coarse-to-fine order, so that wherever
 * the budget stops a benchmark, the points measured still span each of its axes. The size
 * grid (message size, working set, threads) is refined last and the process counts after
 * it: a budget that runs short coarsens the size grid first, then drops process counts, as
 * the issue of scale asks. A benchmark with working sets is measured in that order where
 * its share is short (budget.h); every other one in its points' own order, thinned as that
 * order would cut it (mb_point_thin_keep). */
#ifndef MB_POINT_ORDER_H
#define MB_POINT_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/* Fill order[0..n-1] with a permutation of 0..n-1 sorted by (size level, p level, p,
 * index). A value's level on its axis is 0 at both ends of the axis's sorted distinct
 * values and rises by one each time the grid between them is halved (positions 0 and m-1:
 * 0; m/2: 1; m/4 and 3m/4: 2; ...). Returns how many leading entries have level 0 on both:
 * the ends of every axis, which a budget never drops. */
size_t mb_point_order(const mb_bench_t *b, const mb_point_t *pts, size_t n, size_t *order);

/* The level of position j of m sorted values (the rule above); for tests. */
int mb_point_order_level(size_t j, size_t m);

/* The points in their own order, thinned as a budget runs short: before each point, those
 * still to come are kept in their coarse-to-fine order (mb_point_order) for as long as
 * their least costs fit the time left, the ends of every axis always, and the next point
 * is measured when it is among them. So where the time runs short the grid coarsens from
 * there on, as coarse to fine would cut it, but the sizes are measured in ascending order:
 * a change of the node's state during the benchmark is one step in d, where coarse to fine
 * makes it a zig-zag between neighbouring sizes (docs/fitting.md, "Point order under a
 * budget"). */
typedef struct mb_point_thin {
    size_t n, ends;
    size_t *place;      /* place[i]: point i's position in the coarse-to-fine order */
    double *least_s;    /* by position: the point's least cost; 0 once passed */
    double *expected_s; /* by position: its expected cost; 0 once passed */
} mb_point_thin_t;

/* Ready t for n points with their least and expected costs in seconds (indexed as pts).
 * Returns 0, or -1 when memory runs out. */
int mb_point_thin_init(mb_point_thin_t *t, const mb_bench_t *b, const mb_point_t *pts, size_t n,
                       const double *least_s, const double *expected_s);

/* Whether point i, the next in its own order, is measured with left_s seconds left (rank 0
 * decides); *kept_expected_s: the expected cost of the points kept from it on, its own
 * included, for its share of left_s. Either way point i is passed. */
bool mb_point_thin_keep(mb_point_thin_t *t, size_t i, double left_s, double *kept_expected_s);

void mb_point_thin_free(mb_point_thin_t *t);

#endif
