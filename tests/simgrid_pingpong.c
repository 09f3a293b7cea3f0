/* SPDX-License-Identifier: MIT */
/* For the export test (tests/run.sh, scripts/bench.sh): a pingpong compiled with SimGrid's
 * smpicc and run by smpirun on an exported platform. Prints "pingpong BYTES US" per size
 * given on the command line: half a round trip, averaged over 20 round trips, in simulated
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int a = 1; a < argc; a++) {
        int bytes = atoi(argv[a]), n = 20;
        char *buf = calloc(1, bytes > 0 ? (size_t)bytes : 1);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            if (me == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double us = (MPI_Wtime() - t0) / n / 2 * 1e6;
        if (me == 0)
            printf("pingpong %d %.6g\n", bytes, us);
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
