/* SPDX-License-Identifier: MIT */
/* Working-set buffers kept between points (workset.h). */
#include "workset.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef struct workset_slot {
    void *p; /* NULL: empty */
    size_t bytes, align;
    bool used;
} workset_slot_t;

static workset_slot_t workset_slots[MB_WORKSET_SLOTS];

static void workset_drop(workset_slot_t *s)
{
    free(s->p);
    *s = (workset_slot_t){0};
}

/* A kept buffer not in use that holds bytes at align: the smallest such, or NULL. */
static workset_slot_t *workset_fit(size_t bytes, size_t align)
{
    workset_slot_t *best = NULL;
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++) {
        workset_slot_t *s = &workset_slots[i];
        if (s->p && !s->used && s->align >= align && s->bytes >= bytes &&
            (!best || s->bytes < best->bytes))
            best = s;
    }
    return best;
}

static void *workset_new(size_t bytes, size_t align, bool huge)
{
    void *p = aligned_alloc(align, bytes);
    if (p && huge) /* a request: without huge pages the buffer has the base page size */
        (void)madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

void *mb_workset_alloc(size_t bytes, size_t align, bool huge)
{
    if (bytes == 0 || align < sizeof(void *) || (align & (align - 1)) != 0 ||
        bytes > SIZE_MAX - align)
        return NULL;
    bytes = (bytes + align - 1) / align * align;
    if (bytes < MB_WORKSET_MIN_BYTES || huge)
        return workset_new(bytes, align, huge);
    workset_slot_t *s = workset_fit(bytes, align);
    if (s) {
        s->used = true;
        return s->p;
    }
    /* Kept buffers too small for this one would only sit there: the benchmark's working sets
     * have outgrown them. */
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++) {
        workset_slot_t *k = &workset_slots[i];
        if (k->p && !k->used && k->bytes < bytes)
            workset_drop(k);
    }
    void *p = workset_new(bytes, align, false);
    if (!p) {
        mb_workset_release();
        if (!(p = workset_new(bytes, align, false)))
            return NULL;
    }
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++)
        if (!workset_slots[i].p) {
            workset_slots[i] = (workset_slot_t){p, bytes, align, true};
            return p;
        }
    /* Every slot holds a buffer: keep this one in place of the smallest unused, if any. */
    workset_slot_t *evict = NULL;
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++)
        if (!workset_slots[i].used && (!evict || workset_slots[i].bytes < evict->bytes))
            evict = &workset_slots[i];
    if (evict) {
        workset_drop(evict);
        *evict = (workset_slot_t){p, bytes, align, true};
    }
    return p; /* not kept: mb_workset_free frees it */
}

void mb_workset_free(void *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++)
        if (workset_slots[i].p == p) {
            workset_slots[i].used = false;
            return;
        }
    free(p);
}

void mb_workset_release(void)
{
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++)
        if (workset_slots[i].p && !workset_slots[i].used)
            workset_drop(&workset_slots[i]);
}

size_t mb_workset_kept(void)
{
    size_t n = 0;
    for (size_t i = 0; i < MB_WORKSET_SLOTS; i++)
        n += workset_slots[i].p != NULL;
    return n;
}
