/* SPDX-License-Identifier: MIT */
/* The measuring loop's options (loop_rules.h) from the configuration's [run] keys, for the
 * loop itself (measure.h) and for what the budget expects a point to cost (point_cost.h). */
#ifndef MB_MEASURE_OPTS_H
#define MB_MEASURE_OPTS_H

#include <stddef.h>

#include "config.h"
#include "loop_rules.h"

/* The measuring loop's options from the configuration's [run] keys (the warm-up of a
 * benchmark's first point). */
mb_measure_opts_t mb_measure_opts_of(const mb_config_t *cfg);

/* The warm-up of the k-th point a benchmark measures, in ns: `warmup` for its first,
 * `warmup_next` (at most warmup) for each later one, which runs right after a point of the
 * same code on the same buffers, with the core's clock already up. A full warm-up of every
 * point was half a run's message-passing time: 1017 points at -np 2 took 18.2-29.5 s with
 * 10 ms each and 9.5-12.4 s with 1 ms, the figures alike (2026-11-28, docs/measuring.md,
 * "Warm-up"). */
double mb_measure_warmup_ns(const mb_config_t *cfg, size_t k);

#endif
