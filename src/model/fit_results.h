/* SPDX-License-Identifier: MIT */
/* The fitter applied to a results document ("mbsuite-results/1"): one model per mpi
 * benchmark and pair label, as the "fits" array; fits.csv; LogGP parameters.
 *
 * A point is (p = params.ranks, or 2 without it; d = params.size_bytes, or 0 without it;
 * t = median). Its standard error is (ci95[1] - ci95[0]) / (2 * 1.96), floored at 0.5% of
 * the median and at 1 ns so that no point gets an unbounded weight; points with a
 * non-finite or non-positive median are ignored.
 *
 * A "fits" entry: {"name", "params": {"pair": "intra"} or {}, "variables": ["p"?, "d"?]
 * (which of p and d the benchmark varies), "p_min", "p_max", "points": n used,
 * "segments": [{"d_min", "d_max", "terms": [{"basis", "coef", "stderr"}], "cov": k x k
 * (scaled covariance of the coefs, ns^2 per basis units), "chi2", "dof", "Q"}],
 * "holdout_error_pct": number or null, "holdout_note": why null (only then)}; coefs in ns.
 * When no model fits, "segments" is [] and "error" says why. */
#ifndef MB_FIT_RESULTS_H
#define MB_FIT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "fit.h"

/* The "fits" array for root (new reference). NULL with err when root has no "benchmarks". */
json_t *mb_fit_results(const json_t *root, char *err, size_t errlen);

/* Write fits.csv atomically: a header, then one row per segment term with columns
 * name,params,segment,d_min,d_max,basis,coef_ns,stderr_ns,chi2,dof,Q,holdout_error_pct.
 * Returns 0, or -1 with err. */
int mb_fit_results_write_csv(const json_t *fits, const char *path, char *err, size_t errlen);

/* LogGP parameters from the point-to-point medians at each benchmark's smallest size, per
 * pair label (new reference): o_s = mpi.send (else mpi.isend), o_r = mpi.recvmin, L =
 * mpi.pingpong (half a round trip) - o_s - o_r, g = mpi.send as a stand-in (nothing times
 * back-to-back sends), G = the d slope of mpi.pingpong's last segment. Shape:
 * {"intra": {"L": P, "o_s": P, "o_r": P, "g": P, "G": P}, ...} where P is
 * {"value", "unit", "derivation"} or, when it cannot be derived, {"value": null, "unit",
 * "omitted": why}. G's fit comes from `fits`, else root's "fits". Pairs come from
 * mpi.pingpong, send, isend, recvmin; none gives {}. Meant to be stored as root's "loggp". */
json_t *mb_fit_loggp(const json_t *root, const json_t *fits);

/* The model of one segment of a fits entry, for mb_fit_predict (coef, stderr, cov, ranges;
 * without "cov" the terms are taken as uncorrelated). Returns 0, or -1 with err. */
int mb_fit_results_segment_model(const json_t *fit, const json_t *segment, mb_fit_model_t *out,
                                 char *err, size_t errlen);

/* The segment of a fits entry used for size d: the last whose d_min <= d, else the first. */
const json_t *mb_fit_results_pick_segment(const json_t *fit, double d);

/* A segment's model in microseconds, e.g. "0.52 + 9.1*p + 0.04*d"; with_stderr adds each
 * standard error in parentheses: "0.52(0.01) + 9.1(0.3)*p". */
void mb_fit_results_format_model(const json_t *segment, bool with_stderr, char *buf, size_t len);

#endif
