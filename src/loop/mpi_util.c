/* SPDX-License-Identifier: MIT */
#include "mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"

void mb_mpi_fail(const char *call, int rc, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    mb_progress_finish(); /* the message below a cleared line, none drawn after it */
    fprintf(stderr, "mbsuite: %s failed at %s:%d: %s\n", call, file, line, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort();
}

/* Complete req, sleeping between tests: short naps first so short waits end quickly, then
 * longer ones (up to max_nap_ns) so a long wait wakes the core it shares rarely. */
static void mpi_complete_quietly(MPI_Request *req, long max_nap_ns)
{
    int done = 0;
    MB_MPI_CHECK(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    long nap_ns = 20000;
    while (!done) {
        nanosleep(&(struct timespec){.tv_nsec = nap_ns}, NULL);
        if (nap_ns < max_nap_ns)
            nap_ns *= 2;
        MB_MPI_CHECK(MPI_Test(req, &done, MPI_STATUS_IGNORE));
    }
}

void mb_mpi_wait_quietly_for(MPI_Comm comm, long max_nap_ns)
{
    MPI_Request req;
    MB_MPI_CHECK(MPI_Ibarrier(comm, &req));
    mpi_complete_quietly(&req, max_nap_ns);
}

void mb_mpi_wait_quietly(MPI_Comm comm)
{
    mb_mpi_wait_quietly_for(comm, 10000000);
}

void mb_mpi_allreduce_quietly(const void *mine, void *all, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
    MPI_Request req;
    MB_MPI_CHECK(MPI_Iallreduce(mine, all, count, type, op, comm, &req));
    mpi_complete_quietly(&req, 1000000);
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

json_t *mb_mpi_gather_json(MPI_Comm comm, const json_t *mine)
{
    int rank, size;
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    char *text = mine ? json_dumps(mine, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (!text)
        text = strdup("null");
    int len = text ? (int)strlen(text) : -1;
    int *lens = NULL, *displs = NULL;
    char *all = NULL;
    if (rank == 0) {
        lens = calloc((size_t)size, sizeof *lens);
        displs = calloc((size_t)size, sizeof *displs);
    }
    if (!text || (rank == 0 && (!lens || !displs)))
        mb_mpi_fail("malloc in mb_mpi_gather_json", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    MB_MPI_CHECK(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, comm));
    if (rank == 0) {
        long long total = 0;
        for (int i = 0; i < size; i++) {
            displs[i] = (int)total;
            total += lens[i];
        }
        if (total > 0x7fffffff || !(all = malloc((size_t)total + 1)))
            mb_mpi_fail("malloc in mb_mpi_gather_json", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    }
    MB_MPI_CHECK(MPI_Gatherv(text, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm));
    json_t *list = NULL;
    if (rank == 0) {
        list = json_array();
        for (int i = 0; list && i < size; i++) {
            json_t *v = json_loadb(all + displs[i], (size_t)lens[i], JSON_DECODE_ANY, NULL);
            json_array_append_new(list, v ? v : json_null());
        }
    }
    free(all);
    free(displs);
    free(lens);
    free(text);
    return list;
}
