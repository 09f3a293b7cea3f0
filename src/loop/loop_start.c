/* SPDX-License-Identifier: MIT */
#include "loop_start.h"

#include "mpi_util.h"

static bool start_none_wait(mb_start_state_t *s, MPI_Comm comm, uint64_t i)
{
    (void)s;
    (void)comm;
    (void)i;
    return false;
}

const mb_start_t mb_start_none = {
    .name = "none",
    .describe = "no synchronisation: the ranks start on their own",
    .min_intervals = 1,
    .wait = start_none_wait,
};

static bool start_barrier_wait(mb_start_state_t *s, MPI_Comm comm, uint64_t i)
{
    (void)s;
    (void)i;
    MB_MPI_CHECK(MPI_Barrier(comm));
    return false;
}

const mb_start_t mb_start_barrier = {
    .name = "barrier",
    .describe = "MPI_Barrier over the measuring ranks before every call",
    .min_intervals = 1,
    .wait = start_barrier_wait,
};

/* The window is twice the slowest interval seen plus 5 us, times the growth that late
 * starts have asked for. */
static void start_window_begin(mb_start_state_t *s, MPI_Comm comm)
{
    if (s->growth < 1)
        s->growth = 1;
    if (s->growth > MB_START_GROWTH_MAX)
        s->growth = MB_START_GROWTH_MAX;
    s->window_ns = (2 * s->call_ns + 5000) * s->growth;
    /* Far enough ahead that the broadcast reaches every rank before the first start; the
     * lead grows with the window: on a loaded machine a rank that is descheduled between
     * the broadcast and its first start (a time slice, milliseconds) would otherwise be late
     * for start 0 in every experiment, however wide the windows become. */
    double start = (double)mb_clock_now_ns(s->clock) + s->offset_ns + 100000 * s->growth;
    MB_MPI_CHECK(MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm));
    s->t0_ns = start;
}

static bool start_window_wait(mb_start_state_t *s, MPI_Comm comm, uint64_t i)
{
    (void)comm;
    double at = s->t0_ns + (double)i * s->window_ns;
    if ((double)mb_clock_now_ns(s->clock) + s->offset_ns > at)
        return true;
    while ((double)mb_clock_now_ns(s->clock) + s->offset_ns < at)
        ;
    return false;
}

/* With windows a call costs two windows of wall time: at least 16 calls an experiment, or
 * a few calls would make a coarse mean. */
const mb_start_t mb_start_window = {
    .name = "window",
    .describe = "every call starts at a common time on offset-corrected clocks (ReproMPI's "
                "window scheme), windows of twice the slowest call plus 5 us; an experiment "
                "in which a rank reached a start late is discarded and the window and the lead "
                "before the first start doubled, up to 256 times; beyond that a late "
                "experiment is kept and counted in late_starts",
    .min_intervals = 16,
    .begin = start_window_begin,
    .wait = start_window_wait,
};
