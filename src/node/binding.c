/* SPDX-License-Identifier: MIT */
#include "binding.h"

#include <stdlib.h>

int mb_binding_local_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                       "SLURM_LOCALID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v) >= 0 ? atoi(v) : 0;
    }
    return 0;
}

bool mb_binding_ensure(hwloc_topology_t topo, int local_rank)
{
    bool bound = false;
    hwloc_bitmap_t current = hwloc_bitmap_alloc();
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (current && cores > 0 && hwloc_get_cpubind(topo, current, HWLOC_CPUBIND_PROCESS) == 0 &&
        hwloc_bitmap_isincluded(all, current)) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(local_rank % cores));
        bound = core && hwloc_set_cpubind(topo, core->cpuset, HWLOC_CPUBIND_PROCESS) == 0;
    }
    hwloc_bitmap_free(current);
    return bound;
}

void mb_binding_release(hwloc_topology_t topo)
{
    (void)hwloc_set_cpubind(topo, hwloc_topology_get_topology_cpuset(topo), HWLOC_CPUBIND_PROCESS);
}
