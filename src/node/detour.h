/* SPDX-License-Identifier: MIT */
/* The detour test (Beckman et al.'s "selfish detour"; netgauge's OS-noise benchmark): spin
 * reading the clock and count the steps between successive reads that are far longer than
 * the loop's own; each is a detour, time the CPU was taken away (an interrupt, the
 * hypervisor, another thread). Its share of the time is what a median of short experiments
 * leaves out and a mean over a long loop (OSU's and IMB's loops, lmbench's 5-20 ms
 * intervals) takes in. The perturbation test (perturb.h) cannot show that share: every one
 * of its 20 ms runs, its reference run too, loses about as much of it. */
#ifndef MB_DETOUR_H
#define MB_DETOUR_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "clock.h"

/* Detours kept for their percentiles; more are counted, and their time lost summed. */
#define MB_DETOUR_KEPT 4096u
/* A step is a detour when it is longer than this, than MB_DETOUR_STEP_FACTOR times the
 * loop's own step and than two clock ticks: an interrupt on current x86 costs 1 us or more
 * (5 us and more on the 2-vCPU VMs of issue 15), a clock read tens of ns. */
#define MB_DETOUR_MIN_THRESHOLD_NS 1000.0
#define MB_DETOUR_STEP_FACTOR 20.0

/* The detours of one spin, accumulated step by step (mb_detour_step); pure, for tests. */
typedef struct mb_detour {
    double step_ns;                 /* the loop's own step (mb_detour_run: its fastest batch) */
    double threshold_ns;            /* a longer step is a detour */
    double span_ns;                 /* time covered by the steps so far */
    uint64_t count;                 /* detours */
    double lost_ns;                 /* the detours' time beyond the loop's own step */
    double max_ns;                  /* the longest detour */
    double kept_ns[MB_DETOUR_KEPT]; /* the first MB_DETOUR_KEPT detours' lengths */
    size_t kept;
} mb_detour_t;

/* What the detours of one spin come to. */
typedef struct mb_detour_result {
    double span_ns, step_ns, threshold_ns;
    uint64_t count;
    double per_s;                     /* detours per second of the span */
    double lost_pct;                  /* 100 lost / span: the share of the time the CPU was away */
    double median_ns, p90_ns, max_ns; /* of the detours' lengths (the kept ones for the
                                         percentiles); 0 without detours */
} mb_detour_result_t;

/* An empty record for a loop whose own step is step_ns (> 0) on a clock of resolution_ns:
 * the threshold as above. */
void mb_detour_init(mb_detour_t *d, double step_ns, double resolution_ns);

/* One step of step_ns between successive clock reads. */
void mb_detour_step(mb_detour_t *d, double step_ns);

/* The summary of d so far (d's kept lengths are sorted in place). */
void mb_detour_summarize(mb_detour_t *d, mb_detour_result_t *out);

/* Spin on this core reading clk (of resolution_ns) for duration_ns: first 10000 reads find
 * the loop's own step, then every step counts. Returns 0, or -1 when out of memory or
 * duration_ns <= 0. */
int mb_detour_run(const mb_clock_t *clk, double resolution_ns, double duration_ns,
                  mb_detour_result_t *out);

/* {"span_ms", "step_ns", "threshold_ns", "count", "per_s", "lost_pct", "median_us",
 * "p90_us", "max_us"}. New reference. */
json_t *mb_detour_json(const mb_detour_result_t *r);

#endif
