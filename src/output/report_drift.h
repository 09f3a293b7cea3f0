/* SPDX-License-Identifier: MIT */
/* report.txt's drift lines: the probe taken around every benchmark (drift.h) and the
 * benchmarks measured while it read far from the run's median. */
#ifndef MB_REPORT_DRIFT_H
#define MB_REPORT_DRIFT_H

#include <stdio.h>

#include <jansson.h>

/* For the results document root: from its "drift" section, or computed from the records
 * when it has none (a run still measuring); nothing without probes. */
void mb_report_drift(FILE *f, const json_t *root);

#endif
