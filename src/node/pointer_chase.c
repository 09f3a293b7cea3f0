/* SPDX-License-Identifier: MIT */
/* Chase builder. Every order is built in place: first each slot holds the index of the
 * slot that follows it (a cyclic permutation), then one pass turns indices into addresses,
 * so no index array is needed besides the buffer itself. Random cycles use Sattolo's
 * algorithm (Fisher-Yates drawing j < i instead of j <= i), which yields a uniformly
 * random permutation with exactly one cycle; the page order runs Sattolo within each page
 * and splices the page cycles together in page order. */
#include "pointer_chase.h"

/* splitmix64: a tiny, well-mixed generator; state lives with the caller. */
static uint64_t chase_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound >= 1, by rejection (no modulo bias). */
static uint64_t chase_below(uint64_t *state, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t r;
    do
        r = chase_next(state);
    while (r >= limit);
    return r % bound;
}

static uintptr_t *chase_slot(char *buf, size_t stride, size_t i)
{
    return (uintptr_t *)(void *)(buf + i * stride);
}

/* Sattolo's algorithm over slots [first, first + n): afterwards slot k holds the index of
 * its successor on a single cycle through all n slots. */
static void chase_sattolo(char *buf, size_t stride, size_t first, size_t n, uint64_t *rng)
{
    for (size_t k = 0; k < n; k++)
        *chase_slot(buf, stride, first + k) = first + k;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)chase_below(rng, i);
        uintptr_t *a = chase_slot(buf, stride, first + i), *b = chase_slot(buf, stride, first + j);
        uintptr_t t = *a;
        *a = *b;
        *b = t;
    }
}

int mb_chase_build(void *buf, size_t bytes, size_t stride_bytes, mb_chase_order_t order,
                   uint64_t seed)
{
    if (!buf || stride_bytes < sizeof(void *) || stride_bytes % sizeof(void *) != 0 ||
        bytes < stride_bytes || (uintptr_t)buf % sizeof(void *) != 0)
        return -1;
    char *base = buf;
    size_t n = bytes / stride_bytes;
    uint64_t rng = seed;

    switch (order) {
    case MB_CHASE_SEQUENTIAL:
        for (size_t i = 0; i < n; i++)
            *chase_slot(base, stride_bytes, i) = i + 1 < n ? i + 1 : 0;
        break;
    case MB_CHASE_PAGE: {
        size_t per_page = MB_CHASE_PAGE_BYTES / stride_bytes;
        if (per_page == 0)
            per_page = 1;
        for (size_t first = 0; first < n; first += per_page) {
            size_t m = n - first < per_page ? n - first : per_page;
            chase_sattolo(base, stride_bytes, first, m, &rng);
            /* The page's cycle comes back to its first slot from exactly one slot: send
             * that one on to the next page instead (the last page back to slot 0). */
            size_t next = first + m < n ? first + m : 0;
            for (size_t k = first; k < first + m; k++) {
                uintptr_t *s = chase_slot(base, stride_bytes, k);
                if (*s == first) {
                    *s = next;
                    break;
                }
            }
        }
        break;
    }
    case MB_CHASE_RANDOM: chase_sattolo(base, stride_bytes, 0, n, &rng); break;
    default: return -1;
    }

    for (size_t i = 0; i < n; i++) {
        uintptr_t *s = chase_slot(base, stride_bytes, i);
        *(void **)s = base + *s * stride_bytes;
    }
    return 0;
}

uint64_t mb_chase_walk(const void *start, uint64_t max_steps)
{
    const void *p = start;
    uint64_t steps = 0;
    while (steps < max_steps) {
        p = *(const void *const *)p;
        steps++;
        if (p == start)
            break;
    }
    return steps;
}
