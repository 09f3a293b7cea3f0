/* SPDX-License-Identifier: MIT */
/* os.ctx: context switch time by lmbench 3's lat_ctx method (seed 003 Table 3; seed 004
 * III.A.7's pipe method). `procs` processes form a ring of pipes, the rank process being
 * one of them; each, on getting the token, sums its own private working set of size_bytes
 * and writes the token to the next. One iteration is one trip of the token round the ring,
 * `procs` hops; the figure per hop includes the pipe read and write and the summing, which
 * lmbench measures apart as the overhead: one process passing the token through a pipe to
 * itself and summing the same working set (procs = 1 here). The context switch time is the
 * ring's time per hop less that overhead (derived ctx_*_ns, mb_os_ctx_derive). pinned: all
 * the ring's processes on the core the rank runs on (the switch itself, as lmbench on one
 * CPU); unpinned: the ring may use every CPU of the node (hops may then cross cores,
 * lmbench's default on an SMP). Children never return into MPI: they loop until killed. */
#include "ctx.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "os_util.h"

#define CTX_MAX_PROCS 16

static const char *const ctx_binding_labels[] = {"pinned", "unpinned", NULL};
static const mb_dim_t ctx_dims[] = {
    {.name = "procs", .role = MB_ROLE_COUNT},
    {.name = "size_bytes", .role = MB_ROLE_WORKING_SET},
    {.name = "binding", .labels = ctx_binding_labels},
};

typedef struct ctx_state {
    const mb_context_t *ctx;
    int procs;
    int pipes[CTX_MAX_PROCS][2]; /* member i reads pipes[i], writes pipes[(i+1) % procs] */
    pid_t pids[CTX_MAX_PROCS];
    int *data;
    size_t nints;
    cpu_set_t saved;
    bool restore;
    int member; /* in a child: its place in the ring */
} ctx_state_t;

static int ctx_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                      size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    static const int64_t procs[] = {1, 2, 8, 16};
    static const int64_t sizes[] = {0, 16 << 10, 64 << 10};
    size_t n = 0;
    for (int64_t b = OS_CTX_PINNED; b <= OS_CTX_UNPINNED; b++)
        for (size_t s = 0; s < MB_COUNT(sizes); s++)
            for (size_t p = 0; p < MB_COUNT(procs) && n < max; p++)
                pts[n++] = (mb_point_t){.v = {procs[p], sizes[s], b}};
    return (int)n;
}

/* lmbench's sumit: read every int of the working set. */
static void ctx_sum(const ctx_state_t *s)
{
    int sum = 0;
    for (size_t i = 0; i < s->nints; i++)
        sum += s->data[i];
    mb_use_int((uint64_t)sum);
}

static void ctx_child(void *arg)
{
    ctx_state_t *s = arg;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int in = s->pipes[s->member][0], out = s->pipes[(s->member + 1) % s->procs][1];
    int token;
    /* A working set of its own, written: the parent's, inherited copy-on-write and only
     * read, would stay one set of physical pages shared by the whole ring (lmbench's
     * members each malloc and bzero theirs). */
    int *own = malloc((s->nints ? s->nints : 1) * sizeof(int));
    if (!own)
        _exit(1);
    memcpy(own, s->data, s->nints * sizeof(int));
    s->data = own;
    for (;;) {
        if (mb_os_read_full(in, &token, sizeof token) != 0)
            _exit(1);
        ctx_sum(s);
        if (mb_os_write_full(out, &token, sizeof token) != 0)
            _exit(1);
    }
}

static void ctx_teardown(void *state)
{
    ctx_state_t *s = state;
    if (!s)
        return;
    for (int i = 1; i < s->procs; i++)
        mb_os_reap(s->pids[i]);
    for (int i = 0; i < s->procs; i++)
        for (int e = 0; e < 2; e++)
            if (s->pipes[i][e] >= 0)
                close(s->pipes[i][e]);
    if (s->restore)
        sched_setaffinity(0, sizeof s->saved, &s->saved);
    free(s->data);
    free(s);
}

/* Bind the calling thread (and so the children it forks) to its current CPU, or let it run
 * on every CPU of the node. */
static int ctx_bind(ctx_state_t *s, int binding, char *err, size_t errlen)
{
    if (sched_getaffinity(0, sizeof s->saved, &s->saved) != 0) {
        snprintf(err, errlen, "sched_getaffinity failed: %s", strerror(errno));
        return -1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (binding == OS_CTX_PINNED) {
        CPU_SET(mb_os_current_cpu(), &set);
    } else {
        long ncpu = sysconf(_SC_NPROCESSORS_CONF);
        for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
            CPU_SET(c, &set);
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        snprintf(err, errlen, "sched_setaffinity (%s) failed: %s", ctx_binding_labels[binding],
                 strerror(errno));
        return -1;
    }
    s->restore = true;
    return 0;
}

static int ctx_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                     size_t errlen)
{
    ctx_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ctx = ctx;
    s->procs = (int)pt->v[0];
    memset(s->pipes, -1, sizeof s->pipes);
    s->nints = (size_t)pt->v[1] / sizeof(int);
    s->data = calloc(s->nints ? s->nints : 1, sizeof(int));
    if (!s->data) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < s->nints; i++)
        s->data[i] = (int)i;
    if (ctx_bind(s, (int)pt->v[2], err, errlen) != 0)
        goto fail;
    for (int i = 0; i < s->procs; i++)
        if (pipe(s->pipes[i]) != 0) {
            snprintf(err, errlen, "pipe failed: %s", strerror(errno));
            goto fail;
        }
    /* Each child makes its own copy of the working set (ctx_child). */
    for (int i = 1; i < s->procs; i++) {
        s->member = i;
        s->pids[i] = mb_os_spawn(ctx_child, s, err, errlen);
        if (s->pids[i] < 0)
            goto fail;
    }
    s->member = 0;
    *state = s;
    return 0;
fail:
    ctx_teardown(s);
    return -1;
}

static void ctx_run(void *state, uint64_t iters)
{
    ctx_state_t *s = state;
    int in = s->pipes[0][0], out = s->pipes[1 % s->procs][1];
    int token = 0;
    for (uint64_t i = iters; i > 0; i--) {
        ctx_sum(s);
        if (mb_os_write_full(out, &token, sizeof token) != 0 ||
            mb_os_read_full(in, &token, sizeof token) != 0) {
            mb_point_fail(s->ctx, "the token ring of %d processes broke: %s", s->procs,
                          strerror(errno));
            return;
        }
    }
}

/* One hop per process per trip. */
static double ctx_hops(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx;
    return (double)pt->v[0];
}

json_t *mb_os_ctx_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    json_t *out = json_object();
    for (size_t i = 0; i < n; i++) {
        if (pts[i].v[0] < 2 || ms[i].n == 0)
            continue;
        for (size_t j = 0; j < n; j++) {
            if (pts[j].v[0] != 1 || pts[j].v[1] != pts[i].v[1] || pts[j].v[2] != pts[i].v[2] ||
                ms[j].n == 0)
                continue;
            double v = mb_os_subtract_ns(ms[i].stats.median, ms[j].stats.median);
            if (!isfinite(v))
                continue;
            char key[64];
            snprintf(key, sizeof key, "ctx_%lldp_%lldK_%s_ns", (long long)pts[i].v[0],
                     (long long)(pts[i].v[1] >> 10),
                     pts[i].v[2] == OS_CTX_PINNED ? "pinned" : "unpinned");
            json_object_set_new(out, key, json_real(v));
        }
    }
    if (json_object_size(out) == 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static const char *ctx_unavailable(const mb_context_t *ctx, char *buf, size_t len)
{
    (void)ctx;
    return mb_os_fork_unavailable(buf, len);
}

const mb_bench_t mb_bench_os_ctx = {
    .name = "os.ctx",
    .group = "os",
    .summary = "context switch: a token round a ring of 2, 8, 16 processes over pipes, each "
               "summing a 0, 16 or 64 KiB working set, pinned and unpinned (lmbench lat_ctx)",
    .measures = "one hop of the token (a pipe read, the working-set sum, a pipe write, the "
                "switch to the next process), per trip of the ring / procs; procs 1: lmbench's "
                "overhead, one process and its own pipe; derived ctx_<procs>p_<KiB>K_<binding>_ns "
                "= hop - overhead; pinned: the ring on the rank's core; unpinned: on every CPU",
    .scope = MB_SCOPE_ONE,
    .dims = ctx_dims,
    .ndims = MB_COUNT(ctx_dims),
    .points = ctx_points,
    .setup = ctx_setup,
    .run = ctx_run,
    .teardown = ctx_teardown,
    .ops_per_iter_at = ctx_hops,
    .derive = mb_os_ctx_derive,
    .skip_reason = ctx_unavailable,
};
