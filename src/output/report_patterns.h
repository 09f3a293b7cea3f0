/* SPDX-License-Identifier: MIT */
/* Report section "predicted vs measured" (seed 004's predicted and measured columns; seed
 * 001's use of the tables for prediction): every composite pattern's measured points beside
 * the time its recipe predicts from the fitted models, the error, and what it was predicted
 * from; a median |error| line per pattern. */
#ifndef MB_REPORT_PATTERNS_H
#define MB_REPORT_PATTERNS_H

#include <stdio.h>

#include <jansson.h>

/* Print the section from root's "predictions" (computed from its "fits" when absent);
 * nothing when the document has no composite pattern, or neither section. */
void mb_report_patterns(FILE *f, const json_t *root);

#endif
