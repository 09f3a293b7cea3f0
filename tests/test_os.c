/* SPDX-License-Identifier: MIT */
/* The os benchmarks' computations on synthetic numbers with known answers: a base cost
 * subtracted and clamped as lmbench does (lat_sig catch, lat_ctx, lat_pagefault), the
 * context-switch figures derived from ring and overhead points, and the local channel
 * carrying bytes both ways through a forked peer, its two ends placed on one CPU or on two
 * cores as asked (no timing is asserted). */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "channel.h"
#include "ctx.h"
#include "os_util.h"

static void test_subtract(void **state)
{
    (void)state;
    assert_true(fabs(mb_os_subtract_ns(10.0, 4.0) - 6.0) < 1e-12);
    assert_true(mb_os_subtract_ns(3.0, 5.0) == 0.0); /* clamped, as lmbench's settime(0) */
    assert_true(isnan(mb_os_subtract_ns(NAN, 1.0)));
    assert_true(isnan(mb_os_subtract_ns(5.0, 0.0)));
    assert_true(isnan(mb_os_subtract_ns(-1.0, 1.0)));
}

static mb_measurement_t measured(double median_ns)
{
    mb_measurement_t m = {0};
    m.n = 1;
    m.stats.median = median_ns;
    return m;
}

static void test_ctx_derive(void **state)
{
    (void)state;
    /* procs, size_bytes, binding; medians per hop. */
    const mb_point_t pts[] = {
        {.v = {1, 0, OS_CTX_PINNED}},     {.v = {2, 0, OS_CTX_PINNED}},
        {.v = {8, 0, OS_CTX_PINNED}},     {.v = {1, 16384, OS_CTX_PINNED}},
        {.v = {2, 16384, OS_CTX_PINNED}}, {.v = {2, 0, OS_CTX_UNPINNED}},
        {.v = {1, 0, OS_CTX_UNPINNED}},   {.v = {16, 65536, OS_CTX_UNPINNED}},
    };
    mb_measurement_t ms[] = {measured(1000), measured(3500), measured(4200), measured(2000),
                             measured(1500), measured(9000), measured(1200), measured(7000)};
    ms[7].n = 0; /* a failed point: no overhead to match anyway, and it has no figure */
    json_t *d = mb_os_ctx_derive(pts, ms, 8);
    assert_non_null(d);
    assert_int_equal(json_object_size(d), 4);
    assert_true(fabs(json_real_value(json_object_get(d, "ctx_2p_0K_pinned_ns")) - 2500) < 1e-9);
    assert_true(fabs(json_real_value(json_object_get(d, "ctx_8p_0K_pinned_ns")) - 3200) < 1e-9);
    /* The ring is faster than the overhead: clamped at 0. */
    assert_true(json_real_value(json_object_get(d, "ctx_2p_16K_pinned_ns")) == 0.0);
    /* Matched with the unpinned overhead, not the pinned one. */
    assert_true(fabs(json_real_value(json_object_get(d, "ctx_2p_0K_unpinned_ns")) - 7800) < 1e-9);
    json_decref(d);
}

static void test_ctx_derive_without_overhead(void **state)
{
    (void)state;
    const mb_point_t pts[] = {{.v = {2, 0, OS_CTX_PINNED}}, {.v = {1, 0, OS_CTX_PINNED}}};
    mb_measurement_t ms[] = {measured(3000), measured(1000)};
    ms[1].n = 0; /* the overhead failed: no figure */
    assert_null(mb_os_ctx_derive(pts, ms, 2));
}

static void echo(mb_os_end_t end, void *arg)
{
    (void)arg;
    char c[4];
    for (;;) {
        if (mb_os_read_full(end.rd, c, sizeof c) != 0)
            _exit(0);
        for (size_t i = 0; i < sizeof c; i++)
            c[i] = (char)(c[i] + 1);
        if (mb_os_write_full(end.wr, c, sizeof c) != 0)
            _exit(0);
    }
}

static void channel_round_trip(mb_os_transport_t t)
{
    char err[256] = "", buf[4] = {1, 2, 3, 4};
    mb_os_channel_t ch;
    if (mb_os_channel_open(&ch, t, 0, err, sizeof err) != 0) {
        if (t == MB_OS_UDP || t == MB_OS_TCP) {
            print_message("no loopback here (%s): %s\n", mb_os_transport_name(t), err);
            skip();
        }
        fail_msg("%s", err);
    }
    assert_int_equal(mb_os_channel_fork(&ch, echo, NULL, err, sizeof err), 0);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(mb_os_write_full(ch.mine.wr, buf, sizeof buf), 0);
        assert_int_equal(mb_os_read_full(ch.mine.rd, buf, sizeof buf), 0);
    }
    const char want[4] = {4, 5, 6, 7};
    assert_memory_equal(buf, want, sizeof buf);
    mb_os_channel_close(&ch);
    assert_int_equal(ch.pid, 0);
}

static void test_channel_pipe(void **state)
{
    (void)state;
    channel_round_trip(MB_OS_PIPE);
}

static void test_channel_unix(void **state)
{
    (void)state;
    channel_round_trip(MB_OS_UNIX);
}

static void test_channel_udp(void **state)
{
    (void)state;
    channel_round_trip(MB_OS_UDP);
}

static void test_channel_tcp(void **state)
{
    (void)state;
    channel_round_trip(MB_OS_TCP);
}

/* The channel benchmarks' skip reason says "skip" exactly where their channel cannot be
 * opened here: none for pipes and AF_UNIX while fork works, and for UDP and TCP the
 * loopback's own answer; each transport's entry of the table they point at is itself. */
static void test_channel_unavailable(void **state)
{
    (void)state;
    char why[256], err[256];
    for (int t = MB_OS_PIPE; t <= MB_OS_TCP; t++) {
        assert_int_equal(mb_os_transports[t], t);
        mb_context_t ctx = {.arg = &mb_os_transports[t]};
        const char *reason = mb_os_channel_unavailable(&ctx, why, sizeof why);
        mb_os_channel_t ch;
        int opened = mb_os_channel_open(&ch, (mb_os_transport_t)t, 0, err, sizeof err) == 0;
        if (opened)
            mb_os_channel_close(&ch);
        if (reason)
            print_message("%s: skipped here: %s\n", mb_os_transport_name(t), reason);
        assert_int_equal(reason == NULL, opened);
    }
}

/* lmbench's SOCKBUF on both ends of a TCP channel (the accepted one inherits it from the
 * listening socket), and the system's own without it. Linux doubles what is asked for. */
static int channel_rcvbuf(int fd)
{
    int bytes = 0;
    socklen_t len = sizeof bytes;
    assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, &len), 0);
    return bytes;
}

static void test_channel_tcp_sockbuf(void **state)
{
    (void)state;
    char err[256] = "";
    mb_os_channel_t ch, plain;
    if (mb_os_channel_open(&ch, MB_OS_TCP, 48 << 10, err, sizeof err) != 0) {
        print_message("no loopback here: %s\n", err);
        skip();
    }
    assert_int_equal(mb_os_channel_open(&plain, MB_OS_TCP, 0, err, sizeof err), 0);
    assert_int_equal(channel_rcvbuf(ch.mine.rd), 2 * (48 << 10));
    assert_int_equal(channel_rcvbuf(ch.peer.rd), 2 * (48 << 10));
    assert_int_not_equal(channel_rcvbuf(plain.mine.rd), 2 * (48 << 10));
    mb_os_channel_close(&ch);
    mb_os_channel_close(&plain);
}

/* The peer: tell the rank the CPU it runs on, then wait for the end. */
static void say_cpu(mb_os_end_t end, void *arg)
{
    (void)arg;
    int cpu = sched_getcpu();
    char c;
    if (mb_os_write_full(end.wr, &cpu, sizeof cpu) == 0)
        (void)mb_os_read_full(end.rd, &c, 1);
    _exit(0);
}

/* The core (hwloc) that CPU cpu belongs to, as its cpuset's first index; or cpu. */
static int core_of(hwloc_topology_t topo, int cpu)
{
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
    hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu) : NULL;
    return core ? hwloc_bitmap_first(core->cpuset) : cpu;
}

/* Place the channel's ends, fork the peer, and return the peer's CPU; the rank's own CPU
 * (the only one it may use then) goes into *mine. */
static int placed_peer_cpu(hwloc_topology_t topo, mb_os_placement_t p, int *mine)
{
    char err[256] = "";
    mb_os_channel_t ch;
    cpu_set_t before, during;
    assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
    assert_int_equal(mb_os_channel_open(&ch, MB_OS_PIPE, 0, err, sizeof err), 0);
    assert_int_equal(mb_os_place(&ch.place, topo, p, err, sizeof err), 0);
    assert_int_equal(sched_getaffinity(0, sizeof during, &during), 0);
    *mine = sched_getcpu();
    if (p != MB_OS_UNPINNED) {
        assert_int_equal(CPU_COUNT(&during), 1);
        assert_true(CPU_ISSET(*mine, &during));
    }
    assert_int_equal(mb_os_channel_fork(&ch, say_cpu, NULL, err, sizeof err), 0);
    int cpu = -1;
    assert_int_equal(mb_os_read_full(ch.mine.rd, &cpu, sizeof cpu), 0);
    mb_os_channel_close(&ch);
    cpu_set_t after;
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&after, &before)); /* the rank's affinity given back */
    return cpu;
}

static void test_channel_placement(void **state)
{
    (void)state;
    hwloc_topology_t topo;
    assert_int_equal(hwloc_topology_init(&topo), 0);
    assert_int_equal(hwloc_topology_load(topo), 0);
    mb_os_placement_t p[3];
    size_t n = mb_os_placements(topo, p);
    assert_true(n == 2 || n == 3);
    assert_int_equal(p[0], MB_OS_UNPINNED);
    assert_int_equal(p[1], MB_OS_ONE_CPU);
    assert_string_equal(mb_os_placement_labels[p[1]], "one_cpu");
    int mine, peer = placed_peer_cpu(topo, MB_OS_ONE_CPU, &mine);
    assert_int_equal(peer, mine);
    /* two_cores exactly where the process may use CPUs of two cores */
    int cores = hwloc_get_nbobjs_inside_cpuset_by_type(
        topo, hwloc_topology_get_allowed_cpuset(topo), HWLOC_OBJ_CORE);
    if (cores >= 2) {
        assert_int_equal(n, 3);
        assert_int_equal(p[2], MB_OS_TWO_CORES);
        peer = placed_peer_cpu(topo, MB_OS_TWO_CORES, &mine);
        assert_int_not_equal(core_of(topo, peer), core_of(topo, mine));
    } else {
        print_message("one core here: two_cores not offered\n");
        assert_int_equal(n, 2);
    }
    hwloc_topology_destroy(topo);
}

static void test_scratch_file(void **state)
{
    (void)state;
    char path[256], err[256];
    int fd = mb_os_scratch_file(100000, path, sizeof path, err, sizeof err);
    assert_true(fd >= 0);
    assert_int_equal(lseek(fd, 0, SEEK_END), 100000);
    close(fd);
    assert_int_equal(unlink(path), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subtract),
        cmocka_unit_test(test_ctx_derive),
        cmocka_unit_test(test_ctx_derive_without_overhead),
        cmocka_unit_test(test_channel_pipe),
        cmocka_unit_test(test_channel_unix),
        cmocka_unit_test(test_channel_udp),
        cmocka_unit_test(test_channel_tcp),
        cmocka_unit_test(test_channel_tcp_sockbuf),
        cmocka_unit_test(test_channel_unavailable),
        cmocka_unit_test(test_channel_placement),
        cmocka_unit_test(test_scratch_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
