/* SPDX-License-Identifier: MIT */
/* ref_bw [--window W] SIZE...: the reference for mbsuite's mpi.bw in `make bench`, written as
 * osu_bw measures (OSU micro-benchmarks 7): rank 0 posts W (default 64) MPI_Isends of one
 * send buffer, rank 1 as many MPI_Irecvs into one receive buffer, both MPI_Waitall, then
 * rank 1 answers with a 4-byte acknowledgement; after `skip` warm-up windows, `iters`
 * windows timed as a whole with MPI_Wtime (100 and 10 up to 8 KiB, 20 and 2 above, as OSU).
 * Prints "SIZE BYTES_PER_S MEDIAN_BYTES_PER_S" per size on rank 0: size x W x iters over
 * the time, as osu_bw reports it, then size x W over the median window (one clock read per
 * window on rank 0): mbsuite's statistic on the same loop, where one window is one of its
 * experiments, so that `make bench` can tell the method's part of a difference from the
 * rest. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_bind.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, first = 1, window = 64;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ref_bind_to_core(rank);
    if (argc > 2 && strcmp(argv[1], "--window") == 0) {
        window = atoi(argv[2]);
        first = 3;
    }
    if (size < 2 || argc <= first || window < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 ref_bw [--window W] SIZE...\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Request *reqs = malloc((size_t)window * sizeof *reqs);
    if (!reqs)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int a = first; a < argc; a++) {
        long bytes = strtol(argv[a], NULL, 10);
        int iters = bytes > 8192 ? 20 : 100, skip = bytes > 8192 ? 2 : 10;
        char *sbuf = NULL, *rbuf = NULL;
        if (posix_memalign((void **)&sbuf, 4096, (size_t)bytes + 4) != 0 ||
            posix_memalign((void **)&rbuf, 4096, (size_t)bytes + 4) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(sbuf, 'a', (size_t)bytes + 4);
        memset(rbuf, 'b', (size_t)bytes + 4);
        double t0 = 0, last = 0, window_s[100];
        int nwin = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iters + skip; i++) {
            if (i == skip) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = last = MPI_Wtime();
            }
            if (rank == 0 && i > skip) {
                double now = MPI_Wtime();
                window_s[nwin++] = now - last;
                last = now;
            }
            if (rank == 0) {
                for (int j = 0; j < window; j++)
                    MPI_Isend(sbuf, (int)bytes, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
                MPI_Recv(rbuf, 4, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int j = 0; j < window; j++)
                    MPI_Irecv(rbuf, (int)bytes, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &reqs[j]);
                MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
                MPI_Send(sbuf, 4, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            window_s[nwin++] = MPI_Wtime() - last; /* the last window */
            qsort(window_s, (size_t)nwin, sizeof window_s[0], cmp);
            printf("%ld %.6g %.6g\n", bytes, (double)bytes * window * iters / t,
                   (double)bytes * window / window_s[nwin / 2]);
        }
        free(sbuf);
        free(rbuf);
    }
    free(reqs);
    MPI_Finalize();
    return 0;
}
