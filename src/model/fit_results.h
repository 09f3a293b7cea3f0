/* SPDX-License-Identifier: MIT */
/* The fitter applied to a results document (docs/results.md): one model per benchmark whose
 * "model" is "linear_pd" and per series (combination of its label axes' values), as the
 * "fits" array; fits.csv; LogGP parameters. Benchmarks are told apart by their records'
 * fields and axis roles, never by name.
 *
 * A point is (p = its ranks-role axis, or 2 without one; d = its message_size-role axis,
 * or 0 without one; t = median). Failed points are left out. Its standard error is
 * (ci95[1] - ci95[0]) / (2 * 1.96), floored at what the clock's ticks leave unknown of the
 * median (1.2533 * resolution / sqrt(6 * iterations * n), with the resolution from the
 * document's system.clock; 1 ns where it states none) and at the series' scatter floor times
 * the median (mb_fit_scatter_weights, at least 0.5%), so that no point gets a weight its
 * neighbours belie; points with a non-finite or non-positive median are ignored. Where the
 * drift probe around each point (its "drift_probe", measure.h) read some points in the run's
 * usual state (the document's drift.usual_ns) and some off it by more than
 * MB_DRIFT_FLAG_RATIO, only the larger group is fitted (the usual state's on a tie), if it has
 * MB_FIT_SEGMENT_MIN_SIZES points or more; the 0-byte points always are (their own model).
 *
 * A "fits" entry: {"name", "params": the series, e.g. {"pair": "intra"}, or {},
 * "variables": ["p"?, "d"?] (which of p and d the benchmark varies), "p_min", "p_max",
 * "points": n used, "scatter_floor_pct", "segments": [{"d_min", "d_max", "terms": [{"basis",
 * "coef", "stderr"}], "cov": k x k (scaled covariance of the coefs, ns^2 per basis units),
 * "chi2", "dof", "chi2_reduced" (chi2 / dof), "Q"}], the 0-byte points' own segment first
 * (d_min = d_max = 0, mb_fit_one_size; Q and chi2_reduced null when one point), the
 * segments of d > 0 after it (mb_fit_segments), of which the first may be the smallest
 * size's own case (d_min = d_max, as the 0-byte one);
 * "drift_left_out" (only where some points were left out: fit_results.c): {"points": how
 * many, "kept": "usual" or "other", "usual_ns": the run's usual drift reading},
 * "holdout_error_pct": number or null, "holdout_note": why null (only then),
 * "p_family" (only with 3 or more process counts: the family chosen on held-out p and fitted,
 * mb_fit_family_select): {"family", "latency_basis", "bandwidth_basis", "held_out_p",
 * "error_at_largest_p_pct", "candidates": [{"family", "error_pct"}]}}; coefs in ns.
 * When no model fits, "segments" is [] and "error" says why. */
#ifndef MB_FIT_RESULTS_H
#define MB_FIT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "fit.h"

/* The "fits" array for root (new reference). NULL with err when root has no "benchmarks". */
json_t *mb_fit_results(const json_t *root, char *err, size_t errlen);

/* The library's eager limits that apply to a series (its labels, {"pair": "intra"}), from
 * system.mpi.protocol_limits: its shared-memory transport's (Open MPI's vader or sm, MPICH's
 * shm cell) for an intra-node pair, or for a series without a pair on a one-node run; the
 * other transports' but a rank's own (self) for an inter-node pair; a rendezvous's first
 * fragment size (rndv) never, no protocol changing there. Into out, at most max; returns
 * how many (0 for a run that recorded none). */
size_t mb_fit_results_eager_limits(const json_t *system, const json_t *series, double *out,
                                   size_t max);

/* Write fits.csv atomically: a header, then one row per segment term with columns
 * name,params,segment,d_min,d_max,basis,coef_ns,stderr_ns,chi2,dof,Q,holdout_error_pct.
 * Returns 0, or -1 with err. */
int mb_fit_results_write_csv(const json_t *fits, const char *path, char *err, size_t errlen);

/* The fit in `fits` of benchmark `name` whose params equal `params`, or NULL (borrowed). */
const json_t *mb_fit_results_find(const json_t *fits, const char *name, const json_t *params);

/* root's "fits", or when it has none the fits computed now: *own then holds them (the
 * caller's reference to drop; NULL otherwise). NULL with err when they cannot be had. */
const json_t *mb_fit_results_of(const json_t *root, json_t **own, char *err, size_t errlen);

/* The first benchmark that ran and stands for LogGP parameter `what` ("L", "o_s", "o_r",
 * "g": its "loggp" field), or NULL. */
const json_t *mb_fit_loggp_source(const json_t *root, const char *what);

/* LogGP parameters per series (new reference), from the benchmarks whose "loggp" field
 * names them, each at its smallest message size: o_s and o_r are those benchmarks'
 * medians, L = the "L" benchmark's (half a round trip) - o_s - o_r, g = the "g"
 * benchmark's (back-to-back sends; without one, the o_s figure as an honestly labelled
 * stand-in), G = the d slope of the "L" benchmark's fit over its largest sizes. Shape: {"intra": {"L": P, "o_s": P, "o_r": P,
 * "g": P, "G": P}, ...}, keyed by the series' label values joined by "," ("all" for a
 * source without label axes), where P is {"value", "unit", "derivation"} or, when it
 * cannot be derived, {"value": null, "unit", "omitted": why}; o_s and o_r as functions of d
 * too, when their source has a fit: "of_d": [{"d_min", "d_max", "start_ns", "per_byte_ns",
 * "model_us"}], the pieces of that fit. G's and of_d's fits come from `fits`,
 * else root's "fits". No source gives {}. Meant to be stored as root's "loggp". */
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
