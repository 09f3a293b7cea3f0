/* SPDX-License-Identifier: MIT */
/* One thread, asleep on a condition variable (CLOCK_MONOTONIC) until the armed deadline; a
 * disarm or a new arm wakes it to wait again. It never calls MPI: the main thread may be
 * inside MPI, and the run's thread level is MPI_THREAD_SINGLE. */
#include "watchdog.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

/* The watchdog's state is the process's, as its thread is. */
static pthread_mutex_t watchdog_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watchdog_wake;
static pthread_once_t watchdog_once = PTHREAD_ONCE_INIT;
static bool watchdog_running;
static bool watchdog_armed;
static struct timespec watchdog_deadline;
static double watchdog_limit_s;
static char watchdog_what[512];

static bool watchdog_passed(const struct timespec *now, const struct timespec *t)
{
    return now->tv_sec > t->tv_sec || (now->tv_sec == t->tv_sec && now->tv_nsec >= t->tv_nsec);
}

static void watchdog_fire(void)
{
    char reason[768], err[1024];
    snprintf(reason, sizeof reason,
             "hung: %s still unfinished after %.3g s ([run] point_timeout twice over): a rank "
             "never arrived, and MPI cannot cancel the call it waits in; the job was ended",
             watchdog_what, watchdog_limit_s);
    int rc = mb_results_interrupt(reason, err, sizeof err);
    fprintf(stderr, "mbsuite: %s%s\n", reason,
            rc == 0 ? "; results.json records the run so far" : "");
    if (rc < 0)
        fprintf(stderr, "mbsuite: error: %s\n", err);
    fflush(stderr);
    _exit(3);
}

static void *watchdog_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&watchdog_lock);
    for (;;) {
        if (!watchdog_armed) {
            pthread_cond_wait(&watchdog_wake, &watchdog_lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (watchdog_passed(&now, &watchdog_deadline))
            watchdog_fire(); /* never returns; the lock dies with the process */
        pthread_cond_timedwait(&watchdog_wake, &watchdog_lock, &watchdog_deadline);
    }
    return NULL;
}

static void watchdog_start(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&watchdog_wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t thread;
    pthread_attr_t tattr;
    if (pthread_attr_init(&tattr) != 0)
        return;
    pthread_attr_setdetachstate(&tattr, PTHREAD_CREATE_DETACHED);
    watchdog_running = pthread_create(&thread, &tattr, watchdog_main, NULL) == 0;
    pthread_attr_destroy(&tattr);
}

void mb_watchdog_arm(double limit_s, const char *what)
{
    if (!(limit_s > 0))
        return;
    pthread_once(&watchdog_once, watchdog_start);
    pthread_mutex_lock(&watchdog_lock);
    clock_gettime(CLOCK_MONOTONIC, &watchdog_deadline);
    double whole = (double)(time_t)limit_s;
    watchdog_deadline.tv_sec += (time_t)limit_s;
    watchdog_deadline.tv_nsec += (long)((limit_s - whole) * 1e9);
    if (watchdog_deadline.tv_nsec >= 1000000000L) {
        watchdog_deadline.tv_sec++;
        watchdog_deadline.tv_nsec -= 1000000000L;
    }
    watchdog_limit_s = limit_s;
    snprintf(watchdog_what, sizeof watchdog_what, "%s", what);
    watchdog_armed = watchdog_running;
    pthread_cond_signal(&watchdog_wake);
    pthread_mutex_unlock(&watchdog_lock);
}

void mb_watchdog_disarm(void)
{
    pthread_mutex_lock(&watchdog_lock);
    watchdog_armed = false;
    pthread_mutex_unlock(&watchdog_lock);
}
