/* SPDX-License-Identifier: MIT */
/* Pointer chases for latency measurements: a buffer cut into slots of stride_bytes, each
 * slot's first word pointing at the next slot to visit, all slots on one cycle. Following
 * the chain (p = *p) makes every load depend on the one before, so the time per step is
 * the load latency of wherever the buffer sits (lmbench's lat_mem_rd). */
#ifndef MB_POINTER_CHASE_H
#define MB_POINTER_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* The page that MB_CHASE_PAGE stays within before moving on. */
#define MB_CHASE_PAGE_BYTES 4096

typedef enum mb_chase_order {
    MB_CHASE_SEQUENTIAL = 0, /* slot 0, 1, 2, ...: a constant stride, prefetchers help */
    MB_CHASE_PAGE,           /* pages in sequence, the slots of each page in random order */
    MB_CHASE_RANDOM,         /* a random cyclic permutation of all slots (Sattolo) */
} mb_chase_order_t;

/* Link the bytes / stride_bytes whole slots of buf into a single cycle through every slot,
 * starting and ending at slot 0 (buf itself), in the given order; random orders come from
 * a PRNG seeded with seed, so equal arguments build equal chases. A trailing part of buf
 * shorter than a slot is left alone. Pure: writes only the first word of each slot,
 * allocates nothing. buf must be aligned to a pointer; stride_bytes must be a multiple of
 * sizeof(void *) and bytes >= stride_bytes. Returns 0, or -1 on bad arguments. */
int mb_chase_build(void *buf, size_t bytes, size_t stride_bytes, mb_chase_order_t order,
                   uint64_t seed);

/* Follow the chase from start until it comes back to start or max_steps steps were taken.
 * Returns the number of steps taken (the cycle's length when it is at most max_steps). */
uint64_t mb_chase_walk(const void *start, uint64_t max_steps);

#endif
