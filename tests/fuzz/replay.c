/* SPDX-License-Identifier: MIT */
/* The fuzz harnesses without libFuzzer: `replay_NAME PATH...` feeds each file (each file of
 * a directory, in name order) once to the harness's LLVMFuzzerTestOneInput, as libFuzzer
 * replays a corpus, so that make check (gcc, and make asan's sanitizers) runs the seed
 * corpus and every regression input. Exits 0 after "replayed N inputs" unless a path cannot
 * be read; a crash or a sanitizer report ends it non-zero. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Defined by the harnesses that need a set-up. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int replay_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    /* An exact-size copy, so that ASan sees a read past the input's end. */
    uint8_t *data = malloc(len ? len : 1);
    if (!data) {
        free(buf);
        return -1;
    }
    memcpy(data, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    (*n)++;
    return 0;
}

static int replay_name_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int replay_path(const char *path, size_t *n)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path, n);
    struct dirent **list;
    int count = scandir(path, &list, NULL, replay_name_cmp);
    if (count < 0) {
        perror(path);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < count; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, list[i]->d_name);
        if (list[i]->d_name[0] != '.' && stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
            replay_file(file, n) != 0)
            rc = -1;
        free(list[i]);
    }
    free(list);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    size_t n = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(argv[i], &n) != 0)
            rc = 1;
    printf("replayed %zu inputs\n", n);
    return rc;
}
