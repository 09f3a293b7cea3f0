/* SPDX-License-Identifier: MIT */
/* The lmbench 2.0 benchmarking API (seed 000 Appendix) on top of mbsuite's harness, so
 * lmbench-style programs build by including this header instead of "bench.h":
 *   BENCH(loop_body, enough)   experiments until the median is known (at least 11, the
 *                              seed's TRIES; more while its 95% CI is wider than 2%), saves
 *                              the median one; a single experiment if enough > 100 ms
 *   BENCH1(loop_body, enough)  one auto-sized experiment of at least `enough` us (0: auto)
 *   get_n(), save_n(n)         iterations of the saved experiment
 *   gettime(), settime(us)     its duration in microseconds, overheads subtracted
 *   milli/micro/nano(s, n)     print time per operation; mb(bytes), kb(bytes) bandwidth in
 *                              2^20 / 2^10 bytes per second, as lmbench does
 *   use_int(x), use_result(x), use_pointer(p)   keep results alive
 * Environment: ENOUGH, TIMING_O, LOOP_O (microseconds) as in lmbench. Output goes to
 * stderr, as lmbench's does. The API's state is process-wide, like lmbench's. */
#ifndef MB_LMBENCH_API_H
#define MB_LMBENCH_API_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loop_rules.h"

typedef uint64_t uint64;

/* One BENCH1 experiment in progress. */
typedef struct mb_lm_experiment {
    const mb_timing_t *timing;
    double enough_ns;
    uint64_t iters;
    uint64_t start_ns;
    bool accepted, failed;
} mb_lm_experiment_t;

/* One BENCH series in progress. */
typedef struct mb_lm_series {
    mb_measure_opts_t opts;
    mb_measurement_t m;
    uint64_t *iters; /* per sample */
} mb_lm_series_t;

void mb_lm_experiment_begin(mb_lm_experiment_t *e, int enough_us);
void mb_lm_experiment_start(mb_lm_experiment_t *e);
void mb_lm_experiment_stop(mb_lm_experiment_t *e);
void mb_lm_experiment_save(const mb_lm_experiment_t *e);
void mb_lm_series_begin(mb_lm_series_t *s, int enough_us);
bool mb_lm_series_more(mb_lm_series_t *s);
void mb_lm_series_end(mb_lm_series_t *s);

#define BENCH1(loop_body, enough)                                                            \
    {                                                                                        \
        mb_lm_experiment_t mb_lm_e_;                                                         \
        for (mb_lm_experiment_begin(&mb_lm_e_, (enough)); !mb_lm_e_.accepted && !mb_lm_e_.failed; \
             mb_lm_experiment_stop(&mb_lm_e_)) {                                             \
            mb_lm_experiment_start(&mb_lm_e_);                                               \
            for (uint64_t mb_lm_n_ = mb_lm_e_.iters; mb_lm_n_ > 0; mb_lm_n_--) {             \
                loop_body;                                                                   \
            }                                                                                \
        }                                                                                    \
        mb_lm_experiment_save(&mb_lm_e_);                                                    \
    }

#define BENCH(loop_body, enough)                                                             \
    {                                                                                        \
        mb_lm_series_t mb_lm_s_;                                                             \
        for (mb_lm_series_begin(&mb_lm_s_, (enough)); mb_lm_series_more(&mb_lm_s_);) {       \
            BENCH1(loop_body, enough);                                                       \
        }                                                                                    \
        mb_lm_series_end(&mb_lm_s_);                                                         \
    }

uint64 get_n(void);
void save_n(uint64 n);
double gettime(void);
void settime(double usecs);
void milli(const char *s, uint64 n);
void micro(const char *s, uint64 n);
void nano(const char *s, uint64 n);
void mb(uint64 bytes);
void kb(uint64 bytes);

#define use_int(x) mb_use_int((uint64_t)(x))
#define use_result(x) mb_use_int((uint64_t)(x))
#define use_pointer(p) mb_use_pointer(p)

#endif
