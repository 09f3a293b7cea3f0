/* SPDX-License-Identifier: MIT */
#include "fake_node.h"

#include <stdlib.h>

hwloc_topology_t mb_fake_node_topology(const char *synthetic)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return NULL;
    if (hwloc_topology_set_synthetic(topo, synthetic) != 0 || hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return NULL;
    }
    return topo;
}

hwloc_bitmap_t mb_fake_node_on(hwloc_topology_t topo, hwloc_obj_type_t type, unsigned idx)
{
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, idx);
    return obj ? hwloc_bitmap_dup(obj->cpuset) : NULL;
}

hwloc_bitmap_t *mb_fake_node_in_order(hwloc_topology_t topo, hwloc_obj_type_t type, int n)
{
    int count = hwloc_get_nbobjs_by_type(topo, type);
    hwloc_bitmap_t *b = calloc((size_t)n, sizeof *b);
    for (int r = 0; b && count > 0 && r < n; r++)
        b[r] = mb_fake_node_on(topo, type, (unsigned)(r % count));
    return b;
}

hwloc_bitmap_t *mb_fake_node_round_robin(hwloc_topology_t topo, int n)
{
    int npackages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    hwloc_bitmap_t *b = calloc((size_t)n, sizeof *b);
    for (int r = 0; b && npackages > 0 && r < n; r++) {
        hwloc_obj_t p = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, (unsigned)(r % npackages));
        int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo, p->cpuset, HWLOC_OBJ_CORE);
        hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(topo, p->cpuset, HWLOC_OBJ_CORE,
                                                               (unsigned)(r / npackages % cores));
        b[r] = hwloc_bitmap_dup(core->cpuset);
    }
    return b;
}

int mb_fake_node_add_latencies(hwloc_topology_t topo, const hwloc_uint64_t *values)
{
    int nnuma = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE), rc = -1;
    if (nnuma < 2)
        return -1;
    hwloc_obj_t *objs = calloc((size_t)nnuma, sizeof *objs);
    hwloc_uint64_t *v = calloc((size_t)nnuma * (size_t)nnuma, sizeof *v);
    for (int a = 0; objs && v && a < nnuma; a++) {
        objs[a] = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)(nnuma - 1 - a));
        for (int b = 0; b < nnuma; b++)
            v[a * nnuma + b] = values[(nnuma - 1 - a) * nnuma + (nnuma - 1 - b)];
    }
    hwloc_distances_add_handle_t h =
        objs && v ? hwloc_distances_add_create(
                        topo, "fake_node",
                        HWLOC_DISTANCES_KIND_FROM_USER | HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0)
                  : NULL;
    if (h && hwloc_distances_add_values(topo, h, (unsigned)nnuma, objs, v, 0) == 0)
        rc = hwloc_distances_add_commit(topo, h, 0);
    free(objs);
    free(v);
    return rc;
}
