/* SPDX-License-Identifier: MIT */
/* ref_bw_mem N_BYTES rd|bcopy: lmbench bw_mem's method, outside mbsuite, for `make bench`
 * to set beside shm.bandwidth. rd: the buffer in 512-byte chunks, of each one 4-byte int
 * in four (32 loads per chunk, every 64-byte line touched) summed in one expression;
 * bcopy: one memcpy of N_BYTES into a second buffer. Both count N_BYTES per pass (bw_mem
 * counts a copy's size once, not its reads plus its writes). Each timing is sized to last
 * over 50 ms; of 11 timings the median is reported in MB/s (1e6 bytes/s), as lmbench's
 * benchmp does. Prints "N_BYTES MB/s". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIES 11

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile int sink;

/* p[0] + p[4] + ... + p[124] of each 512-byte chunk, as bw_mem's rd. */
static void rd(const int *buf, size_t nbytes, uint64_t passes)
{
    int sum = 0;
    const int *last = (const int *)((const char *)buf + nbytes - 512);
    while (passes-- > 0) {
        for (const int *p = buf; p <= last; p += 128) {
#define Q(i) p[i] + p[i + 4] + p[i + 8] + p[i + 12]
            sum += Q(0) + Q(16) + Q(32) + Q(48) + Q(64) + Q(80) + Q(96) + Q(112);
#undef Q
        }
    }
    sink = sum;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "rd") != 0 && strcmp(argv[2], "bcopy") != 0)) {
        fprintf(stderr, "usage: ref_bw_mem N_BYTES rd|bcopy\n");
        return 2;
    }
    size_t nbytes = (size_t)strtoull(argv[1], NULL, 0) / 512 * 512;
    int copy = strcmp(argv[2], "bcopy") == 0;
    if (nbytes < 512) {
        fprintf(stderr, "ref_bw_mem: N_BYTES must be at least 512\n");
        return 2;
    }
    int *buf = aligned_alloc(4096, (nbytes + 4095) / 4096 * 4096);
    char *dst = copy ? aligned_alloc(4096, (nbytes + 4095) / 4096 * 4096) : NULL;
    if (!buf || (copy && !dst)) {
        fprintf(stderr, "ref_bw_mem: cannot allocate %zu bytes\n", nbytes);
        return 1;
    }
    memset(buf, 0, nbytes);
    if (copy)
        memset(dst, 0, nbytes);
    uint64_t passes = 1;
    for (;;) { /* size the timed loop */
        double t0 = now_s();
        for (uint64_t k = 0; k < passes; k++)
            copy ? (void)memcpy(dst, buf, nbytes) : rd(buf, nbytes, 1);
        double t = now_s() - t0;
        if (t > 0.05 || passes >= 1u << 30)
            break;
        passes *= t > 1e-3 ? (uint64_t)(0.06 / t) + 1 : 10;
    }
    double mbs[TRIES];
    for (int k = 0; k < TRIES; k++) {
        double t0 = now_s();
        if (copy)
            for (uint64_t i = 0; i < passes; i++) {
                memcpy(dst, buf, nbytes);
                __asm__ volatile("" : : "r"(dst) : "memory");
            }
        else
            rd(buf, nbytes, passes);
        mbs[k] = 1e-6 * (double)nbytes * (double)passes / (now_s() - t0);
    }
    qsort(mbs, TRIES, sizeof mbs[0], cmp);
    printf("%zu %.1f\n", nbytes, mbs[TRIES / 2]);
    free(buf);
    free(dst);
    return 0;
}
