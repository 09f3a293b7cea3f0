/* SPDX-License-Identifier: MIT */
#include "placement.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "os_util.h"

const char *const mb_os_placement_labels[] = {"unpinned", "one_cpu", "two_cores", NULL};
const mb_dim_t mb_os_placement_dims[1] = {{.name = "placement", .labels = mb_os_placement_labels}};

/* The first CPU the process may use, after `cpu` in hwloc's order (wrapping round), that is
 * on another core than cpu's; -1 when all of them share its core. */
static int placement_other_core_cpu(hwloc_topology_t topo, int cpu)
{
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
    if (!pu)
        return -1;
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
    int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    for (int k = 1; k < npu; k++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (pu->logical_index + k) % npu);
        if (o && hwloc_bitmap_isset(allowed, o->os_index) &&
            !(core && hwloc_bitmap_isset(core->cpuset, o->os_index)))
            return (int)o->os_index;
    }
    return -1;
}

size_t mb_os_placements(hwloc_topology_t topo, mb_os_placement_t out[3])
{
    size_t n = 0;
    out[n++] = MB_OS_UNPINNED;
    out[n++] = MB_OS_ONE_CPU;
    if (placement_other_core_cpu(topo, mb_os_current_cpu()) >= 0)
        out[n++] = MB_OS_TWO_CORES;
    return n;
}

int mb_os_placement_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                           size_t errlen)
{
    (void)err, (void)errlen;
    mb_os_placement_t p[3];
    size_t n = mb_os_placements(ctx->topology, p);
    for (size_t i = 0; i < n && i < max; i++)
        pts[i] = (mb_point_t){.v = {p[i]}};
    return (int)(n < max ? n : max);
}

int mb_os_place(mb_os_place_t *pl, hwloc_topology_t topo, mb_os_placement_t p, char *err,
                size_t errlen)
{
    *pl = MB_OS_PLACE_NONE;
    if (p == MB_OS_UNPINNED)
        return 0;
    int mine = mb_os_current_cpu();
    int peer = p == MB_OS_ONE_CPU ? mine : placement_other_core_cpu(topo, mine);
    if (peer < 0) {
        snprintf(err, errlen, "no CPU of another core for the peer (the process may use one core)");
        return -1;
    }
    if (sched_getaffinity(0, sizeof pl->saved, &pl->saved) != 0 || mb_os_bind_cpu(mine) != 0) {
        snprintf(err, errlen, "cannot bind to CPU %d: %s", mine, strerror(errno));
        return -1;
    }
    pl->restore = true;
    pl->peer_cpu = peer;
    return 0;
}

int mb_os_place_peer(const mb_os_place_t *pl)
{
    return pl->peer_cpu >= 0 ? mb_os_bind_cpu(pl->peer_cpu) : 0;
}

void mb_os_unplace(mb_os_place_t *pl)
{
    if (pl->restore)
        sched_setaffinity(0, sizeof pl->saved, &pl->saved);
    *pl = MB_OS_PLACE_NONE;
}
