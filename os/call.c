/* SPDX-License-Identifier: MIT */
/* os.proc_call: procedure call cost by number of arguments, 0 to 7 (seed 004 III.A.3,
 * "Procedure Call Overhead": eight procedures that return at once, one per argument count).
 * The callee is noinline and called through a pointer read from a volatile variable, so
 * the compiler can neither inline the call nor drop it; each argument is a distinct
 * integer the caller must set up (x86-64 passes the first six in registers, the seventh
 * on the stack). The harness subtracts its loop overhead, so the figure is the call, the
 * argument set-up and the return. */
#include <stdlib.h>

#include "bench.h"

#define PROC_CALL_MAX_ARGS 7
#define PROC_CALL_UNROLL 8

static const mb_dim_t proc_call_dims[] = {{.name = "args", .role = MB_ROLE_COUNT}};

/* The callees: an empty asm keeps each a real function with a body the compiler cannot
 * merge with another. */
#define CALLEE __attribute__((noinline, noclone))
CALLEE static long proc_call_f0(void) { __asm__ volatile(""); return 0; }
CALLEE static long proc_call_f1(long a) { __asm__ volatile(""); return a; }
CALLEE static long proc_call_f2(long a, long b) { __asm__ volatile(""); return a + b; }
CALLEE static long proc_call_f3(long a, long b, long c) { __asm__ volatile(""); return a + b + c; }
CALLEE static long proc_call_f4(long a, long b, long c, long d)
{
    __asm__ volatile("");
    return a + b + c + d;
}
CALLEE static long proc_call_f5(long a, long b, long c, long d, long e)
{
    __asm__ volatile("");
    return a + b + c + d + e;
}
CALLEE static long proc_call_f6(long a, long b, long c, long d, long e, long f)
{
    __asm__ volatile("");
    return a + b + c + d + e + f;
}
CALLEE static long proc_call_f7(long a, long b, long c, long d, long e, long f, long g)
{
    __asm__ volatile("");
    return a + b + c + d + e + f + g;
}

/* Opaque pointers: volatile, so every call is indirect through a fresh load. */
static long (*volatile proc_call_p0)(void) = proc_call_f0;
static long (*volatile proc_call_p1)(long) = proc_call_f1;
static long (*volatile proc_call_p2)(long, long) = proc_call_f2;
static long (*volatile proc_call_p3)(long, long, long) = proc_call_f3;
static long (*volatile proc_call_p4)(long, long, long, long) = proc_call_f4;
static long (*volatile proc_call_p5)(long, long, long, long, long) = proc_call_f5;
static long (*volatile proc_call_p6)(long, long, long, long, long, long) = proc_call_f6;
static long (*volatile proc_call_p7)(long, long, long, long, long, long, long) = proc_call_f7;

#define PROC_CALL_RUN(n, call)                                                                  \
    static void proc_call_run##n(void *state, uint64_t iters)                                   \
    {                                                                                           \
        (void)state;                                                                            \
        long acc = 0;                                                                           \
        for (uint64_t i = iters; i > 0; i--) {                                                  \
            long x = (long)i;                                                                   \
            (void)x;                                                                            \
            _Pragma("GCC unroll 8") for (int u = 0; u < PROC_CALL_UNROLL; u++)                  \
                acc += call;                                                                    \
        }                                                                                       \
        mb_use_int((uint64_t)acc);                                                              \
    }
PROC_CALL_RUN(0, proc_call_p0())
PROC_CALL_RUN(1, proc_call_p1(x))
PROC_CALL_RUN(2, proc_call_p2(x, 2))
PROC_CALL_RUN(3, proc_call_p3(x, 2, 3))
PROC_CALL_RUN(4, proc_call_p4(x, 2, 3, 4))
PROC_CALL_RUN(5, proc_call_p5(x, 2, 3, 4, 5))
PROC_CALL_RUN(6, proc_call_p6(x, 2, 3, 4, 5, 6))
PROC_CALL_RUN(7, proc_call_p7(x, 2, 3, 4, 5, 6, 7))

static const mb_run_fn proc_call_runs[PROC_CALL_MAX_ARGS + 1] = {
    proc_call_run0, proc_call_run1, proc_call_run2, proc_call_run3,
    proc_call_run4, proc_call_run5, proc_call_run6, proc_call_run7,
};

typedef struct proc_call_state {
    mb_run_fn run;
} proc_call_state_t;

static int proc_call_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                            size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t a = 0; a <= PROC_CALL_MAX_ARGS && n < max; a++)
        pts[n++] = (mb_point_t){.v = {a}};
    return (int)n;
}

static int proc_call_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen)
{
    (void)ctx;
    proc_call_state_t *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->run = proc_call_runs[pt->v[0]];
    *state = s;
    return 0;
}

static void proc_call_run(void *state, uint64_t iters)
{
    proc_call_state_t *s = state;
    s->run(s, iters);
}

const mb_bench_t mb_bench_os_proc_call = {
    .name = "os.proc_call",
    .group = "os",
    .summary = "procedure call by number of arguments, 0..7 (seed 004 III.A.3)",
    .measures = "one call of a noinline procedure that returns at once, through an opaque "
                "(volatile) pointer, with `args` integer arguments; loop overhead subtracted",
    .scope = MB_SCOPE_ONE,
    .dims = proc_call_dims,
    .ndims = MB_COUNT(proc_call_dims),
    .points = proc_call_points,
    .setup = proc_call_setup,
    .run = proc_call_run,
    .teardown = free,
    .ops_per_iter = PROC_CALL_UNROLL,
    .subtract_loop_overhead = true,
};
