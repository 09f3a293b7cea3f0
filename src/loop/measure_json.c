/* SPDX-License-Identifier: MIT */
#include "measure_json.h"

#include <math.h>
#include <stdio.h>

#include "mpi_util.h"

const char *mb_measure_scope_text(mb_scope_t scope)
{
    switch (scope) {
    case MB_SCOPE_ONE: return "one representative per node (its first rank), all nodes at once";
    case MB_SCOPE_SAMPLE_EACH: return "a sample of node 0's ranks, one at a time";
    case MB_SCOPE_NODE_ALL: return "every rank of node 0 at the same time";
    case MB_SCOPE_WORLD_ALL: return "every rank at the same time";
    case MB_SCOPE_PAIR_INTRA: return "world rank 0 and the next rank of its node";
    case MB_SCOPE_PAIR_INTER: return "world rank 0 and the first rank of node 1";
    case MB_SCOPE_FIRST_RANKS: return "the first p world ranks together";
    }
    return "?";
}

/* How a per-call benchmark's figures come about, stated in the results. */
static json_t *measure_json_scheme(const mb_bench_t *b, const mb_config_t *cfg)
{
    const mb_start_t *start =
        cfg->mpi_sync == MB_SYNC_WINDOW ? &mb_start_window : &mb_start_barrier;
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s}", "timed", b->measures, "synchronisation", start->describe,
        "sync", start->name, "headline",
        b->headline == MB_HEADLINE_MAX
            ? "per call, the slowest rank's time from its own start to its return (time to "
              "completion); mean over an experiment's calls; median over experiments"
        : b->headline == MB_HEADLINE_MEAN
            ? "per call, the mean over the measuring ranks of each one's time from its own "
              "start to its return (over_ranks' avg_ns); mean over an experiment's calls; "
              "median over experiments"
            : "the time on rank 0 of the measuring ranks (the measured side); mean over an "
              "experiment's calls; median over experiments",
        "over_ranks",
        "avg_ns: per call the mean over ranks (as OSU and IMB report); max_ns: per call the "
        "slowest rank; entry_skew_ns: per call the latest minus the earliest start on "
        "offset-corrected clocks; each a median over experiments",
        "buffers", cfg->mpi_buffers == MB_BUFFERS_COLD ? "cold" : "warm");
}

json_t *mb_measure_json_header(const mb_bench_t *b, const mb_config_t *cfg)
{
    json_t *params = json_array(), *axes = json_array();
    for (size_t d = 0; d < b->ndims; d++) {
        const mb_dim_t *dim = &b->dims[d];
        json_array_append_new(params, json_string(dim->name));
        json_t *axis = json_pack("{s:s, s:s}", "name", dim->name, "role",
                                 mb_role_name(dim->labels ? MB_ROLE_LABEL : dim->role));
        if (dim->labels) {
            json_t *labels = json_array();
            for (const char *const *l = dim->labels; *l; l++)
                json_array_append_new(labels, json_string(*l));
            json_object_set_new(axis, "labels", labels);
        }
        json_array_append_new(axes, axis);
    }
    json_t *j = json_pack(
        "{s:s, s:s, s:s?, s:s?, s:s, s:s, s:o, s:o, s:s?, s:s?, s:[], s:i, s:n}", "name", b->name,
        "group", b->group, "summary", b->summary, "measures", b->measures, "unit", "ns",
        "statistic", b->statistic == MB_SUMMARY_MIN ? "min" : "median", "params", params, "axes",
        axes, "model", b->model == MB_MODEL_LINEAR_PD ? "linear_pd" : NULL, "loggp", b->loggp,
        "points", "failed_points", 0, "skipped");
    json_object_set_new(
        j, "measured_by",
        json_string(b->scope_of ? "depends on the point" : mb_measure_scope_text(b->scope)));
    if (b->op && cfg)
        json_object_set_new(j, "scheme", measure_json_scheme(b, cfg));
    if (b->windowed && cfg)
        json_object_set_new(j, "window", json_integer((json_int_t)cfg->mpi_window));
    return j;
}

/* A whole number as a JSON integer ("times": 2), any other as a real. */
static json_t *measure_json_number(double v)
{
    return v == floor(v) && fabs(v) < 9007199254740992.0 ? json_integer((json_int_t)v)
                                                         : json_real(v);
}

json_t *mb_measure_json_composed(const mb_compose_t *terms, size_t n)
{
    if (n == 0)
        return NULL;
    json_t *recipe = json_array();
    for (size_t i = 0; i < n; i++) {
        const mb_compose_t *t = &terms[i];
        json_t *term;
        if (t->benchmark) {
            term = json_pack("{s:s, s:o}", "benchmark", t->benchmark, "times",
                             measure_json_number(t->times));
            if (t->series_axis && t->series_label)
                json_object_set_new(term, "series",
                                    json_pack("{s:s}", t->series_axis, t->series_label));
            if (t->series_axis && t->series_label_across)
                json_object_set_new(term, "series_across_nodes",
                                    json_pack("{s:s}", t->series_axis, t->series_label_across));
        } else {
            term = json_pack("{s:o, s:s?}", "constant_ns", measure_json_number(t->constant_ns),
                             "what", t->what);
        }
        json_array_append_new(recipe, term);
    }
    return recipe;
}

json_t *mb_measure_params_json(const mb_bench_t *b, const mb_point_t *pt)
{
    json_t *p = json_object();
    for (size_t d = 0; d < b->ndims; d++) {
        const mb_dim_t *dim = &b->dims[d];
        json_object_set_new(p, dim->name,
                            dim->labels ? json_string(dim->labels[pt->v[d]])
                                        : json_integer(pt->v[d]));
    }
    return p;
}

void mb_measure_params_text(const mb_bench_t *b, const mb_point_t *pt, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < b->ndims && used < len; d++) {
        const mb_dim_t *dim = &b->dims[d];
        if (dim->labels)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", d ? " " : "", dim->name,
                                     dim->labels[pt->v[d]]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%lld", d ? " " : "", dim->name,
                                     (long long)pt->v[d]);
    }
}

json_t *mb_measure_json_point(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pt,
                              const mb_measurement_t *m)
{
    const mb_stats_t *s = &m->stats;
    json_t *j =
        json_pack("{s:o, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:[f,f], s:f, s:b, s:I}",
                  "params", mb_measure_params_json(b, pt), "status", "ok", "n", (json_int_t)s->n,
                  "min", s->min, "median", s->median, "mean", s->mean, "max", s->max, "stddev",
                  s->stddev, "p90", s->p90, "p99", s->p99, "ci95", s->ci95_lo, s->ci95_hi,
                  "ci95_rel_halfwidth", isfinite(m->ci_rel_halfwidth) ? m->ci_rel_halfwidth : -1.0,
                  "ci_target_met", m->ci_target_met, "iterations", (json_int_t)m->iters);
    /* Marked, not dropped: the user decides what a wide interval is worth. */
    json_object_set_new(j, "ci_too_wide",
                        json_boolean(!isfinite(m->ci_rel_halfwidth) ||
                                     m->ci_rel_halfwidth > ctx->config->run_ci_wide));
    /* A call timed one at a time whose median is under one step of the clock was not
     * resolved: on a VM whose clock steps by 20 ns, an MPI_Bcast of 0 bytes (no work) read
     * one step less the 20 ns timing overhead, a median of 0 in 1 of 8 runs. Said, not
     * hidden: the figure stays, and the report prints it as under the step. */
    if (b->op && s->median < ctx->timing->resolution_ns)
        json_object_set_new(j, "below_resolution_ns", json_real(ctx->timing->resolution_ns));
    /* Said where the runs test widened the CI (mb_stats_serial_factor), so that a reader
     * knows the experiments came in runs of one level. */
    if (s->serial_factor > 1.0)
        json_object_set_new(j, "ci95_serial_factor", json_real(s->serial_factor));
    /* Said, not split: which level is the figure depends on the question (os/README.md). */
    const mb_stats_levels_t *lv = &m->levels;
    if (lv->high_n > 0) {
        const char *median_in = s->median <= lv->low_max    ? "low"
                                : s->median >= lv->high_min ? "high"
                                                            : "between";
        json_object_set_new(j, "two_levels",
                            json_pack("{s:{s:I, s:f, s:f}, s:{s:I, s:f, s:f}, s:f, s:s}", "low",
                                      "n", (json_int_t)lv->low_n, "min", lv->low_min, "max",
                                      lv->low_max, "high", "n", (json_int_t)lv->high_n, "min",
                                      lv->high_min, "max", lv->high_max, "gap_ratio",
                                      lv->high_min / lv->low_max, "median_in", median_in));
    }
    if (m->trimmed)
        json_object_set_new(j, "trimmed_by_budget", json_true());
    if (m->late)
        json_object_set_new(j, "late_starts", json_integer((json_int_t)m->late));
    /* The bytes move outside the timed call (transfer_untimed: mpi.isend, irecv1,
     * irecvoverlap time the posting, or what the computation left over), so bytes over that
     * time is no bandwidth: it read 125-147 TB/s at 4 MiB, and the bandwidth plot's scale
     * went to it. */
    double bytes = b->bytes_per_op && !b->transfer_untimed ? (double)b->bytes_per_op(ctx, pt) : 0;
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
    double messages = b->messages_per_op ? (double)b->messages_per_op(ctx, pt) : 0;
    if (messages > 0 && s->min > 0 && s->ci95_lo > 0)
        json_object_set_new(j, "messages_per_s",
                            json_pack("{s:f, s:f, s:[f,f]}", "median", messages / s->median * 1e9,
                                      "best", messages / s->min * 1e9, "ci95",
                                      messages / s->ci95_hi * 1e9, messages / s->ci95_lo * 1e9));
    return j;
}

json_t *mb_measure_json_failed(const mb_bench_t *b, const mb_point_t *pt, const char *reason)
{
    return json_pack("{s:o, s:s, s:s}", "params", mb_measure_params_json(b, pt), "status", "failed",
                     "reason", reason);
}

/* Per-rank figures are listed only for this few ranks: beyond, rank 0 would hold O(p) per
 * point; the reductions give the mean, the maximum and the sum at any scale. */
#define OVER_RANKS_LIST_MAX 8

/* The measured ranks' medians and world ranks on comm's rank 0 (comm of at most
 * OVER_RANKS_LIST_MAX ranks): two arrays, in comm order. */
static void over_ranks_list(MPI_Comm comm, int world_rank, bool measured, double median,
                            json_t *over)
{
    double mine[2] = {measured ? median : -1, world_rank}, all[2 * OVER_RANKS_LIST_MAX];
    int me, size;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    MB_MPI_CHECK(MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, comm));
    if (me != 0)
        return;
    json_t *ranks = json_array(), *medians = json_array();
    for (int r = 0; r < size; r++) {
        if (all[2 * r] < 0)
            continue;
        json_array_append_new(medians, json_real(all[2 * r]));
        json_array_append_new(ranks, json_integer((json_int_t)all[2 * r + 1]));
    }
    json_object_set_new(over, "measured_ranks", ranks);
    json_object_set_new(over, "median_per_rank_ns", medians);
}

json_t *mb_measure_json_over_ranks(MPI_Comm comm, int world_rank, bool measured,
                                   const mb_measurement_t *m, double bytes_per_op)
{
    int me, size;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &me));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    double median = measured ? m->stats.median : 0;
    /* count, sum of medians, sum of rates: one reduction; the slowest rank: MAXLOC */
    double mine[3] = {measured, median, measured && median > 0 ? bytes_per_op / median * 1e9 : 0};
    double sums[3] = {0};
    struct {
        double v;
        int rank;
    } slow = {measured ? median : -1, world_rank}, slowest = {0, -1};
    MB_MPI_CHECK(MPI_Reduce(mine, sums, 3, MPI_DOUBLE, MPI_SUM, 0, comm));
    MB_MPI_CHECK(MPI_Reduce(&slow, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, comm));
    json_t *over = me == 0 ? json_pack("{s:I, s:f, s:f, s:i}", "ranks", (json_int_t)sums[0],
                                       "avg_ns", sums[0] > 0 ? sums[1] / sums[0] : 0.0, "max_ns",
                                       slowest.v, "max_rank", slowest.rank)
                           : NULL;
    if (me == 0 && bytes_per_op > 0)
        json_object_set_new(over, "aggregate_bytes_per_s", json_real(sums[2]));
    if (size <= OVER_RANKS_LIST_MAX)
        over_ranks_list(comm, world_rank, measured, median, over);
    return over;
}
