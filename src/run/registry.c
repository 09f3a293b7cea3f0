/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MB_BENCH(ident) extern const mb_bench_t mb_bench_##ident;
#include "bench_list.def"
#undef MB_BENCH

static const mb_bench_t *const registry_table[] = {
#define MB_BENCH(ident) &mb_bench_##ident,
#include "bench_list.def"
#undef MB_BENCH
};

size_t mb_registry_count(void) { return MB_COUNT(registry_table); }

const mb_bench_t *mb_registry_get(size_t i)
{
    return i < MB_COUNT(registry_table) ? registry_table[i] : NULL;
}

const mb_bench_t *mb_registry_find(const char *name)
{
    for (size_t i = 0; i < MB_COUNT(registry_table); i++)
        if (strcmp(registry_table[i]->name, name) == 0)
            return registry_table[i];
    return NULL;
}

int mb_registry_select(const char *globs, bool *selected, char *err, size_t errlen)
{
    size_t n = MB_COUNT(registry_table);
    bool all = !globs || !*globs;
    for (size_t i = 0; i < n; i++)
        selected[i] = all;
    if (all)
        return 0;

    char *copy = strdup(globs), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
        while (*g == ' ')
            g++;
        bool matched = false;
        for (size_t i = 0; i < n; i++)
            if (fnmatch(g, registry_table[i]->name, 0) == 0)
                selected[i] = matched = true;
        if (!matched) {
            snprintf(err, errlen, "--only: '%s' matches no benchmark (see mbsuite --list)", g);
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

void mb_registry_print(FILE *f)
{
    for (size_t i = 0; i < MB_COUNT(registry_table); i++)
        fprintf(f, "%-24s %s\n", registry_table[i]->name, registry_table[i]->summary);
}
