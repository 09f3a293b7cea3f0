/* SPDX-License-Identifier: MIT */
/* The drift probe: a short 0-byte pingpong between world rank 0 and the next rank of its
 * node (or, where its node has no other rank, the first rank of node 1), taken before and
 * after each benchmark, so that a benchmark measured while the ranks talked at another
 * speed than during the rest of the run is seen as such. On the 2-vCPU VMs the host moves
 * the vCPUs: a cache line passed between them in 30 ns for a while, then in 155 ns, and a
 * 0-byte MPI_Sendrecv loop took 170-206 ns, then 428-469 ns, for tens of seconds at a time
 * (docs/measuring.md, "Drift probe"). Benchmarks measured in different states do not compose: a
 * pattern predicted from a primitive measured in the other state misses by half. */
#ifndef MB_DRIFT_PROBE_H
#define MB_DRIFT_PROBE_H

#include "bench.h"

/* What the probe times, for results.json. */
extern const char mb_drift_probe_method[];

/* The pair the probe uses, the same on every rank: "intra" (ctx->pair_intra), "inter"
 * (ctx->pair_inter, where the run has no intra-node pair) or NULL (neither: no probe). */
const char *mb_drift_probe_pair(const mb_context_t *ctx);

/* Collective over ctx->comm: the probe's pair probes while the other ranks wait asleep.
 * Returns the probe's half round trip in ns on world rank 0, NAN on every other rank and
 * where the run has no pair (then a no-op). */
double mb_drift_probe_ns(const mb_context_t *ctx);

#endif
