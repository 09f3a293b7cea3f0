/* SPDX-License-Identifier: MIT */
/* Which ranks share a node: the node communicator, the communicator of node leaders (local
 * rank 0 of each node, in world-rank order, so the leader's rank is the node's index), and
 * the host name. MB_PSEUDO_NODES=K splits the ranks into K pseudo-nodes of contiguous world
 * ranks instead, so multi-node logic can be tested on one machine; their hosts read
 * "<host>#<k>". */
#ifndef MB_NODE_LAYOUT_H
#define MB_NODE_LAYOUT_H

#include <stdbool.h>

#include <mpi.h>

#define MB_HOST_MAX 280

typedef struct mb_node_layout {
    MPI_Comm node_comm;     /* the ranks of this node */
    MPI_Comm leaders;       /* node leaders; MPI_COMM_NULL on the other ranks */
    int node, nnodes;       /* this node's index and the number of nodes (on every rank) */
    int local_rank, local_size;
    bool pseudo;            /* split by MB_PSEUDO_NODES */
    char host[MB_HOST_MAX]; /* this node's name */
} mb_node_layout_t;

/* Collective over comm. Returns 0, or -1 when MB_PSEUDO_NODES is set but is not a whole
 * number >= 1 (nothing is created then). */
int mb_node_layout_create(MPI_Comm comm, mb_node_layout_t *l);

void mb_node_layout_free(mb_node_layout_t *l);

#endif
