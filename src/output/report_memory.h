/* SPDX-License-Identifier: MIT */
/* report.txt's shared-memory summaries. */
#ifndef MB_REPORT_MEMORY_H
#define MB_REPORT_MEMORY_H

#include <stdio.h>

#include <jansson.h>

/* Print Howell's table (seed 001) from the harness and shm benchmarks of root that ran,
 * avg and max ns over the node's processes; nothing when no shm.read/write point exists. */
void mb_report_memory_howell(FILE *f, const json_t *root);

/* Print the cache levels of the first benchmark of root with derived "levels", beside
 * hwloc's sizes for node 0; nothing when none has them. */
void mb_report_memory_cache_levels(FILE *f, const json_t *root);

#endif
