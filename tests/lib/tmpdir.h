/* SPDX-License-Identifier: MIT */
/* Scratch directories for the unit tests that write files: made fresh under /tmp, removed
 * with everything in them. */
#ifndef MB_TMPDIR_H
#define MB_TMPDIR_H

/* A new empty directory /tmp/mbsuite-test-<what>.XXXXXX (caller frees with
 * mb_tmpdir_free); aborts the test program when none can be made. */
char *mb_tmpdir_new(const char *what);

/* Remove dir and all below it, and free the name. Returns 0, or -1 when something could
 * not be removed. */
int mb_tmpdir_free(char *dir);

#endif
