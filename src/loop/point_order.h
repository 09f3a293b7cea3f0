/* SPDX-License-Identifier: MIT */
/* The order in which a benchmark's points are measured under a time budget that may not
 * hold them all (driver.c): coarse to fine, so that wherever the budget stops a benchmark,
 * the points measured still span each of its axes. The size grid (message size, working set,
 * threads) is refined last and the process counts after it: a budget that runs short coarsens the
 * size grid first, then drops process counts, as the issue of scale asks. */
#ifndef MB_POINT_ORDER_H
#define MB_POINT_ORDER_H

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

#endif
