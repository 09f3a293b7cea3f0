/* SPDX-License-Identifier: MIT */
/* Files that are never half-written: write to a temporary file beside the target, flush,
 * fsync, rename over it. */
#ifndef MB_FILEUTIL_H
#define MB_FILEUTIL_H

#include <stdio.h>

/* Writes the file's content into f; returns 0, or -1 on failure. */
typedef int (*mb_file_writer_fn)(FILE *f, void *arg);

/* Atomically replace `path` with what write(f, arg) produces. Returns 0, or -1 with a
 * message naming the path in err (no temporary file is left behind). */
int mb_file_write_atomic(const char *path, mb_file_writer_fn write, void *arg, char *err, size_t errlen);

/* The same without fsync: for a process about to be killed (SIGKILL a second after
 * SIGTERM), where an fsync on a busy disk could outlast it; the rename is still atomic
 * against the process dying, not against a power cut. */
int mb_file_write_atomic_nosync(const char *path, mb_file_writer_fn write, void *arg, char *err,
                                size_t errlen);

/* mkdir -p with mode 0755. Returns 0 (also when it exists as a directory), or -1 with err. */
int mb_mkdir_p(const char *path, char *err, size_t errlen);

/* One CSV field: as it is, or quoted per RFC 4180 (quotes doubled) when it holds a comma,
 * a quote or a line break. */
void mb_csv_field(FILE *f, const char *s);

#endif
