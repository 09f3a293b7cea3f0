/* SPDX-License-Identifier: MIT */
/* Test-only: a slow disk, for tests/faults.sh. Preloaded, it makes every fsync and
 * fdatasync wait MB_SLOW_FSYNC_MS milliseconds (default 400) before doing it, as CI's busy
 * disk once did: there the fsyncs of one benchmark's write outlasted the second between
 * mpirun's SIGTERM and its SIGKILL, and the run died unrecorded (results.c: results_write).
 * Built with plain gcc, as ucx_idle.c, so that it brings no MPI library with it; never
 * linked into mbsuite. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

int fsync(int fd);
int fdatasync(int fd);

static void slow_fsync_wait(void)
{
    const char *ms_text = getenv("MB_SLOW_FSYNC_MS");
    long ms = ms_text ? atol(ms_text) : 400;
    struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&wait, NULL);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fsync");
    slow_fsync_wait();
    return real ? real(fd) : 0;
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fdatasync");
    slow_fsync_wait();
    return real ? real(fd) : 0;
}
