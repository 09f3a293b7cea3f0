/* SPDX-License-Identifier: MIT */
#include "node_runs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwloc.h>

#include "config.h"
#include "measure.h"
#include "mpi_util.h"
#include "point_cost.h"
#include "progress.h"
#include "registry.h"
#include "sysinfo.h"
#include "workset.h"

extern char **environ;

/* The child's request: everything it measures with, so that each run measures the same
 * points under the same calibration as the rank's own measurement. */
static json_t *node_runs_request(const mb_context_t *ctx, const char *config_text,
                                 const mb_node_runs_bench_t *benches, size_t n)
{
    const mb_timing_t *t = ctx->timing;
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *pts = json_array();
        for (size_t j = 0; j < benches[i].npoints; j++) {
            json_t *v = json_array();
            for (size_t d = 0; d < MB_MAX_DIMS; d++)
                json_array_append_new(v, json_integer(benches[i].points[j].v[d]));
            json_array_append_new(pts, v);
        }
        json_array_append_new(list, json_pack("{s:s, s:o}", "name", benches[i].bench->name,
                                              "points", pts));
    }
    return json_pack("{s:s, s:I, s:{s:f, s:f, s:f, s:f, s:f}, s:o}", "config", config_text,
                     "memory_span_cap_bytes", (json_int_t)mb_sysinfo_memory_span_cap(), "timing",
                     "nominal_resolution_ns", t->nominal_resolution_ns, "resolution_ns",
                     t->resolution_ns, "overhead_ns", t->overhead_ns, "enough_ns", t->enough_ns,
                     "loop_overhead_ns", t->loop_overhead_ns, "benchmarks", list);
}

/* The request in an anonymous file as the child's standard input (no pipe to fill, no
 * SIGPIPE when the child dies early); its standard output a pipe read to the end. The
 * child starts with default signal dispositions and an empty mask (this rank blocks
 * SIGTERM and others for its signal thread). Returns 0 with *reply, or -1 with err. */
static int node_runs_spawn(const json_t *request, json_t **reply, char *err, size_t errlen)
{
    int in = memfd_create("mbsuite-node-runs", MFD_CLOEXEC), out[2] = {-1, -1}, rc = -1;
    char *text = NULL;
    size_t len = 0, room = 0;
    *reply = NULL;
    if (in < 0 || json_dumpfd(request, in, JSON_COMPACT) != 0 || lseek(in, 0, SEEK_SET) != 0 ||
        pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "the request to the child: %s", strerror(errno));
        goto done;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {"/proc/self/exe", MB_NODE_RUNS_CHILD_ARG, NULL};
    pid_t pid;
    int sp = posix_spawn(&pid, "/proc/self/exe", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(out[1]);
    out[1] = -1;
    if (sp != 0) {
        snprintf(err, errlen, "posix_spawn of /proc/self/exe: %s", strerror(sp));
        goto done;
    }
    for (;;) {
        if (len + 4096 > room) {
            char *grown = realloc(text, room = 2 * room + 65536);
            if (!grown)
                break;
            text = grown;
        }
        ssize_t got = read(out[0], text + len, room - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFSIGNALED(status))
            snprintf(err, errlen, "the child was killed by signal %d", WTERMSIG(status));
        else
            snprintf(err, errlen, "the child exited with status %d (see its standard error)",
                     WEXITSTATUS(status));
        goto done;
    }
    json_error_t jerr;
    *reply = text ? json_loadb(text, len, 0, &jerr) : NULL;
    if (!json_is_object(*reply)) {
        snprintf(err, errlen, "the child's reply is not JSON: %s", text ? jerr.text : "empty");
        json_decref(*reply);
        *reply = NULL;
        goto done;
    }
    rc = 0;
done:
    free(text);
    if (in >= 0)
        close(in);
    if (out[0] >= 0)
        close(out[0]);
    if (out[1] >= 0)
        close(out[1]);
    return rc;
}

json_t *mb_node_runs_phase(const mb_context_t *ctx, const char *host, const char *config_text,
                           const mb_node_runs_bench_t *benches, size_t n, int k, double share_s,
                           json_t **own)
{
    *own = NULL;
    json_t *mine = NULL;
    if (ctx->node_rank == 0) {
        json_t *request = node_runs_request(ctx, config_text, benches, n);
        json_t *replies = json_array(), *errors = json_array();
        double deadline_s = mb_clock_elapsed_s() + share_s; /* on this node's clock */
        for (int r = 0; r < k; r++) {
            /* Each run the same part of what is left, at least the least a point takes. */
            if (share_s > 0)
                json_object_set_new(
                    request, "share_s",
                    json_real(fmax((deadline_s - mb_clock_elapsed_s()) / (k - r), 1e-3)));
            if (ctx->rank == 0 && k > 1)
                mb_progress_note("mbsuite: --runs %d: the os phase (%zu benchmarks) in a "
                                 "fresh process per node, run %d of %d",
                                 k, n, r + 1, k);
            else if (ctx->rank == 0)
                mb_progress_note("mbsuite: the os phase (%zu benchmarks) in a fresh process "
                                 "per node",
                                 n);
            json_t *reply;
            char err[512];
            if (node_runs_spawn(request, &reply, err, sizeof err) == 0) {
                json_array_append_new(replies, reply);
            } else {
                json_array_append_new(errors, json_sprintf("run %d: %s", r + 1, err));
                mb_progress_note("mbsuite: warning: the os phase on node %d (%s), run %d: %s",
                                 ctx->node, host, r + 1, err);
            }
        }
        json_decref(request);
        mine = json_pack("{s:i, s:s, s:o, s:o}", "node", ctx->node, "host", host, "replies",
                         replies, "errors", errors);
        *own = json_incref(mine);
    }
    mb_mpi_wait_quietly(ctx->node_comm);
    json_t *all = ctx->leaders != MPI_COMM_NULL ? mb_mpi_gather_json(ctx->leaders, mine) : NULL;
    json_decref(mine);
    mb_mpi_wait_quietly(ctx->comm);
    return ctx->rank == 0 ? all : (json_decref(all), NULL);
}

/* ----------------------------------------------------------------- the child */

/* The hung-point guard of the child, as the rank's watchdog (watchdog.h) is of a point it
 * measures: a point still running after twice [run] point_timeout (the loop's own timeout
 * is checked between experiments only) ends the child with status 3 and says which, so the
 * rank goes on and its os points fail with the reason instead of the job hanging. */
static char node_runs_hung_msg[640];
static size_t node_runs_hung_len;

static void node_runs_on_alarm(int sig)
{
    (void)sig;
    if (write(STDERR_FILENO, node_runs_hung_msg, node_runs_hung_len) < 0)
        _exit(3);
    _exit(3);
}

static void node_runs_guard(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    double limit_s = 2 * mb_measure_opts_of(ctx->config).timeout_ns / 1e9;
    if (limit_s <= 0)
        return;
    char label[256];
    mb_measure_params_text(b, pt, label, sizeof label);
    int len = snprintf(node_runs_hung_msg, sizeof node_runs_hung_msg,
                       "mbsuite: node run: %s%s%s hung: still running after %.0f s\n", b->name,
                       label[0] ? " " : "", label, limit_s);
    node_runs_hung_len = len < 0 ? 0 : strlen(node_runs_hung_msg);
    signal(SIGALRM, node_runs_on_alarm);
    alarm((unsigned)limit_s + 1);
}

/* The points of a request's benchmark entry (*n of them; NULL when out of memory). */
static mb_point_t *node_runs_points(const json_t *entry, size_t *n)
{
    const json_t *jpts = json_object_get(entry, "points");
    *n = json_array_size(jpts);
    mb_point_t *pts = calloc(*n ? *n : 1, sizeof *pts);
    for (size_t i = 0; pts && i < *n; i++)
        for (size_t d = 0; d < MB_MAX_DIMS; d++)
            pts[i].v[d] = json_integer_value(json_array_get(json_array_get(jpts, i), d));
    return pts;
}

/* The child's pace under its share of a time budget (the request's "share_s"): before each
 * point, the time left less the other points' time outside their repetitions (set-up,
 * warm-up, sizing: learnt from the points done, a warm-up each before any) is set against
 * the repetitions still to come in full; where it falls short, every point's repetitions
 * get that fraction of theirs (mb_measure_opts_t.time_limit_ns, at least
 * MB_LOOP_BUDGET_FLOOR experiments: trimmed), so that the figures are cut alike and a point
 * that ran long leaves the later ones less. */
typedef struct node_runs_pace {
    double deadline_s;  /* mb_clock_elapsed_s(); 0: no share */
    double reps_left_s; /* the repetitions of the points still to come, in full */
    size_t points_left, points_done;
    double outside_s; /* the points done: their time outside their repetitions, summed */
    double outside_guess_s;
} node_runs_pace_t;

/* A point's repetitions in full, in seconds: [os] experiments of its expected length. */
static double node_runs_reps_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    mb_measure_opts_t opts = mb_measure_opts_of(ctx->config);
    return (double)mb_loop_max_experiments(&opts) * mb_point_experiment_ns(ctx, b, pt) / 1e9;
}

static double node_runs_pace_limit_ns(const node_runs_pace_t *p, double reps_s)
{
    if (p->deadline_s <= 0)
        return 0;
    double outside_s = p->points_done ? p->outside_s / (double)p->points_done : p->outside_guess_s;
    double room_s = p->deadline_s - mb_clock_elapsed_s() - outside_s * (double)p->points_left;
    double fraction = p->reps_left_s > 0 ? room_s / p->reps_left_s : 1;
    return fraction >= 1 ? 0 : fraction > 0 ? fraction * reps_s * 1e9 : 1;
}

/* Point done: wall_s in all, n experiments of experiment_ns kept. */
static void node_runs_pace_done(node_runs_pace_t *p, double reps_s, double wall_s, size_t n,
                                double experiment_ns)
{
    if (p->deadline_s <= 0 || p->points_left == 0)
        return;
    p->reps_left_s -= reps_s;
    p->points_left--;
    p->points_done++;
    p->outside_s += fmax(wall_s - (double)n * experiment_ns / 1e9, 0);
}

/* One benchmark of the request measured: {"name", "medians": [ns or null], "reasons":
 * [null or why the point failed], "derived": {...} or null}. */
static json_t *node_runs_measure(const mb_context_t *ctx, const json_t *entry,
                                 node_runs_pace_t *pace)
{
    const char *name = json_string_value(json_object_get(entry, "name"));
    const mb_bench_t *b = name ? mb_registry_find(name) : NULL;
    size_t n;
    if (!b)
        return NULL;
    mb_point_t *pts = node_runs_points(entry, &n);
    mb_measurement_t *ms = calloc(n ? n : 1, sizeof *ms);
    if (!pts || !ms) {
        free(pts);
        free(ms);
        return NULL;
    }
    json_t *medians = json_array(), *reasons = json_array(), *measurements = json_array();
    for (size_t i = 0; i < n; i++) {
        char reason[512] = "";
        double reps_s = node_runs_reps_s(ctx, b, &pts[i]), began_s = mb_clock_elapsed_s();
        node_runs_guard(ctx, b, &pts[i]);
        int rc = mb_measure_point_alone(b, ctx, &pts[i], node_runs_pace_limit_ns(pace, reps_s),
                                        &ms[i], reason, sizeof reason);
        alarm(0);
        node_runs_pace_done(pace, reps_s, mb_clock_elapsed_s() - began_s, rc == 0 ? ms[i].n : 0,
                            mb_point_experiment_ns(ctx, b, &pts[i]));
        if (rc == 0) {
            json_array_append_new(medians, json_real(ms[i].stats.median));
            json_array_append_new(reasons, json_null());
            json_array_append_new(measurements, mb_measure_to_json(&ms[i]));
        } else {
            ms[i] = (mb_measurement_t){0}; /* n == 0: a failed point for derive */
            json_array_append_new(medians, json_null());
            json_array_append_new(reasons, json_string(reason));
            json_array_append_new(measurements, json_null());
        }
    }
    mb_workset_release(); /* what the benchmark's points kept (workset.h) */
    json_t *derived = b->derive ? b->derive(pts, ms, n) : NULL;
    for (size_t i = 0; i < n; i++)
        mb_measurement_free(&ms[i]);
    free(ms);
    free(pts);
    return json_pack("{s:s, s:o, s:o, s:o, s:o}", "name", name, "medians", medians, "reasons",
                     reasons, "measurements", measurements, "derived",
                     derived ? derived : json_null());
}

int mb_node_runs_child_main(void)
{
    /* The job ends this child with its rank; and nothing but the reply goes to the pipe
     * (a benchmark's helper that printed would corrupt it). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* A forked peer or mbsuite-lat-proc that dies fails its point (EPIPE), not the phase. */
    signal(SIGPIPE, SIG_IGN);
    /* A fresh process as lmbench's are, with standard input, output and error only: not the
     * rank's MPI sockets and open files that lack close-on-exec (seen: three sockets and
     * raw.csv.gz.part), which every fork() of os.fork and the forked peers would copy. */
    close_range(3, ~0U, 0);
    int reply_fd = dup(STDOUT_FILENO), devnull = open("/dev/null", O_WRONLY);
    if (reply_fd < 0 || devnull < 0 || dup2(devnull, STDOUT_FILENO) < 0) {
        fprintf(stderr, "mbsuite: node run: cannot set up its output: %s\n", strerror(errno));
        return 1;
    }
    close(devnull);
    json_error_t jerr;
    json_t *req = json_loadfd(STDIN_FILENO, 0, &jerr);
    const char *config_text = json_string_value(json_object_get(req, "config"));
    const json_t *jt = json_object_get(req, "timing");
    mb_config_t cfg;
    char err[1024] = "";
    mb_config_defaults(&cfg);
    if (!config_text || !json_is_object(jt)) {
        fprintf(stderr, "mbsuite: node run: a bad request on standard input (%s)\n",
                req ? "fields missing" : jerr.text);
        json_decref(req);
        return 1;
    }
    if (mb_config_parse_string(&cfg, config_text, "the run's configuration", err, sizeof err) != 0) {
        fprintf(stderr, "mbsuite: node run: %s\n", err);
        json_decref(req);
        return 1;
    }
    /* No hwloc plugins (I/O devices, GL, OpenCL, XML through libxml2): the process needs
     * only the CPUs and caches, and the plugins' libraries (libxml2, libicu, libX11,
     * libstdc++, ...) doubled its mappings (202 against 99), which every fork() of os.fork
     * copies and tears down (its fork took 204-214 us with them, 142-154 us without). */
    setenv("HWLOC_PLUGINS_PATH", "", 1);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        fprintf(stderr, "mbsuite: node run: hwloc cannot read this machine's topology\n");
        json_decref(req);
        return 1;
    }
    /* The node's rank is bound to one core and so was this child; it measures as lmbench's
     * unbound processes do, on every CPU the node allows (os.ctx's pinned case pins itself),
     * so that a forked peer (os.lat_pipe, os.bw_tcp, ...) may run on another CPU. */
    char *cpus = NULL;
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
    if (hwloc_set_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
        fprintf(stderr, "mbsuite: node run: warning: cannot let it run on every allowed CPU: %s\n",
                strerror(errno));
    hwloc_cpuset_t bound = hwloc_bitmap_alloc();
    if (bound && hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) == 0)
        hwloc_bitmap_list_asprintf(&cpus, bound);
    hwloc_bitmap_free(bound);
    mb_sysinfo_set_memory_span_cap(
        (uint64_t)json_integer_value(json_object_get(req, "memory_span_cap_bytes")));
    /* As lmbench 3's benchmp: [os] experiments (11) of at least [os] enough_min (5 ms, its
     * shortest interval) each, the median. With the rank's enough (20 us) the experiments
     * missed the interrupts and preemption a 5 ms interval takes in, and on a VM every
     * figure, lat_ops' too, read 5-10% under lmbench's (os/README.md); a fixed count keeps
     * the phase to seconds where the CI target would take 51 experiments on a noisy node. */
    cfg.run_min_experiments = cfg.run_max_experiments = cfg.os_experiments;
    double enough_ns = json_real_value(json_object_get(jt, "enough_ns"));
    bool floored = (double)cfg.os_enough_min > enough_ns;
    mb_timing_t timing = {
        .clock = mb_clock_get((mb_clock_id_t)cfg.timing_clock),
        .nominal_resolution_ns = json_real_value(json_object_get(jt, "nominal_resolution_ns")),
        .resolution_ns = json_real_value(json_object_get(jt, "resolution_ns")),
        .overhead_ns = json_real_value(json_object_get(jt, "overhead_ns")),
        .enough_ns = floored ? (double)cfg.os_enough_min : enough_ns,
        .loop_overhead_ns = json_real_value(json_object_get(jt, "loop_overhead_ns")),
        .enough_source = floored ? "[os] enough_min" : "the rank's calibration",
    };
    mb_context_t ctx = {.config = &cfg, .timing = &timing, .topology = topo,
                        .llc_bytes = mb_sysinfo_llc_bytes(topo), .comm = MPI_COMM_NULL,
                        .size = 1, .node_comm = MPI_COMM_NULL, .leaders = MPI_COMM_NULL,
                        .node_size = 1, .pair_intra = MPI_COMM_NULL,
                        .pair_inter = MPI_COMM_NULL, .measure_comm = MPI_COMM_NULL};
    json_t *out = json_array();
    size_t i;
    const json_t *entry;
    int status = 0;
    double share_s = json_number_value(json_object_get(req, "share_s"));
    node_runs_pace_t pace = {.outside_guess_s = mb_measure_warmup_ns(&cfg, 1) / 1e9};
    if (share_s > 0) {
        pace.deadline_s = mb_clock_elapsed_s() + share_s;
        json_array_foreach(json_object_get(req, "benchmarks"), i, entry)
        {
            const char *name = json_string_value(json_object_get(entry, "name"));
            const mb_bench_t *b = name ? mb_registry_find(name) : NULL;
            size_t n;
            mb_point_t *pts = b ? node_runs_points(entry, &n) : NULL;
            for (size_t j = 0; pts && j < n; j++)
                pace.reps_left_s += node_runs_reps_s(&ctx, b, &pts[j]);
            pace.points_left += pts ? n : 0;
            free(pts);
        }
    }
    json_array_foreach(json_object_get(req, "benchmarks"), i, entry)
    {
        json_t *one = node_runs_measure(&ctx, entry, &pace);
        if (!one) {
            fprintf(stderr, "mbsuite: node run: no benchmark %s\n",
                    json_string_value(json_object_get(entry, "name")));
            status = 1;
            break;
        }
        json_array_append_new(out, one);
    }
    json_t *reply =
        json_pack("{s:o, s:s?, s:i}", "benchmarks", out, "cpus", cpus, "pid", (int)getpid());
    free(cpus);
    if (status == 0 && json_dumpfd(reply, reply_fd, JSON_COMPACT) != 0)
        status = 1;
    json_decref(reply);
    json_decref(req);
    hwloc_topology_destroy(topo);
    close(reply_fd);
    return status;
}
