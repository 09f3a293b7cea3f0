/* SPDX-License-Identifier: MIT */
/* Working-set memory for the memory benchmarks, kept between a benchmark's points. A fresh
 * buffer's first touch costs a page fault per page, and on a KVM guest that gives freed
 * memory back to the host (free page reporting) that was 3.7-4.5 ns a byte: 1 s to set up
 * 256 MiB, against 17 ms to write it again once it is resident. Allocated and freed per
 * point, the working sets of a default run cost most of its memory benchmarks' time
 * (shm.bandwidth 18 s, shm.latency 22 s of a 106 s run without a budget). Here a buffer a
 * point frees stays mapped, and the benchmark's next point that fits in it gets it again
 * (a benchmark short of time runs coarse to fine, the largest early: point_order.h);
 * mb_measure_bench gives everything back when the benchmark ends, so a run's peak memory
 * stays that of its largest benchmark. Contents are unspecified, as malloc's: every setup
 * writes its working set. Not thread-safe: setups run on a rank's main thread. */
#ifndef MB_WORKSET_H
#define MB_WORKSET_H

#include <stdbool.h>
#include <stddef.h>

/* How many freed buffers are kept at most (STREAM holds three at once). */
#define MB_WORKSET_SLOTS 4
/* Smaller buffers are allocated and freed as they come: their first touch is cheap (8 ms
 * at most), and a random chase of 4-53 KiB built in a kept buffer read 1.5-3.5 ns a load
 * where a fresh one read 1.1 ns (in the harness only, cause not found; about one
 * memory-latency stall a lap, which beyond 2 MiB is under 0.1% of a lap). */
#define MB_WORKSET_MIN_BYTES ((size_t)2 << 20)

/* bytes (> 0) aligned to align (a power of two, at least sizeof(void *)), rounded up to a
 * whole number of align. Under MB_WORKSET_MIN_BYTES, or with huge (transparent huge pages
 * asked for, madvise), a buffer of its own that is not kept: with huge-page buffers kept,
 * one of shm.latency's random chases read 3.5-10.5 us a load, a fault's time, in 7 of 15
 * runs, and in none of 5 without (the kernel making huge pages, we suppose, migrated the
 * chase's pages while it was timed). NULL when memory runs out. */
void *mb_workset_alloc(size_t bytes, size_t align, bool huge);

/* Back to the cache (NULL: nothing). */
void mb_workset_free(void *p);

/* Free every kept buffer not in use. */
void mb_workset_release(void);

/* How many buffers are kept, in use or not (for tests). */
size_t mb_workset_kept(void);

#endif
