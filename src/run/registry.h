/* SPDX-License-Identifier: MIT */
/* The table of benchmarks (from bench_list.def) and selection by glob. */
#ifndef MB_REGISTRY_H
#define MB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench.h"

/* Number of registered benchmarks, and the i-th in run order. */
size_t mb_registry_count(void);
const mb_bench_t *mb_registry_get(size_t i);

/* The benchmark named exactly `name`, or NULL. */
const mb_bench_t *mb_registry_find(const char *name);

/* Mark selected[i] for every benchmark matched by one of the comma-separated shell globs
 * (fnmatch), and set *preflight when one matches a pre-flight test (node.mhz, node.perturb);
 * NULL or "" selects every benchmark and leaves *preflight false (the configuration
 * decides). An on_request benchmark is selected only by its full name, never by a wildcard
 * or by default. Returns 0, or -1 with err naming a glob that matches nothing. */
int mb_registry_select(const char *globs, bool *selected, bool *preflight, char *err,
                       size_t errlen);

/* One line per benchmark, then per on-request one, then per pre-flight test: name and
 * summary (for --list). */
void mb_registry_print(FILE *f);

#endif
