/* SPDX-License-Identifier: MIT */
/* ref_pingpong [--same-buffer] [--dup] [--recycle BYTES] SIZE...: the reference for mbsuite's
 * mpi.pingpong in `make bench`, written as osu_latency measures (OSU micro-benchmarks 7): ranks 0
 * and 1, a send buffer and a receive buffer on each, a warm-up of `skip` round trips, then `iters`
 * round trips timed as a whole with MPI_Wtime after a barrier, half the time per round trip (10000
 * iterations and 100 warm-up up to 8 KiB, 1000 and 10 above, as OSU), rank r bound to the r-th
 * allowed CPU (ref_bind.h). Prints "SIZE NS BLOCK_NS" per size on rank 0: the half round trip in
 * ns, the loop's mean as osu_latency reports it, then the median over blocks of round trips of
 * about 20 us each (at least one round trip), mbsuite's experiments on these machines, read off
 * the same loop with one clock read per block: the same loop with mbsuite's statistic, so that
 * `make bench` can tell the method's part of a difference from the rest. --same-buffer sends and
 * receives in one buffer (mbsuite's pingpong before issue 15), to show what that costs. --recycle
 * BYTES first maps, writes and unmaps BYTES, so that the buffers' pages are ones the process has
 * just given back, as mbsuite's message buffers are after its pre-flight's memory mode (a working
 * set per rank read, then freed). On the 2-vCPU KVM VMs a 1 MiB pingpong between such pages took
 * 0.78-1.16 (median 0.91) of the time between pages fresh to the process (README, "How it
 * measures"). --dup first makes one communicator (MPI_Comm_dup of MPI_COMM_WORLD, left unused), as
 * mbsuite and any program that makes one has: from then on Open MPI runs its nonblocking
 * collectives' progress (libnbc) in every poll, and on the VMs a 0-byte pingpong on MPI_COMM_WORLD
 * read a median of 299 ns before and 339 after in the node's slow state (README, "How it
 * measures"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ref_bind.h"

/* BYTES of pages written and given back; 0, or -1 when the mapping failed. */
static int recycle_pages(size_t bytes)
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

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ref_bind_to_core(rank);
    int first = 1;
    int same = 0;
    size_t recycle = 0;
    MPI_Comm made = MPI_COMM_NULL;
    for (;;) {
        if (argc > first && strcmp(argv[first], "--same-buffer") == 0) {
            same = 1;
            first++;
        } else if (argc > first && strcmp(argv[first], "--dup") == 0) {
            MPI_Comm_dup(MPI_COMM_WORLD, &made);
            first++;
        } else if (argc > first + 1 && strcmp(argv[first], "--recycle") == 0) {
            recycle = (size_t)strtoull(argv[first + 1], NULL, 0);
            first += 2;
        } else {
            break;
        }
    }
    if (recycle_pages(recycle) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (size < 2 || argc <= first) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: mpirun -np 2 ref_pingpong [--same-buffer] [--dup] [--recycle BYTES] "
                    "SIZE...\n");
        MPI_Finalize();
        return 2;
    }
    for (int a = first; a < argc; a++) {
        long bytes = strtol(argv[a], NULL, 10);
        int iters = bytes > 8192 ? 1000 : 10000, skip = bytes > 8192 ? 10 : 100;
        char *sbuf = NULL, *rbuf = NULL;
        if (posix_memalign((void **)&sbuf, 4096, (size_t)bytes + 1) != 0 ||
            posix_memalign((void **)&rbuf, 4096, (size_t)bytes + 1) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(sbuf, 'a', (size_t)bytes + 1);
        memset(rbuf, 'b', (size_t)bytes + 1);
        char *in = same ? sbuf : rbuf;
        double *block_ns = malloc((size_t)iters * sizeof *block_ns);
        if (!block_ns)
            MPI_Abort(MPI_COMM_WORLD, 1);
        double t0 = 0, warm = 0, last = 0;
        int block = 1, nblocks = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        warm = MPI_Wtime();
        for (int i = 0; i < iters + skip; i++) {
            if (i == skip) {
                /* Round trips per block: about 20 us of them by the warm-up's pace. */
                double rt = (MPI_Wtime() - warm) / skip;
                block = rt > 0 && rt < 20e-6 ? (int)(20e-6 / rt) + 1 : 1;
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = last = MPI_Wtime();
            }
            if (rank == 0 && i > skip && (i - skip) % block == 0) {
                double now = MPI_Wtime();
                block_ns[nblocks++] = (now - last) * 1e9 / (2.0 * block);
                last = now;
            }
            if (rank == 0) {
                MPI_Send(sbuf, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(in, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(in, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            qsort(block_ns, (size_t)nblocks, sizeof *block_ns, cmp);
            printf("%ld %.1f %.1f\n", bytes, t * 1e9 / (2.0 * iters),
                   nblocks ? block_ns[nblocks / 2] : 0.0);
        }
        free(block_ns);
        free(sbuf);
        free(rbuf);
    }
    if (made != MPI_COMM_NULL)
        MPI_Comm_free(&made);
    MPI_Finalize();
    return 0;
}
