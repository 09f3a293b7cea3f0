/* SPDX-License-Identifier: MIT */
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>
#include <jansson.h>
#include <mpi.h>

#include "bench.h"
#include "budget.h"
#include "clock_sync.h"
#include "config.h"
#include "drift_probe.h"
#include "fileutil.h"
#include "measure.h"
#include "measure_json.h"
#include "mpi_util.h"
#include "node_layout.h"
#include "node_runs.h"
#include "plan.h"
#include "preflight.h"
#include "progress.h"
#include "provenance.h"
#include "raw_samples.h"
#include "registry.h"
#include "remeasure.h"
#include "results.h"
#include "sections.h"
#include "sysinfo.h"
#include "timing.h"
#include "timings.h"

#define DRIVER_MAX_POINTS 4096

static void driver_error(int rank, const char *fmt, const char *what)
{
    if (rank == 0) {
        char msg[2048];
        snprintf(msg, sizeof msg, fmt, what);
        mb_progress_note("mbsuite: error: %s", msg);
    }
}

/* config/default.ini beside the executable, so the suite runs from any directory. */
static void driver_default_config(char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(path, len, "%s/config/default.ini", dirname(exe));
        if (access(path, R_OK) == 0)
            return;
    }
    snprintf(path, len, "config/default.ini");
}

/* Rank 0 reads the file once and broadcasts it: thousands of ranks need not all hit a
 * shared file system. Every rank parses the same text, so every rank finds the same error. */
static int driver_load_config(MPI_Comm comm, int rank, const char *path, mb_config_t *cfg,
                              char **text_out)
{
    char err[1024] = "";
    char *text = rank == 0 ? mb_config_read_file(path, err, sizeof err) : NULL;
    char *shared = mb_mpi_bcast_string(comm, text);
    free(text);
    if (!shared) {
        driver_error(rank, "%s", err);
        return -1;
    }
    mb_config_defaults(cfg);
    int rc = mb_config_parse_string(cfg, shared, path, err, sizeof err);
    *text_out = shared; /* --runs hands it to each run's fresh process */
    if (rc != 0)
        driver_error(rank, "%s", err);
    return rc;
}

/* Decide, before anything is measured or written, what runs, at which points and in which
 * order (each pattern just after its recipe, mb_plan_order_patterns): a bad
 * parameter is an error now, not after an hour of measurements. */
static int driver_plan(const mb_context_t *ctx, const bool *selected, mb_plan_entry_t *plan,
                       size_t *nplan)
{
    *nplan = 0;
    for (size_t i = 0; i < mb_registry_count(); i++) {
        if (!selected[i])
            continue;
        mb_plan_entry_t *p = &plan[(*nplan)++];
        *p = (mb_plan_entry_t){.bench = mb_registry_get(i)};
        p->skip_reason = mb_measure_skip_reason(p->bench, ctx, p->skip_buf, sizeof p->skip_buf);
        if (p->skip_reason)
            continue;
        p->points = calloc(DRIVER_MAX_POINTS, sizeof *p->points);
        char err[512] = "";
        int n = p->points ? mb_measure_points(p->bench, ctx, p->points, DRIVER_MAX_POINTS, err,
                                              sizeof err)
                          : -1;
        if (n < 0) {
            driver_error(ctx->rank, "%s", err[0] ? err : "out of memory");
            return -1;
        }
        p->npoints = (size_t)n;
        if (n == 0) {
            snprintf(p->skip_buf, sizeof p->skip_buf, "the configuration gives it no points");
            p->skip_reason = p->skip_buf;
        }
    }
    mb_plan_order_patterns(ctx, plan, *nplan);
    return 0;
}

static void driver_broadcast_timing(MPI_Comm comm, int rank, mb_timing_t *t)
{
    double v[8] = {t->nominal_resolution_ns, t->resolution_ns, t->overhead_ns, t->enough_ns,
                   t->loop_overhead_ns, t->enough_verified, t->enough_tolerance, t->enough_scans};
    int source = 0;
    static const char *const sources[] = {"measured", "config", "environment", "fallback"};
    if (rank == 0)
        for (int i = 0; i < 4; i++)
            if (t->enough_source && strcmp(t->enough_source, sources[i]) == 0)
                source = i;
    MB_MPI_CHECK(MPI_Bcast(v, 8, MPI_DOUBLE, 0, comm));
    MB_MPI_CHECK(MPI_Bcast(&source, 1, MPI_INT, 0, comm));
    t->nominal_resolution_ns = v[0];
    t->resolution_ns = v[1];
    t->overhead_ns = v[2];
    t->enough_ns = v[3];
    t->loop_overhead_ns = v[4];
    t->enough_verified = v[5] != 0;
    t->enough_tolerance = v[6];
    t->enough_scans = (int)v[7];
    t->enough_source = sources[source];
}

/* Collective: every node's calibration (its first rank's), gathered over the node leaders
 * at world rank 0 (O(nodes)); NULL on the other ranks. */
static json_t *driver_calibration_json(const mb_node_layout_t *layout, const mb_timing_t *t)
{
    if (layout->leaders == MPI_COMM_NULL)
        return NULL;
    json_t *mine = json_pack("{s:i, s:s, s:f, s:f, s:f, s:s, s:f, s:i, s:f}", "node", layout->node,
                             "host", layout->host, "resolution_ns", t->resolution_ns,
                             "overhead_ns", t->overhead_ns, "enough_ns", t->enough_ns,
                             "enough_source", t->enough_source, "enough_tolerance",
                             t->enough_tolerance, "enough_scans", t->enough_scans,
                             "loop_overhead_ns", t->loop_overhead_ns);
    json_t *all = mb_mpi_gather_json(layout->leaders, mine);
    json_decref(mine);
    return all;
}

/* Rank 0, before anything is measured: --out may name a directory to be created, or an
 * empty one (made by a job script); one that holds files (an earlier run's?) is refused
 * unless --force, since a run never overwrites another silently. */
static int driver_check_out_dir(const char *dir, bool force, char *err, size_t errlen)
{
    struct stat st;
    if (!dir || force || stat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--out %s: exists and is not a directory", dir);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "--out %s: cannot read: %s", dir, strerror(errno));
        return -1;
    }
    bool empty = true;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    if (!empty) {
        snprintf(err, errlen,
                 "--out %s: the directory exists and holds files (an earlier run?); mbsuite "
                 "never overwrites a run: give a new --out, or add --force to replace the "
                 "run's files in it",
                 dir);
        return -1;
    }
    return 0;
}

/* results/<UTC time>-<host>, with a numeric suffix if a run in the same second took it. */
static int driver_make_out_dir(const char *requested, char *dir, size_t len, char *err, size_t errlen)
{
    if (requested) {
        snprintf(dir, len, "%s", requested);
        return mb_mkdir_p(dir, err, errlen);
    }
    char host[256] = "host", stamp[32];
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
    if (mb_mkdir_p("results", err, errlen) != 0)
        return -1;
    for (int k = 0; k < 1000; k++) {
        if (k == 0)
            snprintf(dir, len, "results/%s-%s", stamp, host);
        else
            snprintf(dir, len, "results/%s-%s-%d", stamp, host, k);
        if (mkdir(dir, 0755) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
    return -1;
}

/* Collective: whether no host has more ranks than processors it may run them on (bench.h's
 * probe_points). Its ranks on the host, not on the node: pseudo-nodes (MB_PSEUDO_NODES) share
 * one host's processors, and 4 ranks as 2 pseudo-nodes on the 2-vCPU VM read the scheduler. */
static bool driver_probe_points(const mb_context_t *ctx)
{
    MPI_Comm host;
    int on_host = 0;
    MB_MPI_CHECK(MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host));
    MB_MPI_CHECK(MPI_Comm_size(host, &on_host));
    MB_MPI_CHECK(MPI_Comm_free(&host));
    int pus = hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(ctx->topology));
    int over = pus <= 0 || on_host > pus, any = 0;
    MB_MPI_CHECK(MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_LOR, ctx->comm));
    return !any;
}

/* The point-to-point pairs: world rank 0 with the next rank of its node (intra-node) and
 * with the first rank of node 1 (inter-node; pseudo-nodes count as nodes). */
static void driver_make_pairs(mb_context_t *ctx, const mb_node_layout_t *layout)
{
    int intra = ctx->rank == 0 || (layout->node == 0 && layout->local_rank == 1);
    int inter = ctx->rank == 0 || (layout->node == 1 && layout->local_rank == 0);
    MB_MPI_CHECK(MPI_Comm_split(ctx->comm, intra ? 0 : MPI_UNDEFINED, ctx->rank, &ctx->pair_intra));
    MB_MPI_CHECK(MPI_Comm_split(ctx->comm, inter ? 0 : MPI_UNDEFINED, ctx->rank, &ctx->pair_inter));
    int sizes[2] = {0, 0};
    if (ctx->pair_intra != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_size(ctx->pair_intra, &sizes[0]));
    if (ctx->pair_inter != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_size(ctx->pair_inter, &sizes[1]));
    MB_MPI_CHECK(MPI_Bcast(sizes, 2, MPI_INT, 0, ctx->comm));
    ctx->has_pair_intra = sizes[0] == 2;
    ctx->has_pair_inter = sizes[1] == 2;
}

static void driver_free_pairs(mb_context_t *ctx)
{
    if (ctx->pair_intra != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&ctx->pair_intra));
    if (ctx->pair_inter != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&ctx->pair_inter));
}

/* --time-budget: the time benchmark i of the plan may use (budget.h: its estimate against
 * those still to run, scaled by how the run has gone), the order its points keep in it
 * (mb_budget_coarse_first, else their own, thinned where late), and the working-set cap that
 * fits it; rank 0 decides for every rank. Its deadline then orders, thins and trims its
 * points (point_order.h, loop_rules.h). */
static void driver_budget_share(mb_context_t *ctx, const mb_budget_t *bg,
                                const mb_budget_estimate_t *est, size_t i, size_t nplan,
                                uint64_t span_cap, uint64_t *cap_bytes)
{
    mb_budget_estimate_t rest = {0, 0};
    for (size_t j = i + 1; j < nplan; j++) {
        rest.points_s += est[j].points_s;
        rest.touch_s += est[j].touch_s;
    }
    double now_s = mb_clock_elapsed_s();
    double span_fraction;
    double share_s = mb_budget_share_s(bg, now_s, est[i], rest, &span_fraction);
    /* A benchmark without working sets has nothing to cut. */
    uint64_t cap = est[i].touch_s > 0 ? mb_budget_span_cap(span_cap, span_fraction) : span_cap;
    double v[4] = {now_s + share_s, (double)cap,
                   mb_budget_coarse_first(bg, est[i], share_s) ? MB_BUDGET_ORDER_COARSE_FIRST
                                                               : MB_BUDGET_ORDER_THINNED,
                   mb_budget_slowness(bg).points};
    MB_MPI_CHECK(MPI_Bcast(v, 4, MPI_DOUBLE, 0, ctx->comm));
    ctx->budget_deadline_s = v[0];
    *cap_bytes = (uint64_t)v[1];
    ctx->budget_order = (mb_budget_order_t)v[2];
    ctx->budget_slowness = v[3];
}

/* A benchmark whose share is too short for its working sets measures smaller ones: its
 * points planned again under the lower cap (the memory curve loses its largest sizes,
 * which count as dropped). Returns how many points that dropped, or -1 on error. */
static long driver_replan_span(const mb_context_t *ctx, mb_plan_entry_t *p, uint64_t cap_bytes)
{
    mb_sysinfo_set_memory_span_cap(cap_bytes);
    char err[512] = "";
    int n = mb_measure_points(p->bench, ctx, p->points, DRIVER_MAX_POINTS, err, sizeof err);
    if (n <= 0) {
        driver_error(ctx->rank, "%s",
                     err[0] ? err : "no points under the budget's working-set cap");
        return -1;
    }
    long dropped = (long)p->npoints - n;
    p->npoints = (size_t)n;
    return dropped > 0 ? dropped : 0;
}

/* Rank 0: a benchmark measured on working sets cut by the budget says so in its record. */
static void driver_note_span_cut(json_t *result, uint64_t cap_bytes, long dropped)
{
    json_object_set_new(result, "memory_span_cap_bytes", json_integer((json_int_t)cap_bytes));
    json_int_t before = json_integer_value(json_object_get(result, "dropped_by_budget"));
    if (dropped > 0)
        json_object_set_new(result, "dropped_by_budget", json_integer(before + dropped));
    mb_progress_note("mbsuite: %s: the time budget cut its working sets to %llu MiB",
                     json_string_value(json_object_get(result, "name")),
                     (unsigned long long)(cap_bytes >> 20));
}

/* Every rank's clock offset to world rank 0 (clock_sync.h), for entry skews and common
 * start times; the largest offset and uncertainty go into results.json. */
static int driver_clock_sync(mb_context_t *ctx, mb_results_t *results)
{
    double uncertainty = 0;
    ctx->clock_offset_ns = mb_clock_sync_offset(ctx->timing->clock, ctx->comm, ctx->node_comm,
                                                &uncertainty);
    double mine[2] = {fabs(ctx->clock_offset_ns), uncertainty}, most[2] = {0, 0};
    MB_MPI_CHECK(MPI_Reduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, 0, ctx->comm));
    char err[512];
    bool ok = ctx->rank != 0 ||
              mb_sections_add_clock_sync(results, most[0], most[1], err, sizeof err) == 0;
    if (!ok)
        driver_error(ctx->rank, "%s", err);
    return mb_plan_root_ok(ctx->comm, ok) ? 0 : -1;
}

/* Rank 0, once results.json exists: raw.csv.gz.part started (NULL with the reason recorded
 * when raw samples are off), or -1 after an error. */
static int driver_raw_open(const mb_options_t *opts, const mb_config_t *cfg, const char *dir,
                           mb_results_t *results, mb_raw_t **raw)
{
    char err[512];
    *raw = NULL;
    const char *off = opts->no_raw                ? "--no-raw"
                      : !cfg->output_raw_samples ? "[output] raw_samples = no"
                                                 : NULL;
    if (off)
        return mb_results_stage_section(results, "raw", mb_raw_off_json(off), err, sizeof err);
    *raw = mb_raw_open(dir, err, sizeof err);
    if (!*raw || mb_results_stage_section(results, "raw", mb_raw_json(*raw), err, sizeof err) != 0) {
        driver_error(0, "%s", err);
        return -1;
    }
    return 0;
}

/* Rank 0: benchmark i of the plan begins on the progress line (progress.h), with the
 * budget's estimates of it and of those after it where a budget is set. */
static void driver_progress_begin(const mb_plan_entry_t *plan, size_t nplan, size_t i,
                                  const mb_budget_t *bg, const mb_budget_estimate_t *est,
                                  double deadline_s)
{
    mb_progress_bench_t pb = {.index = i,
                              .name = plan[i].bench->name,
                              .npoints = plan[i].npoints,
                              .own_s = -1,
                              .rest_s = -1};
    for (size_t j = i + 1; j < nplan; j++)
        pb.runs_after += !plan[j].skip_reason;
    if (bg->budget_s > 0) {
        pb.own_s = mb_budget_expected_s(bg, est[i]);
        if (deadline_s > 0)
            pb.own_s = fmin(pb.own_s, fmax(deadline_s - mb_clock_elapsed_s(), 0));
        pb.rest_s = 0;
        for (size_t j = i + 1; j < nplan; j++)
            if (!plan[j].skip_reason)
                pb.rest_s += mb_budget_expected_s(bg, est[j]);
        pb.budget_end_s = bg->began_s + bg->budget_s;
    }
    mb_progress_bench_begin(&pb);
}

/* Under a budget, a per-node phase's share of it (budget.h), rank 0's figure for every rank;
 * at least a millisecond, which leaves the phase its least; 0 without a budget. */
static double driver_phase_share_s(const mb_context_t *ctx, double budget_s, double began_s,
                                   double fraction)
{
    double share_s = 0;
    if (budget_s <= 0)
        return 0;
    if (ctx->rank == 0)
        share_s =
            fmax(mb_budget_phase_share_s(&(mb_budget_t){.budget_s = budget_s, .began_s = began_s},
                                         mb_clock_elapsed_s(), fraction),
                 1e-3);
    MB_MPI_CHECK(MPI_Bcast(&share_s, 1, MPI_DOUBLE, 0, ctx->comm));
    return share_s;
}

/* Whether the os phase (driver_node_runs) measured plan entry p in a fresh process. */
static bool driver_by_process(const mb_plan_entry_t *p, bool os_by_process)
{
    return os_by_process && !p->skip_reason && strcmp(p->bench->group, "os") == 0;
}

/* Each benchmark's wall_s is rank 0's, from before its time limit is shared out until its
 * record is complete; writing the files counts in the "benchmarks" phase only. The phase
 * laps at each benchmark, so a killed run's timings cover the benchmarks it finished. */
static int driver_run_plan(mb_context_t *ctx, mb_plan_entry_t *plan, size_t nplan,
                           const json_t *preflight, const json_t *node_runs,
                           const json_t *node_reply, bool os_by_process, mb_results_t *results,
                           mb_raw_t *raw, double budget_s, double began_s, mb_timings_t *timings,
                           double *mark_s)
{
    int failed = 0;
    mb_budget_t bg = {.budget_s = budget_s, .began_s = began_s};
    uint64_t span_cap = mb_sysinfo_memory_span_cap();
    mb_budget_estimate_t *est = calloc(nplan ? nplan : 1, sizeof *est);
    if (!est)
        mb_mpi_fail("calloc in driver_run_plan", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    for (size_t i = 0; i < nplan; i++)
        if (!plan[i].skip_reason && !driver_by_process(&plan[i], os_by_process))
            est[i] = mb_budget_estimate(ctx, plan[i].bench, plan[i].points, plan[i].npoints);
    if (ctx->rank == 0) {
        char why[256];
        mb_progress_mode_t mode = mb_progress_mode_detect(why, sizeof why);
        if (why[0])
            fprintf(stderr, "mbsuite: warning: %s\n", why);
        mb_progress_start(stderr, mode, nplan, began_s, NULL);
    }
    for (size_t i = 0; i < nplan; i++) {
        double bench_began_s = mb_clock_elapsed_s();
        uint64_t cap_bytes = span_cap;
        long span_dropped = 0;
        ctx->budget_deadline_s = 0;
        /* The os phase measured it already, within its own share (its time counts before
         * this loop): the rank records it, with no share of what is left. */
        bool by_process = driver_by_process(&plan[i], os_by_process);
        ctx->node_process = by_process ? node_reply : NULL;
        if (budget_s > 0 && !plan[i].skip_reason && !by_process) {
            driver_budget_share(ctx, &bg, est, i, nplan, span_cap, &cap_bytes);
            if (cap_bytes < span_cap) {
                double touch_s = est[i].touch_s;
                span_dropped = driver_replan_span(ctx, &plan[i], cap_bytes);
                if (span_dropped < 0) {
                    failed = 1;
                    break;
                }
                est[i] = mb_budget_estimate(ctx, plan[i].bench, plan[i].points, plan[i].npoints);
                if (est[i].touch_s >= touch_s)
                    cap_bytes = span_cap; /* its working sets are set otherwise (the config) */
            }
        }
        char progress[32];
        snprintf(progress, sizeof progress, "[%zu/%zu]", i + 1, nplan);
        json_t *result;
        if (plan[i].skip_reason) {
            if (ctx->rank == 0)
                mb_progress_bench_skipped(i, plan[i].bench->name, plan[i].skip_reason);
            result = ctx->rank == 0 ? mb_measure_skipped_json(plan[i].bench, plan[i].skip_reason) : NULL;
        } else {
            if (ctx->rank == 0)
                driver_progress_begin(plan, nplan, i, &bg, est, ctx->budget_deadline_s);
            result = mb_plan_measure(ctx, &plan[i], by_process, preflight, progress, raw, 0);
            mb_sysinfo_set_memory_span_cap(span_cap);
        }
        ctx->node_process = NULL;
        *mark_s = mb_timings_lap(timings, "benchmarks", *mark_s);
        if (!by_process)
            mb_budget_done(&bg, est[i],
                           ctx->budget_deadline_s > 0 ? ctx->budget_deadline_s - bench_began_s : 0,
                           *mark_s - bench_began_s);
        if (ctx->rank == 0) {
            if (cap_bytes < span_cap)
                driver_note_span_cut(result, cap_bytes, span_dropped);
            if (ctx->budget_deadline_s > 0)
                json_object_set_new(result, "budget_share_s",
                                    json_real(ctx->budget_deadline_s - bench_began_s));
            json_object_set_new(result, "wall_s", json_real(*mark_s - bench_began_s));
            if (!plan[i].skip_reason && strcmp(plan[i].bench->group, "os") == 0)
                mb_node_runs_attach(result, node_runs);
            if (mb_plan_commit_record(timings, results, raw, result, false) != 0)
                failed = 1;
            if (!plan[i].skip_reason)
                mb_progress_bench_end(*mark_s - bench_began_s);
        }
        if (!mb_plan_root_ok(ctx->comm, !failed)) {
            failed = 1;
            break;
        }
    }
    mb_progress_finish();
    free(est);
    return failed ? -1 : 0;
}

/* The os phase (node_runs.h): the os benchmarks of the plan, K times (--runs K, default 1)
 * in a fresh non-MPI process on every node, on the node's allowed CPUs while its other
 * ranks sleep, before the parallel suite; the rank then records the first run's
 * measurements (mb_measure_bench with ctx->node_process) rather than measuring in an MPI
 * process (helper threads, a large address space to fork, a binding to one core). On rank
 * 0 the replies, one entry per node (mb_node_runs_phase); NULL elsewhere. *own: this
 * node's entry on its first rank. *ran: whether the phase ran (the same on every rank). */
static json_t *driver_node_runs(const mb_context_t *ctx, const mb_node_layout_t *layout,
                                const char *config_text, const mb_plan_entry_t *plan, size_t nplan,
                                int k, double share_s, json_t **own, bool *ran)
{
    *own = NULL;
    mb_node_runs_bench_t *benches = calloc(nplan ? nplan : 1, sizeof *benches);
    size_t n = 0;
    if (!benches)
        mb_mpi_fail("calloc in driver_node_runs", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    for (size_t i = 0; i < nplan; i++)
        if (!plan[i].skip_reason && strcmp(plan[i].bench->group, "os") == 0)
            benches[n++] = (mb_node_runs_bench_t){.bench = plan[i].bench,
                                                  .points = plan[i].points,
                                                  .npoints = plan[i].npoints};
    json_t *per_node =
        n ? mb_node_runs_phase(ctx, layout->host, config_text, benches, n, k, share_s, own) : NULL;
    *ran = n > 0;
    free(benches);
    return per_node;
}

/* results.json's system.os_phase: how the os benchmarks ran (driver_node_runs), or NULL
 * when none of the plan's does. New reference. */
static json_t *driver_os_phase_json(hwloc_topology_t topo, const mb_config_t *cfg,
                                    const mb_plan_entry_t *plan, size_t nplan, int runs)
{
    bool any = false;
    for (size_t i = 0; i < nplan; i++)
        any = any || driver_by_process(&plan[i], true);
    if (!any)
        return NULL;
    char *cpus = NULL;
    hwloc_bitmap_list_asprintf(&cpus, hwloc_topology_get_allowed_cpuset(topo));
    json_t *j = json_pack(
        "{s:s, s:i, s:s, s:s?, s:s, s:f, s:I, s:s}", "process",
        "one fresh non-MPI process per node (this executable again, started by the node's "
        "first rank), all nodes at once, before the parallel suite; the records are its first "
        "run's",
        "runs", runs, "affinity",
        "the node's allowed CPUs (hwloc), not the rank's core; os.ctx's pinned case pins its "
        "ring to one CPU itself",
        "cpus", cpus, "other_ranks", "asleep (a barrier tested between naps of up to 10 ms)",
        "enough_min_ns", (double)cfg->os_enough_min, "experiments_per_point",
        (json_int_t)cfg->os_experiments, "experiments",
        "experiments_per_point per point ([os] experiments), the median reported, each lasting "
        "at least the longer of timing.enough_ns and enough_min_ns ([os] enough_min), as "
        "lmbench 3's benchmp by default (11 of at least 5 ms)");
    free(cpus);
    return j;
}

int mb_driver_run(const mb_options_t *opts, hwloc_topology_t topo, bool self_bound, int argc,
                  char **argv, mb_timings_t *timings, char *out_dir, size_t out_dir_len)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, size, status = 2;
    double began_s = mb_clock_elapsed_s(), mark_s = began_s;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));

    char config_path[PATH_MAX + 32];
    if (opts->config_path)
        snprintf(config_path, sizeof config_path, "%s", opts->config_path);
    else
        driver_default_config(config_path, sizeof config_path);

    mb_config_t *cfg = malloc(sizeof *cfg);
    bool *selected = calloc(mb_registry_count(), sizeof *selected);
    mb_plan_entry_t *plan = calloc(mb_registry_count(), sizeof *plan);
    size_t nplan = 0;
    mb_results_t *results = NULL;
    mb_raw_t *raw = NULL;
    mb_node_layout_t layout = {.node_comm = MPI_COMM_NULL, .leaders = MPI_COMM_NULL};
    json_t *preflight = NULL, *calibration = NULL, *node_runs = NULL, *node_own = NULL,
           *node_reply = NULL;
    char *config_text = NULL;
    mb_context_t ctx = {.pair_intra = MPI_COMM_NULL, .pair_inter = MPI_COMM_NULL};
    char err[1024] = "";
    if (!cfg || !selected || !plan)
        mb_mpi_fail("malloc", MPI_ERR_NO_MEM, __FILE__, __LINE__);

    if (driver_load_config(comm, rank, config_path, cfg, &config_text) != 0)
        goto done;
    if (mb_node_layout_create(comm, &layout) != 0) {
        driver_error(rank, "MB_PSEUDO_NODES=\"%s\" is not a whole number >= 1", getenv("MB_PSEUDO_NODES"));
        goto done;
    }
    bool preflight_named = false;
    if (mb_registry_select(opts->only, selected, &preflight_named, err, sizeof err) != 0) {
        driver_error(rank, "%s", err);
        goto done;
    }
    bool out_ok = rank != 0 || driver_check_out_dir(opts->out_dir, opts->force, err, sizeof err) == 0;
    if (!out_ok)
        driver_error(rank, "%s", err);
    if (!mb_plan_root_ok(comm, out_ok))
        goto done;
    mb_sysinfo_set_memory_span_cap(cfg->shm_memory_max);
    mb_timing_t timing = {.clock = mb_clock_get((mb_clock_id_t)cfg->timing_clock)};
    ctx = (mb_context_t){.config = cfg, .timing = &timing, .topology = topo,
                         .llc_bytes = mb_sysinfo_llc_bytes(topo), .comm = comm,
                         .rank = rank, .size = size, .node_comm = layout.node_comm,
                         .leaders = layout.leaders,
                         .node = layout.node, .node_rank = layout.local_rank,
                         .node_size = layout.local_size, .pair_intra = MPI_COMM_NULL,
                         .pair_inter = MPI_COMM_NULL};
    driver_make_pairs(&ctx, &layout);
    ctx.probe_points = driver_probe_points(&ctx);
    if (driver_plan(&ctx, selected, plan, &nplan) != 0)
        goto done;
    mark_s = mb_timings_lap(timings, "setup", mark_s);

    status = 1;
    /* Every node calibrates its own clock, all nodes at once (its first rank; the others
     * sleep through it instead of spinning in MPI_Bcast). */
    if (rank == 0)
        fprintf(stderr, "mbsuite: calibrating the timing harness (%s)\n", timing.clock->name);
    if (layout.local_rank == 0)
        mb_timing_calibrate(&timing, timing.clock, cfg->timing_enough, cfg->timing_enough_max,
                            cfg->timing_enough_fallback);
    mb_mpi_wait_quietly(layout.node_comm);
    driver_broadcast_timing(layout.node_comm, layout.local_rank, &timing);
    calibration = driver_calibration_json(&layout, &timing);
    if (rank == 0)
        fprintf(stderr,
                "mbsuite: clock resolution %.1f ns, overhead %.1f ns, enough %.3g ms (%s), "
                "loop overhead %.2f ns (node 0)\n",
                timing.resolution_ns, timing.overhead_ns, timing.enough_ns / 1e6,
                timing.enough_source, timing.loop_overhead_ns);
    mark_s = mb_timings_lap(timings, "calibration", mark_s);

    char dir[PATH_MAX];
    bool ok = rank != 0 || driver_make_out_dir(opts->out_dir, dir, sizeof dir, err, sizeof err) == 0;
    if (!ok)
        driver_error(rank, "%s", err);
    if (!mb_plan_root_ok(comm, ok))
        goto done;

    json_t *system = mb_provenance_gather(comm, &layout, topo, &timing, self_bound, argc, argv);
    if (rank == 0) {
        json_t *config_json = mb_config_to_json(cfg);
        json_object_set_new(system, "config_file", json_string(config_path));
        json_t *os_phase = driver_os_phase_json(topo, cfg, plan, nplan, opts->runs);
        if (os_phase)
            json_object_set_new(system, "os_phase", os_phase);
        /* "clock" is node 0's; each node sized its experiments on its own. */
        json_object_set_new(system, "clock_per_node", calibration);
        calibration = NULL;
        results = mb_results_open(dir, system, config_json, err, sizeof err);
        json_decref(config_json);
        json_decref(system);
        if (!results)
            driver_error(rank, "%s", err);
    }
    ok = results && driver_raw_open(opts, cfg, dir, results, &raw) == 0;
    if (!mb_plan_root_ok(comm, rank != 0 || ok))
        goto done;
    mark_s = mb_timings_lap(timings, "setup", mark_s);
    mb_plan_record_timings(timings, results, true);

    /* --time-budget (none: no budget), else the configuration's [run] time_budget. */
    double budget_s = opts->time_budget_s > 0   ? opts->time_budget_s
                      : opts->time_budget_s < 0 ? 0
                                                : (double)cfg->run_time_budget / 1e9;
    /* --only naming node.mhz or node.perturb asks for the pre-flight whatever [preflight]
     * enabled says; an --only that names neither leaves it to the configuration, as the
     * pre-flight is the context of every benchmark (each result carries its node's noise). */
    if (cfg->preflight_enabled || preflight_named) {
        preflight = mb_preflight_run(
            &ctx, &layout,
            driver_phase_share_s(&ctx, budget_s, began_s, MB_BUDGET_PREFLIGHT_SHARE));
        ok = rank != 0 || mb_sections_add_preflight(results, cfg, preflight, err, sizeof err) == 0;
        if (!ok)
            driver_error(rank, "%s", err);
    }
    /* Recorded when disabled too (0 s), so that every run lists the same phases; and before
     * an abort for a noisy node, which the record then explains. */
    mark_s = mb_timings_lap(timings, "preflight", mark_s);
    mb_plan_record_timings(timings, results, true);
    if (!mb_plan_root_ok(comm, ok))
        goto done;
    if (driver_clock_sync(&ctx, results) != 0)
        goto done;
    mark_s = mb_timings_lap(timings, "clock_sync", mark_s);
    mb_plan_record_timings(timings, results, true);
    bool os_by_process = false;
    /* A run's share each: --runs K asks for K times the phase, as it did before budgets
     * covered it (a default run with --runs 5 is not cut), within what is left. */
    double os_share_s =
        driver_phase_share_s(&ctx, budget_s, began_s, MB_BUDGET_OS_SHARE * opts->runs);
    node_runs = driver_node_runs(&ctx, &layout, config_text, plan, nplan, opts->runs, os_share_s,
                                 &node_own, &os_by_process);
    if (os_by_process)
        mark_s = mb_timings_lap(timings, "node_runs", mark_s);
    if (node_own) {
        /* The records are the first run's; a node whose runs all failed fails its points. */
        node_reply = json_incref(json_array_get(json_object_get(node_own, "replies"), 0));
        if (!node_reply)
            node_reply = json_pack("{s:O?}", "error",
                                   json_array_get(json_object_get(node_own, "errors"), 0));
    }
    if (opts->runs < 2) { /* one run: its figures are the records' own, no mean over runs */
        json_decref(node_runs);
        node_runs = NULL;
    }
    if (driver_run_plan(&ctx, plan, nplan, preflight, node_runs, node_reply, os_by_process,
                        results, raw, budget_s, began_s, timings, &mark_s) != 0)
        goto done;
    if (mb_remeasure_run(&ctx, plan, nplan, preflight, results, raw, budget_s, began_s, timings) !=
        0)
        goto done;
    if (results && budget_s > 0 &&
        mb_sections_add_budget(results, budget_s, began_s, os_by_process ? os_share_s : 0, err,
                               sizeof err) != 0) {
        driver_error(rank, "%s", err);
        goto done;
    }
    if (results && mb_sections_add_drift(results, mb_drift_probe_method, mb_drift_probe_pair(&ctx),
                                         err, sizeof err) != 0) {
        driver_error(rank, "%s", err);
        goto done;
    }
    mark_s = mb_timings_lap(timings, "benchmarks", mark_s);
    if (results && mb_sections_add_fits(results, dir, err, sizeof err) != 0) {
        driver_error(rank, "%s", err);
        goto done;
    }
    mb_timings_lap(timings, "fits", mark_s);
    status = 0;

done:
    if (results) {
        /* Written by the close below; main adds the plots once they are drawn. */
        mb_plan_record_timings(timings, results, false);
        /* raw.csv.gz appears whole, before the results.json that says it is complete. */
        json_t *raw_section = NULL;
        if (raw && mb_raw_close(raw, &raw_section, err, sizeof err) != 0) {
            fprintf(stderr, "mbsuite: error: %s\n", err);
            status = status == 0 ? 1 : status;
        }
        if (raw_section)
            mb_results_stage_section(results, "raw", raw_section, err, sizeof err);
        size_t failed_points = mb_results_failed_points(results);
        char why[1200];
        snprintf(why, sizeof why, "the run stopped on an error: %s",
                 err[0] ? err : "see its standard error");
        if (mb_results_close(results, status == 0, why, err, sizeof err) != 0) {
            fprintf(stderr, "mbsuite: error: %s\n", err);
            status = 1;
        } else {
            printf("mbsuite: results: %s/results.json\nmbsuite: report:  %s/report.txt\n", dir, dir);
            printf("mbsuite: html:    %s/report.html\n", dir);
            snprintf(out_dir, out_dir_len, "%s", dir);
        }
        /* A failed point is data, and the run went on; its exit status still says so. */
        if (failed_points > 0) {
            fprintf(stderr, "mbsuite: %zu point%s failed: listed in the report\n", failed_points,
                    failed_points == 1 ? "" : "s");
            status = 1;
        }
    }
    MB_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, comm));
    driver_free_pairs(&ctx);
    mb_node_layout_free(&layout);
    json_decref(preflight);
    json_decref(calibration);
    json_decref(node_runs);
    json_decref(node_own);
    json_decref(node_reply);
    free(config_text);
    for (size_t i = 0; i < nplan; i++)
        free(plan[i].points);
    free(plan);
    free(selected);
    free(cfg);
    return status;
}
