/* SPDX-License-Identifier: MIT */
/* ref_pingpong's --recycle BYTES: map, write and unmap BYTES before the buffers are
 * allocated, so that the buffers' pages are ones the process has just given back, as
 * mbsuite's message buffers are after its pre-flight's memory mode (a working set per rank
 * read, then freed). On the 2-vCPU KVM VMs a 1 MiB pingpong between such pages took 0.78-1.16
 * (median 0.91) of the time between pages fresh to the process (README, "How it measures"). */
#ifndef MB_REF_PAGES_H
#define MB_REF_PAGES_H

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Whether argv[*first] is "--recycle BYTES": then *bytes is set and *first moves past it. */
static inline int ref_recycle_option(int argc, char **argv, int *first, size_t *bytes)
{
    if (argc <= *first + 1 || strcmp(argv[*first], "--recycle") != 0)
        return 0;
    *bytes = (size_t)strtoull(argv[*first + 1], NULL, 0);
    *first += 2;
    return 1;
}

/* 0, or -1 when the mapping failed. */
static inline int ref_recycle_pages(size_t bytes)
{
    if (bytes == 0)
        return 0;
    char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    memset(m, 1, bytes);
    munmap(m, bytes);
    return 0;
}

#endif
