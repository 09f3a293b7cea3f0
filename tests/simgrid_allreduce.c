/* SPDX-License-Identifier: MIT */
/* For the export test (tests/run.sh, scripts/bench.sh): MPI_Allreduce compiled with
 * SimGrid's smpicc and run by smpirun on an exported platform, as mbsuite's mpi.allreduce
 * calls it (MPI_SUM of BYTES / 8 doubles). Prints "allreduce BYTES US" per size given on
 * the command line: the time of one call, averaged over 20, in simulated time, after one
 * untimed call, so that the ranks start the timed ones in step (simgrid_pingpong.c: SMPI's
 * barrier lets them out a message's time apart, which put 5.2% of the fitted pingpong at
 * 8 B on the 20 calls' mean). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int a = 1; a < argc; a++) {
        int bytes = atoi(argv[a]), n = 20, count = bytes / 8;
        double *in = calloc(count > 0 ? (size_t)count : 1, sizeof *in);
        double *out = calloc(count > 0 ? (size_t)count : 1, sizeof *out);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++)
            MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double us = (MPI_Wtime() - t0) / n * 1e6;
        if (me == 0)
            printf("allreduce %d %.6g\n", bytes, us);
        free(in);
        free(out);
    }
    MPI_Finalize();
    return 0;
}
