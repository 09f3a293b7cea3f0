/* SPDX-License-Identifier: MIT */
#include "mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void mb_mpi_fail(const char *call, int rc, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "mbsuite: %s failed at %s:%d: %s\n", call, file, line, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort();
}

void mb_mpi_wait_quietly(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    MB_MPI_CHECK(MPI_Ibarrier(comm, &req));
    MB_MPI_CHECK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    while (!done) {
        nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
        MB_MPI_CHECK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    }
}

char *mb_mpi_bcast_string(MPI_Comm comm, const char *text)
{
    int rank;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    long long len = -1;
    if (rank == 0 && text)
        len = (long long)strlen(text);
    MB_MPI_CHECK(MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, comm));
    if (len < 0)
        return NULL;
    char *buf = malloc((size_t)len + 1);
    if (!buf)
        mb_mpi_fail("malloc in mb_mpi_bcast_string", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    if (rank == 0)
        memcpy(buf, text, (size_t)len);
    MB_MPI_CHECK(MPI_Bcast(buf, (int)len, MPI_CHAR, 0, comm));
    buf[len] = '\0';
    return buf;
}
