/* SPDX-License-Identifier: MIT */
/* A thread that waits for the signals, rather than a handler: rank 0 may be blocked inside
 * MPI when mpirun signals it, and what it must do (write results.json through jansson and
 * stdio) is not async-signal-safe; a thread does it as ordinary code, under results.c's
 * lock, while the main thread stays where it is. */
#include "signals.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

/* How long a process with no record to write outlives the signal. Open MPI 4.1's mpirun
 * (odls_base_default_fns.c) sends SIGTERM, sleep()s odls_base_sigkill_timeout (1 s), then
 * SIGKILLs every rank of the node; a SIGCHLD ends that sleep early (glibc's sleep() returns
 * the whole seconds left: 0), so the first rank to end starts the SIGKILL. A rank 1 that
 * ended at once cut rank 0's record short (seen in CI: "did not finish" after SIGTERM).
 * Longer than mpirun's second, so rank 0, or mpirun's SIGKILL, ends first; under a
 * launcher that never sends SIGKILL the rank ends after it. */
#define SIGNALS_BYSTANDER_GRACE_S 3

static bool signals_writes_record;

static const char *signals_name(int sig)
{
    switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    }
    return "a signal";
}

static void signals_add(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

static void *signals_wait(void *unused)
{
    (void)unused;
    sigset_t set;
    signals_add(&set);
    int sig = 0;
    while (sigwait(&set, &sig) != 0)
        ;
    char reason[320], err[1024];
    snprintf(reason, sizeof reason,
             "interrupted: %s (the user or the batch system ended the job, or mpirun ended it "
             "because another rank died)",
             signals_name(sig));
    int rc = mb_results_interrupt(reason, err, sizeof err);
    if (rc == 0)
        fprintf(stderr, "mbsuite: %s; results.json records the run so far\n", reason);
    else if (rc < 0)
        fprintf(stderr, "mbsuite: error: %s\n", err);
    if (!signals_writes_record) {
        struct timespec grace = {SIGNALS_BYSTANDER_GRACE_S, 0};
        while (nanosleep(&grace, &grace) != 0)
            ;
    }
    /* The default action, now for this thread alone to receive. */
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    _exit(128 + sig);
}

int mb_signals_start(bool writes_record)
{
    signals_writes_record = writes_record;
    sigset_t set;
    signals_add(&set);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
        return -1;
    pthread_t thread;
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        rc = pthread_create(&thread, &attr, signals_wait, NULL);
        pthread_attr_destroy(&attr);
    }
    if (rc != 0) {
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        return -1;
    }
    return 0;
}

void mb_signals_unblock(void)
{
    sigset_t set;
    signals_add(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
