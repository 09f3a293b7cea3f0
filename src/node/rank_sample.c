/* SPDX-License-Identifier: MIT */
#include "rank_sample.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "rank_place.h"

typedef struct sample_rank {
    hwloc_obj_t where; /* the smallest object holding the binding; NULL: no place */
    int numa;          /* NUMA node's logical index; -1: no place */
    bool taken;
    mb_rank_sample_why_t why;
} sample_rank_t;

typedef struct sample {
    hwloc_topology_t topo;
    sample_rank_t *r;
    int *taken; /* the ranks taken so far, in the order taken */
    int n, k, count;
} sample_t;

static void sample_take(sample_t *s, int rank, mb_rank_sample_why_t why)
{
    s->r[rank].taken = true;
    s->r[rank].why = why;
    s->taken[s->count++] = rank;
}

/* The package (logical index) a NUMA node belongs to; npackages for none, so NUMA nodes
 * outside every package (memory attached to the whole machine) come after the others. */
static int sample_package_of(hwloc_topology_t topo, hwloc_obj_t numa, int npackages)
{
    hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, numa);
    return p ? (int)p->logical_index : npackages;
}

/* One representative per NUMA node, the lowest rank on it: round r takes each package's
 * r-th NUMA node that has ranks, package after package. */
static int sample_numa_representatives(sample_t *s)
{
    int nnuma = hwloc_get_nbobjs_by_type(s->topo, HWLOC_OBJ_NUMANODE);
    int npackages = hwloc_get_nbobjs_by_type(s->topo, HWLOC_OBJ_PACKAGE);
    if (nnuma < 1)
        return 0;
    int *rep = malloc((size_t)nnuma * sizeof *rep),
        *package = malloc((size_t)nnuma * sizeof *package);
    if (!rep || !package) {
        free(rep);
        free(package);
        return -1;
    }
    for (int j = 0; j < nnuma; j++) {
        rep[j] = -1;
        package[j] = sample_package_of(
            s->topo, hwloc_get_obj_by_type(s->topo, HWLOC_OBJ_NUMANODE, (unsigned)j), npackages);
    }
    for (int i = s->n - 1; i >= 0; i--)
        if (s->r[i].numa >= 0)
            rep[s->r[i].numa] = i;
    for (int round = 0, found = 1; found && s->count < s->k; round++) {
        found = 0;
        for (int p = 0; p <= npackages && s->count < s->k; p++) {
            for (int j = 0, seen = 0; j < nnuma; j++) {
                if (package[j] != p || rep[j] < 0)
                    continue;
                if (seen++ == round) {
                    sample_take(s, rep[j], MB_RANK_SAMPLE_NUMA);
                    found = 1;
                    break;
                }
            }
        }
    }
    free(rep);
    free(package);
    return 0;
}

/* How near rank c is to the taken ranks: the depth of the deepest object it shares with
 * one of them (-1 when none is placed). */
static int sample_nearness(const sample_t *s, int c)
{
    int near = -1;
    for (int i = 0; i < s->count; i++) {
        hwloc_obj_t t = s->r[s->taken[i]].where;
        if (!t)
            continue;
        hwloc_obj_t common = hwloc_get_common_ancestor_obj(s->topo, s->r[c].where, t);
        if (common && common->depth > near)
            near = common->depth;
    }
    return near;
}

/* Taken ranks inside rank c's ancestor at depth d. */
static int sample_crowd(const sample_t *s, int c, int d)
{
    hwloc_obj_t above = hwloc_get_ancestor_obj_by_depth(s->topo, d, s->r[c].where);
    int crowd = 0;
    for (int i = 0; above && i < s->count; i++) {
        hwloc_obj_t t = s->r[s->taken[i]].where;
        crowd += t && hwloc_obj_is_in_subtree(s->topo, t, above);
    }
    return crowd;
}

/* Whether candidate a is farther from the taken ranks than b: its nearest taken rank is
 * farther, or as far, and its ancestors, top down, hold fewer taken ranks. */
static bool sample_farther(const sample_t *s, int a, int near_a, int b, int near_b)
{
    if (near_a != near_b)
        return near_a < near_b;
    int depth =
        s->r[a].where->depth < s->r[b].where->depth ? s->r[a].where->depth : s->r[b].where->depth;
    for (int d = 1; d <= depth; d++) {
        int ca = sample_crowd(s, a, d), cb = sample_crowd(s, b, d);
        if (ca != cb)
            return ca < cb;
    }
    return false;
}

/* Greedy: the placed rank farthest from the taken ones, until k or no placed rank is left. */
static void sample_spread(sample_t *s)
{
    while (s->count < s->k) {
        int best = -1, best_near = 0;
        for (int c = 0; c < s->n; c++) {
            if (s->r[c].taken || !s->r[c].where)
                continue;
            int near = sample_nearness(s, c);
            if (best < 0 || sample_farther(s, c, near, best, best_near)) {
                best = c;
                best_near = near;
            }
        }
        if (best < 0)
            return;
        sample_take(s, best, MB_RANK_SAMPLE_SPREAD);
    }
}

int mb_rank_sample_pick(hwloc_topology_t topo, const hwloc_bitmap_t *bindings, int n, int k,
                        int *ranks, mb_rank_sample_why_t *why)
{
    if (!topo || n < 0 || k < 0)
        return -1;
    sample_t s = {.topo = topo, .n = n, .k = k < n ? k : n};
    s.r = calloc(n > 0 ? (size_t)n : 1, sizeof *s.r);
    s.taken = calloc(n > 0 ? (size_t)n : 1, sizeof *s.taken);
    if (!s.r || !s.taken)
        goto fail;
    for (int i = 0; i < n; i++) {
        hwloc_const_cpuset_t b = bindings ? bindings[i] : NULL;
        s.r[i].numa = mb_rank_place_numa(topo, b);
        s.r[i].where = s.r[i].numa >= 0 ? hwloc_get_obj_covering_cpuset(topo, b) : NULL;
        if (!s.r[i].where)
            s.r[i].numa = -1;
    }
    if (sample_numa_representatives(&s) != 0)
        goto fail;
    sample_spread(&s);
    for (int i = 0; i < n && s.count < s.k; i++)
        if (!s.r[i].taken)
            sample_take(&s, i, MB_RANK_SAMPLE_UNPLACED);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!s.r[i].taken)
            continue;
        if (why)
            why[m] = s.r[i].why;
        ranks[m++] = i;
    }
    free(s.taken);
    free(s.r);
    return m;
fail:
    free(s.taken);
    free(s.r);
    return -1;
}

/* "NUMA 1, package 0", or "NUMA 1" outside any package. */
static int sample_numa_words(hwloc_topology_t topo, int numa, char *buf, size_t len)
{
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)numa);
    hwloc_obj_t p = obj ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, obj) : NULL;
    if (!p)
        return snprintf(buf, len, "NUMA %d", numa);
    return snprintf(buf, len, "NUMA %d, package %u", numa, p->logical_index);
}

/* The logical indexes of the objects of a type that binding touches, as a list ("4-7") in
 * buf; returns how many. */
static int sample_list_touched(hwloc_topology_t topo, hwloc_const_cpuset_t binding,
                               hwloc_obj_type_t type, char *buf, size_t len)
{
    hwloc_bitmap_t idx = hwloc_bitmap_alloc();
    snprintf(buf, len, "?");
    if (!idx)
        return 0;
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, type, obj)) != NULL)
        if (hwloc_bitmap_intersects(obj->cpuset, binding))
            hwloc_bitmap_set(idx, obj->logical_index);
    hwloc_bitmap_list_snprintf(buf, len, idx);
    int count = hwloc_bitmap_weight(idx);
    hwloc_bitmap_free(idx);
    return count;
}

int mb_rank_sample_describe(hwloc_topology_t topo, hwloc_const_cpuset_t binding,
                            mb_rank_sample_why_t why, char *buf, size_t len)
{
    char numa_words[64], cores[64];
    int numa = mb_rank_place_numa(topo, binding);
    if (numa < 0) {
        if (!binding || hwloc_bitmap_iszero(binding))
            return snprintf(buf, len, "binding unknown");
        if (!hwloc_bitmap_isincluded(binding, hwloc_topology_get_topology_cpuset(topo)))
            return snprintf(buf, len, "binding outside this topology");
        sample_list_touched(topo, binding, HWLOC_OBJ_NUMANODE, numa_words, sizeof numa_words);
        return snprintf(buf, len, "binding over NUMA %s", numa_words);
    }
    sample_numa_words(topo, numa, numa_words, sizeof numa_words);
    if (why == MB_RANK_SAMPLE_NUMA)
        return snprintf(buf, len, "%s", numa_words);
    int ncores = sample_list_touched(topo, binding, HWLOC_OBJ_CORE, cores, sizeof cores);
    if (ncores == 0) /* a platform that shows no cores */
        return snprintf(buf, len, "spread (%s)", numa_words);
    return snprintf(buf, len, "spread, core%s %s (%s)", ncores == 1 ? "" : "s", cores, numa_words);
}
