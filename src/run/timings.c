/* SPDX-License-Identifier: MIT */
#include "timings.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"

void mb_timings_init(mb_timings_t *t, double began_s)
{
    memset(t, 0, sizeof *t);
    t->began_s = began_s;
}

int mb_timings_add(mb_timings_t *t, const char *name, double wall_s)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len >= MB_TIMINGS_NAME_LEN || !isfinite(wall_s) || wall_s < 0)
        return -1;
    for (size_t i = 0; i < t->nphases; i++) {
        if (strcmp(t->phases[i].name, name) == 0) {
            t->phases[i].wall_s += wall_s;
            return 0;
        }
    }
    if (t->nphases == MB_TIMINGS_MAX_PHASES)
        return -1;
    mb_timings_phase_t *p = &t->phases[t->nphases++];
    memcpy(p->name, name, len + 1);
    p->wall_s = wall_s;
    return 0;
}

double mb_timings_lap(mb_timings_t *t, const char *name, double since_s)
{
    double now_s = mb_clock_elapsed_s();
    /* CLOCK_MONOTONIC never goes back; the guard only keeps a bad mark from being lost. */
    mb_timings_add(t, name, now_s > since_s ? now_s - since_s : 0);
    return now_s;
}

double mb_timings_phase_s(const mb_timings_t *t, const char *name)
{
    for (size_t i = 0; i < t->nphases; i++) {
        if (strcmp(t->phases[i].name, name) == 0)
            return t->phases[i].wall_s;
    }
    return -1;
}

json_t *mb_timings_json(const mb_timings_t *t, double now_s, int64_t peak_rss_bytes)
{
    json_t *phases = json_array();
    if (!phases)
        return NULL;
    for (size_t i = 0; i < t->nphases; i++) {
        json_t *p =
            json_pack("{s:s, s:f}", "name", t->phases[i].name, "wall_s", t->phases[i].wall_s);
        if (!p || json_array_append_new(phases, p) != 0) {
            json_decref(phases);
            return NULL;
        }
    }
    double total_s = now_s > t->began_s ? now_s - t->began_s : 0;
    return json_pack("{s:f, s:o, s:I}", "total_s", total_s, "phases", phases,
                     "rank0_peak_rss_bytes", (json_int_t)peak_rss_bytes);
}

int64_t mb_timings_peak_rss_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0 || ru.ru_maxrss < 0)
        return 0;
    /* Linux gives kilobytes (1024 bytes). */
    return (int64_t)ru.ru_maxrss * 1024;
}
