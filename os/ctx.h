/* SPDX-License-Identifier: MIT */
/* os.ctx's derived figures, apart so that the unit tests can check them on synthetic
 * measurements. */
#ifndef MB_OS_CTX_H
#define MB_OS_CTX_H

#include <jansson.h>

#include "bench.h"

/* The point's axes: processes in the ring (1: the overhead loop), working set, binding. */
enum { OS_CTX_PINNED, OS_CTX_UNPINNED };

/* lmbench lat_ctx's figure for every ring point with a matching overhead point (procs 1,
 * same working set and binding): median per hop less the overhead's median, clamped at 0,
 * as {"ctx_<procs>p_<KiB>K_<binding>_ns": value}. NULL when there is none. */
json_t *mb_os_ctx_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n);

#endif
