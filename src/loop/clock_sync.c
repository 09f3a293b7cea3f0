/* SPDX-License-Identifier: MIT */
#include "clock_sync.h"

#include <math.h>

#include "mpi_util.h"

#define CLOCK_SYNC_EXCHANGES 32

double mb_clock_sync_offset(const mb_clock_t *clock, MPI_Comm comm, MPI_Comm node_comm,
                            double *uncertainty_ns)
{
    int rank, size, node_rank;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    MB_MPI_CHECK(MPI_Comm_rank(node_comm, &node_rank));
    /* Which world ranks lead a node other than rank 0's: rank 0 serves them one by one. */
    int zero_node = 0, leads = node_rank == 0 && rank != 0;
    if (rank == 0)
        zero_node = 1;
    MB_MPI_CHECK(MPI_Bcast(&zero_node, 1, MPI_INT, 0, node_comm));
    leads = leads && !zero_node;
    double result[2] = {0, 0}; /* offset, uncertainty */
    if (rank == 0) {
        /* Leaders announce themselves; the count is the number of other nodes. */
        int count = 0;
        MB_MPI_CHECK(MPI_Reduce(&leads, &count, 1, MPI_INT, MPI_SUM, 0, comm));
        for (int served = 0; served < count; served++) {
            MPI_Status st;
            double dummy;
            MB_MPI_CHECK(MPI_Recv(&dummy, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 7, comm, &st));
            for (int k = 0; k < CLOCK_SYNC_EXCHANGES; k++) {
                if (k > 0)
                    MB_MPI_CHECK(MPI_Recv(&dummy, 1, MPI_DOUBLE, st.MPI_SOURCE, 7, comm, MPI_STATUS_IGNORE));
                double now = (double)mb_clock_now_ns(clock);
                MB_MPI_CHECK(MPI_Send(&now, 1, MPI_DOUBLE, st.MPI_SOURCE, 8, comm));
            }
        }
    } else {
        MB_MPI_CHECK(MPI_Reduce(&leads, NULL, 1, MPI_INT, MPI_SUM, 0, comm));
        if (leads) {
            double best_rtt = INFINITY;
            for (int k = 0; k < CLOCK_SYNC_EXCHANGES; k++) {
                double t1 = (double)mb_clock_now_ns(clock), remote;
                MB_MPI_CHECK(MPI_Send(&t1, 1, MPI_DOUBLE, 0, 7, comm));
                MB_MPI_CHECK(MPI_Recv(&remote, 1, MPI_DOUBLE, 0, 8, comm, MPI_STATUS_IGNORE));
                double t2 = (double)mb_clock_now_ns(clock);
                if (t2 - t1 < best_rtt) {
                    best_rtt = t2 - t1;
                    result[0] = remote - (t1 + t2) / 2;
                    result[1] = best_rtt / 2;
                }
            }
        }
    }
    MB_MPI_CHECK(MPI_Bcast(result, 2, MPI_DOUBLE, 0, node_comm));
    *uncertainty_ns = result[1];
    return result[0];
}
