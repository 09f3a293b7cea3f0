/* SPDX-License-Identifier: MIT */
#include "rank_place.h"

#include <stdlib.h>

#include "mpi_util.h"

/* Bindings travel as arrays of unsigned longs (hwloc's own export format) of one length
 * agreed by all ranks, so one Allgather moves them. */
hwloc_bitmap_t *mb_rank_place_gather(hwloc_topology_t topo, MPI_Comm comm, int *n)
{
    int size;
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    hwloc_bitmap_t mine = hwloc_bitmap_alloc();
    hwloc_bitmap_t *all = calloc((size_t)size, sizeof *all);
    if (!mine || !all)
        mb_mpi_fail("allocation in mb_rank_place_gather", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    if (hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) != 0)
        hwloc_bitmap_zero(mine);
    if (hwloc_bitmap_weight(mine) < 0) /* infinite: cannot be exported; no PU beyond these exists */
        hwloc_bitmap_and(mine, mine, hwloc_topology_get_complete_cpuset(topo));

    int words = hwloc_bitmap_nr_ulongs(mine), max = 1;
    words = words > 1 ? words : 1;
    MB_MPI_CHECK(MPI_Allreduce(&words, &max, 1, MPI_INT, MPI_MAX, comm));
    unsigned long *buf = calloc(((size_t)size + 1) * (size_t)max, sizeof *buf);
    if (!buf)
        mb_mpi_fail("allocation in mb_rank_place_gather", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    unsigned long *own = buf + (size_t)size * (size_t)max;
    hwloc_bitmap_to_ulongs(mine, (unsigned)max, own);
    MB_MPI_CHECK(MPI_Allgather(own, max, MPI_UNSIGNED_LONG, buf, max, MPI_UNSIGNED_LONG, comm));
    for (int r = 0; r < size; r++) {
        all[r] = hwloc_bitmap_alloc();
        if (!all[r] ||
            hwloc_bitmap_from_ulongs(all[r], (unsigned)max, buf + (size_t)r * (size_t)max) != 0)
            mb_mpi_fail("allocation in mb_rank_place_gather", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    }
    free(buf);
    hwloc_bitmap_free(mine);
    *n = size;
    return all;
}

void mb_rank_place_free(hwloc_bitmap_t *bindings, int n)
{
    for (int r = 0; bindings && r < n; r++)
        hwloc_bitmap_free(bindings[r]);
    free(bindings);
}

int mb_rank_place_numa(hwloc_topology_t topo, hwloc_const_cpuset_t binding)
{
    if (!binding || hwloc_bitmap_iszero(binding) ||
        !hwloc_bitmap_isincluded(binding, hwloc_topology_get_topology_cpuset(topo)))
        return -1;
    hwloc_obj_t numa = NULL;
    while ((numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, numa)) != NULL)
        if (hwloc_bitmap_isincluded(binding, numa->cpuset))
            return (int)numa->logical_index;
    return -1;
}

/* Howell's table always needs some NUMA node: a rank spread over several counts as on the
 * first it may run on; one of unknown binding, as on the first of all. */
static int place_numa_touched(hwloc_topology_t topo, hwloc_const_cpuset_t binding)
{
    hwloc_obj_t numa = NULL;
    while (binding && (numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, numa)) != NULL)
        if (hwloc_bitmap_intersects(binding, numa->cpuset))
            return (int)numa->logical_index;
    return 0;
}

/* hwloc's NUMA latency matrix by logical index, where the platform gives exactly one that
 * covers every NUMA node (two would leave the choice ambiguous). */
static uint64_t *place_numa_distances(hwloc_topology_t topo, int nnuma)
{
    struct hwloc_distances_s *d = NULL;
    unsigned nr = 1;
    uint64_t *dist = NULL;
    if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &d,
                                    HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0)
        return NULL;
    if (nr == 1 && d && (int)d->nbobjs == nnuma)
        dist = malloc((size_t)nnuma * (size_t)nnuma * sizeof *dist);
    for (int a = 0; dist && a < nnuma; a++)
        for (int b = 0; b < nnuma; b++)
            dist[(size_t)d->objs[a]->logical_index * (size_t)nnuma + d->objs[b]->logical_index] =
                d->values[(size_t)a * (size_t)nnuma + (size_t)b];
    if (d)
        hwloc_distances_release(topo, d);
    return dist;
}

uint64_t *mb_rank_place_peer_inputs(hwloc_topology_t topo, const hwloc_bitmap_t *bindings, int n,
                                    int *numa, int *nnuma)
{
    for (int r = 0; r < n; r++) {
        hwloc_const_cpuset_t b = bindings ? bindings[r] : NULL;
        numa[r] = mb_rank_place_numa(topo, b);
        if (numa[r] < 0)
            numa[r] = place_numa_touched(topo, b);
    }
    *nnuma = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    return place_numa_distances(topo, *nnuma);
}
