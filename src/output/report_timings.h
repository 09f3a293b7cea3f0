/* SPDX-License-Identifier: MIT */
/* report.txt's account of the run's own time: where it went, from results.json's
 * "timings" and each benchmark's wall_s. */
#ifndef MB_REPORT_TIMINGS_H
#define MB_REPORT_TIMINGS_H

#include <stdio.h>

#include <jansson.h>

/* Print "where the time went" for the results document root: each phase's wall time and
 * share of the total, what no phase covers, the slowest benchmarks (wall_s, else elapsed_s)
 * and rank 0's peak memory; nothing when root has no "timings" section. */
void mb_report_timings(FILE *f, const json_t *root);

#endif
