/* SPDX-License-Identifier: MIT */
/* Scratch directories for the unit tests (tmpdir.h). */
#include "tmpdir.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

char *mb_tmpdir_new(const char *what)
{
    char *dir = NULL;
    if (asprintf(&dir, "/tmp/mbsuite-test-%s.XXXXXX", what) < 0 || !mkdtemp(dir)) {
        perror("mb_tmpdir_new");
        abort();
    }
    return dir;
}

static int tmpdir_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int mb_tmpdir_free(char *dir)
{
    int rc = nftw(dir, tmpdir_remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
    free(dir);
    return rc;
}

char *mb_tmpfile_text(FILE *f)
{
    long len = ftell(f);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    rewind(f);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        perror("mb_tmpfile_text");
        abort();
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}
