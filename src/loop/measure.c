/* SPDX-License-Identifier: MIT */
#include "measure.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drift_probe.h"
#include "mpi_util.h"
#include "point_cost.h"
#include "point_order.h"
#include "progress.h"
#include "rank_place.h"
#include "rank_sample.h"
#include "results.h"
#include "watchdog.h"
#include "workset.h"

/* The ranks of node 0 that take turns in MB_SCOPE_SAMPLE_EACH (rank_sample.h: one per NUMA
 * node, then spread, at most MB_RANK_SAMPLE_K), chosen once per benchmark. */
typedef struct measure_sample {
    int n; /* 0: not chosen yet */
    int ranks[MB_RANK_SAMPLE_K];
    char text[512]; /* on rank 0: which ranks and why, for "measured_by" */
} measure_sample_t;

const char *mb_measure_skip_reason(const mb_bench_t *b, const mb_context_t *ctx, char *buf,
                                   size_t len)
{
    if (b->min_ranks > ctx->size) {
        snprintf(buf, len, "needs at least %d ranks, the run has %d", b->min_ranks, ctx->size);
        return buf;
    }
    if (b->skip_reason) {
        /* Rank 0 decides for every rank, so that all agree on what runs. */
        char reason[256] = "";
        if (ctx->rank == 0) {
            mb_context_t bench_ctx = *ctx;
            bench_ctx.arg = b->arg;
            const char *why = b->skip_reason(&bench_ctx, reason, sizeof reason);
            if (!why)
                reason[0] = '\0';
            else if (why != reason)
                snprintf(reason, sizeof reason, "%s", why);
        }
        /* Outside MPI (the unit tests) there is no other rank to agree with. */
        int mpi_up = 0;
        MPI_Initialized(&mpi_up);
        if (mpi_up && ctx->size > 1)
            MPI_Bcast(reason, (int)sizeof reason, MPI_CHAR, 0, ctx->comm);
        if (reason[0]) {
            snprintf(buf, len, "%s", reason);
            return buf;
        }
    }
    return NULL;
}

int mb_measure_points(const mb_bench_t *b, const mb_context_t *ctx, mb_point_t *pts, size_t max,
                      char *err, size_t errlen)
{
    if (!b->points)
        return max > 0 ? 1 : 0;
    mb_context_t bench_ctx = *ctx;
    bench_ctx.arg = b->arg;
    return b->points(&bench_ctx, pts, max, err, errlen);
}

size_t mb_measure_compose(const mb_bench_t *b, const mb_context_t *ctx,
                          mb_compose_t terms[MB_COMPOSE_MAX])
{
    if (!b->compose)
        return 0;
    mb_context_t bench_ctx = *ctx;
    bench_ctx.arg = b->arg;
    size_t n = b->compose(&bench_ctx, terms, MB_COMPOSE_MAX);
    return n < MB_COMPOSE_MAX ? n : MB_COMPOSE_MAX;
}

json_t *mb_measure_skipped_json(const mb_bench_t *b, const char *reason)
{
    json_t *j = mb_measure_json_header(b, NULL);
    json_object_set_new(j, "skipped", json_string(reason));
    json_object_set_new(j, "elapsed_s", json_real(0.0)); /* every record has one */
    return j;
}

bool mb_context_measures(const mb_context_t *ctx, int r)
{
    if (ctx->nsample == 0)
        return true;
    for (int i = 0; i < ctx->nsample; i++)
        if (ctx->sample_ranks[i] == r)
            return true;
    return false;
}

void mb_point_fail(const mb_context_t *ctx, const char *fmt, ...)
{
    /* The first error is the cause; later ones are its consequences. */
    if (!ctx->point_error || ctx->point_error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->point_error, MB_POINT_ERROR_LEN, fmt, ap);
    va_end(ap);
}

static mb_scope_t measure_scope(const mb_bench_t *b, const mb_point_t *pt)
{
    return b->scope_of ? b->scope_of(pt) : b->scope;
}

/* The longest nap of a rank waiting idle for a point measured elsewhere (mb_mpi_wait_quietly):
 * it wakes up to that late, and the next point waits for it. Where every rank of the node has
 * a core of its own, 1 ms: a point of the message-passing sweep takes 11-15 ms, and with naps
 * growing to 10 ms the idle ranks of a -np 16 run made mpi.send's points 31 ms each on a
 * 16-core VM against 13 ms at -np 2 (issue 13). Where ranks share cores, 10 ms, so that a
 * waiting rank wakes the core it shares with a measuring one rarely. */
static long measure_idle_nap_ns(const mb_context_t *ctx)
{
    int cores = ctx->topology ? hwloc_get_nbobjs_by_type(ctx->topology, HWLOC_OBJ_CORE) : 0;
    return cores > 0 && ctx->node_size <= cores ? 1000000 : 10000000;
}

/* The communicator of the ranks that measure pt, or MPI_COMM_NULL when this rank does not. */
static MPI_Comm measure_comm(const mb_context_t *ctx, mb_scope_t scope, MPI_Comm first_ranks)
{
    switch (scope) {
    case MB_SCOPE_ONE: return ctx->node_rank == 0 ? MPI_COMM_SELF : MPI_COMM_NULL;
    case MB_SCOPE_FIRST_RANKS: return first_ranks;
    case MB_SCOPE_WORLD_ALL: return ctx->comm;
    case MB_SCOPE_PAIR_INTRA: return ctx->pair_intra;
    case MB_SCOPE_PAIR_INTER: return ctx->pair_inter;
    case MB_SCOPE_SAMPLE_EACH:
    case MB_SCOPE_NODE_ALL: return ctx->node == 0 ? ctx->node_comm : MPI_COMM_NULL;
    }
    return MPI_COMM_NULL;
}

/* The communicator of the first p world ranks, split once per p value and kept while the
 * points (ordered by p) ask for the same p: a split per point costs O(p) at every point. */
typedef struct measure_first {
    int p; /* 0: none yet */
    MPI_Comm comm;
} measure_first_t;

/* Collective over ctx->comm: make first->comm the first p ranks' (MPI_COMM_NULL elsewhere). */
static void measure_first_ranks(const mb_context_t *ctx, int p, measure_first_t *first)
{
    if (first->p == p)
        return;
    if (first->comm != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&first->comm));
    int in = ctx->rank < p;
    MB_MPI_CHECK(MPI_Comm_split(ctx->comm, in ? 0 : MPI_UNDEFINED, ctx->rank, &first->comm));
    first->p = p;
}

/* Collective over comm: whether any rank failed; if so every rank gets the reason of the
 * highest failing rank (the others' own reasons stay theirs only when they failed too). */
static bool measure_any_failed(MPI_Comm comm, const char *who_word, bool failed, char *reason,
                               size_t len)
{
    int me, who = 0;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    int mine = failed ? me + 1 : 0;
    MB_MPI_CHECK(MPI_Allreduce(&mine, &who, 1, MPI_INT, MPI_MAX, comm));
    if (!who)
        return false;
    char text[512];
    snprintf(text, sizeof text, "%s", failed ? reason : "");
    MB_MPI_CHECK(MPI_Bcast(text, (int)sizeof text, MPI_CHAR, who - 1, comm));
    if (who - 1 != me)
        snprintf(reason, len, "on %s %d: %s", who_word, who - 1, text);
    return true;
}

/* The test hooks' NAME:INDEX in the environment variable var names this point. */
static bool measure_injected(const char *var, const mb_bench_t *b, size_t index)
{
    const char *spec = getenv(var);
    const char *colon = spec ? strrchr(spec, ':') : NULL;
    if (!colon || (size_t)(colon - spec) != strlen(b->name) ||
        strncmp(spec, b->name, strlen(b->name)) != 0)
        return false;
    char *end;
    unsigned long long want = strtoull(colon + 1, &end, 10);
    return end != colon + 1 && *end == '\0' && want == index;
}

/* Collective over comm (node 0's ranks): choose the sample from the ranks' bindings on
 * comm's rank 0, which always belongs to it (its figure is the point's headline). */
static void measure_sample_choose(const mb_context_t *ctx, MPI_Comm comm, measure_sample_t *smp)
{
    int me, n = 0;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    hwloc_bitmap_t *bindings = mb_rank_place_gather(ctx->topology, comm, &n);
    mb_rank_sample_why_t why[MB_RANK_SAMPLE_K];
    int k = 0;
    if (me == 0) {
        k = mb_rank_sample_pick(ctx->topology, bindings, n, MB_RANK_SAMPLE_K, smp->ranks, why);
        if (k <= 0) { /* no topology: the first ranks */
            k = n < MB_RANK_SAMPLE_K ? n : MB_RANK_SAMPLE_K;
            for (int i = 0; i < k; i++)
                smp->ranks[i] = i, why[i] = MB_RANK_SAMPLE_UNPLACED;
        } else if (smp->ranks[0] != 0) { /* ascending: rank 0 replaces the last */
            memmove(smp->ranks + 1, smp->ranks, (size_t)(k - 1) * sizeof smp->ranks[0]);
            memmove(why + 1, why, (size_t)(k - 1) * sizeof why[0]);
            smp->ranks[0] = 0;
            why[0] = MB_RANK_SAMPLE_SPREAD;
        }
        size_t used = (size_t)snprintf(smp->text, sizeof smp->text, "%s (%d of %d, local ranks:",
                                       "a sample of node 0's ranks, one at a time", k, n);
        for (int i = 0; i < k && used < sizeof smp->text; i++) {
            char words[128] = "";
            mb_rank_sample_describe(ctx->topology, bindings[smp->ranks[i]], why[i], words,
                                    sizeof words);
            used += (size_t)snprintf(smp->text + used, sizeof smp->text - used, "%s %d: %s",
                                     i ? ";" : "", smp->ranks[i], words);
        }
        if (used < sizeof smp->text)
            snprintf(smp->text + used, sizeof smp->text - used, ")");
    }
    mb_rank_place_free(bindings, n);
    MB_MPI_CHECK(MPI_Bcast(&k, 1, MPI_INT, 0, comm));
    MB_MPI_CHECK(MPI_Bcast(smp->ranks, k, MPI_INT, 0, comm));
    smp->n = k;
}

static mb_loop_work_t measure_work(const mb_bench_t *b, const mb_context_t *ctx,
                                   const mb_point_t *pt, void *state)
{
    return (mb_loop_work_t){.run = b->run,
                            .prepare = b->prepare,
                            .settle = b->settle,
                            .op = b->op,
                            .finish = b->finish,
                            .state = state,
                            .ops_per_iter =
                                b->ops_per_iter_at ? b->ops_per_iter_at(ctx, pt) : b->ops_per_iter,
                            .subtract_loop_overhead = b->subtract_loop_overhead,
                            .lead_in = b->lead_in,
                            .error = ctx->point_error};
}

/* After a point's loop: teardown, then its headline into m, or -1 with the loop's reason. */
static int measure_end(const mb_bench_t *b, void *state, int rc, mb_loop_result_t *res,
                       mb_measurement_t *m, char *reason, size_t reason_len)
{
    if (b->teardown)
        b->teardown(state);
    if (rc != 0) {
        snprintf(reason, reason_len, "%s", res->reason);
        return -1;
    }
    *m = res->headline;
    mb_measurement_free(&res->own);
    return 0;
}

/* The point's ranks take turns, each alone with the others asleep, so each sees the machine
 * to itself; over (on comm's rank 0) names the ranks measured. */
static int measure_turns(const mb_loop_t *base, const mb_loop_work_t *work, const mb_context_t *ctx,
                         measure_sample_t *smp, mb_loop_result_t *res, json_t **over)
{
    MPI_Comm comm = ctx->measure_comm;
    int me;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    mb_loop_t alone = *base;
    alone.agree = MB_AGREE_LOCAL;
    alone.headline = MB_HEADLINE_OWN;
    bool measured = false, failed = false;
    for (int i = 0; i < smp->n; i++) {
        if (smp->ranks[i] == me) {
            measured = true;
            failed = mb_loop_measure(&alone, work, res) != 0;
        }
        mb_mpi_wait_quietly_for(comm, measure_idle_nap_ns(ctx));
    }
    if (measure_any_failed(comm, "local rank", failed, res->reason, sizeof res->reason)) {
        if (!failed)
            mb_loop_result_free(res);
        return -1;
    }
    *over = mb_measure_json_over_ranks(comm, ctx->rank, measured, &res->own, 0);
    return 0;
}

/* One point on the ranks of ctx->measure_comm: set up, measured in its scope, torn down.
 * Returns 0 with m (the headline, on comm's rank 0) and over, or -1 with reason; the same
 * on every rank of the comm. */
static int measure_point(const mb_bench_t *b, mb_context_t *ctx, const mb_point_t *pt,
                         mb_scope_t scope, const mb_measure_opts_t *opts, measure_sample_t *smp,
                         mb_measurement_t *m, json_t **over, char *reason, size_t reason_len)
{
    MPI_Comm comm = ctx->measure_comm;
    /* The turns are known before setup, so a setup can leave the idle ranks' buffers out. */
    if (scope == MB_SCOPE_SAMPLE_EACH) {
        if (smp->n == 0)
            measure_sample_choose(ctx, comm, smp);
        ctx->sample_ranks = smp->ranks;
        ctx->nsample = smp->n;
    }
    /* An MPI error in a measured operation fails the point, not the run (MB_OP_MPI). */
    MB_MPI_CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    void *state = NULL;
    char err[512] = "";
    bool failed = b->setup && b->setup(ctx, pt, &state, err, sizeof err) != 0;
    if (failed)
        snprintf(reason, reason_len, "setup: %s", err[0] ? err : "failed");
    if (measure_any_failed(comm, "rank", failed, reason, reason_len)) {
        if (!failed && b->teardown)
            b->teardown(state);
        return -1;
    }
    const mb_config_t *cfg = ctx->config;
    bool alone = scope == MB_SCOPE_ONE;
    mb_loop_t loop = {
        .timing = ctx->timing,
        .opts = *opts,
        .grain = b->op ? MB_GRAIN_CALL : MB_GRAIN_LOOP,
        .start = alone                                      ? &mb_start_none
                 : b->op && cfg->mpi_sync == MB_SYNC_WINDOW ? &mb_start_window
                                                            : &mb_start_barrier,
        .agree = alone ? MB_AGREE_LOCAL : MB_AGREE_ALL,
        .comm = comm,
        .headline = b->headline,
        .clock_offset_ns = ctx->clock_offset_ns,
        .poll_between = ctx->probe_points,
    };
    mb_loop_work_t work = measure_work(b, ctx, pt, state);
    mb_loop_result_t res = {0};
    int rc;
    if (scope == MB_SCOPE_SAMPLE_EACH) {
        rc = measure_turns(&loop, &work, ctx, smp, &res, over);
    } else {
        rc = mb_loop_measure(&loop, &work, &res);
        if (rc == 0 && !alone) {
            /* All ranks at once: the node's bandwidth is the sum of the ranks' own, unless
             * the headline is already the whole group's (the slowest rank's interval). */
            bool together = (scope == MB_SCOPE_NODE_ALL || scope == MB_SCOPE_WORLD_ALL) &&
                            b->headline != MB_HEADLINE_MAX;
            double bytes = together && b->bytes_per_op ? (double)b->bytes_per_op(ctx, pt) : 0;
            *over = mb_measure_json_over_ranks(comm, ctx->rank, true, &res.own, bytes);
            if (*over && b->op) {
                json_object_set_new(*over, "avg_ns", json_real(res.avg_over_ranks_ns));
                json_object_set_new(*over, "max_ns", json_real(res.max_over_ranks_ns));
                json_object_set_new(*over, "entry_skew_ns", json_real(res.entry_skew_ns));
            }
        }
    }
    return measure_end(b, state, rc, &res, m, reason, reason_len);
}

/* Collective over the node leaders, after each measured a point alone: the point fails
 * when it failed on any node; else over gets the figures over the nodes (on world rank 0). */
static int measure_over_nodes(const mb_context_t *ctx, int rc, mb_measurement_t *m, char *reason,
                              size_t len, json_t **over)
{
    if (measure_any_failed(ctx->leaders, "node", rc != 0, reason, len)) {
        mb_measurement_free(m);
        return -1;
    }
    *over = mb_measure_json_over_ranks(ctx->leaders, ctx->rank, true, m, 0);
    return 0;
}

/* Add text to the list of who measured (distinct texts, "; " between them). */
static void measure_note_scope(char *list, size_t len, mb_scope_t scope,
                               const measure_sample_t *smp, bool by_process)
{
    const char *text = by_process
                           ? "one fresh non-MPI process per node (started by its first rank, its "
                             "affinity the node's allowed CPUs), all nodes at once"
                       : scope == MB_SCOPE_SAMPLE_EACH && smp->n ? smp->text
                                                                 : mb_measure_scope_text(scope);
    if (strstr(list, text))
        return;
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s", used ? "; " : "", text);
}

/* What a budget makes of a point (measure_budget_decides). */
enum { MEASURE_BUDGET_MEASURE, MEASURE_BUDGET_SKIP, MEASURE_BUDGET_STOP };

/* Under a budget, what becomes of point i, the k-th of the benchmark's order (rank 0's clock
 * decides, for every rank): coarse to fine (no thin), the benchmark stops before it once
 * the share is spent and the ends are measured; in the points' own order (thin), it is
 * skipped where the points kept for the time left leave it out (mb_point_thin_keep).
 * Measured, its repetitions' share of what is left, in ns (mb_point_time_limit_ns: in
 * proportion to its expected cost among those of the points still to come and kept, so that
 * a large message's point is not held to a small one's time). *cost_left_s (the expected
 * cost of the points from k on) loses point i's. */
static int measure_budget_decides(const mb_context_t *ctx, mb_point_thin_t *thin, size_t k,
                                  size_t ends, size_t i, double cost_s, double *cost_left_s,
                                  double *time_limit_ns)
{
    *time_limit_ns = 0;
    if (ctx->budget_deadline_s <= 0)
        return MEASURE_BUDGET_MEASURE;
    double left_s = ctx->budget_deadline_s - mb_clock_elapsed_s(), among_s = *cost_left_s;
    int action = MEASURE_BUDGET_MEASURE;
    if (ctx->rank == 0 && thin)
        action = mb_point_thin_keep(thin, i, left_s, &among_s) ? MEASURE_BUDGET_MEASURE
                                                               : MEASURE_BUDGET_SKIP;
    else if (ctx->rank == 0 && k >= ends && left_s <= 0)
        action = MEASURE_BUDGET_STOP;
    MB_MPI_CHECK(MPI_Bcast(&action, 1, MPI_INT, 0, ctx->comm));
    *cost_left_s -= cost_s;
    if (action == MEASURE_BUDGET_MEASURE)
        *time_limit_ns = mb_point_time_limit_ns(left_s, cost_s, among_s);
    return action;
}

/* Test hook, MBSUITE_INJECT_HANG=NAME:INDEX: the last rank never arrives at point INDEX of
 * benchmark NAME, so the others wait for it inside the point's first collective, as for a
 * peer that hangs; it sleeps until the job is ended. Unset, it costs a getenv per point. */
static void measure_hang_if_injected(const mb_bench_t *b, const mb_context_t *ctx, size_t index)
{
    if (ctx->size < 2 || ctx->rank != ctx->size - 1 ||
        !measure_injected("MBSUITE_INJECT_HANG", b, index))
        return;
    for (;;)
        sleep(60);
}

/* The hung-point watchdog's limit (watchdog.h): twice the point timeout, so the loop's own
 * timeout, checked between experiments, fails a point that is slow but not stuck. Rank 0
 * records the hang; the others wait 10 s more, so that the record names the point. */
static double measure_watchdog_s(const mb_context_t *ctx, double timeout_ns)
{
    return timeout_ns > 0 ? 2 * timeout_ns / 1e9 + (ctx->rank == 0 ? 0 : 10) : 0;
}

int mb_measure_point_alone(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pt,
                           double time_limit_ns, mb_measurement_t *m, char *reason,
                           size_t reason_len)
{
    char point_error[MB_POINT_ERROR_LEN] = "";
    mb_context_t point_ctx = *ctx;
    point_ctx.arg = b->arg;
    point_ctx.point_error = point_error;
    void *state = NULL;
    char err[512] = "";
    if (b->setup && b->setup(&point_ctx, pt, &state, err, sizeof err) != 0) {
        snprintf(reason, reason_len, "setup: %s", err[0] ? err : "failed");
        return -1;
    }
    mb_loop_t loop = {
        .timing = ctx->timing,
        .opts = mb_measure_opts_of(ctx->config),
        .grain = b->op ? MB_GRAIN_CALL : MB_GRAIN_LOOP,
        .start = &mb_start_none,
        .agree = MB_AGREE_LOCAL,
        .comm = MPI_COMM_NULL,
        .headline = b->headline,
    };
    loop.opts.time_limit_ns = time_limit_ns;
    mb_loop_work_t work = measure_work(b, &point_ctx, pt, state);
    mb_loop_result_t res = {0};
    int rc = mb_loop_measure(&loop, &work, &res);
    return measure_end(b, state, rc, &res, m, reason, reason_len);
}

json_t *mb_measure_to_json(const mb_measurement_t *m)
{
    json_t *samples = json_array();
    for (size_t i = 0; i < m->n; i++)
        json_array_append_new(samples, json_real(m->samples_ns[i]));
    return json_pack("{s:o, s:I, s:b, s:I}", "samples_ns", samples, "iters", (json_int_t)m->iters,
                     "trimmed", m->trimmed, "late", (json_int_t)m->late);
}

int mb_measure_from_process(const mb_bench_t *b, const mb_context_t *ctx, const json_t *reply,
                            size_t index, mb_measurement_t *m, char *reason, size_t reason_len)
{
    *m = (mb_measurement_t){0};
    const json_t *entry = NULL, *e;
    size_t i;
    json_array_foreach(json_object_get(reply, "benchmarks"), i, e)
    {
        const char *name = json_string_value(json_object_get(e, "name"));
        if (name && strcmp(name, b->name) == 0)
            entry = e;
    }
    const char *error = json_string_value(json_object_get(reply, "error"));
    if (!entry) {
        snprintf(reason, reason_len, "the node's os process gave no measurement: %s",
                 error ? error : "none of this benchmark");
        return -1;
    }
    const json_t *jm = json_array_get(json_object_get(entry, "measurements"), index);
    const json_t *samples = json_object_get(jm, "samples_ns");
    size_t n = json_array_size(samples);
    if (n == 0) {
        const char *why =
            json_string_value(json_array_get(json_object_get(entry, "reasons"), index));
        snprintf(reason, reason_len, "%s", why ? why : "the node's os process gave no samples");
        return -1;
    }
    m->samples_ns = malloc(n * sizeof *m->samples_ns);
    if (!m->samples_ns)
        mb_mpi_fail("malloc in mb_measure_from_process", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    const json_t *x;
    json_array_foreach(samples, i, x)
    {
        m->samples_ns[i] = json_number_value(x);
    }
    m->n = n;
    m->iters = (uint64_t)json_integer_value(json_object_get(jm, "iters"));
    m->trimmed = json_is_true(json_object_get(jm, "trimmed"));
    m->late = (uint64_t)json_integer_value(json_object_get(jm, "late"));
    mb_measure_opts_t opts = mb_measure_opts_of(ctx->config);
    if (mb_loop_summarize(&opts, m) != 0) {
        mb_measurement_free(m);
        snprintf(reason, reason_len, "the node's os process gave a sample that is not a number");
        return -1;
    }
    return 0;
}

json_t *mb_measure_bench(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                         size_t npts, const char *progress, mb_raw_t *raw,
                         const double *probe_before_ns)
{
    const mb_config_t *cfg = ctx->config;
    mb_measure_opts_t opts = mb_measure_opts_of(cfg);
    bool root = ctx->rank == 0; /* world rank 0 is always on node 0 and always measures */
    mb_measurement_t *ms = root ? calloc(npts, sizeof *ms) : NULL;
    json_t **slots = root ? calloc(npts, sizeof *slots) : NULL;
    size_t *order = malloc((npts ? npts : 1) * sizeof *order);
    if ((root && (!ms || !slots)) || !order)
        mb_mpi_fail("calloc in mb_measure_bench", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    /* The points in their own order (a collective's p one after another); under a budget
     * thinned where it runs short, or coarse to fine (ctx->budget_order), so that where the
     * budget ends the benchmark, the points measured still span its axes. */
    size_t ends = npts;
    bool coarse_first =
        ctx->budget_deadline_s > 0 && ctx->budget_order == MB_BUDGET_ORDER_COARSE_FIRST;
    if (coarse_first)
        ends = mb_point_order(b, pts, npts, order);
    else
        for (size_t i = 0; i < npts; i++)
            order[i] = i;
    json_t *result = root ? mb_measure_json_header(b, cfg) : NULL;
    mb_compose_t terms[MB_COMPOSE_MAX];
    json_t *recipe =
        root ? mb_measure_json_composed(terms, mb_measure_compose(b, ctx, terms)) : NULL;
    if (recipe)
        json_object_set_new(result, "composed_of", recipe);
    if (root)
        mb_results_live_begin(result);
    json_int_t failed_points = 0, dropped_points = 0;
    double began = mb_clock_elapsed_s();
    char point_error[MB_POINT_ERROR_LEN];
    measure_sample_t sample = {0};
    measure_first_t first = {.comm = MPI_COMM_NULL};
    char measured_by[1024] = "";
    /* The drift probe's last reading (rank 0): the benchmark's own before the first point,
     * then each point's after, which is the next point's before. */
    double probe_ns = probe_before_ns ? *probe_before_ns : NAN;

    long idle_nap_ns = measure_idle_nap_ns(ctx);
    /* Under a budget, each point's expected cost and the sum from it to the last; in their
     * own order, the points' least costs too, at the run's slowness, for the thinning. */
    double *cost_s = NULL, cost_left_s = 0;
    mb_point_thin_t thin = {0};
    bool thinned = ctx->budget_deadline_s > 0 && !coarse_first;
    if (ctx->budget_deadline_s > 0) {
        cost_s = malloc((npts ? npts : 1) * sizeof *cost_s);
        if (!cost_s)
            mb_mpi_fail("malloc in mb_measure_bench", MPI_ERR_NO_MEM, __FILE__, __LINE__);
        for (size_t i = 0; i < npts; i++)
            cost_left_s += cost_s[i] = mb_point_cost_s(ctx, b, &pts[i]);
    }
    if (thinned) {
        double *least_s = malloc((npts ? npts : 1) * sizeof *least_s);
        if (!least_s)
            mb_mpi_fail("malloc in mb_measure_bench", MPI_ERR_NO_MEM, __FILE__, __LINE__);
        double slowness = ctx->budget_slowness > 0 ? ctx->budget_slowness : 1;
        for (size_t i = 0; i < npts; i++)
            least_s[i] =
                slowness * mb_point_turns(ctx, b, &pts[i]) * mb_point_floor_cost_s(ctx, b, &pts[i]);
        if (mb_point_thin_init(&thin, b, pts, npts, least_s, cost_s) != 0)
            mb_mpi_fail("malloc in mb_measure_bench", MPI_ERR_NO_MEM, __FILE__, __LINE__);
        free(least_s);
    }

    for (size_t k = 0; k < npts; k++) {
        size_t i = order[k];
        opts.warmup_ns = mb_measure_warmup_ns(cfg, k);
        int budget =
            measure_budget_decides(ctx, thinned ? &thin : NULL, k, ends, i, cost_s ? cost_s[i] : 1,
                                   &cost_left_s, &opts.time_limit_ns);
        if (budget == MEASURE_BUDGET_STOP) {
            dropped_points = (json_int_t)(npts - k);
            break;
        }
        if (budget == MEASURE_BUDGET_SKIP) {
            dropped_points++;
            continue;
        }
        /* The point's wall time, its communicator, waits and probe included: a benchmark
         * whose 1.5 s share took 372 s once (mpi.bcast, quick at -np 8 on 2 vCPUs,
         * 2026-12-03) left no trace of which point took it. */
        double point_began_s = mb_clock_elapsed_s();
        mb_scope_t scope = measure_scope(b, &pts[i]);
        if (scope == MB_SCOPE_FIRST_RANKS)
            measure_first_ranks(ctx, (int)pts[i].v[b->ranks_dim], &first);
        char label[256];
        mb_measure_params_text(b, &pts[i], label, sizeof label);
        if (root) {
            mb_progress_point_begin(label);
            mb_results_live_point(mb_measure_json_failed(b, &pts[i], "interrupted"), NULL);
        }
        char what[512];
        snprintf(what, sizeof what, "%s %s", b->name, label);
        mb_watchdog_arm(measure_watchdog_s(ctx, opts.timeout_ns), what);
        measure_hang_if_injected(b, ctx, i);
        mb_measurement_t m = {0};
        json_t *over = NULL;
        char reason[512] = "";
        int rc = 0;
        mb_context_t point_ctx = *ctx;
        point_ctx.measure_comm = measure_comm(ctx, scope, first.comm);
        point_ctx.arg = b->arg;
        point_ctx.point_error = point_error;
        point_error[0] = '\0';
        if (point_ctx.measure_comm != MPI_COMM_NULL && scope == MB_SCOPE_ONE && ctx->node_process)
            rc = mb_measure_from_process(b, ctx, ctx->node_process, i, &m, reason, sizeof reason);
        else if (point_ctx.measure_comm != MPI_COMM_NULL)
            rc = measure_point(b, &point_ctx, &pts[i], scope, &opts, &sample, &m, &over, reason,
                               sizeof reason);
        if (scope == MB_SCOPE_ONE && ctx->leaders != MPI_COMM_NULL)
            rc = measure_over_nodes(ctx, rc, &m, reason, sizeof reason, &over);
        /* Idle ranks sleep rather than spin, so they do not steal the measuring cores' time. */
        mb_mpi_wait_quietly_for(ctx->comm, idle_nap_ns);
        /* Collective, under the point's watchdog: a rank lost during it is a hang too. */
        double before_ns = probe_ns;
        if (probe_before_ns)
            probe_ns = mb_drift_probe_ns(ctx);
        mb_watchdog_disarm();
        if (!root) {
            mb_measurement_free(&m);
            json_decref(over);
            continue;
        }
        if (rc == 0 && measure_injected("MBSUITE_INJECT_FAILURE", b, i)) {
            rc = -1;
            snprintf(reason, sizeof reason, "injected failure (MBSUITE_INJECT_FAILURE)");
        }
        json_t *point;
        if (rc != 0) {
            mb_measurement_free(&m);
            json_decref(over);
            point = mb_measure_json_failed(b, &pts[i], reason);
            failed_points++;
            mb_progress_note("mbsuite: %s %s %s failed: %s", progress, b->name, label, reason);
        } else {
            ms[i] = m;
            point = mb_measure_json_point(b, &point_ctx, &pts[i], &ms[i]);
            if (over)
                json_object_set_new(point, scope == MB_SCOPE_ONE ? "over_nodes" : "over_ranks",
                                    over);
            if (isfinite(before_ns) && isfinite(probe_ns))
                json_object_set_new(
                    point, "drift_probe",
                    json_pack("{s:f, s:f}", "before_ns", before_ns, "after_ns", probe_ns));
        }
        if (rc == 0)
            json_object_set_new(point, "wall_s", json_real(mb_clock_elapsed_s() - point_began_s));
        mb_progress_point_end(rc != 0);
        measure_note_scope(measured_by, sizeof measured_by, scope, &sample,
                           scope == MB_SCOPE_ONE && ctx->node_process);
        mb_results_live_point(NULL, point);
        slots[i] = point;
    }
    if (first.comm != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&first.comm));
    /* The working sets its points kept (workset.h) go with the benchmark. */
    mb_workset_release();
    mb_mpi_wait_quietly(ctx->comm);
    free(cost_s);
    mb_point_thin_free(&thin);
    free(order);
    if (!root)
        return NULL;
    /* In the points' own order, whatever order they were measured in; the raw samples
     * name each point by its index in "points". */
    json_t *points = json_object_get(result, "points");
    for (size_t i = 0; i < npts; i++) {
        if (!slots[i])
            continue;
        if (ms[i].n) {
            char label[256];
            mb_measure_params_text(b, &pts[i], label, sizeof label);
            mb_raw_add_point(raw, b->name, label, json_array_size(points), ms[i].samples_ns,
                             ms[i].n);
        }
        json_array_append_new(points, slots[i]);
    }
    free(slots);
    json_object_set_new(result, "failed_points", json_integer(failed_points));
    /* The benchmark's line on stderr counts them (progress.h), the budget's summary says why. */
    if (dropped_points)
        json_object_set_new(result, "dropped_by_budget", json_integer(dropped_points));
    if (measured_by[0])
        json_object_set_new(result, "measured_by", json_string(measured_by));
    if (b->derive) {
        json_t *derived = b->derive(pts, ms, npts);
        if (derived)
            json_object_set_new(result, "derived", derived);
    }
    json_object_set_new(result, "elapsed_s", json_real(mb_clock_elapsed_s() - began));
    for (size_t i = 0; i < npts; i++)
        mb_measurement_free(&ms[i]);
    free(ms);
    return result;
}
