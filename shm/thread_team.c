/* SPDX-License-Identifier: MIT */
#include "thread_team.h"

#include <stdio.h>

#include <omp.h>

int mb_team_cores(hwloc_topology_t topo, hwloc_obj_type_t *unit)
{
    *unit = HWLOC_OBJ_CORE;
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (n <= 0) {
        *unit = HWLOC_OBJ_PU;
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    }
    return n > 0 ? n : 1;
}

uint64_t mb_team_threads_max(const mb_context_t *ctx)
{
    hwloc_obj_type_t unit;
    uint64_t n = ctx->config->shm_threads_max;
    return n ? n : (uint64_t)mb_team_cores(ctx->topology, &unit);
}

int mb_team_init(mb_team_t *team, hwloc_topology_t topo, char *err, size_t errlen)
{
    *team = (mb_team_t){.topo = topo, .saved = hwloc_bitmap_alloc()};
    team->units = mb_team_cores(topo, &team->unit);
    if (!team->saved) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (hwloc_get_cpubind(topo, team->saved, HWLOC_CPUBIND_THREAD) != 0) {
        snprintf(err, errlen, "cannot read rank 0's binding");
        hwloc_bitmap_free(team->saved);
        team->saved = NULL;
        return -1;
    }
    for (int u = 0; u < team->units; u++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, team->unit, (unsigned)u);
        if (obj && hwloc_bitmap_intersects(obj->cpuset, team->saved)) {
            team->first = u;
            break;
        }
    }
    return 0;
}

hwloc_const_bitmap_t mb_team_cpuset(const mb_team_t *team, int t, bool restore)
{
    if (restore)
        return team->saved;
    hwloc_obj_t obj =
        hwloc_get_obj_by_type(team->topo, team->unit, (unsigned)((team->first + t) % team->units));
    return obj ? obj->cpuset : NULL;
}

int mb_team_bind_self(const mb_team_t *team, int t, bool restore)
{
    hwloc_const_bitmap_t set = mb_team_cpuset(team, t, restore);
    return set ? hwloc_set_cpubind(team->topo, set, HWLOC_CPUBIND_THREAD) : -1;
}

int mb_team_bind_omp(const mb_team_t *team, int threads, char *err, size_t errlen)
{
    int failed = 0, got = 0;
#pragma omp parallel num_threads(threads) reduction(+ : failed)
    {
        failed += mb_team_bind_self(team, omp_get_thread_num(), false) != 0;
        if (omp_get_thread_num() == 0)
            got = omp_get_num_threads();
    }
    if (got != threads) {
        snprintf(err, errlen, "asked for %d OpenMP threads, got %d", threads, got);
        return -1;
    }
    if (failed) {
        snprintf(err, errlen, "cannot bind %d of %d OpenMP threads to cores", failed, threads);
        return -1;
    }
    return 0;
}

void mb_team_free(mb_team_t *team, int omp_threads)
{
    if (!team->saved)
        return;
    if (omp_threads > 0) {
#pragma omp parallel num_threads(omp_threads)
        mb_team_bind_self(team, omp_get_thread_num(), true);
    } else {
        mb_team_bind_self(team, 0, true);
    }
    hwloc_bitmap_free(team->saved);
    team->saved = NULL;
}
