/* SPDX-License-Identifier: MIT */
#include "binding.h"

#include "mpi_util.h"
#include "sysinfo.h"

bool mb_binding_ensure(MPI_Comm comm, hwloc_topology_t topo)
{
    MPI_Comm node_comm;
    int local = 0;
    mb_sysinfo_node_comm(comm, &node_comm);
    if (node_comm != MPI_COMM_NULL) {
        MB_MPI_CHECK(MPI_Comm_rank(node_comm, &local));
        MB_MPI_CHECK(MPI_Comm_free(&node_comm));
    }

    bool bound = false;
    hwloc_bitmap_t current = hwloc_bitmap_alloc();
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (current && cores > 0 && hwloc_get_cpubind(topo, current, HWLOC_CPUBIND_PROCESS) == 0 &&
        hwloc_bitmap_isincluded(all, current)) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(local % cores));
        bound = core && hwloc_set_cpubind(topo, core->cpuset, HWLOC_CPUBIND_PROCESS) == 0;
    }
    hwloc_bitmap_free(current);
    return bound;
}
