/* SPDX-License-Identifier: MIT */
/* What the numbers were measured on and with: the context block at the top of report.txt
 * (run, node 0, MPI, compiler, clock, bindings) and the pre-flight's cluster table. */
#include "report_context.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report_text.h"

#define REPORT_CONTEXT_INDENT "  "
#define REPORT_CONTEXT_MAX_BINDINGS 16

static void report_context_label(FILE *f, const char *label)
{
    fprintf(f, REPORT_CONTEXT_INDENT "%-16s", label);
}

static void report_context_caches(FILE *f, const json_t *caches)
{
    size_t i;
    const json_t *c;
    report_context_label(f, "caches");
    if (!json_is_array(caches) || json_array_size(caches) == 0) {
        fprintf(f, "-\n");
        return;
    }
    json_array_foreach(caches, i, c)
    {
        const char *type = mb_report_text_str(c, "type");
        const char *suffix = !type                              ? "?"
                             : strcmp(type, "data") == 0        ? "d"
                             : strcmp(type, "instruction") == 0 ? "i"
                                                                : "";
        double size;
        char sz[32] = "-";
        if (mb_report_text_num(c, "size_bytes", &size))
            mb_report_text_bytes(size, sz, sizeof sz);
        fprintf(f, "%sL%" JSON_INTEGER_FORMAT "%s %s x%" JSON_INTEGER_FORMAT, i ? ", " : "",
                json_integer_value(json_object_get(c, "level")), suffix, sz,
                json_integer_value(json_object_get(c, "count")));
    }
    fprintf(f, "\n");
}

/* Node 0's description (the node of rank 0), as seed 003's system table. */
static void report_context_node(FILE *f, const json_t *system)
{
    const json_t *nodes = json_object_get(system, "node_list");
    const json_t *node = json_array_get(nodes, 0);
    char buf[64];

    report_context_label(f, "host");
    if (json_array_size(nodes) > 1)
        fprintf(f, "%s (node 0 of %zu)\n", mb_report_text_dash(mb_report_text_str(node, "host")),
                json_array_size(nodes));
    else
        fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(node, "host")));

    report_context_label(f, "CPU");
    fprintf(f, "%s", mb_report_text_dash(mb_report_text_str(node, "cpu_model")));
    static const struct {
        const char *key, *one, *many;
    } counts[] = {{"sockets", "socket", "sockets"},
                  {"cores", "core", "cores"},
                  {"pus", "PU", "PUs"},
                  {"numa_nodes", "NUMA node", "NUMA nodes"}};
    const char *sep = "; ";
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const json_t *v = json_object_get(node, counts[i].key);
        if (!json_is_integer(v))
            continue;
        json_int_t n = json_integer_value(v);
        fprintf(f, "%s%" JSON_INTEGER_FORMAT " %s", sep, n,
                n == 1 ? counts[i].one : counts[i].many);
        sep = ", ";
    }
    fprintf(f, "\n");

    if (mb_report_text_str(node, "cpu_family")) {
        report_context_label(f, "CPU id");
        fprintf(f, "family %s, model %s, stepping %s, microcode %s\n",
                mb_report_text_str(node, "cpu_family"),
                mb_report_text_dash(mb_report_text_str(node, "cpu_model_number")),
                mb_report_text_dash(mb_report_text_str(node, "cpu_stepping")),
                mb_report_text_dash(mb_report_text_str(node, "microcode")));
    }
    report_context_caches(f, json_object_get(node, "caches"));

    double mem;
    report_context_label(f, "memory");
    if (mb_report_text_num(node, "memory_bytes", &mem)) {
        mb_report_text_bytes(mem, buf, sizeof buf);
        fprintf(f, "%s\n", buf);
    } else {
        fprintf(f, "-\n");
    }
    if (mb_report_text_num(node, "memory_span_bytes", &mem)) {
        report_context_label(f, "memory figures");
        mb_report_text_bytes(mem, buf, sizeof buf);
        double cap;
        char capbuf[32] = "256M";
        if (mb_report_text_num(node, "memory_span_cap_bytes", &cap))
            mb_report_text_bytes(cap, capbuf, sizeof capbuf);
        fprintf(f, "a working set of %s for a rank alone (4 x the last-level cache, at most %s, "
                   "[shm] memory_max)", buf, capbuf);
        double wanted;
        if (mb_report_text_num(node, "memory_span_wanted_bytes", &wanted) && wanted > mem) {
            char wantbuf[32];
            mb_report_text_bytes(wanted, wantbuf, sizeof wantbuf);
            fprintf(f, ": 4 x LLC is %s, capped to %s", wantbuf, buf);
        }
        if (mb_report_text_num(node, "memory_span_all_ranks_bytes", &mem)) {
            mb_report_text_bytes(mem, buf, sizeof buf);
            fprintf(f, "; %s each when all ranks run at once (as much between them, at "
                       "least 8 MiB each)", buf);
        }
        fputc('\n', f);
    }

    if (mb_report_text_str(node, "memory_type")) {
        report_context_label(f, "memory type");
        fprintf(f, "%s, speed %s\n", mb_report_text_str(node, "memory_type"),
                mb_report_text_dash(mb_report_text_str(node, "memory_speed")));
    }
    if (json_is_array(json_object_get(node, "nics"))) {
        char net[1024];
        mb_report_text_network(node, false, net, sizeof net);
        report_context_label(f, "network");
        fprintf(f, "%s\n", net);
    }
    report_context_label(f, "OS / kernel");
    fprintf(f, "%s / %s\n", mb_report_text_dash(mb_report_text_str(node, "os")),
            mb_report_text_dash(mb_report_text_str(node, "kernel")));

    if (mb_report_text_str(node, "kernel_cmdline")) {
        report_context_label(f, "kernel cmdline");
        fprintf(f, "%s\n", mb_report_text_str(node, "kernel_cmdline"));
    }
    const char *governor = mb_report_text_str(node, "governor");
    report_context_label(f, "tuning");
    fprintf(f, "governor %s, THP %s, clocksource %s\n", mb_report_text_dash(governor),
            mb_report_text_dash(mb_report_text_str(node, "thp")),
            mb_report_text_dash(mb_report_text_str(node, "clocksource")));
    if (governor && strcmp(governor, "performance") != 0) {
        report_context_label(f, "warning");
        fprintf(f, "CPU frequency governor is \"%s\": times may follow the clock speed\n",
                governor);
    }
}

static int report_context_cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void report_context_mpi(FILE *f, const json_t *system)
{
    const json_t *mpi = json_object_get(system, "mpi");
    const char *lib = mb_report_text_str(mpi, "library");
    const char *name = mb_report_text_str(mpi, "name");
    const char *version = mb_report_text_str(mpi, "version");
    report_context_label(f, "MPI");
    if (name && version) {
        fprintf(f, "%s %s", name, version);
    } else {
        /* Results from before name and version were recorded: Open MPI's version string
         * goes on with package and build details after a comma, MPICH's on further lines;
         * what precedes them names the library. */
        int liblen = lib ? (int)strcspn(lib, ",\n") : 1;
        fprintf(f, "%.*s", liblen, lib ? lib : "-");
    }
    fprintf(f, " (MPI %s)\n", mb_report_text_dash(mb_report_text_str(mpi, "standard")));

    const json_t *env = json_object_get(mpi, "env");
    const char *key;
    const json_t *v;
    report_context_label(f, "MPI env");
    if (json_object_size(env) == 0)
        fprintf(f, "(none)\n");
    bool first = true;
    json_object_foreach((json_t *)env, key, v)
    {
        if (!first)
            fprintf(f, REPORT_CONTEXT_INDENT "%-16s", "");
        fprintf(f, "%s=%s\n", key, mb_report_text_dash(json_string_value(v)));
        first = false;
    }
    /* Where its messages change protocol, for the fitted models' breaks to be read against
     * (results from before they were recorded have none). */
    const json_t *limits = json_object_get(mpi, "protocol_limits");
    if (json_is_object(limits)) {
        report_context_label(f, "MPI limits");
        if (json_object_size(limits) == 0)
            fprintf(f, "none stated (no MPI_T control variable of the library names one)");
        const char **names = malloc(json_object_size(limits) * sizeof *names + 1);
        size_t n = 0;
        json_object_foreach((json_t *)limits, key, v)
        {
            if (names)
                names[n++] = key;
        }
        if (names)
            qsort(names, n, sizeof *names, report_context_cmp_str);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s%s %" JSON_INTEGER_FORMAT " B", i ? ", " : "", names[i],
                    json_integer_value(json_object_get(limits, names[i])));
        fprintf(f, "%s\n",
                n ? " (the library's MPI_T control variables on its protocols; "
                    "a fitted segment that starts at an eager limit is the eager "
                    "to rendezvous step)"
                  : "");
        free(names);
    }
}

static void report_context_clock(FILE *f, const json_t *system)
{
    const json_t *clock = json_object_get(system, "clock");
    char a[48], b[48], c[48];
    double v;

    report_context_label(f, "clock");
    fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(clock, "name")));
    report_context_label(f, "resolution");
    snprintf(a, sizeof a, "-");
    snprintf(b, sizeof b, "-");
    if (mb_report_text_num(clock, "nominal_resolution_ns", &v))
        mb_report_text_duration(v, a, sizeof a);
    if (mb_report_text_num(clock, "resolution_ns", &v))
        mb_report_text_duration(v, b, sizeof b);
    fprintf(f, "%s measured (%s nominal)\n", b, a);
    report_context_label(f, "overhead");
    snprintf(c, sizeof c, "-");
    if (mb_report_text_num(clock, "overhead_ns", &v))
        mb_report_text_duration(v, c, sizeof c);
    fprintf(f, "%s per clock read\n", c);

    report_context_label(f, "enough");
    snprintf(a, sizeof a, "-");
    if (mb_report_text_num(clock, "enough_ns", &v))
        mb_report_text_duration(v, a, sizeof a);
    const json_t *verified = json_object_get(clock, "enough_verified");
    const char *source = mb_report_text_dash(mb_report_text_str(clock, "enough_source"));
    double tol = 0;
    double scans = 0;
    char scan_note[64] = "";
    if (mb_report_text_num(clock, "enough_scans", &scans) && scans > 1)
        snprintf(scan_note, sizeof scan_note, ", in scan %.0f of the candidates", scans);
    if (json_is_true(verified) && mb_report_text_num(clock, "enough_tolerance", &tol) && tol > 0)
        fprintf(f, "%s (verified by the jiggle test at +-%.1f%%; %s%s)\n", a, tol * 100, source,
                scan_note);
    else if (json_is_true(verified))
        fprintf(f, "%s (verified by the jiggle test; %s)\n", a, source);
    else if (source && strcmp(source, "fallback") == 0)
        fprintf(f, "%s (NOT verified: no interval passed the jiggle test even at +-1%%, so the "
                   "fallback [timing] enough_fallback was used: with auto, 1000 clock steps; the "
                   "medians of repeated experiments take the noise that failed the test)\n",
                a);
    else if (json_is_false(verified))
        fprintf(f, "%s (NOT verified; %s)\n", a, source);
    else
        fprintf(f, "%s (%s)\n", a, source);
    /* Why a figure may read under a peer tool's on a shared or virtual machine. */
    if (mb_report_text_num(clock, "enough_ns", &v) && v < 5e6) {
        report_context_label(f, "");
        fprintf(f, "medians of experiments this short leave out what takes the CPU away every "
                   "few ms; tools timing one loop of 5-20 ms (lmbench, STREAM, OSU) include it "
                   "(README, \"How it measures\"; how much: the pre-flight's detour test)\n");
    }

    report_context_label(f, "loop overhead");
    snprintf(a, sizeof a, "-");
    if (mb_report_text_num(clock, "loop_overhead_ns", &v))
        mb_report_text_duration(v, a, sizeof a);
    fprintf(f, "%s per iteration\n", a);
}

static void report_context_bindings(FILE *f, const json_t *system)
{
    const json_t *bindings = json_object_get(system, "bindings");
    size_t i;
    const json_t *b;
    report_context_label(f, "bindings");
    if (!json_is_array(bindings) || json_array_size(bindings) == 0) {
        fprintf(f, "-\n");
        return;
    }
    /* Only a small run is listed rank by rank; the JSON has them all. */
    if (json_array_size(bindings) > REPORT_CONTEXT_MAX_BINDINGS) {
        fprintf(f, "%zu ranks (listed in results.json)\n", json_array_size(bindings));
        return;
    }
    json_array_foreach(bindings, i, b)
    {
        char rank[32], node[32];
        mb_report_text_value(json_object_get(b, "rank"), rank, sizeof rank);
        mb_report_text_value(json_object_get(b, "node"), node, sizeof node);
        if (i)
            fprintf(f, REPORT_CONTEXT_INDENT "%-16s", "");
        fprintf(f, "rank %s: node %s (%s), cpus %s\n", rank, node,
                mb_report_text_dash(mb_report_text_str(b, "host")),
                mb_report_text_dash(mb_report_text_str(b, "cpus")));
    }
}

void mb_report_context(FILE *f, const json_t *root)
{
    const json_t *system = json_object_get(root, "system");
    const json_t *suite = json_object_get(system, "suite");
    const char *name = mb_report_text_str(suite, "name");
    char a[32], b[32];

    fprintf(f, "%s %s results (%s)\n", name ? name : "mbsuite",
            mb_report_text_dash(mb_report_text_str(suite, "version")),
            mb_report_text_dash(mb_report_text_str(root, "schema")));
    report_context_label(f, "status");
    fprintf(f, "%s\n",
            json_is_true(json_object_get(root, "complete")) ? "complete"
                                                            : "INCOMPLETE (run stopped early)");
    report_context_label(f, "started");
    fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(root, "started_utc")));
    report_context_label(f, "finished");
    fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(root, "finished_utc")));

    const json_t *argv = json_object_get(system, "command_line");
    size_t i;
    const json_t *arg;
    report_context_label(f, "command");
    if (json_array_size(argv) == 0)
        fprintf(f, "-");
    json_array_foreach(argv, i, arg)
        fprintf(f, "%s%s", i ? " " : "", mb_report_text_dash(json_string_value(arg)));
    fprintf(f, "\n");

    mb_report_text_value(json_object_get(system, "ranks"), a, sizeof a);
    mb_report_text_value(json_object_get(system, "nodes"), b, sizeof b);
    report_context_label(f, "ranks / nodes");
    fprintf(f, "%s / %s\n", a, b);

    report_context_node(f, system);
    report_context_mpi(f, system);
    report_context_label(f, "compiler");
    fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(system, "compiler")));
    report_context_label(f, "cflags");
    fprintf(f, "%s\n", mb_report_text_dash(mb_report_text_str(system, "cflags")));
    report_context_clock(f, system);
    report_context_bindings(f, system);
}

static void report_context_pct(FILE *f, const json_t *obj, const char *key)
{
    double v;
    if (mb_report_text_num(obj, key, &v))
        fprintf(f, " %8.2f", v);
    else
        fprintf(f, " %8s", "-");
}

/* The cluster table of the pre-flight: per node its clock and its noisiest core, then
 * every core's noise while the run is small enough to read. */
void mb_report_preflight(FILE *f, const json_t *pre)
{
    const json_t *nodes = json_object_get(pre, "nodes");
    double v, dur = 0, thr = 0, tol = 0;
    mb_report_text_num(pre, "perturb_duration_ms", &dur);
    mb_report_text_num(pre, "noise_threshold_pct", &thr);
    mb_report_text_num(pre, "mhz_tolerance_pct", &tol);
    fprintf(f,
            "\npre-flight — clock speed (mhz, seed 000) and noise (perturbation test, seed 002)\n");
    fprintf(f,
            REPORT_CONTEXT_INDENT
            "noise: how much slower than its %s run (not its fastest) each %.4g ms spin run "
            "was, all ranks at once; flagged above p99 %.4g%% or %.4g%% off the median clock\n",
            mb_report_text_dash(mb_report_text_str(pre, "perturb_reference")), dur, thr, tol);
    fprintf(f, REPORT_CONTEXT_INDENT "node  %-20s %9s %8s %5s %5s %8s %8s  verdict\n", "host",
            "MHz", "tick ns", "cores", "ranks", "p50 %", "p99 %");
    size_t i, nranks = 0;
    const json_t *node;
    json_array_foreach(nodes, i, node)
    {
        fprintf(f, REPORT_CONTEXT_INDENT "%4zu  %-20s", i,
                mb_report_text_dash(mb_report_text_str(node, "host")));
        if (mb_report_text_num(node, "mhz", &v))
            fprintf(f, " %9.1f", v);
        else
            fprintf(f, " %9s", "-");
        if (mb_report_text_num(node, "tick_ns", &v))
            fprintf(f, " %8.4f", v);
        else
            fprintf(f, " %8s", "-");
        fprintf(f, " %5lld", (long long)json_integer_value(json_object_get(node, "cores")));
        fprintf(f, " %5lld", (long long)json_integer_value(json_object_get(node, "ranks")));
        report_context_pct(f, json_object_get(node, "perturb"), "p50_pct");
        report_context_pct(f, json_object_get(node, "perturb"), "p99_pct");
        if (json_is_true(json_object_get(node, "flagged")))
            fprintf(f, "  FLAGGED: %s\n", mb_report_text_dash(mb_report_text_str(node, "why")));
        else
            fprintf(f, "  ok\n");
        nranks += json_array_size(json_object_get(node, "per_rank"));
    }
    json_array_foreach(nodes, i, node)
    {
        const json_t *mem = json_object_get(node, "perturb_memory");
        if (!mem)
            continue;
        fprintf(f, REPORT_CONTEXT_INDENT "node %zu memory mode (seed 002's -m, read loop):", i);
        report_context_pct(f, mem, "p50_pct");
        report_context_pct(f, mem, "p99_pct");
        fprintf(f, "  (p50 %%, p99 %% of its noisiest rank; not part of the verdict)\n");
    }
    json_array_foreach(nodes, i, node)
    {
        const json_t *d = json_object_get(node, "detour");
        double lost, per_s, med, p90, max;
        if (!mb_report_text_num(d, "lost_pct", &lost) || !mb_report_text_num(d, "per_s", &per_s) ||
            !mb_report_text_num(d, "median_us", &med) || !mb_report_text_num(d, "p90_us", &p90) ||
            !mb_report_text_num(d, "max_us", &max))
            continue;
        fprintf(f,
                REPORT_CONTEXT_INDENT
                "node %zu detour test (the clock read back to back, all "
                "ranks): the CPU away %.2f%% of the time, %.0f times a second",
                i, lost, per_s);
        if (per_s > 0)
            fprintf(f, ", %.3g us each (median; p90 %.3g, longest %.4g)", med, p90, max);
        fprintf(f,
                " on rank %lld, the most; not part of the verdict. Medians of short "
                "experiments leave this out, a loop timed whole (OSU, lmbench) takes it in\n",
                (long long)json_integer_value(json_object_get(d, "rank")));
    }
    if (mb_report_text_num(pre, "median_mhz", &v))
        fprintf(f, REPORT_CONTEXT_INDENT "cluster median %.1f MHz; %lld of %zu node(s) flagged\n",
                v, (long long)json_integer_value(json_object_get(pre, "flagged_nodes")),
                json_array_size(nodes));
    const json_t *cycles = json_object_get(json_array_get(nodes, 0), "cycles");
    if (json_object_size(cycles) > 0) {
        const char *expr;
        const json_t *c;
        const json_t *unused = json_object_get(json_array_get(nodes, 0), "mhz_unused");
        fprintf(f, REPORT_CONTEXT_INDENT "cycles per expression on node 0:");
        json_object_foreach((json_t *)cycles, expr, c)
        {
            if (json_is_number(c))
                fprintf(f, " %s %.2f%s", expr, json_number_value(c),
                        mb_record_has_string(unused, expr) ? " (left out)" : "");
        }
        fprintf(f, "\n");
    }
    if (nranks > 64) {
        fprintf(f, REPORT_CONTEXT_INDENT "per-core noise of %zu ranks: see results.json\n", nranks);
        return;
    }
    fprintf(f, REPORT_CONTEXT_INDENT
            "per core:  rank  node  cpus     p50 %%    p99 %%    max %%   away %%\n");
    json_array_foreach(nodes, i, node)
    {
        size_t j;
        const json_t *rec;
        json_array_foreach(json_object_get(node, "per_rank"), j, rec)
        {
            fprintf(f, REPORT_CONTEXT_INDENT "          %5lld %5zu  %-6s",
                    (long long)json_integer_value(json_object_get(rec, "rank")), i,
                    mb_report_text_dash(mb_report_text_str(rec, "cpus")));
            report_context_pct(f, rec, "p50_pct");
            report_context_pct(f, rec, "p99_pct");
            report_context_pct(f, rec, "max_pct");
            report_context_pct(f, json_object_get(rec, "detour"), "lost_pct");
            fprintf(f, "\n");
        }
    }
}
