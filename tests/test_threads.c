/* SPDX-License-Identifier: MIT */
/* The thread benchmarks (shm.thread_create, shm.omp_fork, shm.thread_barrier) run directly
 * through their descriptors on this machine's topology, a few iterations each: points
 * follow [shm] threads_max, every point sets up, runs and tears down, rank 0's binding is
 * restored, and the pthread barrier's workers do exactly as many waits as the runs asked
 * for. thread_barrier.c is included to reach its state; it is not linked a second time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../shm/thread_barrier.c"

extern const mb_bench_t mb_bench_shm_thread_create;
extern const mb_bench_t mb_bench_shm_omp_fork;

#define MAX_POINTS 64

typedef struct fixture {
    mb_config_t cfg;
    mb_context_t ctx;
    hwloc_topology_t topo;
    int cores;
} fixture_t;

static int fixture_setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    if (!f || hwloc_topology_init(&f->topo) != 0 || hwloc_topology_load(f->topo) != 0)
        return -1;
    mb_config_defaults(&f->cfg);
    f->ctx = (mb_context_t){.config = &f->cfg, .topology = f->topo, .rank = 0, .size = 1};
    f->cores = hwloc_get_nbobjs_by_type(f->topo, HWLOC_OBJ_CORE);
    if (f->cores <= 0)
        f->cores = hwloc_get_nbobjs_by_type(f->topo, HWLOC_OBJ_PU);
    *state = f;
    return 0;
}

static int fixture_teardown(void **state)
{
    fixture_t *f = *state;
    hwloc_topology_destroy(f->topo);
    free(f);
    return 0;
}

static int points_of(const mb_bench_t *b, fixture_t *f, mb_point_t *pts)
{
    char err[256] = "";
    int n = b->points(&f->ctx, pts, MAX_POINTS, err, sizeof err);
    if (n < 0)
        fail_msg("%s points: %s", b->name, err);
    return n;
}

/* setup, a few runs, teardown at every point; rank 0's thread binding is the same after. */
static void run_all_points(const mb_bench_t *b, fixture_t *f)
{
    mb_point_t pts[MAX_POINTS];
    int n = points_of(b, f, pts);
    hwloc_bitmap_t before = hwloc_bitmap_alloc(), after = hwloc_bitmap_alloc();
    assert_int_equal(hwloc_get_cpubind(f->topo, before, HWLOC_CPUBIND_THREAD), 0);
    for (int i = 0; i < n; i++) {
        void *state = NULL;
        char err[256] = "";
        if (b->setup(&f->ctx, &pts[i], &state, err, sizeof err) != 0)
            fail_msg("%s point %d setup: %s", b->name, i, err);
        b->run(state, 1);
        b->run(state, 5);
        b->run(state, 20);
        b->teardown(state);
        assert_int_equal(hwloc_get_cpubind(f->topo, after, HWLOC_CPUBIND_THREAD), 0);
        assert_true(hwloc_bitmap_isequal(before, after));
    }
    hwloc_bitmap_free(before);
    hwloc_bitmap_free(after);
}

static void test_thread_create_points(void **state)
{
    fixture_t *f = *state;
    const mb_bench_t *b = &mb_bench_shm_thread_create;
    mb_point_t pts[MAX_POINTS];
    assert_int_equal(points_of(b, f, pts), 2);
    assert_int_equal(b->ndims, 1);
    assert_string_equal(b->dims[0].labels[pts[0].v[0]], "empty");
    assert_string_equal(b->dims[0].labels[pts[1].v[0]], "running");
    assert_int_equal(b->scope, MB_SCOPE_ONE);
}

static void test_thread_create_runs(void **state)
{
    run_all_points(&mb_bench_shm_thread_create, *state);
}

static void test_omp_fork_points(void **state)
{
    fixture_t *f = *state;
    const mb_bench_t *b = &mb_bench_shm_omp_fork;
    mb_point_t pts[MAX_POINTS];
    int n = points_of(b, f, pts); /* auto: one point per core */
    assert_int_equal(n, f->cores);
    for (int i = 0; i < n; i++)
        assert_int_equal(pts[i].v[0], i + 1);
    f->cfg.shm_threads_max = 3;
    assert_int_equal(points_of(b, f, pts), 3);
    assert_int_equal(pts[2].v[0], 3);
    f->cfg.shm_threads_max = 1;
    assert_int_equal(points_of(b, f, pts), 1);
    assert_int_equal(pts[0].v[0], 1);
    f->cfg.shm_threads_max = MAX_POINTS + 1;
    char err[256] = "";
    assert_int_equal(b->points(&f->ctx, pts, MAX_POINTS, err, sizeof err), -1);
    assert_non_null(strstr(err, "threads_max"));
    f->cfg.shm_threads_max = 0;
}

static void test_omp_fork_runs(void **state)
{
    fixture_t *f = *state;
    run_all_points(&mb_bench_shm_omp_fork, f);
    f->cfg.shm_threads_max = (uint64_t)f->cores + 1; /* more threads than cores */
    run_all_points(&mb_bench_shm_omp_fork, f);
    f->cfg.shm_threads_max = 0;
}

static void test_barrier_points(void **state)
{
    fixture_t *f = *state;
    const mb_bench_t *b = &mb_bench_shm_thread_barrier;
    mb_point_t pts[MAX_POINTS];
    assert_int_equal(points_of(b, f, pts), 2 * (f->cores - 1));
    f->cfg.shm_threads_max = 1; /* one core: no points, the driver skips the benchmark */
    assert_int_equal(points_of(b, f, pts), 0);
    f->cfg.shm_threads_max = 4;
    assert_int_equal(points_of(b, f, pts), 6);
    const int64_t want[6][2] = {{BARRIER_OMP, 2},     {BARRIER_OMP, 3},     {BARRIER_OMP, 4},
                                {BARRIER_PTHREAD, 2}, {BARRIER_PTHREAD, 3}, {BARRIER_PTHREAD, 4}};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pts[i].v[0], want[i][0]);
        assert_int_equal(pts[i].v[1], want[i][1]);
    }
    assert_string_equal(b->dims[0].labels[BARRIER_OMP], "omp");
    assert_string_equal(b->dims[0].labels[BARRIER_PTHREAD], "pthread");
    f->cfg.shm_threads_max = MAX_POINTS;
    char err[256] = "";
    assert_int_equal(b->points(&f->ctx, pts, MAX_POINTS, err, sizeof err), -1);
    assert_non_null(strstr(err, "threads_max"));
    f->cfg.shm_threads_max = 0;
}

static void test_barrier_runs(void **state)
{
    fixture_t *f = *state;
    f->cfg.shm_threads_max = (uint64_t)f->cores + 1;
    run_all_points(&mb_bench_shm_thread_barrier, f);
    f->cfg.shm_threads_max = 0;
}

/* Each worker completes exactly the waits that rank 0's thread did over all runs. */
static void test_barrier_pthread_waits(void **state)
{
    fixture_t *f = *state;
    const uint64_t runs[] = {1, 7, 100, 3};
    for (int64_t threads = 2; threads <= 4; threads++) {
        for (size_t nruns = 0; nruns <= MB_COUNT(runs); nruns++) {
            mb_point_t pt = {.v = {BARRIER_PTHREAD, threads}};
            void *opaque = NULL;
            char err[256] = "";
            if (barrier_setup(&f->ctx, &pt, &opaque, err, sizeof err) != 0)
                fail_msg("setup: %s", err);
            barrier_state_t *s = opaque;
            uint64_t total = 0;
            for (size_t r = 0; r < nruns; r++) {
                barrier_run(s, runs[r]);
                total += runs[r];
            }
            barrier_stop(s);
            assert_int_equal(s->episodes, total);
            for (int i = 0; i < threads - 1; i++)
                assert_int_equal(s->workers[i].waits, total);
            barrier_free(s);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_create_points),  cmocka_unit_test(test_thread_create_runs),
        cmocka_unit_test(test_omp_fork_points),       cmocka_unit_test(test_omp_fork_runs),
        cmocka_unit_test(test_barrier_points),        cmocka_unit_test(test_barrier_runs),
        cmocka_unit_test(test_barrier_pthread_waits),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
