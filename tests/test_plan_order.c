/* SPDX-License-Identifier: MIT */
/* The plan's order (plan.h, mb_plan_order_patterns): each composite pattern just after the
 * last of its recipe's benchmarks in the plan, the rest in their order, a pattern whose
 * recipe names nothing in the plan kept in its place, and a skip reason written into an
 * entry's own buffer moving with the entry. Worked out by hand on fake descriptors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"

/* Recipes: "a" alone; "a" and "c" (anchored on the later, c); a name not in the plan. */
static size_t compose_a(const mb_context_t *ctx, mb_compose_t *terms, size_t max)
{
    (void)ctx, (void)max;
    terms[0] = (mb_compose_t){.benchmark = "t.a", .times = 2};
    return 1;
}
static size_t compose_a_c(const mb_context_t *ctx, mb_compose_t *terms, size_t max)
{
    (void)ctx, (void)max;
    terms[0] = (mb_compose_t){.constant_ns = 20000};
    terms[1] = (mb_compose_t){.benchmark = "t.c", .times = 1};
    terms[2] = (mb_compose_t){.benchmark = "t.a", .times = 1};
    return 3;
}
static size_t compose_missing(const mb_context_t *ctx, mb_compose_t *terms, size_t max)
{
    (void)ctx, (void)max;
    terms[0] = (mb_compose_t){.benchmark = "t.absent", .times = 1};
    return 1;
}

static const mb_bench_t bench_a = {.name = "t.a"}, bench_b = {.name = "t.b"},
                        bench_c = {.name = "t.c"}, bench_d = {.name = "t.d"},
                        pat_1 = {.name = "t.pat1", .compose = compose_a},
                        pat_2 = {.name = "t.pat2", .compose = compose_a_c},
                        pat_3 = {.name = "t.pat3", .compose = compose_missing};

static void test_patterns_follow_their_recipes(void **state)
{
    (void)state;
    mb_plan_entry_t plan[] = {{.bench = &bench_a}, {.bench = &bench_b}, {.bench = &bench_c},
                              {.bench = &bench_d}, {.bench = &pat_1},   {.bench = &pat_3},
                              {.bench = &pat_2}};
    size_t n = sizeof plan / sizeof plan[0];
    /* b skipped with a reason in its own buffer, d with a static one. */
    strcpy(plan[1].skip_buf, "b's own reason");
    plan[1].skip_reason = plan[1].skip_buf;
    plan[3].skip_reason = "a static reason";
    mb_context_t ctx = {.size = 2};
    mb_plan_order_patterns(&ctx, plan, n);
    static const char *const want[] = {"t.a", "t.pat1", "t.b", "t.c", "t.pat2", "t.d", "t.pat3"};
    for (size_t i = 0; i < n; i++)
        assert_string_equal(plan[i].bench->name, want[i]);
    assert_ptr_equal(plan[2].skip_reason, plan[2].skip_buf);
    assert_string_equal(plan[2].skip_reason, "b's own reason");
    assert_string_equal(plan[5].skip_reason, "a static reason");
    assert_null(plan[0].skip_reason);
}

/* A skipped pattern is not moved: it measures nothing, and keeps its place in the report. */
static void test_skipped_pattern_stays(void **state)
{
    (void)state;
    mb_plan_entry_t plan[] = {{.bench = &bench_a}, {.bench = &bench_b}, {.bench = &pat_1}};
    plan[2].skip_reason = "needs 3 ranks";
    mb_context_t ctx = {.size = 2};
    mb_plan_order_patterns(&ctx, plan, 3);
    assert_string_equal(plan[0].bench->name, "t.a");
    assert_string_equal(plan[1].bench->name, "t.b");
    assert_string_equal(plan[2].bench->name, "t.pat1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns_follow_their_recipes),
        cmocka_unit_test(test_skipped_pattern_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
