/* SPDX-License-Identifier: MIT */
/* Small MPI helpers shared by the driver and the benchmarks. */
#ifndef MB_MPI_UTIL_H
#define MB_MPI_UTIL_H

#include <stddef.h>

#include <jansson.h>
#include <mpi.h>

/* Check an MPI call; on failure print the call and the MPI error string, and abort. */
#define MB_MPI_CHECK(call)                                                                    \
    do {                                                                                      \
        int mb_mpi_rc_ = (call);                                                              \
        if (mb_mpi_rc_ != MPI_SUCCESS)                                                        \
            mb_mpi_fail(#call, mb_mpi_rc_, __FILE__, __LINE__);                               \
    } while (0)

/* Print what failed and MPI_Abort(MPI_COMM_WORLD, 1). */
_Noreturn void mb_mpi_fail(const char *call, int rc, const char *file, int line);

/* Collective barrier over comm that sleeps between polls (MPI_Ibarrier + MPI_Test), so
 * ranks waiting for a long measurement elsewhere leave their cores alone. */
void mb_mpi_wait_quietly(MPI_Comm comm);
/* The same with naps of at most max_nap_ns (mb_mpi_wait_quietly's: 10 ms): a rank that
 * wakes late holds up the others' next step by up to its nap. */
void mb_mpi_wait_quietly_for(MPI_Comm comm, long max_nap_ns);

/* MPI_Allreduce that sleeps between polls (naps of at most 1 ms): for ranks that finish an
 * interval early while others on the same cores still measure theirs (oversubscribed
 * nodes), so they do not take the others' time. Not for anything timed. */
void mb_mpi_allreduce_quietly(const void *mine, void *all, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm);

/* Broadcast a string from rank 0 (NULL there means "failed": every rank gets NULL).
 * Returns a malloc'd copy on every rank, or NULL. */
char *mb_mpi_bcast_string(MPI_Comm comm, const char *text);

/* Collective over comm: every rank's `mine` (any JSON value; NULL counts as null) as an
 * array in rank order at rank 0 (new reference); NULL on the other ranks. Rank 0 receives
 * the sum of the values' sizes, so keep values small and the callers' totals O(ranks). */
json_t *mb_mpi_gather_json(MPI_Comm comm, const json_t *mine);

#endif
