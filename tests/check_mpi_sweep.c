/* SPDX-License-Identifier: MIT */
/* check_mpi_sweep FILE RANKS PAIRS: checks the message-passing benchmarks of a results.json
 * for the end-to-end tests. Every mpi.* benchmark ran; every point has a finite, positive
 * median (or 0, where it says it was timed under the clock's step); point-to-point ones cover
 * exactly the sizes 0, 1, 2, 3, 4, 6, ... up to [mpi] max_size for each pair in PAIRS ("intra" or
 * "intra,inter"); collectives exactly those up to collective_max_size (reductions: the multiples of
 * 8) for p = 2..RANKS (as the sweep rule gives); the barrier one point per p; composite patterns
 * (records with "composed_of") d = 0 and the powers of 4 from 16 bytes at each p; the streaming
 * bandwidth benchmarks (records with "window") the powers of 4 from 1 byte up to max_size and
 * max_size, per pair when they have one. A benchmark that needs two nodes must be skipped
 * with that reason when PAIRS has no "inter", and measured when it has. Prints "FILE: ok (N
 * benchmarks, M points)" and exits 0, or names the first problem and exits 1; 2 on a usage
 * error. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../mpi/message.h"

static int sweep_sizes(long long top, bool multiples_of_8, long long *out)
{
    int n = 0;
    out[n++] = 0;
    for (long long p = 1; p <= top; p *= 2) {
        if (!multiples_of_8 || p % 8 == 0)
            out[n++] = p;
        long long mid = p + p / 2;
        if (p >= 2 && mid <= top && (!multiples_of_8 || mid % 8 == 0))
            out[n++] = mid;
    }
    return n;
}

/* The p values: the library's sweep, whose rule tests/test_message_sweep.c checks. */
static int sweep_ranks(int most, int *out) { return mb_message_p_sweep(most, out); }

/* Whether points has exactly one point of this size (-1: any), label and p (0: any). */
static bool sweep_has(const json_t *points, const char *dim, const char *label, long long size,
                      int ranks, bool *finite)
{
    size_t i;
    json_t *pt;
    int found = 0;
    json_array_foreach(points, i, pt) {
        const json_t *params = json_object_get(pt, "params");
        const json_t *s = json_object_get(params, "size_bytes");
        if (size >= 0 && (!s || json_integer_value(s) != size))
            continue;
        const char *value = json_string_value(json_object_get(params, dim));
        if (label && (!value || strcmp(value, label) != 0))
            continue;
        if (ranks > 0 && json_integer_value(json_object_get(params, "ranks")) != ranks)
            continue;
        double m = json_number_value(json_object_get(pt, "median"));
        /* A call timed under the clock's step says so, and may read 0 (docs/results.md). */
        bool unresolved = json_object_get(pt, "below_resolution_ns") != NULL;
        *finite = *finite && isfinite(m) && (m > 0 || (unresolved && m == 0));
        found++;
    }
    return found == 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_mpi_sweep FILE RANKS intra|intra,inter\n");
        return 2;
    }
    json_error_t jerr;
    json_t *root = json_load_file(argv[1], 0, &jerr);
    if (!root) {
        fprintf(stderr, "%s:%d: %s\n", argv[1], jerr.line, jerr.text);
        return 1;
    }
    int most = atoi(argv[2]);
    const json_t *mpi = json_object_get(json_object_get(root, "config"), "mpi");
    long long p2p_top = json_integer_value(json_object_get(mpi, "max_size"));
    long long coll_top = json_integer_value(json_object_get(mpi, "collective_max_size"));
    long long max_ranks = json_integer_value(json_object_get(mpi, "max_ranks"));
    if (max_ranks > 0 && max_ranks < most)
        most = (int)max_ranks;
    long long sizes[256];
    int ranks[64], nranks = sweep_ranks(most, ranks);
    size_t i, nbench = 0, npoints = 0;
    json_t *b;
    int rc = 0;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
        const char *name = json_string_value(json_object_get(b, "name"));
        if (!name || strncmp(name, "mpi.", 4) != 0)
            continue;
        const json_t *points = json_object_get(b, "points");
        const char *skipped = json_string_value(json_object_get(b, "skipped"));
        bool one_node = strstr(argv[3], "inter") == NULL;
        if (skipped && one_node && strstr(skipped, "needs ranks on 2 nodes, the run has one node"))
            continue;
        if (!json_is_null(json_object_get(b, "skipped"))) {
            printf("%s: %s was skipped: %s\n", argv[1], name,
                   json_string_value(json_object_get(b, "skipped")));
            rc = 1;
            break;
        }
        nbench++;
        npoints += json_array_size(points);
        bool pair = json_object_get(json_object_get(json_array_get(points, 0), "params"), "pair");
        bool finite = true, complete = true;
        size_t expected = 0;
        if (json_object_get(b, "window")) {
            uint64_t wsizes[64];
            size_t n = mb_message_window_sizes((uint64_t)p2p_top, wsizes, 64);
            char labels[64];
            snprintf(labels, sizeof labels, "%s", pair ? argv[3] : "-");
            for (char *l = strtok(labels, ","); l; l = strtok(NULL, ","))
                for (size_t k = 0; k < n; k++, expected++)
                    complete = complete && sweep_has(points, pair ? "pair" : NULL, pair ? l : NULL,
                                                     (long long)wsizes[k], 0, &finite);
        } else if (strcmp(name, "mpi.barrier") == 0) {
            for (int r = 0; r < nranks; r++, expected++)
                complete = complete && sweep_has(points, NULL, NULL, -1, ranks[r], &finite);
        } else if (pair) {
            int n = sweep_sizes(p2p_top, false, sizes);
            char labels[64];
            snprintf(labels, sizeof labels, "%s", argv[3]);
            for (char *l = strtok(labels, ","); l; l = strtok(NULL, ","))
                for (int k = 0; k < n; k++, expected++)
                    complete = complete && sweep_has(points, "pair", l, sizes[k], 0, &finite);
        } else if (json_object_get(b, "composed_of")) {
            /* A composite pattern: d = 0 and the powers of 4 from 16 bytes, at every p. */
            int n = 0;
            sizes[n++] = 0;
            for (long long d = 16; d <= coll_top; d *= 4)
                sizes[n++] = d;
            for (int r = 0; r < nranks; r++)
                for (int k = 0; k < n; k++, expected++)
                    complete = complete && sweep_has(points, NULL, NULL, sizes[k], ranks[r], &finite);
        } else {
            bool reduction = strstr(name, "reduce") != NULL;
            int n = sweep_sizes(coll_top, reduction, sizes);
            for (int r = 0; r < nranks; r++)
                for (int k = 0; k < n; k++, expected++)
                    complete = complete && sweep_has(points, NULL, NULL, sizes[k], ranks[r], &finite);
        }
        if (!complete || expected != json_array_size(points)) {
            printf("%s: %s has %zu points, not the %zu of the configured sweep\n", argv[1], name,
                   json_array_size(points), expected);
            rc = 1;
            break;
        }
        if (!finite) {
            printf("%s: %s has a median that is not finite and positive\n", argv[1], name);
            rc = 1;
            break;
        }
    }
    if (rc == 0)
        printf("%s: ok (%zu benchmarks, %zu points)\n", argv[1], nbench, npoints);
    json_decref(root);
    return rc;
}
