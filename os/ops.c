/* SPDX-License-Identifier: MIT */
/* os.ops: CPU operation latency and throughput (seed 003's CPU rates; lmbench 3's lat_ops
 * for latency, par_ops for the parallelism it turns into throughput): integer (64-bit) and
 * double add, multiply and divide. latency: 64 dependent operations per iteration, each
 * waiting for the one before; throughput: 8 independent chains of 8, so the figure is the
 * time per operation when the unit is kept busy (the reciprocal throughput). An empty asm
 * after every operation pins the value in a register, so the compiler can neither fold,
 * reassociate nor vectorise the chain, and the operands come from volatile memory so none
 * is a known constant; the inner loops are unrolled (no branch between operations).
 * Operands keep the values exact and away from denormals: add adds 1, mul multiplies by 1,
 * div computes k / x, which alternates between two values. An integer divider's time
 * depends on its operands, so int64 div takes lat_ops' do_int64_div's: x from 1036, k =
 * (1036 + 1) << 20, so x alternates between 1036 and about 2^20 (with k = 2^40 and x = 2^20,
 * the quotient always 21 bits, it read 1.10-1.14 times lmbench's figure on AMD Zen 2).
 * The harness's loop overhead is not subtracted: the loop's counter and branch run beside
 * the operations on an out-of-order core, not after them, and are one step in 64. With 16
 * operations an iteration and the overhead subtracted, int64 add throughput on a 6-ALU core
 * (AMD Zen 5) came out 0 in a CI run (the harness's overhead, measured as a call loop,
 * about as long as the whole iteration). */
#include <stdlib.h>

#include "bench.h"

#define OPS_PER_ITER 64

enum { OPS_INT64, OPS_DOUBLE };
enum { OPS_ADD, OPS_MUL, OPS_DIV };
enum { OPS_LATENCY, OPS_THROUGHPUT };
static const char *const ops_type_labels[] = {"int64", "double", NULL};
static const char *const ops_op_labels[] = {"add", "mul", "div", NULL};
static const char *const ops_mode_labels[] = {"latency", "throughput", NULL};
static const mb_dim_t ops_dims[] = {
    {.name = "type", .labels = ops_type_labels},
    {.name = "op", .labels = ops_op_labels},
    {.name = "mode", .labels = ops_mode_labels},
};

static volatile int64_t ops_int_one = 1, ops_int_k = (int64_t)1037 << 20, ops_int_start = 1036;
static volatile double ops_dbl_one = 1.0, ops_dbl_k = 3.0, ops_dbl_start = 1.5;

typedef struct ops_state {
    mb_run_fn run;
} ops_state_t;

#define OPS_KEEP(x) __asm__ volatile("" : "+r"(x))
#define OPS_KEEPX(x) __asm__ volatile("" : "+x"(x))

/* A latency loop: OPS_PER_ITER dependent `x = expr`. */
#define OPS_LAT(name, T, KEEP, init, expr)                                                      \
    static void name(void *state, uint64_t iters)                                              \
    {                                                                                          \
        (void)state;                                                                           \
        T one = ops_##init##_one, k = ops_##init##_k, x = ops_##init##_start;                  \
        (void)one, (void)k;                                                                    \
        for (uint64_t i = iters; i > 0; i--)                                                   \
            _Pragma("GCC unroll 64") for (int u = 0; u < OPS_PER_ITER; u++) {                 \
                x = expr;                                                                      \
                KEEP(x);                                                                       \
            }                                                                                  \
        mb_use_int((uint64_t)x);                                                               \
    }

/* A throughput loop: 8 independent chains, each OPS_PER_ITER / 8 operations deep. */
#define OPS_PAR(name, T, KEEP, init, e0, e1, e2, e3, e4, e5, e6, e7)                           \
    static void name(void *state, uint64_t iters)                                              \
    {                                                                                          \
        (void)state;                                                                           \
        T one = ops_##init##_one, k = ops_##init##_k;                                          \
        (void)one, (void)k;                                                                    \
        T x0 = ops_##init##_start, x1 = x0, x2 = x0, x3 = x0, x4 = x0, x5 = x0, x6 = x0,     \
          x7 = x0;                                                                             \
        for (uint64_t i = iters; i > 0; i--)                                                   \
            _Pragma("GCC unroll 8") for (int u = 0; u < OPS_PER_ITER / 8; u++) {              \
                x0 = e0, x1 = e1, x2 = e2, x3 = e3, x4 = e4, x5 = e5, x6 = e6, x7 = e7;       \
                KEEP(x0); KEEP(x1); KEEP(x2); KEEP(x3);                                        \
                KEEP(x4); KEEP(x5); KEEP(x6); KEEP(x7);                                        \
            }                                                                                  \
        mb_use_int((uint64_t)(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7));                        \
    }

#define OPS_PAR_BIN(name, T, KEEP, init, OP)                                                    \
    OPS_PAR(name, T, KEEP, init, x0 OP one, x1 OP one, x2 OP one, x3 OP one, x4 OP one,       \
            x5 OP one, x6 OP one, x7 OP one)
#define OPS_PAR_DIV(name, T, KEEP, init)                                                        \
    OPS_PAR(name, T, KEEP, init, k / x0, k / x1, k / x2, k / x3, k / x4, k / x5, k / x6, k / x7)

OPS_LAT(ops_int_add_lat, int64_t, OPS_KEEP, int, x + one)
OPS_LAT(ops_int_mul_lat, int64_t, OPS_KEEP, int, x *one)
OPS_LAT(ops_int_div_lat, int64_t, OPS_KEEP, int, k / x)
OPS_LAT(ops_dbl_add_lat, double, OPS_KEEPX, dbl, x + one)
OPS_LAT(ops_dbl_mul_lat, double, OPS_KEEPX, dbl, x *one)
OPS_LAT(ops_dbl_div_lat, double, OPS_KEEPX, dbl, k / x)
OPS_PAR_BIN(ops_int_add_par, int64_t, OPS_KEEP, int, +)
OPS_PAR_BIN(ops_int_mul_par, int64_t, OPS_KEEP, int, *)
OPS_PAR_DIV(ops_int_div_par, int64_t, OPS_KEEP, int)
OPS_PAR_BIN(ops_dbl_add_par, double, OPS_KEEPX, dbl, +)
OPS_PAR_BIN(ops_dbl_mul_par, double, OPS_KEEPX, dbl, *)
OPS_PAR_DIV(ops_dbl_div_par, double, OPS_KEEPX, dbl)

/* [type][op][mode] */
static const mb_run_fn ops_runs[2][3][2] = {
    {{ops_int_add_lat, ops_int_add_par},
     {ops_int_mul_lat, ops_int_mul_par},
     {ops_int_div_lat, ops_int_div_par}},
    {{ops_dbl_add_lat, ops_dbl_add_par},
     {ops_dbl_mul_lat, ops_dbl_mul_par},
     {ops_dbl_div_lat, ops_dbl_div_par}},
};

static int ops_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                      size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t t = OPS_INT64; t <= OPS_DOUBLE; t++)
        for (int64_t op = OPS_ADD; op <= OPS_DIV; op++)
            for (int64_t m = OPS_LATENCY; m <= OPS_THROUGHPUT && n < max; m++)
                pts[n++] = (mb_point_t){.v = {t, op, m}};
    return (int)n;
}

static int ops_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                     size_t errlen)
{
    (void)ctx;
    ops_state_t *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->run = ops_runs[pt->v[0]][pt->v[1]][pt->v[2]];
    *state = s;
    return 0;
}

static void ops_run(void *state, uint64_t iters)
{
    ops_state_t *s = state;
    s->run(s, iters);
}

const mb_bench_t mb_bench_os_ops = {
    .name = "os.ops",
    .group = "os",
    .summary = "int64 and double add, mul, div: latency and throughput (lmbench lat_ops, "
               "par_ops)",
    .measures = "one operation; latency: in a chain of dependent operations; throughput: "
                "8 independent chains interleaved (time per operation = 1 / throughput); 64 "
                "operations a loop iteration, the loop's overhead not subtracted",
    .scope = MB_SCOPE_ONE,
    .dims = ops_dims,
    .ndims = MB_COUNT(ops_dims),
    .points = ops_points,
    .setup = ops_setup,
    .run = ops_run,
    .teardown = free,
    .ops_per_iter = OPS_PER_ITER,
};
