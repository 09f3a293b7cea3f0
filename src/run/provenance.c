/* SPDX-License-Identifier: MIT */
#include "provenance.h"

#include <stdbool.h>
#include <stdio.h>

#include "buildinfo.h"
#include "mpi_library.h"
#include "mpi_util.h"
#include "sysinfo.h"

extern char **environ;

static json_t *provenance_clock_json(const mb_timing_t *t)
{
    return json_pack("{s:s, s:f, s:f, s:f, s:f, s:b, s:s, s:f, s:i, s:f}", "name", t->clock->name,
                     "nominal_resolution_ns", t->nominal_resolution_ns, "resolution_ns",
                     t->resolution_ns, "overhead_ns", t->overhead_ns, "enough_ns", t->enough_ns,
                     "enough_verified", t->enough_verified, "enough_source", t->enough_source,
                     "enough_tolerance", t->enough_tolerance, "enough_scans", t->enough_scans,
                     "loop_overhead_ns", t->loop_overhead_ns);
}

/* One MPI_T control variable's value (a single integer of any of MPI's integer types) into
 * *v; false when it is none or cannot be read. */
static bool provenance_cvar_read(int index, MPI_Datatype type, long long *v)
{
    MPI_T_cvar_handle h;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
        return false;
    bool ok = false;
    union {
        int i;
        unsigned u;
        long l;
        unsigned long ul;
        long long ll;
        unsigned long long ull;
    } x;
    if (count == 1 && MPI_T_cvar_read(h, &x) == MPI_SUCCESS) {
        ok = true;
        if (type == MPI_INT)
            *v = x.i;
        else if (type == MPI_UNSIGNED)
            *v = x.u;
        else if (type == MPI_LONG)
            *v = x.l;
        else if (type == MPI_UNSIGNED_LONG)
            *v = (long long)x.ul;
        else if (type == MPI_LONG_LONG)
            *v = x.ll;
        else if (type == MPI_UNSIGNED_LONG_LONG)
            *v = (long long)x.ull;
        else
            ok = false;
    }
    MPI_T_cvar_handle_free(&h);
    return ok;
}

/* The library's message-protocol limits as its MPI_T control variables state them
 * (mb_mpi_library_protocol_cvar), by name, in bytes: {"btl_vader_eager_limit": 4096, ...};
 * a negative value (MPICH's -1: "the transport's default") is left out. {} where the library
 * has no tool interface or none of them. */
static json_t *provenance_mpi_limits(void)
{
    json_t *out = json_object();
    int provided = 0, n = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return out;
    if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS)
        n = 0;
    for (int i = 0; i < n; i++) {
        char name[256], desc[8];
        int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        long long v;
        if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len,
                                &bind, &scope) == MPI_SUCCESS &&
            bind == MPI_T_BIND_NO_OBJECT && mb_mpi_library_protocol_cvar(name) &&
            provenance_cvar_read(i, type, &v) && v >= 0)
            json_object_set_new(out, name, json_integer((json_int_t)v));
    }
    MPI_T_finalize();
    return out;
}

static json_t *provenance_mpi_json(void)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(lib, &len);
    while (len > 0 && (lib[len - 1] == '\n' || lib[len - 1] == ' '))
        lib[--len] = '\0';
    MPI_Get_version(&major, &minor);
    char standard[16];
    snprintf(standard, sizeof standard, "%d.%d", major, minor);
    static const char *const levels[] = {[MPI_THREAD_SINGLE] = "single",
                                         [MPI_THREAD_FUNNELED] = "funneled",
                                         [MPI_THREAD_SERIALIZED] = "serialized",
                                         [MPI_THREAD_MULTIPLE] = "multiple"};
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    /* The full text stays as the library printed it; name and version are read from it. */
    char name[128], version[64];
    mb_mpi_library_parse(lib, name, sizeof name, version, sizeof version);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "name", name, "version", version,
                     "library", lib, "standard", standard, "thread_level",
                     level >= 0 && level <= MPI_THREAD_MULTIPLE ? levels[level] : "?", "env",
                     mb_sysinfo_mpi_env(environ), "protocol_limits", provenance_mpi_limits());
}

json_t *mb_provenance_gather(MPI_Comm comm, const mb_node_layout_t *layout, hwloc_topology_t topo,
                             const mb_timing_t *t, bool self_bound, int argc, char **argv)
{
    int mine = self_bound, any_self_bound = 0;
    MB_MPI_CHECK(MPI_Reduce(&mine, &any_self_bound, 1, MPI_INT, MPI_LOR, 0, comm));
    json_t *gathered = mb_sysinfo_gather(comm, layout, topo, t->clock);
    if (!gathered)
        return NULL;
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, json_string(argv[i]));
#if defined(__clang__)
    const char *compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *compiler = "gcc " __VERSION__;
#else
    const char *compiler = "unknown";
#endif
    json_t *sys = json_pack("{s:{s:s, s:s}, s:o, s:s, s:s, s:o}", "suite", "name", "mbsuite",
                            "version", MB_VERSION, "command_line", cmd, "compiler", compiler,
                            "cflags", MB_CFLAGS, "mpi", provenance_mpi_json());
    json_object_update(sys, gathered);
    json_decref(gathered);
    json_object_set_new(sys, "clock", provenance_clock_json(t));
    json_object_set_new(sys, "binding_source",
                        json_string(any_self_bound ? "mbsuite (ranks left unbound by the launcher "
                                                     "were bound to core local_rank mod cores)"
                                                   : "launcher"));
    return sys;
}
