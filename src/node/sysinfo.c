/* SPDX-License-Identifier: MIT */
/* System description (seed 003, Table 1) per node from hwloc, uname, /etc/os-release and
 * /sys, plus every rank's binding. Rank 0 receives O(ranks + nodes) data: one node
 * description from each node's leader, and one short binding record from each rank. */
#include "sysinfo.h"
#include "sysdesc.h"


#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mpi_util.h"
#include "timing.h"

#define SYSINFO_HOST_MAX 256
#define SYSINFO_LINE_MAX 512

static void sysinfo_set(json_t *obj, const char *key, json_t *value)
{
    json_object_set_new(obj, key, value ? value : json_null());
}

static json_t *sysinfo_string_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

/* A count from hwloc; null when hwloc has none (it reports 0 or -1 then). */
static json_t *sysinfo_count(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);
    return n > 0 ? json_integer(n) : json_null();
}

/* First line of a small file without its newline; false when unreadable or empty. */
static bool sysinfo_read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return false;
    buf[strcspn(buf, "\r\n")] = '\0';
    return buf[0] != '\0';
}

static json_t *sysinfo_file_line(const char *path)
{
    char buf[SYSINFO_LINE_MAX];
    return sysinfo_read_line(path, buf, sizeof buf) ? json_string(buf) : json_null();
}

/* The active choice of a sysfs selector: "always [madvise] never" -> "madvise". */
static json_t *sysinfo_file_choice(const char *path)
{
    char buf[SYSINFO_LINE_MAX];
    if (!sysinfo_read_line(path, buf, sizeof buf))
        return json_null();
    char *open = strchr(buf, '[');
    char *close = open ? strchr(open, ']') : NULL;
    if (!close)
        return json_string(buf);
    *close = '\0';
    return sysinfo_string_or_null(open + 1);
}

/* PRETTY_NAME from /etc/os-release, e.g. "Debian GNU/Linux 12 (bookworm)". */
static json_t *sysinfo_os_pretty_name(void)
{
    char line[SYSINFO_LINE_MAX];
    json_t *name = NULL;
    FILE *f = fopen("/etc/os-release", "r");
    if (!f)
        return NULL;
    while (!name && fgets(line, sizeof line, f)) {
        if (strncmp(line, "PRETTY_NAME=", 12) != 0)
            continue;
        char *v = line + 12;
        v[strcspn(v, "\r\n")] = '\0';
        size_t n = strlen(v);
        if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
            v[n - 1] = '\0';
            v++;
        }
        if (*v)
            name = json_string(v);
    }
    fclose(f);
    return name;
}

static const char *sysinfo_cache_type(hwloc_obj_cache_type_t t)
{
    switch (t) {
    case HWLOC_OBJ_CACHE_DATA: return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
    case HWLOC_OBJ_CACHE_UNIFIED: return "unified";
    }
    return "unified";
}

/* One entry per cache level, type and size with its count; a hybrid CPU whose cores have
 * different L2 sizes gets one entry per size. */
static json_t *sysinfo_caches(hwloc_topology_t topo)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE,  HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2CACHE,
                                             HWLOC_OBJ_L2ICACHE, HWLOC_OBJ_L3CACHE,  HWLOC_OBJ_L3ICACHE,
                                             HWLOC_OBJ_L4CACHE,  HWLOC_OBJ_L5CACHE};
    json_t *caches = json_array();
    if (!caches)
        return NULL;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        size_t first = json_array_size(caches);
        hwloc_obj_t obj = NULL;
        while ((obj = hwloc_get_next_obj_by_type(topo, types[t], obj)) != NULL) {
            json_t *entry = NULL;
            for (size_t i = first; i < json_array_size(caches) && !entry; i++) {
                json_t *e = json_array_get(caches, i);
                if ((hwloc_uint64_t)json_integer_value(json_object_get(e, "size_bytes")) == obj->attr->cache.size)
                    entry = e;
            }
            if (entry) {
                json_int_t n = json_integer_value(json_object_get(entry, "count"));
                json_object_set_new(entry, "count", json_integer(n + 1));
                continue;
            }
            json_array_append_new(caches, json_pack("{s:i, s:s, s:I, s:i}", "level", (int)obj->attr->cache.depth,
                                                    "type", sysinfo_cache_type(obj->attr->cache.type),
                                                    "size_bytes", (json_int_t)obj->attr->cache.size, "count", 1));
        }
    }
    return caches;
}

json_t *mb_sysinfo_node(hwloc_topology_t topo)
{
    json_t *node = json_object();
    if (!node)
        return NULL;
    char host[SYSINFO_HOST_MAX];
    bool have_host = gethostname(host, sizeof host) == 0;
    host[sizeof host - 1] = '\0';
    sysinfo_set(node, "host", have_host ? sysinfo_string_or_null(host) : json_null());

    hwloc_obj_t package = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = package ? hwloc_obj_get_info_by_name(package, "CPUModel") : NULL;
    sysinfo_set(node, "cpu_model", sysinfo_string_or_null(model));
    sysinfo_set(node, "sockets", sysinfo_count(topo, HWLOC_OBJ_PACKAGE));
    sysinfo_set(node, "numa_nodes", sysinfo_count(topo, HWLOC_OBJ_NUMANODE));
    sysinfo_set(node, "cores", sysinfo_count(topo, HWLOC_OBJ_CORE));
    sysinfo_set(node, "pus", sysinfo_count(topo, HWLOC_OBJ_PU));
    sysinfo_set(node, "caches", sysinfo_caches(topo));
    uint64_t mem = mb_sysinfo_memory_bytes(topo);
    sysinfo_set(node, "memory_bytes", mem > 0 ? json_integer((json_int_t)mem) : json_null());

    struct utsname u;
    bool have_uname = uname(&u) == 0;
    json_t *os = sysinfo_os_pretty_name();
    if (!os && have_uname)
        os = json_string(u.sysname);
    sysinfo_set(node, "os", os);
    if (have_uname) {
        char kernel[sizeof u.sysname + sizeof u.release + 2];
        snprintf(kernel, sizeof kernel, "%s %s", u.sysname, u.release);
        sysinfo_set(node, "kernel", json_string(kernel));
    } else {
        sysinfo_set(node, "kernel", json_null());
    }
    sysinfo_set(node, "governor", sysinfo_file_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    sysinfo_set(node, "thp", sysinfo_file_choice("/sys/kernel/mm/transparent_hugepage/enabled"));
    sysinfo_set(node, "clocksource",
                sysinfo_file_line("/sys/devices/system/clocksource/clocksource0/current_clocksource"));
    mb_sysdesc_add(node);
    return node;
}

uint64_t mb_sysinfo_memory_bytes(hwloc_topology_t topo)
{
    /* hwloc sums the NUMA nodes' sysfs figures, which some VMs understate (hot-plugged
     * memory outside node 0): the kernel's own total wins when larger. */
    uint64_t numa = hwloc_get_root_obj(topo)->total_memory;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t os = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    return os > numa ? os : numa;
}

uint64_t mb_sysinfo_llc_bytes(hwloc_topology_t topo)
{
    static const hwloc_obj_type_t levels[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                              HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        uint64_t best = 0;
        hwloc_obj_t obj = NULL;
        while ((obj = hwloc_get_next_obj_by_type(topo, levels[l], obj)) != NULL) {
            if (obj->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION && obj->attr->cache.size > best)
                best = obj->attr->cache.size;
        }
        if (best > 0)
            return best;
    }
    return 0;
}

char *mb_sysinfo_binding(hwloc_topology_t topo)
{
    char *list = NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return NULL;
    /* Cpusets are indexed by OS PU number, so the list reads like taskset's. */
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_list_asprintf(&list, set) < 0)
        list = NULL;
    hwloc_bitmap_free(set);
    return list;
}

json_t *mb_sysinfo_mpi_env(char **envp)
{
    /* MPICH reads its settings as MPIR_CVAR_NAME (or MPICH_NAME). */
    static const char *const prefixes[] = {"OMPI_MCA_", "PMIX_MCA_", "UCX_", "FI_", "PSM2_",
                                           "HCOLL_",    "I_MPI_",    "MV2_", "MPICH_",
                                           "MPIR_CVAR_"};
    /* Set by the launcher for its own plumbing (URIs, session directories, job ids): not
     * tuning, and different in every run. */
    static const char *const launcher[] = {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix",
                                           "OMPI_MCA_initial_wdir", "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
                                           "PMIX_MCA_psec", "PMIX_MCA_mca_base_component_show_load_errors",
                                           "MPIR_CVAR_CH3_INTERFACE_HOSTNAME" /* Hydra's */};
    json_t *env = json_object();
    for (char **e = envp; env && e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        bool plumbing = false;
        for (size_t l = 0; l < sizeof launcher / sizeof launcher[0]; l++)
            plumbing = plumbing || strncmp(*e, launcher[l], strlen(launcher[l])) == 0;
        if (plumbing)
            continue;
        for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
            size_t plen = strlen(prefixes[p]);
            if (strncmp(*e, prefixes[p], plen) != 0 || (size_t)(eq - *e) <= plen)
                continue;
            char *name = strndup(*e, (size_t)(eq - *e));
            if (name)
                json_object_set_new(env, name, json_string(eq + 1));
            free(name);
            break;
        }
    }
    return env;
}

json_t *mb_sysinfo_gather(MPI_Comm comm, const mb_node_layout_t *layout, hwloc_topology_t topo,
                          const mb_clock_t *clock)
{
    int rank, size;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));

    /* One description per node, from its leader. */
    json_t *nodes = NULL;
    if (layout->leaders != MPI_COMM_NULL) {
        json_t *node = mb_sysinfo_node(topo);
        json_object_set_new(node, "host", json_string(layout->host));
        /* The working sets its memory-resident figures use: one rank alone (4 x LLC,
         * capped) and each rank when all of the node's run at once. */
        uint64_t llc = mb_sysinfo_llc_bytes(topo);
        json_object_set_new(node, "memory_span_bytes",
                            json_integer((json_int_t)mb_sysinfo_memory_span_bytes(llc, 32u << 20)));
        json_object_set_new(node, "memory_span_cap_bytes",
                            json_integer((json_int_t)mb_sysinfo_memory_span_cap()));
        /* What STREAM's rule asks for before the cap, so the report can say it was cut. */
        if (llc)
            json_object_set_new(node, "memory_span_wanted_bytes",
                                json_integer((json_int_t)(4 * llc)));
        json_object_set_new(node, "memory_span_all_ranks_bytes",
                            json_integer((json_int_t)mb_sysinfo_memory_span_shared_bytes(
                                llc, 32u << 20, layout->local_size)));
        /* Each node's own clock: the cluster's nodes need not share a clock source. */
        double resolution_ns = mb_timing_measure_resolution(clock, 1000);
        json_object_set_new(node, "clock_resolution_ns", json_real(resolution_ns));
        json_object_set_new(node, "clock_overhead_ns",
                            json_real(mb_timing_measure_overhead(clock, resolution_ns, 1001)));
        nodes = mb_mpi_gather_json(layout->leaders, node);
        json_decref(node);
    }

    /* One short binding record per rank. */
    char *cpus = mb_sysinfo_binding(topo);
    json_t *mine = json_pack("{s:i, s:i, s:s, s:o}", "rank", rank, "node", layout->node, "host",
                             layout->host, "cpus", sysinfo_string_or_null(cpus));
    free(cpus);
    json_t *bindings = mb_mpi_gather_json(comm, mine);
    json_decref(mine);

    if (rank != 0)
        return NULL;
    return json_pack("{s:i, s:i, s:o, s:o}", "ranks", size, "nodes", layout->nnodes, "bindings",
                     bindings, "node_list", nodes);
}

/* One process, one configuration: a setting, not state that changes during a run. */
static uint64_t sysinfo_memory_span_cap = MB_MEMORY_SPAN_CAP_BYTES;

void mb_sysinfo_set_memory_span_cap(uint64_t cap_bytes)
{
    sysinfo_memory_span_cap = cap_bytes ? cap_bytes : MB_MEMORY_SPAN_CAP_BYTES;
}

uint64_t mb_sysinfo_memory_span_cap(void)
{
    return sysinfo_memory_span_cap;
}

uint64_t mb_sysinfo_memory_span_bytes(uint64_t llc_bytes, uint64_t unknown_bytes)
{
    uint64_t span = llc_bytes ? 4 * llc_bytes : unknown_bytes;
    return span < sysinfo_memory_span_cap ? span : sysinfo_memory_span_cap;
}

uint64_t mb_sysinfo_memory_span_shared_bytes(uint64_t llc_bytes, uint64_t unknown_bytes,
                                             int sharers)
{
    uint64_t node = mb_sysinfo_memory_span_bytes(llc_bytes, unknown_bytes);
    uint64_t share = sharers > 1 ? node / (uint64_t)sharers : node;
    if (share < MB_MEMORY_SPAN_FLOOR_BYTES)
        share = MB_MEMORY_SPAN_FLOOR_BYTES < node ? MB_MEMORY_SPAN_FLOOR_BYTES : node;
    return share & ~(uint64_t)4095; /* whole pages */
}
