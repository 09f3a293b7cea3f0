/* SPDX-License-Identifier: MIT */
/* The scratch directory of a fuzz harness that writes files: in /dev/shm where there is one
 * (the harness writes at every input, and a disk would slow it), else /tmp. */
#ifndef MB_FUZZ_SCRATCH_H
#define MB_FUZZ_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* A new directory HARNESS's own, its path in dir; exits naming the harness on failure. */
static inline void fuzz_scratch_dir(const char *harness, char *dir, size_t len)
{
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(dir, len, "%s/mbsuite-%s.XXXXXX", base, harness);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "%s: mkdtemp %s: ", harness, dir);
        perror(NULL);
        exit(1);
    }
}

#endif
