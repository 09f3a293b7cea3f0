/* SPDX-License-Identifier: MIT */
/* Test-only: lets MPICH ranks that share cores sleep while they wait, as Open MPI's
 * mpi_yield_when_idle does (scripts/launch.sh preloads it under MB_YIELD=1). Debian's
 * MPICH 4.0 (ch4:ucx) polls without pause and has no setting to yield (its
 * MPIR_CVAR_POLLS_BEFORE_YIELD belongs to the ch3 device, not built there): on the 2-core
 * test machine, 4 ranks took 37 ms per MPI_Barrier (Open MPI, yielding: 0.5-1 ms), and the
 * 4-rank tests ran past their timeouts. Wrapping UCX's progress call, which MPICH's
 * progress loop makes on every pass, with a 1 us sleep when it found nothing brought
 * that to 1.1 ms. Built as a shared object for `make MPI=mpich`; never linked into
 * mbsuite, and no figure a user gets is measured with it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    static unsigned (*real)(void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "ucp_worker_progress");
    unsigned events = real ? real(worker) : 0;
    if (events == 0) {
        struct timespec nap = {0, 1000};
        nanosleep(&nap, NULL);
    }
    return events;
}
