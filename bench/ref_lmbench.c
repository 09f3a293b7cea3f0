/* SPDX-License-Identifier: MIT */
/* ref_lmbench OP [ARGS]: lmbench 3's methods for the per-node OS figures (issue 14), outside
 * mbsuite, for `make bench` to set beside the os.* benchmarks. Written from lmbench 3's
 * documented method (lib_timing.c's benchmp, the lat_* and bw_* programs), not its code.
 *
 * Timing, as benchmp with one process: the operation is repeated `iterations` times in one
 * timed interval; an interval over 0.95 of ENOUGH counts, and while intervals are under
 * 0.99 or over 1.2 of ENOUGH the count is rescaled to 1.1 ENOUGH (or multiplied by 8 below
 * 150 us). After TRIES = 11 counted intervals the median time per operation is reported.
 * ENOUGH is 5 ms, the shortest interval lmbench's compute_enough accepts (it picks it on
 * any machine with a microsecond clock); the ENOUGH environment variable overrides it in
 * microseconds, as lmbench's does, and WARMUP runs the operation for that many
 * microseconds before timing, as lmbench's -W option (default 0, as lmbench's). Not copied: the
 * timer- and loop-overhead subtractions (under 1 ns per operation here, below the figures'
 * precision) and lmbench's child process per benchmark (the operations run in this process).
 *
 * Prints one number: microseconds for latencies, MB/s (1e6 bytes/s) for bandwidths.
 *   null | read | write | stat | open        lat_syscall (getppid; 1 byte of /dev/zero,
 *                                            to /dev/null; stat, open+close a scratch file)
 *   select N [tcp]                           lat_select -n N file|tcp: N dup()s of one
 *                                            descriptor (the file opened read-only, or one
 *                                            connected TCP socket on 127.0.0.1), all ready
 *                                            for writing, selected for writing with a zero
 *                                            timeout
 *   sig_install | sig_catch                  lat_sig (catch less kill(me, 0))
 *   fork | exec HELLO | shell HELLO          lat_proc (the child's stdout is /dev/null)
 *   ctx KB PROCS [pinned]                    lat_ctx -s KB PROCS (less the pipe+sum cost);
 *                                            pinned: the ring on this process's CPU
 *   lat_pipe | lat_unix | lat_udp | lat_tcp  round trip to a forked echo peer (1 byte;
 *                                            UDP 4), 127.0.0.1
 *   lat_connect                              connect+close to a forked accept+close peer
 *   bw_pipe | bw_unix | bw_tcp               a forked peer writing 64 KiB chunks (TCP
 *                                            with 1 MiB socket buffers, lmbench's SOCKBUF)
 *   (lat_* and bw_* ... on CPU PEER_CPU)     this process bound to CPU, its peer to
 *                                            PEER_CPU (lmbench 3's LMBENCH_SCHED binding;
 *                                            os.lat_*, os.tcp_connect and os.bw_* one_cpu
 *                                            and two_cores)
 *   file_rd | mmap_rd                        bw_file_rd io_only, bw_mmap_rd mmap_only on
 *                                            an 8 MiB file in the page cache
 *   pagefault                                lat_pagefault on that file, per page, less
 *                                            mmap+munmap
 *   ops int64|double add|mul|div             lat_ops, in nanoseconds: 100-deep dependent
 *                                            chains; int64 add and div lmbench 3's a += b;
 *                                            b -= a (two operations) and r = s / r, mul less
 *                                            one xor (timed as lat_ops' shift-and-xor chain);
 *                                            double add, mul f += f, f *= f, div f = g / f
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIES 11
#define XFER_BYTES (64 << 10)
#define FILE_BYTES (8 << 20)
#define SOCKBUF_BYTES (1 << 20)
#define MAX_PROCS 64

typedef void (*op_fn)(uint64_t n);

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "ref_lmbench: %s: %s\n", what, strerror(errno));
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* benchmp's interval sizing and median; microseconds per operation. */
static double benchmp_us(op_fn op)
{
    const char *env = getenv("ENOUGH");
    double enough = env ? atof(env) : 5000.0;
    double per_op[TRIES];
    int counted = 0;
    uint64_t iterations = 1;
    op(1); /* benchmp's warm-up state runs the operation before timing starts */
    /* lmbench's -W: WARMUP microseconds of the operation before timing (default 0). */
    const char *warm_env = getenv("WARMUP");
    double warm_us = warm_env ? atof(warm_env) : 0, warm_t0 = now_us();
    for (uint64_t n = 1; now_us() - warm_t0 < warm_us; n = n < (1u << 20) ? 2 * n : n)
        op(n);
    while (counted < TRIES) {
        double t0 = now_us();
        op(iterations);
        double t = now_us() - t0;
        if (t > 0.95 * enough)
            per_op[counted++] = t / (double)iterations;
        if (t < 0.99 * enough || t > 1.2 * enough) {
            if (t > 150.0)
                iterations = (uint64_t)((double)iterations / t * 1.1 * enough) + 1;
            else if ((iterations <<= 3) > (1u << 27))
                break;
        }
    }
    if (counted == 0) {
        fprintf(stderr, "ref_lmbench: no interval reached %.0f us\n", enough);
        exit(1);
    }
    qsort(per_op, (size_t)counted, sizeof per_op[0], cmp_double);
    return per_op[counted / 2];
}

static volatile uint64_t sink;
static int fd_a = -1, fd_b = -1; /* the descriptors the operation uses */
static char scratch[4096];

static void scratch_remove(void)
{
    unlink(scratch);
}

/* An FILE_BYTES scratch file in $TMPDIR or /tmp, read once so it sits in the page cache. */
static void scratch_make(void)
{
    const char *dir = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/ref_lmbench.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(scratch);
    if (fd < 0)
        die(scratch);
    atexit(scratch_remove);
    static char chunk[XFER_BYTES];
    memset(chunk, 0x5a, sizeof chunk);
    for (int i = 0; i < FILE_BYTES / XFER_BYTES; i++)
        if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk)
            die("write scratch file");
    lseek(fd, 0, SEEK_SET);
    while (read(fd, chunk, sizeof chunk) > 0) {
    }
    close(fd);
}

/* --- lat_syscall --- */
static void op_null(uint64_t n)
{
    while (n--)
        sink += (uint64_t)getppid();
}
static void op_read(uint64_t n)
{
    char c;
    while (n--)
        if (read(fd_a, &c, 1) != 1)
            die("read /dev/zero");
}
static void op_write(uint64_t n)
{
    char c = 0;
    while (n--)
        if (write(fd_a, &c, 1) != 1)
            die("write /dev/null");
}
static void op_stat(uint64_t n)
{
    struct stat sb;
    while (n--)
        if (stat(scratch, &sb) != 0)
            die("stat");
}
static void op_open(uint64_t n)
{
    while (n--) {
        int fd = open(scratch, O_RDONLY);
        if (fd < 0)
            die("open");
        close(fd);
    }
}

/* --- lat_select --- */
static fd_set select_set;
static int select_max;
static void op_select(uint64_t n)
{
    while (n--) {
        fd_set set = select_set;
        struct timeval tv = {0, 0};
        if (select(select_max + 1, NULL, &set, NULL, &tv) < 0)
            die("select");
    }
}

/* --- lat_sig --- */
static void on_usr1(int sig)
{
    (void)sig;
}
/* lat_sig's do_install: the handler, an empty mask and no flags set in every iteration. */
static void op_sig_install(uint64_t n)
{
    struct sigaction sa = {0}, old;
    while (n--) {
        sa.sa_handler = on_usr1;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(SIGUSR1, &sa, &old);
    }
}
static void op_sig_send(uint64_t n)
{
    pid_t me = getpid();
    while (n--)
        kill(me, 0);
}
static void op_sig_catch(uint64_t n)
{
    pid_t me = getpid();
    while (n--)
        kill(me, SIGUSR1);
}

/* --- lat_proc --- */
static const char *hello;
static int devnull = -1;
static void spawn(uint64_t n, int how)
{
    while (n--) {
        pid_t pid = fork();
        if (pid < 0)
            die("fork");
        if (pid == 0) {
            if (how > 0) {
                dup2(devnull, 1);
                if (how == 1)
                    execl(hello, hello, (char *)NULL);
                else
                    execl("/bin/sh", "sh", "-c", hello, (char *)NULL);
            }
            _exit(how > 0 ? 127 : 1);
        }
        if (waitpid(pid, NULL, 0) != pid)
            die("waitpid");
    }
}
static void op_fork(uint64_t n)
{
    spawn(n, 0);
}
static void op_exec(uint64_t n)
{
    spawn(n, 1);
}
static void op_shell(uint64_t n)
{
    spawn(n, 2);
}

/* --- lat_ctx --- */
static int ring[MAX_PROCS][2], ring_procs;
static int *ring_data;
static size_t ring_bytes;
static pid_t peers[MAX_PROCS];
static int npeers;

/* lmbench's sumit: every int of the working set. */
static int sum_ints(const int *d, size_t bytes)
{
    int s = 0;
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        s += d[i];
    return s;
}
/* A working set whose pages are written (lmbench bzero()s it): calloc'd pages never written
 * may all map the kernel's one zero page, which stays in L1 whatever the set's size. */
static int *written_ints(size_t bytes)
{
    int *d = malloc(bytes + sizeof(int));
    if (!d)
        die("malloc");
    for (size_t i = 0; i < bytes / sizeof(int); i++)
        d[i] = (int)i;
    return d;
}
static void token(int wr, int rd)
{
    int msg = 1;
    if (write(wr, &msg, sizeof msg) != sizeof msg || read(rd, &msg, sizeof msg) != sizeof msg)
        die("token pipe");
}
/* The overhead: this process passing the token through each pipe to itself, summing. */
static void op_ctx_overhead(uint64_t n)
{
    int s = 0;
    for (int i = 0; n--; i = (i + 1) % ring_procs) {
        token(ring[i][1], ring[i][0]);
        s += sum_ints(ring_data, ring_bytes);
    }
    sink += (uint64_t)s;
}
static void op_ctx_ring(uint64_t n)
{
    int s = 0;
    while (n--) {
        token(ring[0][1], ring[ring_procs - 1][0]);
        s += sum_ints(ring_data, ring_bytes);
    }
    sink += (uint64_t)s;
}
static void kill_peers(void)
{
    for (int i = 0; i < npeers; i++) {
        kill(peers[i], SIGKILL);
        waitpid(peers[i], NULL, 0);
    }
    npeers = 0;
}
static int peer_cpu = -1; /* "on CPU PEER_CPU": the CPU a forked peer binds itself to */

static void bind_cpu(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        die("sched_setaffinity");
}

static pid_t peer_fork(void)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid > 0)
        peers[npeers++] = pid;
    else if (peer_cpu >= 0)
        bind_cpu(peer_cpu);
    return pid;
}

static double ctx_us(size_t kb, int procs, int pinned)
{
    if (procs < 1 || procs > MAX_PROCS) {
        fprintf(stderr, "ref_lmbench: ctx: PROCS must be 1..%d\n", MAX_PROCS);
        exit(2);
    }
    if (pinned)
        bind_cpu(sched_getcpu());
    ring_procs = procs;
    ring_bytes = kb << 10;
    ring_data = written_ints(ring_bytes);
    for (int i = 0; i < procs; i++)
        if (pipe(ring[i]) != 0)
            die("pipe");
    double overhead = benchmp_us(op_ctx_overhead);
    for (int i = 1; i < procs; i++)
        if (peer_fork() == 0) { /* member i: reads pipe i-1, writes pipe i */
            int *own = written_ints(ring_bytes), msg;
            for (;;) {
                if (read(ring[i - 1][0], &msg, sizeof msg) != sizeof msg)
                    _exit(1);
                sink += (uint64_t)sum_ints(own, ring_bytes);
                if (write(ring[i][1], &msg, sizeof msg) != sizeof msg)
                    _exit(1);
            }
        }
    double hop = benchmp_us(op_ctx_ring) / procs;
    kill_peers();
    return hop - overhead;
}

/* --- local communication --- */
static size_t msg_bytes = 1;
static void op_roundtrip(uint64_t n)
{
    char buf[8] = {0};
    while (n--)
        if (write(fd_a, buf, msg_bytes) != (ssize_t)msg_bytes ||
            read(fd_b, buf, msg_bytes) != (ssize_t)msg_bytes)
            die("round trip");
}
static void echo_forever(int rd, int wr)
{
    char buf[8];
    for (;;) {
        ssize_t got = read(rd, buf, msg_bytes);
        if (got <= 0 || write(wr, buf, (size_t)got) != got)
            _exit(0);
    }
}
/* The buffers of bw_pipe, bw_unix and bw_tcp: lmbench valloc()s them (page-aligned), and
 * bw_pipe's reader reads 128 bytes into a page ("destroy page alignment"). */
static void write_forever(int wr)
{
    static _Alignas(4096) char chunk[XFER_BYTES];
    memset(chunk, 0x5a, sizeof chunk);
    for (;;)
        if (write(wr, chunk, sizeof chunk) <= 0)
            _exit(0);
}
static size_t bw_read_offset; /* 128 for bw_pipe */
static void op_bw_read(uint64_t n)
{
    static _Alignas(4096) char space[XFER_BYTES + 4096];
    char *chunk = space + bw_read_offset;
    while (n--)
        for (size_t got = 0; got < XFER_BYTES;) {
            ssize_t r = read(fd_b, chunk + got, XFER_BYTES - got);
            if (r <= 0)
                die("bandwidth read");
            got += (size_t)r;
        }
}

static struct sockaddr_in loopback(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}
/* A socket of TYPE bound to 127.0.0.1 on a free port, whose address goes into *where. */
static int bound(int type, struct sockaddr_in *where)
{
    int s = socket(AF_INET, type, 0);
    *where = loopback();
    socklen_t len = sizeof *where;
    if (s < 0 || bind(s, (struct sockaddr *)where, sizeof *where) != 0 ||
        getsockname(s, (struct sockaddr *)where, &len) != 0)
        die("bind 127.0.0.1");
    if (type == SOCK_STREAM && listen(s, SOMAXCONN) != 0)
        die("listen");
    return s;
}
static void bufsizes(int s)
{
    int b = SOCKBUF_BYTES;
    setsockopt(s, SOL_SOCKET, SO_SNDBUF, &b, sizeof b);
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &b, sizeof b);
}
static int tcp_connect(const struct sockaddr_in *to, int big)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        die("socket");
    if (big)
        bufsizes(s);
    if (connect(s, (const struct sockaddr *)to, sizeof *to) != 0)
        die("connect 127.0.0.1");
    return s;
}
static struct sockaddr_in connect_to;
static void op_connect(uint64_t n)
{
    while (n--)
        close(tcp_connect(&connect_to, 0));
}

/* A forked peer on the far end of pipes, a socketpair or 127.0.0.1: echoing (bw = 0) or
 * writing (bw = 1); fd_a and fd_b are this side's write and read ends. */
static void start_peer(const char *kind, int bw)
{
    int up[2], down[2]; /* pipes: up this side to the peer, down back; AF_UNIX: up[0] is the peer's */
    if (strcmp(kind, "pipe") == 0 || strcmp(kind, "unix") == 0) {
        int unix_pair = strcmp(kind, "unix") == 0;
        if (unix_pair ? socketpair(AF_UNIX, SOCK_STREAM, 0, up) != 0
                      : pipe(up) != 0 || pipe(down) != 0)
            die(kind);
        if (unix_pair)
            down[0] = up[1], down[1] = up[0];
        if (peer_fork() == 0)
            bw ? write_forever(down[1]) : echo_forever(up[0], down[1]);
        fd_a = up[1], fd_b = down[0];
        return;
    }
    struct sockaddr_in at;
    if (strcmp(kind, "udp") == 0) {
        int s = bound(SOCK_DGRAM, &at);
        if (peer_fork() == 0) {
            char buf[8];
            struct sockaddr_in from;
            for (;;) {
                socklen_t len = sizeof from;
                ssize_t got = recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);
                if (got <= 0 || sendto(s, buf, (size_t)got, 0, (struct sockaddr *)&from, len) != got)
                    _exit(0);
            }
        }
        close(s);
        int c = socket(AF_INET, SOCK_DGRAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at) != 0)
            die("udp connect");
        fd_a = fd_b = c;
        return;
    }
    int s = bound(SOCK_STREAM, &at);
    if (bw)
        bufsizes(s);
    if (peer_fork() == 0) {
        int c = accept(s, NULL, NULL);
        if (c < 0)
            _exit(1);
        bw ? write_forever(c) : echo_forever(c, c);
    }
    close(s);
    fd_a = fd_b = tcp_connect(&at, bw);
}

/* --- bw_file_rd, bw_mmap_rd, lat_pagefault --- */
static const uint64_t *mapped;
/* lmbench's bread: every word summed. */
static uint64_t sum_words(const uint64_t *p, size_t bytes)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = 0; i < bytes / 8; i += 4)
        s0 += p[i], s1 += p[i + 1], s2 += p[i + 2], s3 += p[i + 3];
    return s0 + s1 + s2 + s3;
}
/* Page-aligned, as lmbench's valloc'd buffer (and mbsuite's): read() into a static array
 * that began 544 bytes into a page, off the cache lines, gave 9.4-12.1 GB/s, against
 * 14.3-15.2 GB/s page-aligned, alternated on the development VM. */
static _Alignas(4096) uint64_t buf[XFER_BYTES / 8];
static void op_file_rd(uint64_t n)
{
    while (n--) {
        lseek(fd_a, 0, SEEK_SET);
        for (int i = 0; i < FILE_BYTES / XFER_BYTES; i++) {
            if (read(fd_a, buf, sizeof buf) != (ssize_t)sizeof buf)
                die("read scratch file");
            sink += sum_words(buf, sizeof buf);
        }
    }
}
static void op_mmap_rd(uint64_t n)
{
    while (n--)
        sink += sum_words(mapped, FILE_BYTES);
}
static size_t *page_order, npages, page_bytes;
static void op_map_touch(uint64_t n, int touch)
{
    while (n--) {
        const char *p = mmap(NULL, FILE_BYTES, PROT_READ, MAP_SHARED, fd_a, 0);
        if (p == MAP_FAILED)
            die("mmap");
        if (touch)
            for (size_t i = 0; i < npages; i++)
                sink += (uint64_t)p[page_order[i] * page_bytes];
        munmap((void *)p, FILE_BYTES);
    }
}
static void op_pagefault(uint64_t n)
{
    op_map_touch(n, 1);
}
static void op_map_only(uint64_t n)
{
    op_map_touch(n, 0);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: ref_lmbench null|read|write|stat|open|sig_install|sig_catch|fork|"
            "lat_pipe|lat_unix|lat_udp|lat_tcp|lat_connect|bw_pipe|bw_unix|bw_tcp|"
            "file_rd|mmap_rd|pagefault\n"
            "       ref_lmbench select N [tcp] | exec HELLO | shell HELLO | ctx KB PROCS [pinned]\n"
            "       ref_lmbench lat_pipe|lat_unix|lat_udp|lat_tcp|lat_connect|"
            "bw_pipe|bw_unix|bw_tcp on CPU PEER_CPU\n"
            "       ref_lmbench ops int64|double add|mul|div\n");
    exit(2);
}

/* --- lat_ops --- */
#define X10(a) a a a a a a a a a a
#define X100(a) X10(X10(a))
static volatile uint64_t ops_start = 1000; /* unknown to the compiler: no folding */
#define INT_CHAIN(name, step)                                                                 \
    static void name(uint64_t n)                                                              \
    {                                                                                         \
        uint64_t r = ops_start;                                                               \
        while (n--)                                                                           \
            for (uint64_t i = 1; i <= 1000; i++) {                                            \
                X100(step)                                                                    \
            }                                                                                 \
        sink += r;                                                                            \
    }
INT_CHAIN(op_int64_bit, r ^= i; r <<= 1;)
/* lmbench 3's do_int64_add: a += b; b -= a, each step waiting for the one before (2 operations);
 * the empty asm keeps the compiler from folding the pair's algebra (b ends as -a). */
#define ADD_PAIR a += b; __asm__ volatile("" : "+r"(a)); b -= a; __asm__ volatile("" : "+r"(b));
static void op_int64_add(uint64_t n)
{
    uint64_t a = ops_start + 37420, b = ops_start + 21698324;
    while (n--)
        for (int i = 0; i < 1000; i++) {
            X100(ADD_PAIR)
        }
    sink += a + b;
}
INT_CHAIN(op_int64_mul, r = (r * i) ^ r;)
/* lmbench 3's do_int64_div: r = s / r with s = (r + 1) << 20, r alternating between about 2^20
 * and its start (the divider's time depends on the quotient's size). */
#define DIV_STEP r = s / r; __asm__ volatile("" : "+r"(r));
static void op_int64_div(uint64_t n)
{
    uint64_t r = ops_start + 36, s = (r + 1) << 20;
    while (n--)
        for (int i = 0; i < 1000; i++) {
            X100(DIV_STEP)
        }
    sink += r;
}
#define DOUBLE_CHAIN(name, step)                                                              \
    static void name(uint64_t n)                                                              \
    {                                                                                         \
        double f = (double)ops_start, g = 1.0;                                                \
        while (n--)                                                                           \
            for (int i = 0; i < 1000; i++) {                                                  \
                X10(step)                                                                     \
            }                                                                                 \
        sink += (uint64_t)(f != g);                                                           \
    }
DOUBLE_CHAIN(op_double_add, f += f;)
DOUBLE_CHAIN(op_double_mul, f *= f;)
DOUBLE_CHAIN(op_double_div, f = g / f;)

/* Nanoseconds per operation, lat_ops' counting. */
static double ops_ns(const char *type, const char *what)
{
    int add = strcmp(what, "add") == 0, mul = strcmp(what, "mul") == 0,
        div = strcmp(what, "div") == 0;
    if (strcmp(type, "double") == 0 && (add || mul || div))
        return 1e3 * benchmp_us(add ? op_double_add : mul ? op_double_mul : op_double_div) / 1e4;
    if (strcmp(type, "int64") != 0 || !(add || mul || div))
        usage();
    if (add)
        return 1e3 * benchmp_us(op_int64_add) / 2e5;
    if (div)
        return 1e3 * benchmp_us(op_int64_div) / 1e5;
    double bit_ns = 1e3 * benchmp_us(op_int64_bit) / 2e5;
    return 1e3 * benchmp_us(op_int64_mul) / 1e5 - bit_ns;
}

static int open_or_die(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        die(path);
    return fd;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *op = argv[1];
    double v;
    signal(SIGPIPE, SIG_IGN);
    if (argc == 5 && strcmp(argv[2], "on") == 0 &&
        (strncmp(op, "lat_", 4) == 0 || strncmp(op, "bw_", 3) == 0)) {
        bind_cpu(atoi(argv[3]));
        peer_cpu = atoi(argv[4]);
        argc = 2;
    }
    if (strcmp(op, "null") == 0) {
        v = benchmp_us(op_null);
    } else if (strcmp(op, "read") == 0 || strcmp(op, "write") == 0) {
        int rd = strcmp(op, "read") == 0;
        fd_a = open_or_die(rd ? "/dev/zero" : "/dev/null", rd ? O_RDONLY : O_WRONLY);
        v = benchmp_us(rd ? op_read : op_write);
    } else if (strcmp(op, "stat") == 0 || strcmp(op, "open") == 0) {
        scratch_make();
        v = benchmp_us(strcmp(op, "stat") == 0 ? op_stat : op_open);
    } else if (strcmp(op, "select") == 0 && (argc == 3 || (argc == 4 && !strcmp(argv[3], "tcp")))) {
        int n = atoi(argv[2]);
        if (n < 1 || n > 512)
            usage();
        int one;
        if (argc == 3) {
            scratch_make();
            one = open_or_die(scratch, O_RDONLY);
        } else { /* connected, its far end accepted and kept open with nothing to read */
            struct sockaddr_in at;
            int listener = bound(SOCK_STREAM, &at);
            one = tcp_connect(&at, 0);
            if (accept(listener, NULL, NULL) < 0)
                die("accept");
        }
        FD_ZERO(&select_set);
        for (int i = 0; i < n; i++) {
            int fd = dup(one);
            if (fd < 0 || fd >= FD_SETSIZE)
                die("dup (or a descriptor over FD_SETSIZE)");
            FD_SET(fd, &select_set);
            select_max = fd;
        }
        close(one);
        v = benchmp_us(op_select);
    } else if (strcmp(op, "sig_install") == 0) {
        v = benchmp_us(op_sig_install);
    } else if (strcmp(op, "sig_catch") == 0) {
        double send = benchmp_us(op_sig_send);
        op_sig_install(1);
        v = benchmp_us(op_sig_catch) - send;
    } else if (strcmp(op, "fork") == 0) {
        v = benchmp_us(op_fork);
    } else if ((strcmp(op, "exec") == 0 || strcmp(op, "shell") == 0) && argc == 3) {
        hello = argv[2];
        if (access(hello, X_OK) != 0)
            die(hello);
        devnull = open_or_die("/dev/null", O_WRONLY);
        v = benchmp_us(strcmp(op, "exec") == 0 ? op_exec : op_shell);
    } else if (strcmp(op, "ctx") == 0 && (argc == 4 || (argc == 5 && !strcmp(argv[4], "pinned")))) {
        v = ctx_us((size_t)atoi(argv[2]), atoi(argv[3]), argc == 5);
    } else if (!strcmp(op, "lat_pipe") || !strcmp(op, "lat_unix") || !strcmp(op, "lat_udp") ||
               !strcmp(op, "lat_tcp")) {
        msg_bytes = strcmp(op, "lat_udp") == 0 ? 4 : 1;
        start_peer(op + 4, 0);
        v = benchmp_us(op_roundtrip);
    } else if (strcmp(op, "lat_connect") == 0) {
        int s = bound(SOCK_STREAM, &connect_to);
        if (peer_fork() == 0)
            for (;;) {
                int c = accept(s, NULL, NULL);
                if (c >= 0)
                    close(c);
            }
        v = benchmp_us(op_connect);
    } else if (strncmp(op, "bw_", 3) == 0 && (!strcmp(op + 3, "pipe") || !strcmp(op + 3, "unix") ||
                                               !strcmp(op + 3, "tcp"))) {
        start_peer(op + 3, 1);
        bw_read_offset = strcmp(op + 3, "pipe") == 0 ? 128 : 0;
        v = XFER_BYTES / benchmp_us(op_bw_read);
    } else if (strcmp(op, "ops") == 0 && argc == 4) {
        v = ops_ns(argv[2], argv[3]);
    } else if (strcmp(op, "file_rd") == 0 || strcmp(op, "mmap_rd") == 0 ||
               strcmp(op, "pagefault") == 0) {
        scratch_make();
        fd_a = open_or_die(scratch, O_RDONLY);
        if (strcmp(op, "file_rd") == 0) {
            v = FILE_BYTES / benchmp_us(op_file_rd);
        } else if (strcmp(op, "mmap_rd") == 0) {
            mapped = mmap(NULL, FILE_BYTES, PROT_READ, MAP_SHARED, fd_a, 0);
            if (mapped == MAP_FAILED)
                die("mmap");
            v = FILE_BYTES / benchmp_us(op_mmap_rd);
        } else {
            page_bytes = (size_t)sysconf(_SC_PAGESIZE);
            npages = FILE_BYTES / page_bytes;
            page_order = malloc(npages * sizeof *page_order);
            for (size_t i = 0; i < npages; i++)
                page_order[i] = i;
            srand((unsigned)getpid());
            for (size_t i = npages - 1; i > 0; i--) { /* shuffled: no prefetch streams */
                size_t j = (size_t)rand() % (i + 1), t = page_order[i];
                page_order[i] = page_order[j], page_order[j] = t;
            }
            double map = benchmp_us(op_map_only);
            v = (benchmp_us(op_pagefault) - map) / (double)npages;
        }
    } else {
        usage();
    }
    kill_peers();
    printf("%.4f\n", v);
    return 0;
}
