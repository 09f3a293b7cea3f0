/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MB_BENCH(ident) extern const mb_bench_t mb_bench_##ident;
#define MB_FAMILY(ident, n) extern const mb_bench_t mb_bench_##ident[n];
#include "bench_list.def"
#undef MB_BENCH
#undef MB_FAMILY

/* Runs of consecutive descriptors: one for a benchmark, n for a family's table. */
typedef struct registry_span {
    const mb_bench_t *first;
    size_t n;
} registry_span_t;

static const registry_span_t registry_spans[] = {
#define MB_BENCH(ident) {&mb_bench_##ident, 1},
#define MB_FAMILY(ident, n) {mb_bench_##ident, n},
#include "bench_list.def"
#undef MB_BENCH
#undef MB_FAMILY
};

/* The pre-flight's tests: listed and selected by name like the benchmarks, but run as one
 * step on every node before the suite (src/node/preflight.c), never one without the other. */
static const struct registry_preflight {
    const char *name, *summary;
} registry_preflight[] = {
    {"node.mhz", "clock speed by the GCD of nine expressions' times (seed 000)"},
    {"node.perturb", "perturbation test: spin-loop variation on every core (seed 002), then the "
                     "detour test: the share of time the CPU is taken away"},
};

size_t mb_registry_count(void)
{
    size_t n = 0;
    for (size_t s = 0; s < MB_COUNT(registry_spans); s++)
        n += registry_spans[s].n;
    return n;
}

const mb_bench_t *mb_registry_get(size_t i)
{
    for (size_t s = 0; s < MB_COUNT(registry_spans); s++) {
        if (i < registry_spans[s].n)
            return &registry_spans[s].first[i];
        i -= registry_spans[s].n;
    }
    return NULL;
}

const mb_bench_t *mb_registry_find(const char *name)
{
    for (size_t i = 0; i < mb_registry_count(); i++)
        if (strcmp(mb_registry_get(i)->name, name) == 0)
            return mb_registry_get(i);
    return NULL;
}

int mb_registry_select(const char *globs, bool *selected, bool *preflight, char *err, size_t errlen)
{
    size_t n = mb_registry_count();
    bool all = !globs || !*globs;
    for (size_t i = 0; i < n; i++)
        selected[i] = all && !mb_registry_get(i)->on_request;
    *preflight = false;
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
        for (size_t i = 0; i < n; i++) {
            const mb_bench_t *b = mb_registry_get(i);
            if (b->on_request ? strcmp(g, b->name) == 0 : fnmatch(g, b->name, 0) == 0)
                selected[i] = matched = true;
        }
        for (size_t i = 0; i < MB_COUNT(registry_preflight); i++)
            if (fnmatch(g, registry_preflight[i].name, 0) == 0)
                *preflight = matched = true;
        if (!matched) {
            snprintf(
                err, errlen,
                "--only: '%s' matches no benchmark and no pre-flight test (see mbsuite --list)", g);
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

void mb_registry_print(FILE *f)
{
    for (size_t i = 0; i < mb_registry_count(); i++)
        if (!mb_registry_get(i)->on_request)
            fprintf(f, "%-24s %s\n", mb_registry_get(i)->name, mb_registry_get(i)->summary);
    fprintf(f, "\non request, for comparison with a peer tool (run only when --only names it "
               "in full):\n");
    for (size_t i = 0; i < mb_registry_count(); i++)
        if (mb_registry_get(i)->on_request)
            fprintf(f, "%-24s %s\n", mb_registry_get(i)->name, mb_registry_get(i)->summary);
    fprintf(f, "\npre-flight, on every node before the suite ([preflight] enabled, or named by "
               "--only;\nits two tests run together):\n");
    for (size_t i = 0; i < MB_COUNT(registry_preflight); i++)
        fprintf(f, "%-24s %s\n", registry_preflight[i].name, registry_preflight[i].summary);
}
