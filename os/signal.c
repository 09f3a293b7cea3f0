/* SPDX-License-Identifier: MIT */
/* os.signal: lmbench 3's lat_sig (seed 003 Table 2, "signal install" and "signal catch").
 * install: one sigaction() installing a handler for SIGUSR1 (do_install); send: kill(me, 0),
 * the cost of sending without delivery (do_send); catch: kill(me, SIGUSR1) with an empty
 * handler installed, i.e. send plus delivery plus handler plus return (do_catch). lmbench's
 * "Signal handler overhead" is catch less send (bench_catch), derived here as
 * catch_overhead_ns. The previous SIGUSR1 action is restored after each point. The signal
 * goes to the calling thread by tgkill() where lmbench calls kill(): an MPI process has
 * other threads, and kill() may deliver to one of them, which is not the figure. */
#include <math.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "os_util.h"

enum { SIGNAL_INSTALL, SIGNAL_SEND, SIGNAL_CATCH };
static const char *const signal_op_labels[] = {"install", "send", "catch", NULL};
static const mb_dim_t signal_dims[] = {{.name = "op", .labels = signal_op_labels}};

typedef struct signal_state {
    int op;
    pid_t me, tid;
    struct sigaction old;
} signal_state_t;

static volatile sig_atomic_t signal_caught;

static void signal_handler(int sig)
{
    (void)sig;
    signal_caught++;
}

static int signal_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                         size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t op = SIGNAL_INSTALL; op <= SIGNAL_CATCH && n < max; op++)
        pts[n++] = (mb_point_t){.v = {op}};
    return (int)n;
}

static int signal_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                        size_t errlen)
{
    (void)ctx;
    signal_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->op = (int)pt->v[0];
    s->me = getpid();
    s->tid = (pid_t)syscall(SYS_gettid);
    struct sigaction sa = {.sa_handler = signal_handler};
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, &s->old) != 0) {
        snprintf(err, errlen, "sigaction(SIGUSR1) failed");
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void signal_teardown(void *state)
{
    signal_state_t *s = state;
    if (!s)
        return;
    sigaction(SIGUSR1, &s->old, NULL);
    free(s);
}

static void signal_run(void *state, uint64_t iters)
{
    signal_state_t *s = state;
    switch (s->op) {
    case SIGNAL_INSTALL: {
        /* lat_sig's do_install: handler, empty mask and flags set in every iteration, the
         * rest of the structure (152 bytes) cleared once, as lmbench leaves it. */
        struct sigaction sa = {0}, old;
        for (uint64_t i = iters; i > 0; i--) {
            sa.sa_handler = signal_handler;
            sigemptyset(&sa.sa_mask);
            sa.sa_flags = 0;
            sigaction(SIGUSR1, &sa, &old);
        }
        break;
    }
    case SIGNAL_SEND:
        for (uint64_t i = iters; i > 0; i--)
            syscall(SYS_tgkill, s->me, s->tid, 0);
        break;
    default:
        for (uint64_t i = iters; i > 0; i--)
            syscall(SYS_tgkill, s->me, s->tid, SIGUSR1);
        break;
    }
}

static json_t *signal_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    double send_ns = NAN, catch_ns = NAN;
    for (size_t i = 0; i < n; i++) {
        if (ms[i].n == 0)
            continue;
        if (pts[i].v[0] == SIGNAL_SEND)
            send_ns = ms[i].stats.median;
        else if (pts[i].v[0] == SIGNAL_CATCH)
            catch_ns = ms[i].stats.median;
    }
    double overhead = mb_os_subtract_ns(catch_ns, send_ns);
    return isfinite(overhead) ? json_pack("{s:f}", "catch_overhead_ns", overhead) : NULL;
}

const mb_bench_t mb_bench_os_signal = {
    .name = "os.signal",
    .group = "os",
    .summary = "signal handler install and catch (lmbench lat_sig install/catch)",
    .measures = "install: one sigaction(SIGUSR1); send: one tgkill(self, 0); catch: one "
                "tgkill(self, SIGUSR1) delivered to an empty handler; derived "
                "catch_overhead_ns = catch - send (lmbench's signal handler overhead)",
    .scope = MB_SCOPE_ONE,
    .dims = signal_dims,
    .ndims = MB_COUNT(signal_dims),
    .points = signal_points,
    .setup = signal_setup,
    .run = signal_run,
    .teardown = signal_teardown,
    .derive = signal_derive,
};
