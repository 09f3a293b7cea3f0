/* SPDX-License-Identifier: MIT */
/* ref_chase SIZE_BYTES...: a dependent-load pointer chase after lmbench's lat_mem_rd,
 * outside mbsuite, for `make bench` to set beside shm.latency. For each working set: one
 * random cycle through all its 64-byte lines (its own generator and shuffle, not mbsuite's),
 * walked once untimed, then 11 timings of a loop of 100 unrolled loads p = *p lasting about
 * 20 ms each; prints "SIZE_BYTES median_ns min_ns short_median_ns" per load (lmbench's BENCH
 * reports the median of its experiments). short_median_ns is the median of 201 loops of about
 * 20 us each, mbsuite's experiments on these machines: the same chase, read with mbsuite's
 * statistic, so that `make bench` can tell the method's part of a difference from the
 * rest (20 ms loops take in what takes the CPU away, 20 us ones mostly miss it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 64
#define TRIES 11
#define SHORT_TRIES 201
#define SHORT_NS 20e3

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define L10(x) x x x x x x x x x x
#define HUNDRED L10(L10(p = (void **)*p;))

static void **chase(void **p, uint64_t hundreds)
{
    while (hundreds-- > 0) {
        HUNDRED
    }
    return p;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ref_chase SIZE_BYTES...\n");
        return 2;
    }
    void *volatile sink;
    for (int a = 1; a < argc; a++) {
        size_t bytes = (size_t)strtoull(argv[a], NULL, 0);
        size_t lines = bytes / LINE;
        if (lines < 2) {
            fprintf(stderr, "ref_chase: %s: need at least 2 lines of %d bytes\n", argv[a], LINE);
            return 2;
        }
        char *buf = aligned_alloc(4096, (lines * LINE + 4095) / 4096 * 4096);
        size_t *order = malloc(lines * sizeof *order);
        if (!buf || !order) {
            fprintf(stderr, "ref_chase: out of memory at %zu bytes\n", bytes);
            return 1;
        }
        memset(buf, 0, lines * LINE);
        /* A random order of the lines after line 0 (Fisher-Yates), closed into one cycle. */
        uint64_t seed = 0x9e3779b97f4a7c15u ^ bytes;
        for (size_t i = 0; i < lines; i++)
            order[i] = i;
        for (size_t i = lines - 1; i > 1; i--) {
            size_t j = 1 + (size_t)(xorshift(&seed) % i);
            size_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t i = 0; i < lines; i++)
            *(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
        free(order);
        void **p = (void **)buf;
        p = chase(p, lines / 100 + 1); /* one untimed lap */
        /* Size the loop to about 20 ms. */
        uint64_t hundreds = 1;
        for (;;) {
            double t0 = now_ns();
            p = chase(p, hundreds);
            double t = now_ns() - t0;
            if (t > 20e6)
                break;
            hundreds *= t > 1e6 ? (uint64_t)(25e6 / t) + 1 : 10;
        }
        double ns[TRIES];
        for (int k = 0; k < TRIES; k++) {
            double t0 = now_ns();
            p = chase(p, hundreds);
            ns[k] = (now_ns() - t0) / (100.0 * (double)hundreds);
        }
        qsort(ns, TRIES, sizeof ns[0], cmp);
        uint64_t short_hundreds = (uint64_t)(SHORT_NS / (100.0 * ns[TRIES / 2])) + 1;
        double short_ns[SHORT_TRIES];
        for (int k = 0; k < SHORT_TRIES; k++) {
            double t0 = now_ns();
            p = chase(p, short_hundreds);
            short_ns[k] = (now_ns() - t0) / (100.0 * (double)short_hundreds);
        }
        sink = p;
        qsort(short_ns, SHORT_TRIES, sizeof short_ns[0], cmp);
        printf("%zu %.3f %.3f %.3f\n", bytes, ns[TRIES / 2], ns[0], short_ns[SHORT_TRIES / 2]);
        free(buf);
    }
    (void)sink;
    return 0;
}
