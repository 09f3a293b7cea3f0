/* SPDX-License-Identifier: MIT */
/* What fit.c shares with fit_segments.c only. */
#ifndef MB_FIT_INTERNAL_H
#define MB_FIT_INTERNAL_H

#include <stddef.h>

#include "fit.h"

/* At least one point, each usable (finite, p >= 1, d >= 0, sd > 0). Returns 0, or -1
 * with err. */
int mb_fit_check_points(const mb_fit_point_t *pts, size_t n, char *err, size_t errlen);

/* mb_fit_select with BIC's penalty per term given (ln N of the whole data when a segment
 * is fitted on its own). Returns 0, or -1 with err. */
int mb_fit_select_penalty(const mb_fit_point_t *pts, size_t n, unsigned allowed, double penalty,
                          mb_fit_model_t *out, char *err, size_t errlen);

#endif
