/* SPDX-License-Identifier: MIT */
/* Report sections from the fits (seed 001): the "MPI Function | Time (us) | Goodness of fit
 * (Q)" table, LogGP parameters, and the log10 order-of-magnitude table of all benchmarks. */
#ifndef MB_REPORT_FITS_H
#define MB_REPORT_FITS_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/* Print the three sections from root's "fits", "loggp" (computed from the fits when absent)
 * and "benchmarks"; without "fits" only the order-of-magnitude table. */
void mb_report_fits(FILE *f, const json_t *root);

/* A fit's held-out error beside its points' own scatter about their neighbours
 * ("scatter_floor_pct", fit_weights.c), which no smooth model predicts a held-out point
 * better than: "22.0% (points 13.3%)"; without a check, its note (with_note) or "-". */
void mb_report_fits_holdout(const json_t *fit, bool with_note, char *buf, size_t len);

#endif
