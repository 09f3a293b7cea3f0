/* SPDX-License-Identifier: MIT */
/* The clock sources. CLOCK_MONOTONIC is read through the vDSO (tens of ns, no system
 * call) and never jumps; CLOCK_MONOTONIC_RAW is not slewed by NTP, for users who worry
 * that frequency corrections distort intervals. */
#include "clock.h"

#include <string.h>
#include <time.h>

static uint64_t clock_read(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double clock_getres_ns(clockid_t id)
{
    struct timespec ts;
    if (clock_getres(id, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t clock_monotonic_now(void *state)
{
    (void)state;
    return clock_read(CLOCK_MONOTONIC);
}

static double clock_monotonic_res(void *state)
{
    (void)state;
    return clock_getres_ns(CLOCK_MONOTONIC);
}

static uint64_t clock_monotonic_raw_now(void *state)
{
    (void)state;
    return clock_read(CLOCK_MONOTONIC_RAW);
}

static double clock_monotonic_raw_res(void *state)
{
    (void)state;
    return clock_getres_ns(CLOCK_MONOTONIC_RAW);
}

static const mb_clock_t clock_table[MB_CLOCK_COUNT] = {
    [MB_CLOCK_MONOTONIC] = {.name = "CLOCK_MONOTONIC", .config_name = "monotonic",
                            .now_ns = clock_monotonic_now,
                            .nominal_resolution_ns = clock_monotonic_res},
    [MB_CLOCK_MONOTONIC_RAW] = {.name = "CLOCK_MONOTONIC_RAW", .config_name = "monotonic_raw",
                                .now_ns = clock_monotonic_raw_now,
                                .nominal_resolution_ns = clock_monotonic_raw_res},
};

const mb_clock_t *mb_clock_get(mb_clock_id_t id)
{
    if ((int)id < 0 || id >= MB_CLOCK_COUNT)
        return NULL;
    return &clock_table[id];
}

int mb_clock_lookup(const char *name)
{
    for (int i = 0; i < MB_CLOCK_COUNT; i++)
        if (strcmp(clock_table[i].config_name, name) == 0)
            return i;
    return -1;
}

double mb_clock_elapsed_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
