/* SPDX-License-Identifier: MIT */
/* The memory accesses of Howell's shared-memory table (seed 001): reads and writes of a
 * process's own cache, its own memory, and a neighbour process's memory, in an MPI-3
 * shared-memory window of the node. */
#ifndef MB_HOWELL_ACCESS_H
#define MB_HOWELL_ACCESS_H

#include "bench.h"

enum { HOWELL_LOCALCACHE, HOWELL_LOCAL, HOWELL_NEIGHBOUR, HOWELL_NEIGHBOUR_FAR };
enum { HOWELL_LATENCY, HOWELL_STREAM };

extern const char *const mb_howell_target_labels[];
extern const char *const mb_howell_access_labels[];

/* Points target x access (writes: stream only); neighbour points only when node 0 has at
 * least 2 ranks, neighbour_far only when the node also has several NUMA nodes. Refuses
 * buffers larger than the node's memory allows. */
int mb_howell_points(const mb_context_t *ctx, bool write, mb_point_t *pts, size_t max, char *err,
                     size_t errlen);

/* Collective over ctx->node_comm: allocate the node's window (each rank's segment first
 * touched by its owner) and prepare this rank's walk over its target. */
int mb_howell_setup(const mb_context_t *ctx, const mb_point_t *pt, bool write, void **state,
                    char *err, size_t errlen);

/* Collective over the node: free the window. */
void mb_howell_teardown(void *state);

/* iters loads (latency: dependent, p = *p; stream: successive words) or word stores. */
void mb_howell_read(void *state, uint64_t iters);
void mb_howell_write(void *state, uint64_t iters);

/* The node rank whose memory node rank `me` of n reads as its neighbour, from each rank's
 * NUMA node numa[] and the NUMA distance matrix dist[a * nnuma + b] (NULL: unknown).
 * Nearest: the next rank (cyclically) on me's NUMA node, else the next rank. Farthest: the
 * next rank on the NUMA node farthest from me's (without distances, any other NUMA node),
 * else the nearest. Pure; for tests. */
int mb_howell_peer(const int *numa, int n, int me, const uint64_t *dist, int nnuma, bool far);

/* Bytes per operation: one 8-byte word. */
uint64_t mb_howell_word_bytes(const mb_context_t *ctx, const mb_point_t *pt);

/* The working set of a target per rank when `sharers` ranks of the node run at once: half
 * the L1 data cache for localcache; for memory, 4 x the last-level cache between them
 * (mb_sysinfo_memory_span_shared_bytes). */
uint64_t mb_howell_bytes(const mb_context_t *ctx, int target, int sharers);

/* The bytes a memory point sets up and walks per measuring rank (mb_bench_t.touch_bytes),
 * one rank at a time or all of the node's at once; 0 for localcache. */
uint64_t mb_howell_touch_one(const mb_context_t *ctx, const mb_point_t *pt);
uint64_t mb_howell_touch_all(const mb_context_t *ctx, const mb_point_t *pt);

#endif
