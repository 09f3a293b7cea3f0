/* SPDX-License-Identifier: MIT */
/* Predicted vs measured (seed 001: the primitives' tables used to predict MPI programs;
 * seed 004: a predicted and a measured column per operation): a benchmark whose record has
 * a recipe ("composed_of": [{"benchmark", "times", "series"?} or {"constant_ns"}],
 * docs/results.md) is predicted from its components' fits, generically: the sum of
 * times x each component's fitted model at the point's p (its ranks-role axis; p is used
 * only where the component's fit varies it) and d (its message_size-role axis), plus the
 * constants. No benchmark name is known here. */
#ifndef MB_PREDICT_PATTERNS_H
#define MB_PREDICT_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* Evaluate recipe at p ranks and d bytes from fits (a "fits" array; root's "benchmarks"
 * only explain a missing component). Returns 0 with *t_ns and *extrapolated (some component
 * evaluated outside its fitted range), or -1 with err saying which component has no model
 * and why (no figure is made up). */
int mb_predict_recipe(const json_t *recipe, const json_t *root, const json_t *fits, double p,
                      double d, double *t_ns, bool *extrapolated, char *err, size_t errlen);

/* The recipe in words, e.g. "2 x mpi.sendrecv intra" or "20 us + mpi.allreduce". */
void mb_predict_recipe_text(const json_t *recipe, char *buf, size_t len);

/* The "predictions" array of root (new reference; fits: root's "fits" when NULL, none: every
 * prediction says so): one entry per benchmark that ran and has a recipe, {"name", "recipe"
 * (in words), "points": [{"params", "p", "d", "measured_ns", "predicted_ns", "error_pct"
 * ((predicted - measured) / measured x 100), "extrapolated"} or, when the recipe cannot be
 * evaluated, "predicted_ns" and "error_pct" null and "error": why], "predicted_points",
 * "median_abs_error_pct" (null when none was predicted), "drift_ratio": the drift probe's
 * reading during the pattern over its mean during the recipe's benchmarks (drift.h; null
 * where one was not probed)}, one point per measured point. */
json_t *mb_predict_patterns(const json_t *root, const json_t *fits);

#endif
