/* SPDX-License-Identifier: MIT */
#include "point_order.h"

#include <stdint.h>
#include <stdlib.h>

#include "mpi_util.h"

int mb_point_order_level(size_t j, size_t m)
{
    if (m <= 2 || j == 0 || j + 1 >= m)
        return 0;
    int top = 0; /* ceil(log2(m - 1)) */
    while (((size_t)1 << top) < m - 1)
        top++;
    int tz = 0;
    while (!(j & ((size_t)1 << tz)))
        tz++;
    return top - tz;
}

static int order_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Each point's level on dimension k (its value's position among the distinct values). */
static void order_levels(const mb_point_t *pts, size_t n, size_t k, int *level, int64_t *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = pts[i].v[k];
    qsort(scratch, n, sizeof *scratch, order_cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || scratch[m - 1] != scratch[i])
            scratch[m++] = scratch[i];
    for (size_t i = 0; i < n; i++) {
        int64_t *at = bsearch(&pts[i].v[k], scratch, m, sizeof *scratch, order_cmp_i64);
        int l = mb_point_order_level((size_t)(at - scratch), m);
        if (l > level[i])
            level[i] = l;
    }
}

typedef struct order_key {
    int size_level, p_level;
    int64_t p;
    size_t index;
} order_key_t;

static int order_cmp_key(const void *a, const void *b)
{
    const order_key_t *x = a, *y = b;
    if (x->size_level != y->size_level)
        return x->size_level < y->size_level ? -1 : 1;
    if (x->p_level != y->p_level)
        return x->p_level < y->p_level ? -1 : 1;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

size_t mb_point_order(const mb_bench_t *b, const mb_point_t *pts, size_t n, size_t *order)
{
    int *size_level = calloc(n ? n : 1, sizeof *size_level);
    int *p_level = calloc(n ? n : 1, sizeof *p_level);
    int64_t *scratch = calloc(n ? n : 1, sizeof *scratch);
    order_key_t *keys = calloc(n ? n : 1, sizeof *keys);
    if (!size_level || !p_level || !scratch || !keys)
        mb_mpi_fail("calloc in mb_point_order", MPI_ERR_NO_MEM, __FILE__, __LINE__);
    int p_dim = -1;
    for (size_t k = 0; k < b->ndims; k++) {
        if (b->dims[k].labels)
            continue; /* a label is a series of its own, not a grid */
        if (b->dims[k].role == MB_ROLE_RANKS) {
            p_dim = (int)k;
            order_levels(pts, n, k, p_level, scratch);
        } else {
            order_levels(pts, n, k, size_level, scratch);
        }
    }
    size_t ends = 0;
    for (size_t i = 0; i < n; i++) {
        keys[i] = (order_key_t){size_level[i], p_level[i], p_dim >= 0 ? pts[i].v[p_dim] : 0, i};
        ends += size_level[i] == 0 && p_level[i] == 0;
    }
    qsort(keys, n, sizeof *keys, order_cmp_key);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].index;
    free(size_level);
    free(p_level);
    free(scratch);
    free(keys);
    return ends;
}

int mb_point_thin_init(mb_point_thin_t *t, const mb_bench_t *b, const mb_point_t *pts, size_t n,
                       const double *least_s, const double *expected_s)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    *t = (mb_point_thin_t){
        .n = n,
        .place = malloc((n ? n : 1) * sizeof *t->place),
        .least_s = malloc((n ? n : 1) * sizeof *t->least_s),
        .expected_s = malloc((n ? n : 1) * sizeof *t->expected_s),
    };
    if (!order || !t->place || !t->least_s || !t->expected_s) {
        free(order);
        mb_point_thin_free(t);
        return -1;
    }
    t->ends = mb_point_order(b, pts, n, order);
    for (size_t k = 0; k < n; k++) {
        t->place[order[k]] = k;
        t->least_s[k] = least_s[order[k]];
        t->expected_s[k] = expected_s[order[k]];
    }
    free(order);
    return 0;
}

bool mb_point_thin_keep(mb_point_thin_t *t, size_t i, double left_s, double *kept_expected_s)
{
    /* The longest prefix of the coarse-to-fine order whose points still to come fit left_s
     * at their least (the passed ones cost 0 in it), at least the ends. */
    size_t cut = 0;
    double least = 0, expected = 0;
    for (; cut < t->n; cut++) {
        if (cut >= t->ends && least + t->least_s[cut] > left_s)
            break;
        least += t->least_s[cut];
        expected += t->expected_s[cut];
    }
    size_t k = t->place[i];
    bool keep = k < cut;
    *kept_expected_s = keep ? expected : 0;
    t->least_s[k] = t->expected_s[k] = 0;
    return keep;
}

void mb_point_thin_free(mb_point_thin_t *t)
{
    free(t->place);
    free(t->least_s);
    free(t->expected_s);
    *t = (mb_point_thin_t){0};
}
