/* SPDX-License-Identifier: MIT */
/* The drift probes' readings (drift_probe.h) read back from results.json: each benchmark's,
 * the run's median, and the benchmarks measured while the probe read far from it. */
#ifndef MB_DRIFT_H
#define MB_DRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* A benchmark whose two probe readings average this many times the run's median, or 1 /
 * this, was measured in another state of the node: the VMs' two states differ 2.5-3x, so
 * a change of state during a benchmark still averages 1.9x, while one reading in a quiet
 * state strayed to 1.31x (docs/measuring.md, "Drift probe"). */
#define MB_DRIFT_FLAG_RATIO 1.3

/* Whether a reading of ns is off usual_ns (mb_drift_states) by more than
 * MB_DRIFT_FLAG_RATIO either way. */
bool mb_drift_off(double ns, double usual_ns);

/* The reading of the node's usual state over a run's n > 0 readings, sorted ascending: where
 * their widest gap (as a ratio) is over MB_DRIFT_FLAG_RATIO, they fall into two groups, the
 * node's two states, and it is the median of the group with more readings (of two of one
 * size, the lower), *other_ns the other group's median and *other_n its number of readings;
 * else the median of all, NAN and 0. A run split about evenly between the VMs' two states
 * has a median between them, near no reading: one default run read 125-150 ns for 6
 * benchmarks, 341-387 ns for 22 and 123-141 ns for 16, and its median, 251 ns, flagged 42
 * of 44 benchmarks. */
double mb_drift_states(const double *sorted, size_t n, double *other_ns, size_t *other_n);

/* The mean of bench's two probe readings (drift_probe), or false without them. */
bool mb_drift_record_ns(const json_t *bench, double *ns);

/* The reading that says which state bench was measured in, as mb_drift_record_off judges it:
 * the median of its points' readings (their means) where any point has them, else its own
 * two's mean; false without either. */
bool mb_drift_record_state_ns(const json_t *bench, double *ns);

/* Where the probe was taken around a benchmark's points, they decide whether it was measured
 * in another state, not its own two readings: it is when at least this share of its probed
 * points were measured off the usual state. Its own readings miss a state that came and went
 * during it: in a `--only 'mpi.*'` run on the 2-vCPU VM (AMD EPYC family 25, 2026-11-29),
 * whose 0-byte pingpong flipped between about 190 and 440 ns every 0.1-6 s, mpi.pingpong read
 * 419 and 550 ns around it (1.1x the usual 438) with 18 of its 45 points measured at about 200.
 * And they see a change during its first or last point alone as the whole: in a default run
 * there (usual 461 ns), mpi.rsend, recv, irecv2 and gap read about 200 ns on one side and 460
 * on the other, with 5, 1, 2 and 2 of their 45 points off, and took their turn to be measured
 * again. */
#define MB_DRIFT_POINTS_OFF_SHARE 0.25

/* In which state point pt (a record's point) was measured, by the probe's readings around it
 * (measure.h): 1 the usual one (their mean within MB_DRIFT_FLAG_RATIO of usual_ns), 0 off it,
 * -1 unknown (no readings, or usual_ns not a positive number). */
int mb_drift_point_state(const json_t *pt, double usual_ns);

/* Of bench's points, how many were measured off usual_ns (mb_drift_point_state); *probed gets
 * how many have readings. */
size_t mb_drift_points_off(const json_t *bench, double usual_ns, size_t *probed);

/* Whether bench was measured in another state than usual_ns: MB_DRIFT_POINTS_OFF_SHARE or
 * more of its probed points off it, or, where none of its points has readings, its own two
 * readings' mean (mb_drift_off). False without its own two readings. */
bool mb_drift_record_off(const json_t *bench, double usual_ns);

/* ", K of its N points off the usual" for a flagged entry of the summary that counts its points
 * off (points_off, points_probed), else "": the same words on stderr and in both reports. */
void mb_drift_points_off_text(const json_t *flagged_entry, char *buf, size_t len);

/* results.json's "drift" section for the document root: the method and the pair probed
 * ("intra" or "inter"; NULL: not said), the run's median probe reading, its usual state's
 * (mb_drift_states), the ratio, each benchmark measured off the usual state
 * (mb_drift_record_off), with its readings ("flagged"), and where the run
 * measured flagged benchmarks again at its end (records with "drift_remeasure"), those
 * measured again with their first readings ("remeasured") and those not, with why
 * ("not_remeasured"). NULL when no benchmark was probed (the run had no pair). New
 * reference. */
json_t *mb_drift_summary(const json_t *root, const char *method, const char *pair);

/* Of summary's flagged benchmarks (mb_drift_summary of root), the names of those to measure
 * again, in the order measured: as many as left_s (negative: no limit) holds, the shortest
 * first by their first measurements' wall times (each record's wall_s). Taken in the order
 * measured while they fit, a default run's time left went to shm.barrier, shm.bandwidth (8.3 s)
 * and shm.stream_scale, the first three of its 24 flagged benchmarks, and not to the 21 after
 * them, 0.01-2.4 s each; taken in that order but passing over those that did not fit, another
 * run's went to shm.bandwidth, stream_copy and stream_add, and 22 were left (2-vCPU VM,
 * 2026-11-29). New reference. */
json_t *mb_drift_remeasure_names(const json_t *summary, const json_t *root, double left_s);

/* Of summary's flagged benchmarks (mb_drift_summary of root), the names of those whose records
 * carry no drift_remeasure note: neither measured again nor said why. After the re-measures,
 * those are the ones flagged only by the usual reading the measurements again moved. New
 * reference. */
json_t *mb_drift_unnoted_flags(const json_t *summary, const json_t *root);

/* A record's "drift_remeasure" for a benchmark measured again, from its first record: that
 * measurement's probe readings and wall time, the reading that found the node back in the
 * usual state before the last measurement, and how many times it was measured again
 * (attempts; the record is the last's). New reference. */
json_t *mb_drift_remeasured_json(const json_t *first, double probe_ns, int attempts);

/* A record's "drift_remeasure" for a flagged benchmark not measured again, with why. New
 * reference. */
json_t *mb_drift_not_remeasured_json(const char *why);

#endif
