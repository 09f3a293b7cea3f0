/* SPDX-License-Identifier: MIT */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_util.h"

const char *mb_measure_skip_reason(const mb_bench_t *b, const mb_context_t *ctx, char *buf, size_t len)
{
    if (b->min_ranks > ctx->size) {
        snprintf(buf, len, "needs at least %d ranks, the run has %d", b->min_ranks, ctx->size);
        return buf;
    }
    return NULL;
}

static json_t *measure_bench_header(const mb_bench_t *b)
{
    json_t *params = json_array();
    for (size_t d = 0; d < b->ndims; d++)
        json_array_append_new(params, json_string(b->dims[d].name));
    return json_pack("{s:s, s:s, s:s?, s:s?, s:s, s:s, s:o, s:[], s:n}", "name", b->name, "group",
                     b->group, "summary", b->summary, "measures", b->measures, "unit", "ns",
                     "statistic", b->statistic == MB_SUMMARY_MIN ? "min" : "median", "params",
                     params, "points", "skipped");
}

json_t *mb_measure_skipped_json(const mb_bench_t *b, const char *reason)
{
    json_t *j = measure_bench_header(b);
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
    if (b->bytes_per_op) {
        double bytes = (double)b->bytes_per_op(ctx, pt);
        /* Time and rate are reciprocal: the fastest time is the best rate. */
        json_object_set_new(j, "bytes_per_op", json_integer((json_int_t)bytes));
        json_object_set_new(j, "bandwidth_bytes_per_s",
                            json_pack("{s:f, s:f, s:f, s:[f,f]}", "median", bytes / s->median * 1e9,
                                      "best", bytes / s->min * 1e9, "worst", bytes / s->max * 1e9,
                                      "ci95", bytes / s->ci95_hi * 1e9, bytes / s->ci95_lo * 1e9));
    }
    return j;
}

static double measure_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Rank 0 alone: measure every point; NULL with reason set when a point cannot be set up. */
static json_t *measure_root(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                            size_t npts, const char *progress, char *reason, size_t reason_len)
{
    const mb_config_t *cfg = ctx->config;
    mb_measure_opts_t opts = {
        .min_experiments = cfg->run_min_experiments,
        .max_experiments = cfg->run_max_experiments,
        .ci_target = cfg->run_ci_target,
        .warmup_ns = (double)cfg->run_warmup,
        .ops_per_iter = b->ops_per_iter,
        .subtract_loop_overhead = b->subtract_loop_overhead,
    };
    mb_measurement_t *ms = calloc(npts, sizeof *ms);
    json_t *result = measure_bench_header(b);
    json_t *points = json_object_get(result, "points");
    size_t done = 0;
    double began = measure_now_s();

    for (; done < npts; done++) {
        char label[256];
        measure_params_text(b, &pts[done], label, sizeof label);
        fprintf(stderr, "mbsuite: %s %s %s\n", progress, b->name, label);
        void *state = NULL;
        char err[512] = "";
        if (b->setup && b->setup(ctx, &pts[done], &state, err, sizeof err) != 0) {
            snprintf(reason, reason_len, "setup of %s failed: %s", label, err);
            goto fail;
        }
        int rc = mb_harness_measure(ctx->timing, &opts, b->run, state, &ms[done]);
        if (b->teardown)
            b->teardown(state);
        if (rc != 0) {
            snprintf(reason, reason_len,
                     "%s: the loop does no measurable work (optimised away?) or is out of memory",
                     label);
            goto fail;
        }
        json_array_append_new(points, measure_point_json(b, ctx, &pts[done], &ms[done]));
    }
    if (b->derive) {
        json_t *derived = b->derive(pts, ms, npts);
        if (derived)
            json_object_set_new(result, "derived", derived);
    }
    json_object_set_new(result, "elapsed_s", json_real(measure_now_s() - began));
    for (size_t i = 0; i < npts; i++)
        mb_measurement_free(&ms[i]);
    free(ms);
    return result;
fail:
    for (size_t i = 0; i < done; i++)
        mb_measurement_free(&ms[i]);
    free(ms);
    json_decref(result);
    return NULL;
}

json_t *mb_measure_bench(const mb_bench_t *b, const mb_context_t *ctx, const mb_point_t *pts,
                         size_t npts, const char *progress)
{
    json_t *result = NULL;
    if (ctx->rank == 0) {
        char reason[768];
        result = measure_root(b, ctx, pts, npts, progress, reason, sizeof reason);
        if (!result)
            result = mb_measure_skipped_json(b, reason);
    }
    /* Idle ranks sleep rather than spin, so they do not steal the measuring core's time. */
    mb_mpi_wait_quietly(ctx->comm);
    return result;
}
