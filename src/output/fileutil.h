/* SPDX-License-Identifier: MIT */
/* Files that are never half-written: write to a temporary file beside the target, flush,
 * fsync, rename over it. */
#ifndef MB_FILEUTIL_H
#define MB_FILEUTIL_H

#include <stdbool.h>
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

/* The same in steps, for a writer that orders its rename against another thread under a
 * lock it must not hold through the fsync (results.c): open makes path's temporary file
 * (mb_file_temp_path: another thread can remove it by name), write fills it, close flushes,
 * fsyncs (when sync) and closes it, commit renames it over path. drop closes and removes
 * whatever is left, and is always called last. Each returns 0, or -1 with err naming path. */
typedef struct {
    const char *path; /* borrowed */
    char *tmp;        /* NULL once renamed or removed */
    FILE *f;          /* NULL once closed */
} mb_file_stage_t;
int mb_file_stage_open(mb_file_stage_t *s, const char *path, char *err, size_t errlen);
int mb_file_stage_write(mb_file_stage_t *s, mb_file_writer_fn write, void *arg, char *err,
                        size_t errlen);
int mb_file_stage_close(mb_file_stage_t *s, bool sync, char *err, size_t errlen);
int mb_file_stage_commit(mb_file_stage_t *s, char *err, size_t errlen);
void mb_file_stage_drop(mb_file_stage_t *s);

/* path's temporary file beside it ("path.tmp.PID"), malloc'd; NULL when out of memory. */
char *mb_file_temp_path(const char *path);

/* Best effort: make a rename in path's directory durable. A failure does not undo it. */
void mb_file_sync_dir(const char *path);

/* mkdir -p with mode 0755. Returns 0 (also when it exists as a directory), or -1 with err. */
int mb_mkdir_p(const char *path, char *err, size_t errlen);

/* One CSV field: as it is, or quoted per RFC 4180 (quotes doubled) when it holds a comma,
 * a quote or a line break. */
void mb_csv_field(FILE *f, const char *s);

#endif
