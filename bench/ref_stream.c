/* SPDX-License-Identifier: MIT */
/* ref_stream N_BYTES [NTIMES]: McCalpin's STREAM method, outside mbsuite, for `make bench`
 * to set beside shm.stream_*. Three arrays of doubles of N_BYTES each, initialised in
 * parallel (first touch), then NTIMES (default 10, as stream.c) passes of copy, scale,
 * add and triad, each timed alone over all threads (OpenMP; the build ref_stream_serial,
 * without OpenMP, for one core); the best time of passes 2..NTIMES gives the rate,
 * counted as STREAM does: copy and scale 2 words per element, add and triad 3, no
 * write-allocate traffic; MB/s = 1e6 bytes/s. Prints one line per kernel: "NAME best_MB/s avg_s
 * min_s max_s median_MB/s", the last from the median pass: mbsuite's statistic on the same
 * passes, so that `make bench` can tell the statistic's part of a difference (STREAM's best
 * against mbsuite's median) from the rest. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#define REF_THREADS() omp_get_max_threads()
#else
/* ref_stream_serial: built without OpenMP, as STREAM is for a one-core figure. */
#define REF_THREADS() 1
#endif

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: ref_stream N_BYTES [NTIMES]\n");
        return 2;
    }
    size_t n = (size_t)strtoull(argv[1], NULL, 0) / sizeof(double);
    int ntimes = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1024 || ntimes < 2) {
        fprintf(stderr, "ref_stream: N_BYTES must be at least 8 KiB and NTIMES at least 2\n");
        return 2;
    }
    double *a = aligned_alloc(4096, (n * sizeof(double) + 4095) / 4096 * 4096);
    double *b = aligned_alloc(4096, (n * sizeof(double) + 4095) / 4096 * 4096);
    double *c = aligned_alloc(4096, (n * sizeof(double) + 4095) / 4096 * 4096);
    if (!a || !b || !c) {
        fprintf(stderr, "ref_stream: cannot allocate 3 x %zu doubles\n", n);
        return 1;
    }
    const double scalar = 3.0;
#pragma omp parallel for
    for (size_t j = 0; j < n; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    /* simd: stream.c's arrays are distinct static arrays, so the compiler vectorises its
     * kernels; through these heap pointers it would not without being told. */
    static const char *const names[4] = {"copy", "scale", "add", "triad"};
    static const double words[4] = {2, 2, 3, 3};
    double mint[4] = {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX}, maxt[4] = {0}, sumt[4] = {0};
    double *passes = malloc(4 * (size_t)ntimes * sizeof *passes); /* [kernel][pass] */
    if (!passes) {
        fprintf(stderr, "ref_stream: out of memory\n");
        return 1;
    }
    for (int k = 0; k < ntimes; k++) {
        double t[4];
        t[0] = now_s();
#pragma omp parallel for simd
        for (size_t j = 0; j < n; j++)
            c[j] = a[j];
        t[0] = now_s() - t[0];
        t[1] = now_s();
#pragma omp parallel for simd
        for (size_t j = 0; j < n; j++)
            b[j] = scalar * c[j];
        t[1] = now_s() - t[1];
        t[2] = now_s();
#pragma omp parallel for simd
        for (size_t j = 0; j < n; j++)
            c[j] = a[j] + b[j];
        t[2] = now_s() - t[2];
        t[3] = now_s();
#pragma omp parallel for simd
        for (size_t j = 0; j < n; j++)
            a[j] = b[j] + scalar * c[j];
        t[3] = now_s() - t[3];
        if (k == 0)
            continue; /* stream.c leaves the first pass out */
        for (int i = 0; i < 4; i++) {
            passes[i * ntimes + k - 1] = t[i];
            sumt[i] += t[i];
            mint[i] = t[i] < mint[i] ? t[i] : mint[i];
            maxt[i] = t[i] > maxt[i] ? t[i] : maxt[i];
        }
    }
    /* Keep the results alive, as stream.c's checkSTREAMresults does. */
    double check = 0;
    for (size_t j = 0; j < n; j += 4096)
        check += a[j] + b[j] + c[j];
    printf("threads %d, array %zu bytes, checksum %g\n", REF_THREADS(), n * sizeof(double),
           check);
    for (int i = 0; i < 4; i++) {
        double *ti = passes + i * ntimes;
        size_t m = (size_t)ntimes - 1;
        qsort(ti, m, sizeof *ti, cmp_double);
        double med = m % 2 ? ti[m / 2] : 0.5 * (ti[m / 2 - 1] + ti[m / 2]);
        double bytes = words[i] * sizeof(double) * (double)n;
        printf("%s %.1f %.6f %.6f %.6f %.1f\n", names[i], 1e-6 * bytes / mint[i],
               sumt[i] / (ntimes - 1), mint[i], maxt[i], 1e-6 * bytes / med);
    }
    free(passes);
    free(a);
    free(b);
    free(c);
    return 0;
}
