/* SPDX-License-Identifier: MIT */
/* Validation of one benchmark record of results.json against docs/results.md (schema 2):
 * axes and their roles, model, loggp, measured_by, each point's status and statistics,
 * failed_points. Part of the results validator (test-only code). */
#ifndef MB_RECORD_CHECK_H
#define MB_RECORD_CHECK_H

#include <stddef.h>

#include <jansson.h>

#include "check.h"

/* Check the record b, c's path being at it. Returns 0 and adds its points and its failed
 * points to *npoints and *nfailed, or -1 with the first problem in c->err. */
int mb_record_check(mb_check_t *c, const json_t *b, size_t *npoints, size_t *nfailed);

#endif
