/* SPDX-License-Identifier: MIT */
/* A team of threads on distinct cores, for the thread benchmarks: thread t runs on core
 * (c0 + t) mod cores, c0 being the core the rank runs on, and the rank's own binding comes
 * back afterwards. */
#ifndef MB_THREAD_TEAM_H
#define MB_THREAD_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#include <hwloc.h>

#include "bench.h"

typedef struct mb_team {
    hwloc_topology_t topo;
    hwloc_obj_type_t unit; /* what a thread is bound to: a core, or a PU without core info */
    int units, first;      /* how many; the one the rank runs on */
    hwloc_bitmap_t saved;  /* the rank's binding before, restored by mb_team_free */
} mb_team_t;

/* The node's cores (PUs when the topology knows no cores); sets *unit. */
int mb_team_cores(hwloc_topology_t topo, hwloc_obj_type_t *unit);

/* [shm] threads_max, or the node's cores when it is auto. */
uint64_t mb_team_threads_max(const mb_context_t *ctx);

/* Save the calling thread's binding and find its core. Returns 0, or -1 with err. */
int mb_team_init(mb_team_t *team, hwloc_topology_t topo, char *err, size_t errlen);

/* Thread t's cpuset, or with restore the saved binding. */
hwloc_const_bitmap_t mb_team_cpuset(const mb_team_t *team, int t, bool restore);

/* Bind the calling thread as thread t (or restore the saved binding). Returns 0 or -1. */
int mb_team_bind_self(const mb_team_t *team, int t, bool restore);

/* Bind the members of an OpenMP team of `threads`, in a first parallel region: libgomp
 * gives member t the same pool thread in later regions. Returns 0, or -1 with err. */
int mb_team_bind_omp(const mb_team_t *team, int threads, char *err, size_t errlen);

/* Give the calling thread (and, when omp_threads > 0, the OpenMP team's members) the saved
 * binding back, and free it. Safe on a team whose init failed. */
void mb_team_free(mb_team_t *team, int omp_threads);

#endif
