/* SPDX-License-Identifier: MIT */
/* The MPI references' binding: rank r on the r-th CPU this process may use, as `mpirun
 * --bind-to core` places ranks and as mbsuite binds its own (src/node/binding.c), so that
 * make bench compares like with like: unbound, the two ranks of a 2-vCPU VM are at times
 * both on one vCPU, and the reference's mean of one loop takes that in. */
#ifndef MB_REF_BIND_H
#define MB_REF_BIND_H

#include <sched.h>

static inline void ref_bind_to_core(int rank)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) == 0)
        return;
    int nth = rank % CPU_COUNT(&allowed);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &allowed) && nth-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            (void)sched_setaffinity(0, sizeof one, &one);
            return;
        }
    }
}

#endif
