/* SPDX-License-Identifier: MIT */
#include "node_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_util.h"

/* MB_PSEUDO_NODES as K >= 1; 0 when unset or empty, -1 when not such a number. */
static int layout_pseudo_nodes(void)
{
    const char *s = getenv("MB_PSEUDO_NODES");
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    long k = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || k < 1 || k > 1 << 20)
        return -1;
    return (int)k;
}

int mb_node_layout_create(MPI_Comm comm, mb_node_layout_t *l)
{
    int rank, size, k = layout_pseudo_nodes();
    if (k < 0)
        return -1;
    *l = (mb_node_layout_t){.node_comm = MPI_COMM_NULL, .leaders = MPI_COMM_NULL, .pseudo = k > 0};
    MB_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MB_MPI_CHECK(MPI_Comm_size(comm, &size));
    if (k == 0)
        MB_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &l->node_comm));
    else /* contiguous blocks of ranks, as a block-mapping launcher would place them */
        MB_MPI_CHECK(MPI_Comm_split(comm, (int)((long long)rank * k / size), rank, &l->node_comm));
    MB_MPI_CHECK(MPI_Comm_rank(l->node_comm, &l->local_rank));
    MB_MPI_CHECK(MPI_Comm_size(l->node_comm, &l->local_size));

    MB_MPI_CHECK(MPI_Comm_split(comm, l->local_rank == 0 ? 0 : MPI_UNDEFINED, rank, &l->leaders));
    if (l->leaders != MPI_COMM_NULL) {
        MB_MPI_CHECK(MPI_Comm_rank(l->leaders, &l->node));
        MB_MPI_CHECK(MPI_Comm_size(l->leaders, &l->nnodes));
    }
    int both[2] = {l->node, l->nnodes};
    MB_MPI_CHECK(MPI_Bcast(both, 2, MPI_INT, 0, l->node_comm));
    l->node = both[0];
    l->nnodes = both[1];

    if (gethostname(l->host, MB_HOST_MAX - 16) != 0)
        snprintf(l->host, MB_HOST_MAX, "unknown");
    l->host[MB_HOST_MAX - 17] = '\0';
    if (l->pseudo) {
        size_t h = strlen(l->host);
        snprintf(l->host + h, MB_HOST_MAX - h, "#%d", l->node);
    }
    return 0;
}

void mb_node_layout_free(mb_node_layout_t *l)
{
    if (l->leaders != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&l->leaders));
    if (l->node_comm != MPI_COMM_NULL)
        MB_MPI_CHECK(MPI_Comm_free(&l->node_comm));
}
