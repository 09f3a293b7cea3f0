/* SPDX-License-Identifier: MIT */
/* Test-only: a slow disk, for tests/faults.sh. Preloaded, it makes every fsync and
 * fdatasync wait MB_SLOW_FSYNC_MS milliseconds (default 400) before doing it, as CI's busy
 * disk once did: there the fsyncs of one benchmark's write outlasted the second between
 * mpirun's SIGTERM and its SIGKILL, and the run died unrecorded (results.c: results_write).
 * Every rename waits MB_SLOW_RENAME_MS (default 0): an interrupted run's last write
 * (results.c: mb_results_interrupt) then takes that long, and a rank that ended before it
 * made mpirun SIGKILL rank 0 mid-write (signals.c). Built with plain gcc, as ucx_idle.c,
 * so that it brings no MPI library with it; never linked into mbsuite. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

int fsync(int fd);
int fdatasync(int fd);
int rename(const char *from, const char *to);

static void slow_disk_wait(const char *var, long default_ms)
{
    const char *ms_text = getenv(var);
    long ms = ms_text ? atol(ms_text) : default_ms;
    struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&wait, NULL);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fsync");
    slow_disk_wait("MB_SLOW_FSYNC_MS", 400);
    return real ? real(fd) : 0;
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fdatasync");
    slow_disk_wait("MB_SLOW_FSYNC_MS", 400);
    return real ? real(fd) : 0;
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "rename");
    slow_disk_wait("MB_SLOW_RENAME_MS", 0);
    return real ? real(from, to) : -1;
}
