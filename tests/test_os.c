/* SPDX-License-Identifier: MIT */
/* The os benchmarks' computations on synthetic numbers with known answers: a base cost
 * subtracted and clamped as lmbench does (lat_sig catch, lat_ctx, lat_pagefault), the
 * context-switch figures derived from ring and overhead points, and the local channel
 * carrying bytes both ways through a forked peer (no timing is asserted). */
#include <math.h>
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
        cmocka_unit_test(test_scratch_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
