/* SPDX-License-Identifier: MIT */
/* What measuring one point is expected to cost (point_cost.h). */
#include "point_cost.h"

#include <math.h>

#include "loop_rules.h"
#include "measure_opts.h"
#include "rank_sample.h"

double mb_point_iteration_ns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    if (!b->bytes_per_op || b->touch_bytes)
        return 0;
    double ops = b->ops_per_iter_at ? b->ops_per_iter_at(ctx, pt) : b->ops_per_iter;
    return fmax(ops, 1) * (double)b->bytes_per_op(ctx, pt) * MB_POINT_COST_NS_PER_MESSAGE_BYTE;
}

double mb_point_experiment_ns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    double iter_ns = mb_point_iteration_ns(ctx, b, pt), enough_ns = ctx->timing->enough_ns;
    double experiment_ns = fmax(enough_ns, iter_ns);
    /* A call timed between untimed transfers: as many transfers as calls, counted at the
     * most calls the rule may take (calls of one clock step), up to its wall-time cap. */
    if (b->op && b->transfer_untimed)
        experiment_ns = fmax(experiment_ns, fmin(MB_LOOP_CALL_TIMED_STEPS * iter_ns,
                                                 MB_LOOP_CALL_WALL_MAX * enough_ns));
    return experiment_ns + (double)b->lead_in * iter_ns;
}

/* mb_point_cost_s with this many experiments. */
static double point_cost_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt,
                           double experiments)
{
    return (mb_measure_warmup_ns(ctx->config, 1) +
            experiments * mb_point_experiment_ns(ctx, b, pt)) /
           1e9;
}

double mb_point_cost_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    mb_measure_opts_t opts = mb_measure_opts_of(ctx->config);
    return point_cost_s(ctx, b, pt, (double)mb_loop_max_experiments(&opts));
}

double mb_point_floor_cost_s(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    return point_cost_s(ctx, b, pt, MB_LOOP_BUDGET_FLOOR);
}

double mb_point_turns(const mb_context_t *ctx, const mb_bench_t *b, const mb_point_t *pt)
{
    int turns = ctx->node_size < MB_RANK_SAMPLE_K ? ctx->node_size : MB_RANK_SAMPLE_K;
    bool taking_turns = (b->scope_of ? b->scope_of(pt) : b->scope) == MB_SCOPE_SAMPLE_EACH;
    return taking_turns && turns > 1 ? turns : 1;
}

double mb_point_time_limit_ns(double left_s, double cost_s, double among_s)
{
    return left_s > 0 && among_s > 0 ? left_s * cost_s / among_s / 2 * 1e9 : 1;
}
