/* SPDX-License-Identifier: MIT */
/* Atomic file replacement and mkdir -p. A reader (or a run killed at any instant) sees
 * either the old file or the new one whole, because rename() within one directory is
 * atomic and the data is fsync'd before it. */
#include "fileutil.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

void mb_file_sync_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return;
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(copy);
}

char *mb_file_temp_path(const char *path)
{
    char *tmp;
    return asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0 ? NULL : tmp;
}

int mb_file_stage_open(mb_file_stage_t *s, const char *path, char *err, size_t errlen)
{
    *s = (mb_file_stage_t){.path = path, .tmp = mb_file_temp_path(path)};
    if (!s->tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* O_EXCL: never write through a leftover file or link of that name. */
    int fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST && unlink(s->tmp) == 0)
        fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create %s: %s", path, s->tmp, strerror(errno));
        free(s->tmp);
        s->tmp = NULL;
        return -1;
    }
    s->f = fdopen(fd, "w");
    if (!s->f) {
        snprintf(err, errlen, "%s: fdopen: %s", path, strerror(errno));
        close(fd);
        mb_file_stage_drop(s);
        return -1;
    }
    return 0;
}

int mb_file_stage_write(mb_file_stage_t *s, mb_file_writer_fn writer, void *arg, char *err,
                        size_t errlen)
{
    errno = 0;
    if (writer(s->f, arg) == 0 && !ferror(s->f))
        return 0;
    /* stdio leaves the failed write's errno (ENOSPC on a full disk). */
    if (errno)
        snprintf(err, errlen, "%s: writing %s: %s", s->path, s->tmp, strerror(errno));
    else
        snprintf(err, errlen, "%s: writing the content failed", s->path);
    return -1;
}

int mb_file_stage_close(mb_file_stage_t *s, bool sync, char *err, size_t errlen)
{
    if (fflush(s->f) != 0 || (sync && fsync(fileno(s->f)) != 0)) {
        snprintf(err, errlen, "%s: flushing %s: %s", s->path, s->tmp, strerror(errno));
        return -1;
    }
    int rc = fclose(s->f);
    s->f = NULL;
    if (rc != 0) {
        snprintf(err, errlen, "%s: closing %s: %s", s->path, s->tmp, strerror(errno));
        return -1;
    }
    return 0;
}

int mb_file_stage_commit(mb_file_stage_t *s, char *err, size_t errlen)
{
    if (rename(s->tmp, s->path) != 0) {
        snprintf(err, errlen, "%s: rename from %s: %s", s->path, s->tmp, strerror(errno));
        return -1;
    }
    free(s->tmp);
    s->tmp = NULL;
    return 0;
}

void mb_file_stage_drop(mb_file_stage_t *s)
{
    if (s->f)
        fclose(s->f);
    s->f = NULL;
    if (s->tmp)
        unlink(s->tmp);
    free(s->tmp);
    s->tmp = NULL;
}

static int fileutil_write(const char *path, mb_file_writer_fn writer, void *arg, bool sync,
                          char *err, size_t errlen)
{
    mb_file_stage_t s;
    if (mb_file_stage_open(&s, path, err, errlen) != 0)
        return -1;
    int rc = mb_file_stage_write(&s, writer, arg, err, errlen) != 0 ||
                     mb_file_stage_close(&s, sync, err, errlen) != 0 ||
                     mb_file_stage_commit(&s, err, errlen) != 0
                 ? -1
                 : 0;
    mb_file_stage_drop(&s);
    if (rc == 0 && sync)
        mb_file_sync_dir(path);
    return rc;
}

int mb_file_write_atomic(const char *path, mb_file_writer_fn writer, void *arg, char *err, size_t errlen)
{
    return fileutil_write(path, writer, arg, true, err, errlen);
}

int mb_file_write_atomic_nosync(const char *path, mb_file_writer_fn writer, void *arg, char *err,
                                size_t errlen)
{
    return fileutil_write(path, writer, arg, false, err, errlen);
}

/* mkdir that accepts an existing directory. */
static int fileutil_mkdir_one(const char *dir, const char *full, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0755) == 0)
        return 0;
    int e = errno;
    if (e == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    if (e == EEXIST)
        snprintf(err, errlen, "%s: %s exists and is not a directory", full, dir);
    else
        snprintf(err, errlen, "%s: cannot create %s: %s", full, dir, strerror(e));
    return -1;
}

int mb_mkdir_p(const char *path, char *err, size_t errlen)
{
    int ret = -1;
    char *buf = NULL;

    if (!path || !*path) {
        snprintf(err, errlen, "mkdir: empty path");
        goto out;
    }
    buf = strdup(path);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    /* Each prefix ending before a '/', then the whole path; "a//b" and a trailing '/'
     * give empty or repeated prefixes, which mkdir_one accepts as existing. */
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = fileutil_mkdir_one(buf, path, err, errlen);
        *p = '/';
        if (rc != 0)
            goto out;
    }
    if (fileutil_mkdir_one(buf, path, err, errlen) != 0)
        goto out;
    ret = 0;
out:
    free(buf);
    return ret;
}

void mb_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
