/* SPDX-License-Identifier: MIT */
/* The measuring loop's options from the configuration (measure_opts.h). */
#include "measure_opts.h"

#include <math.h>

mb_measure_opts_t mb_measure_opts_of(const mb_config_t *cfg)
{
    return (mb_measure_opts_t){
        .min_experiments = cfg->run_min_experiments,
        .max_experiments = cfg->run_max_experiments,
        .ci_target = cfg->run_ci_target,
        .warmup_ns = (double)cfg->run_warmup,
        .timeout_ns = (double)cfg->run_point_timeout,
    };
}

double mb_measure_warmup_ns(const mb_config_t *cfg, size_t k)
{
    double first_ns = (double)cfg->run_warmup;
    return k == 0 ? first_ns : fmin((double)cfg->run_warmup_next, first_ns);
}
