/* SPDX-License-Identifier: MIT */
/* Scratch directories for the unit tests that write files: made fresh under /tmp, removed
 * with everything in them; and what a writer put in a tmpfile(), as a string. */
#ifndef MB_TMPDIR_H
#define MB_TMPDIR_H

#include <stdio.h>

/* A new empty directory /tmp/mbsuite-test-<what>.XXXXXX (caller frees with
 * mb_tmpdir_free); aborts the test program when none can be made. */
char *mb_tmpdir_new(const char *what);

/* Remove dir and all below it, and free the name. Returns 0, or -1 when something could
 * not be removed. */
int mb_tmpdir_free(char *dir);

/* What f (a tmpfile() a writer wrote into) holds from its start, as a new string; closes
 * f. A temporary file rather than open_memstream, which gcc 12 -O3 mistakes for a dangling
 * pointer once inlined. Aborts the test program when it cannot be read. */
char *mb_tmpfile_text(FILE *f);

#endif
