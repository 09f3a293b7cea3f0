/* SPDX-License-Identifier: MIT */
/* Clock sources, chosen at run time by name ([timing] clock). A clock is a small struct of
 * a name and a read function, so tests can plug in a simulated clock of known resolution. */
#ifndef MB_CLOCK_H
#define MB_CLOCK_H

#include <stdint.h>

typedef enum mb_clock_id {
    MB_CLOCK_MONOTONIC = 0, /* clock_gettime(CLOCK_MONOTONIC): vDSO, NTP-slewed rate */
    MB_CLOCK_MONOTONIC_RAW, /* clock_gettime(CLOCK_MONOTONIC_RAW): unslewed hardware rate */
    MB_CLOCK_COUNT
} mb_clock_id_t;

typedef struct mb_clock {
    const char *name;                  /* e.g. "CLOCK_MONOTONIC" */
    const char *config_name;           /* e.g. "monotonic" */
    uint64_t (*now_ns)(void *state);   /* current time in ns */
    double (*nominal_resolution_ns)(void *state); /* what the OS claims, e.g. clock_getres */
    void *state;
} mb_clock_t;

/* The clock with this id (never NULL for a valid id). */
const mb_clock_t *mb_clock_get(mb_clock_id_t id);

/* Id of the clock whose config_name is `name`; -1 if none. */
int mb_clock_lookup(const char *name);

/* Seconds on CLOCK_MONOTONIC: for how long a run or a phase took, never for a measurement
 * (those go through the harness and the configured clock). */
double mb_clock_elapsed_s(void);

/* Read clk now, in ns. */
static inline uint64_t mb_clock_now_ns(const mb_clock_t *clk) { return clk->now_ns(clk->state); }

#endif
