/* SPDX-License-Identifier: MIT */
/* Cache levels from a latency curve (latency per load against working-set size): each
 * level is a plateau of the curve, and its capacity shows where the plateau ends. Pure
 * arithmetic on the curve; nothing here touches the machine. */
#ifndef MB_CACHE_DETECT_H
#define MB_CACHE_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB_CACHE_DETECT_TOLERANCE 0.20 /* default: a plateau's points stay within 20% */
#define MB_CACHE_DETECT_MIN_POINTS 3   /* default: fewer points are a transition, not a level */
#define MB_CACHE_DETECT_MIN_STEP 1.5   /* default: a level is at least this factor slower than
                                        * the one before it (cache levels differ by 2x or more;
                                        * TLB reach and a VM's share of a cache make smaller
                                        * steps, which are not levels) */

typedef struct mb_cache_level {
    uint64_t size_bytes;     /* largest working set still on the plateau */
    double latency_ns;       /* median latency of the plateau's points */
    uint64_t midpoint_bytes; /* where the curve, rising to the next level, crosses the geometric
                              * mean of the two latencies (interpolated in log-log); 0 for
                              * the last level */
    size_t first, last;      /* indices of the plateau's first and last points on the curve */
    bool open;               /* runs to the end of the curve: size_bytes is where the curve
                              * stops, not a capacity (memory, or a curve cut short) */
} mb_cache_level_t;

typedef struct mb_cache_detect_opts {
    double tolerance;  /* relative; 0 means MB_CACHE_DETECT_TOLERANCE */
    size_t min_points; /* 0 means MB_CACHE_DETECT_MIN_POINTS */
    double min_step;   /* factor > 1; 0 means MB_CACHE_DETECT_MIN_STEP */
} mb_cache_detect_opts_t;

/* The plateaus of the curve (n points, sizes_bytes strictly ascending, latency_ns > 0),
 * smallest working sets first, into levels[0..max), less any level between two others
 * that the curve had already risen past (cache_detect.c, step 4a); opts may be NULL for
 * the defaults.
 * Returns the number of levels written (0 when no run of points is a plateau), or -1 when
 * the sizes are not ascending, a latency is not positive, or memory runs out. */
int mb_cache_detect(const uint64_t *sizes_bytes, const double *latency_ns, size_t n,
                    const mb_cache_detect_opts_t *opts, mb_cache_level_t *levels, size_t max);

/* As mb_cache_detect on the minima latency_ns, with each point's median over its
 * experiments in median_ns (NULL: none): a level between two others that spans less than
 * an octave, with fewer than min_points points whose median is within the tolerance of their
 * minimum, is dropped too, its points left to the rise (cache_detect.c, step 4b). */
int mb_cache_detect_with_medians(const uint64_t *sizes_bytes, const double *latency_ns,
                                 const double *median_ns, size_t n,
                                 const mb_cache_detect_opts_t *opts, mb_cache_level_t *levels,
                                 size_t max);

#endif
