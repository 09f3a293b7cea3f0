/* SPDX-License-Identifier: MIT */
/* Working sets kept between a benchmark's points (workset.h): a freed buffer comes back to
 * the next request that fits, small and huge-page buffers are never kept, and release gives
 * back what is not in use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "workset.h"

#define MIB ((size_t)1 << 20)

static int release_all(void **state)
{
    (void)state;
    mb_workset_release();
    return 0;
}

/* A later point of the same size or smaller gets the buffer back; a larger one does not,
 * and the smaller buffer it outgrew is given back rather than kept. */
static void test_reuse_by_size(void **state)
{
    (void)state;
    char *a = mb_workset_alloc(4 * MIB, 4096, false);
    assert_non_null(a);
    assert_int_equal((uintptr_t)a % 4096, 0);
    memset(a, 1, 4 * MIB);
    mb_workset_free(a);
    assert_int_equal(mb_workset_kept(), 1);
    char *b = mb_workset_alloc(3 * MIB, 4096, false);
    assert_ptr_equal(b, a);
    mb_workset_free(b);
    char *c = mb_workset_alloc(8 * MIB, 4096, false);
    assert_non_null(c);
    memset(c, 2, 8 * MIB);
    assert_int_equal(mb_workset_kept(), 1); /* the 4 MiB one went */
    mb_workset_free(c);
    assert_ptr_equal(mb_workset_alloc(5 * MIB, 4096, false), c);
    mb_workset_free(c);
}

/* Buffers in use at once (STREAM's three arrays) are distinct, and all come back. */
static void test_held_together(void **state)
{
    (void)state;
    char *p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = mb_workset_alloc(4 * MIB, 4096, false);
        assert_non_null(p[i]);
        memset(p[i], i, 4 * MIB);
    }
    assert_ptr_not_equal(p[0], p[1]);
    assert_ptr_not_equal(p[1], p[2]);
    assert_ptr_not_equal(p[0], p[2]);
    for (int i = 0; i < 3; i++)
        mb_workset_free(p[i]);
    char *q[3];
    for (int i = 0; i < 3; i++)
        q[i] = mb_workset_alloc(2 * MIB, 4096, false);
    for (int i = 0; i < 3; i++) {
        bool found = q[i] == p[0] || q[i] == p[1] || q[i] == p[2];
        assert_true(found);
    }
    for (int i = 0; i < 3; i++)
        mb_workset_free(q[i]);
}

/* Small buffers and huge-page ones are their own, never kept (workset.h says why); a larger
 * alignment serves a smaller one. */
static void test_not_kept(void **state)
{
    (void)state;
    char *small = mb_workset_alloc(MIB, 4096, false);
    assert_non_null(small);
    memset(small, 1, MIB);
    mb_workset_free(small);
    char *huge = mb_workset_alloc(4 * MIB, 2 * MIB, true);
    assert_non_null(huge);
    assert_int_equal((uintptr_t)huge % (2 * MIB), 0);
    memset(huge, 1, 4 * MIB);
    mb_workset_free(huge);
    assert_int_equal(mb_workset_kept(), 0);
    char *wide = mb_workset_alloc(3 * MIB, 2 * MIB, false);
    assert_int_equal((uintptr_t)wide % (2 * MIB), 0);
    mb_workset_free(wide);
    assert_int_equal(mb_workset_kept(), 1);
    assert_ptr_equal(mb_workset_alloc(2 * MIB, 4096, false), wide);
    mb_workset_free(wide);
    /* A kept buffer does not serve a huge-page request. */
    char *h = mb_workset_alloc(2 * MIB, 4096, true);
    assert_ptr_not_equal(h, wide);
    mb_workset_free(h);
}

/* More buffers in use than slots: the extra ones are plain allocations, freed on return;
 * release keeps what is in use and gives back the rest. */
static void test_slots_and_release(void **state)
{
    (void)state;
    char *p[MB_WORKSET_SLOTS + 2];
    for (size_t i = 0; i < MB_WORKSET_SLOTS + 2; i++) {
        p[i] = mb_workset_alloc(MB_WORKSET_MIN_BYTES, 4096, false);
        assert_non_null(p[i]);
        memset(p[i], (int)i, MB_WORKSET_MIN_BYTES);
    }
    assert_int_equal(mb_workset_kept(), MB_WORKSET_SLOTS);
    mb_workset_release();
    assert_int_equal(mb_workset_kept(), MB_WORKSET_SLOTS); /* all in use */
    for (size_t i = 0; i < MB_WORKSET_SLOTS + 2; i++)
        mb_workset_free(p[i]);
    assert_int_equal(mb_workset_kept(), MB_WORKSET_SLOTS);
    mb_workset_release();
    assert_int_equal(mb_workset_kept(), 0);
}

static void test_bad_requests(void **state)
{
    (void)state;
    assert_null(mb_workset_alloc(0, 4096, false));
    assert_null(mb_workset_alloc(4096, 3000, false));
    assert_null(mb_workset_alloc(4096, 1, false));
    assert_null(mb_workset_alloc(SIZE_MAX, 4096, false));
    mb_workset_free(NULL);
    assert_int_equal(mb_workset_kept(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_reuse_by_size, release_all),
        cmocka_unit_test_teardown(test_held_together, release_all),
        cmocka_unit_test_teardown(test_not_kept, release_all),
        cmocka_unit_test_teardown(test_slots_and_release, release_all),
        cmocka_unit_test_teardown(test_bad_requests, release_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
