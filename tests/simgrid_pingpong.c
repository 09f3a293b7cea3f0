/* SPDX-License-Identifier: MIT */
/* For the export test (tests/run.sh, scripts/bench.sh): a pingpong compiled with SimGrid's
 * smpicc and run by smpirun on an exported platform. Prints "pingpong BYTES US" per size
 * given on the command line: half a round trip, averaged over 20 round trips, in simulated
 * time, after one untimed round trip. SMPI's barrier lets rank 0 out a 0-byte message's time
 * before rank 1, and a message moves only once its receive is posted (smpi/async-small-thresh
 * is 0), so a first round trip timed from the barrier took that much longer: 1/40 of a 0-byte
 * message on the average, 2.6% of the fitted model at 8 B and 2.0% at 1 KiB on one exported
 * run, its latencies x1 or x300 alike. */
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
        double t0 = 0;
        for (int i = -1; i < n; i++) {
            if (i == 0)
                t0 = MPI_Wtime();
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
