/* SPDX-License-Identifier: MIT */
/* Seed 003's tables per node in report.txt (and report.html, as text). */
#ifndef MB_REPORT_NODE_TABLES_H
#define MB_REPORT_NODE_TABLES_H

#include <stdio.h>

#include <jansson.h>

/* Print seed 003's system description, OS latencies, context switches, local communication
 * latencies and bandwidths, CPU rates and memory latencies, one row per node of root: mean
 * ± standard error where the records have --runs' "runs", each missing figure "-" with its
 * reason under the table. Nothing when no os benchmark nor shm.latency ran. */
void mb_report_node_tables(FILE *f, const json_t *root);

#endif
