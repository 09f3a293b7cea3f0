/* SPDX-License-Identifier: MIT */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness_together.h"
#include "mpi_util.h"

const char *mb_measure_skip_reason(const mb_bench_t *b, const mb_context_t *ctx, char *buf, size_t len)
{
    if (b->min_ranks > ctx->size) {
        snprintf(buf, len, "needs at least %d ranks, the run has %d", b->min_ranks, ctx->size);
        return buf;
    }
    return NULL;
}

/* The synchronisation strategy [mpi] sync names. */
static const mb_sync_t *measure_sync(const mb_config_t *cfg)
{
    return cfg->mpi_sync == MB_SYNC_WINDOW ? &mb_sync_window : &mb_sync_barrier;
}

/* How a per-call benchmark's figures come about, stated in the results (issue: "state the
 * scheme in the output"). */
static json_t *measure_scheme_json(const mb_bench_t *b, const mb_config_t *cfg)
{
    const mb_sync_t *sync = measure_sync(cfg);
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s}", "timed", b->measures, "synchronisation", sync->describe,
        "sync", sync->name, "headline",
        b->headline == MB_HEADLINE_MAX
            ? "per call, the slowest rank's time from its own start to its return (time to "
              "completion); mean over an experiment's calls; median over experiments"
            : "the time on rank 0 of the measuring ranks (the measured side); mean over an "
              "experiment's calls; median over experiments",
        "over_ranks",
        "avg_ns: per call the mean over ranks (as OSU and IMB report); max_ns: per call the "
        "slowest rank; entry_skew_ns: per call the latest minus the earliest start on "
        "offset-corrected clocks; each a median over experiments",
        "buffers", cfg->mpi_buffers == MB_BUFFERS_COLD ? "cold" : "warm");
}

static json_t *measure_bench_header(const mb_bench_t *b, const mb_config_t *cfg)
{
    json_t *params = json_array();
    for (size_t d = 0; d < b->ndims; d++)
        json_array_append_new(params, json_string(b->dims[d].name));
    json_t *j = json_pack("{s:s, s:s, s:s?, s:s?, s:s, s:s, s:o, s:[], s:n}", "name", b->name,
                          "group", b->group, "summary", b->summary, "measures", b->measures,
                          "unit", "ns", "statistic",
                          b->statistic == MB_SUMMARY_MIN ? "min" : "median", "params", params,
                          "points", "skipped");
    if (b->op && cfg)
        json_object_set_new(j, "scheme", measure_scheme_json(b, cfg));
    return j;
}

json_t *mb_measure_skipped_json(const mb_bench_t *b, const char *reason)
{
    json_t *j = measure_bench_header(b, NULL);
    json_object_set_new(j, "skipped", json_string(reason));
    return j;
}

json_t *mb_measure_params_json(const mb_bench_t *b, const mb_point_t *pt)
{
    json_t *p = json_object();
    for (size_t d = 0; d < b->ndims; d++) {
        const mb_dim_t *dim = &b->dims[d];
        json_object_set_new(p, dim->name, dim->labels ? json_string(dim->labels[pt->v[d]])
                                                      : json_integer(pt->v[d]));
    }
    return p;
}

static void measure_params_text(const mb_bench_t *b, const mb_point_t *pt, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < b->ndims && used < len; d++) {
        const mb_dim_t *dim = &b->dims[d];
        if (dim->labels)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", d ? " " : "", dim->name,
                                     dim->labels[pt->v[d]]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%lld", d ? " " : "",
                                     dim->name, (long long)pt->v[d]);
    }
}

static json_t *measure_point_json(const mb_bench_t *b, const mb_context_t *ctx,
                                  const mb_point_t *pt, const mb_measurement_t *m)
{
    const mb_stats_t *s = &m->stats;
    json_t *j = json_pack("{s:o, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:[f,f], s:f, s:b, s:I}",
                          "params", mb_measure_params_json(b, pt), "n", (json_int_t)s->n, "min",
                          s->min, "median", s->median, "mean", s->mean, "max", s->max, "stddev",
                          s->stddev, "p90", s->p90, "p99", s->p99, "ci95", s->ci95_lo,
                          s->ci95_hi, "ci95_rel_halfwidth",
                          isfinite(m->ci_rel_halfwidth) ? m->ci_rel_halfwidth : -1.0,
                          "ci_target_met", m->ci_target_met, "iterations", (json_int_t)m->iters);
    /* Marked, not dropped: the user decides what a wide interval is worth. */
    json_object_set_new(j, "ci_too_wide",
                        json_boolean(!isfinite(m->ci_rel_halfwidth) ||
                                     m->ci_rel_halfwidth > ctx->config->run_ci_wide));
    if (m->trimmed)
        json_object_set_new(j, "trimmed_by_budget", json_true());
    double bytes = b->bytes_per_op ? (double)b->bytes_per_op(ctx, pt) : 0;
    /* A 0-byte message has a latency, not a bandwidth; a call timed below the clock's
     * resolution (an experiment's mean of 0) has no rate worth printing. */
    if (bytes > 0 && s->min > 0 && s->ci95_lo > 0) {
        /* Time and rate are reciprocal: the fastest time is the best rate. */
        json_object_set_new(j, "bytes_per_op", json_integer((json_int_t)bytes));
        json_object_set_new(j, "bandwidth_bytes_per_s",
                            json_pack("{s:f, s:f, s:f, s:[f,f]}", "median", bytes / s->median * 1e9,
                                      "best", bytes / s->min * 1e9, "worst", bytes / s->max * 1e9,
                                      "ci95", bytes / s->ci95_hi * 1e9, bytes / s->ci95_lo * 1e9));
    }
    return j;
}

static mb_scope_t measure_scope(const mb_bench_t *b, const mb_point_t *pt)
{
    return b->scope_of ? b->scope_of(pt) : b->scope;
}

/* The communicator of the ranks that measure pt, or MPI_COMM_NULL when this rank does not. */
static MPI_Comm measure_comm(const mb_context_t *ctx, mb_scope_t scope, MPI_Comm first_ranks)
{
    if (scope == MB_SCOPE_FIRST_RANKS)
        return first_ranks;
    if (scope == MB_SCOPE_WORLD_ALL)
        return ctx->comm;
    if (scope == MB_SCOPE_PAIR_INTRA)
        return ctx->pair_intra;
    if (scope == MB_SCOPE_PAIR_INTER)
        return ctx->pair_inter;
    return ctx->node == 0 ? ctx->node_comm : MPI_COMM_NULL;
}

/* Spread over the ranks: each rank's median, their mean and maximum (Howell's "avg" and
 * "max" columns, seed 001). Collective over comm; the object on comm's rank 0. */
static json_t *measure_over_ranks(MPI_Comm comm, int world_rank, const mb_measurement_t *m)
{
    json_t *mine = json_pack("{s:i, s:f, s:b}", "rank", world_rank, "median", m->stats.median,
                             "ci_target_met", m->ci_target_met);
    json_t *all = mb_mpi_gather_json(comm, mine);
    json_decref(mine);
    if (!all)
        return NULL;
    double sum = 0, max = 0;
    int max_rank = -1;
    size_t i;
    json_t *rec;
    json_t *per_rank = json_array();
    json_array_foreach(all, i, rec) {
        double v = json_number_value(json_object_get(rec, "median"));
        sum += v;
        if (max_rank < 0 || v > max) {
            max = v;
            max_rank = (int)json_integer_value(json_object_get(rec, "rank"));
        }
        json_array_append(per_rank, json_object_get(rec, "median"));
    }
    json_t *over = json_pack("{s:I, s:f, s:f, s:i, s:o}", "ranks", (json_int_t)json_array_size(all),
                             "avg_ns", sum / (double)json_array_size(all), "max_ns", max,
                             "max_rank", max_rank, "median_per_rank_ns", per_rank);
    json_decref(all);
    return over;
}

/* One point of a per-call benchmark (harness_calls.h) on the ranks of comm: m gets the
 * headline, over (on comm's rank 0) the figures across ranks. Returns 0 or -1 on all. */
static int measure_calls(const mb_bench_t *b, const mb_context_t *ctx,
                         const mb_measure_opts_t *opts, void *state, MPI_Comm comm,
                         mb_measurement_t *m, json_t **over)
{
    mb_calls_t calls = {.prepare = b->prepare, .settle = b->settle, .op = b->op,
                        .finish = b->finish, .state = state};
    mb_calls_result_t r;
    if (mb_harness_measure_calls(ctx->timing, opts, &calls, measure_sync(ctx->config), comm,
                                 b->headline, ctx->clock_offset_ns, &r) != 0)
        return -1;
    *m = r.headline;
    r.headline = (mb_measurement_t){0};
    *over = measure_over_ranks(comm, ctx->rank, &r.own);
    if (*over) {
        json_object_set_new(*over, "avg_ns", json_real(r.avg_over_ranks_ns));
        json_object_set_new(*over, "max_ns", json_real(r.max_over_ranks_ns));
        json_object_set_new(*over, "entry_skew_ns", json_real(r.entry_skew_ns));
    }
    mb_calls_result_free(&r);
    return 0;
}

/* One point in a NODE or WORLD scope, on the ranks of comm. Returns 0 on every rank of
 * comm, or -1 on every rank with reason set on rank 0. */
static int measure_point_together(const mb_bench_t *b, const mb_context_t *ctx,
                                  const mb_point_t *pt, mb_scope_t scope, MPI_Comm comm,
                                  const mb_measure_opts_t *opts, mb_measurement_t *m,
                                  json_t **over, char *reason, size_t reason_len)
{
    int crank, csize;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &crank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &csize));
    void *state = NULL;
    char err[512] = "";
    int ok = !b->setup || b->setup(ctx, pt, &state, err, sizeof err) == 0, all_ok = 0;
    MB_MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm));
    if (!all_ok) {
        snprintf(reason, reason_len, "%s", ok ? "setup failed on another rank" : err);
        if (ok && b->teardown)
            b->teardown(state);
        return -1;
    }
    int rc = 0;
    if (scope == MB_SCOPE_NODE_EACH) {
        /* One rank at a time, the others asleep: each sees the machine to itself. */
        for (int r = 0; r < csize; r++) {
            if (r == crank)
                rc = mb_harness_measure(ctx->timing, opts, b->run, state, m);
            mb_mpi_wait_quietly(comm);
        }
        int mine = rc == 0, every = 0;
        MB_MPI_CHECK(MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, comm));
        rc = every ? 0 : -1;
        if (rc == 0)
            *over = measure_over_ranks(comm, ctx->rank, m);
    } else if (b->op) {
        rc = measure_calls(b, ctx, opts, state, comm, m, over);
    } else {
        rc = mb_harness_measure_together(ctx->timing, opts, b->run, state, comm, m);
        if (rc == 0)
            *over = measure_over_ranks(comm, ctx->rank, m);
    }
    if (b->teardown)
        b->teardown(state);
    if (rc != 0) {
        mb_measurement_free(m);
        snprintf(reason, reason_len, "the loop does no measurable work on some rank");
    }
    return rc;
}

/* One point on this rank alone (MB_SCOPE_ROOT). Returns 0, or -1 with reason set. */
static int measure_point_alone(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pt,
                               const mb_measure_opts_t *opts, mb_measurement_t *m, char *reason,
                               size_t reason_len)
{
    void *state = NULL;
    char err[512] = "";
    if (b->setup && b->setup(ctx, pt, &state, err, sizeof err) != 0) {
        snprintf(reason, reason_len, "%s", err);
        return -1;
    }
    int rc = mb_harness_measure(ctx->timing, opts, b->run, state, m);
    if (b->teardown)
        b->teardown(state);
    if (rc != 0)
        snprintf(reason, reason_len, "the loop does no measurable work (optimised away?) or is out of memory");
    return rc;
}

/* Collective over ctx->comm: every point in its scope, all ranks in step point by point
 * (ranks with nothing to do at a point sleep). The result on rank 0; NULL elsewhere. */
static json_t *measure_points(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                              size_t npts, const char *progress)
{
    const mb_config_t *cfg = ctx->config;
    mb_measure_opts_t opts = {
        .min_experiments = cfg->run_min_experiments,
        .max_experiments = cfg->run_max_experiments,
        .ci_target = cfg->run_ci_target,
        .warmup_ns = (double)cfg->run_warmup,
        .ops_per_iter = b->ops_per_iter,
        .subtract_loop_overhead = b->subtract_loop_overhead,
        .time_limit_ns = ctx->point_time_limit_ns,
    };
    bool root = ctx->rank == 0; /* world rank 0 is always on node 0 and always measures */
    mb_measurement_t *ms = root ? calloc(npts, sizeof *ms) : NULL;
    json_t *result = root ? measure_bench_header(b, cfg) : NULL;
    char reason[768] = "";
    size_t done = 0;
    double began = mb_clock_elapsed_s();

    for (; done < npts; done++) {
        mb_scope_t scope = measure_scope(b, &pts[done]);
        MPI_Comm first_ranks = MPI_COMM_NULL;
        if (scope == MB_SCOPE_FIRST_RANKS) {
            int in = ctx->rank < pts[done].v[b->ranks_dim];
            MB_MPI_CHECK(MPI_Comm_split(ctx->comm, in ? 0 : MPI_UNDEFINED, ctx->rank, &first_ranks));
        }
        char label[256];
        measure_params_text(b, &pts[done], label, sizeof label);
        if (root)
            fprintf(stderr, "mbsuite: %s %s %s\n", progress, b->name, label);
        mb_measurement_t m = {0};
        json_t *over = NULL;
        char why[512] = "";
        int rc = 0;
        if (scope == MB_SCOPE_ROOT) {
            if (root)
                rc = measure_point_alone(b, ctx, &pts[done], &opts, &m, why, sizeof why);
        } else {
            mb_context_t point_ctx = *ctx;
            point_ctx.measure_comm = measure_comm(ctx, scope, first_ranks);
            if (point_ctx.measure_comm != MPI_COMM_NULL)
                rc = measure_point_together(b, &point_ctx, &pts[done], scope,
                                            point_ctx.measure_comm, &opts, &m, &over, why,
                                            sizeof why);
        }
        if (first_ranks != MPI_COMM_NULL)
            MB_MPI_CHECK(MPI_Comm_free(&first_ranks));
        mb_mpi_wait_quietly(ctx->comm);
        MB_MPI_CHECK(MPI_Bcast(&rc, 1, MPI_INT, 0, ctx->comm));
        if (rc != 0) {
            snprintf(reason, sizeof reason, "%s: %s", label, why[0] ? why : "failed");
            mb_measurement_free(&m);
            goto fail;
        }
        if (!root) {
            mb_measurement_free(&m);
            continue;
        }
        ms[done] = m;
        json_t *point = measure_point_json(b, ctx, &pts[done], &ms[done]);
        if (over && b->bytes_per_op && (scope == MB_SCOPE_NODE_ALL || scope == MB_SCOPE_WORLD_ALL)) {
            /* All ranks at once: the node's bandwidth is the sum of the ranks' own. */
            double bytes = (double)b->bytes_per_op(ctx, &pts[done]), total = 0;
            size_t r;
            json_t *v;
            json_array_foreach(json_object_get(over, "median_per_rank_ns"), r, v)
                total += bytes / json_number_value(v) * 1e9;
            json_object_set_new(over, "aggregate_bytes_per_s", json_real(total));
        }
        if (over)
            json_object_set_new(point, "over_ranks", over);
        json_array_append_new(json_object_get(result, "points"), point);
    }
    if (!root)
        return NULL;
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
fail:
    if (!root)
        return NULL;
    for (size_t i = 0; i < done; i++)
        mb_measurement_free(&ms[i]);
    free(ms);
    json_decref(result);
    return mb_measure_skipped_json(b, reason);
}

json_t *mb_measure_bench(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                         size_t npts, const char *progress)
{
    json_t *result = measure_points(b, ctx, pts, npts, progress);
    /* Idle ranks sleep rather than spin, so they do not steal the measuring cores' time. */
    mb_mpi_wait_quietly(ctx->comm);
    return result;
}
