/* SPDX-License-Identifier: MIT */
/* An independent reference for mhz (seed 000 section 4), for `make bench`: the core clock
 * from a long chain of dependent register-register x86-64 adds (one tick each on every
 * x86-64 core; register-register, since some cores fold add-immediate at rename), timed
 * with clock_gettime: the best of 500 runs of ~100 us, ~50 ms in all. Many short runs, not
 * a few long ones: a 50 ms run on a busy or virtualised machine loses time slices (on the
 * 2-vCPU development VM with the other CPU's work queued, 50 ms runs gave ~1700 MHz while
 * 100 us runs gave 3244 MHz), and the minimum of short runs finds the undisturbed ones.
 * It shares no code with mbsuite.
 * /proc/cpuinfo's "cpu MHz" is no reference: in a VM it is the TSC rate. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__)

#define REF_ADDS 1000     /* adds per loop iteration */
#define REF_TARGET_NS 1e5 /* 100 us per run */
#define REF_RUNS 500

static double ref_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* iters x REF_ADDS dependent adds; the loop counter is a parallel chain. */
static double ref_run(uint64_t iters)
{
    uint64_t a = 0, b = 1, n = iters;
    double t0 = ref_now_ns();
    __asm__ volatile("1:\n\t"
                     ".rept 1000\n\t"
                     "add %[b], %[a]\n\t"
                     ".endr\n\t"
                     "dec %[n]\n\t"
                     "jnz 1b"
                     : [a] "+r"(a), [n] "+r"(n)
                     : [b] "r"(b)
                     : "cc");
    double t1 = ref_now_ns();
    __asm__ volatile("" : : "r"(a));
    return t1 - t0;
}

int main(void)
{
    uint64_t iters = 1;
    double t;
    while ((t = ref_run(iters)) < REF_TARGET_NS / 2) /* size the run to ~100 us */
        iters *= 2;
    iters = (uint64_t)((double)iters * REF_TARGET_NS / t) + 1;

    double best = 0;
    for (int r = 0; r < REF_RUNS; ++r) {
        t = ref_run(iters);
        if (best == 0 || t < best)
            best = t;
    }
    double mhz = (double)iters * REF_ADDS / best * 1000.0;
    printf("reference MHz: %.1f (%.4f ns clock; %d x %llu x %d dependent adds, best %.1f us)\n",
           mhz, 1000.0 / mhz, REF_RUNS, (unsigned long long)iters, REF_ADDS, best / 1e3);
    return 0;
}

#else

int main(void)
{
    printf("reference MHz: not available (needs x86-64)\n");
    return 0;
}

#endif
