/* SPDX-License-Identifier: MIT */
/* The system calls of lmbench 3's lat_syscall (seed 003 Table 2: null call, null I/O,
 * stat, open/close; seed 004 III.A.4): os.null_call is getppid() (lmbench's "Simple
 * syscall"; not cached by glibc); os.null_io reads 1 byte from /dev/zero and writes 1 byte
 * to /dev/null ("Simple read"/"Simple write"; lmbench's summary "null I/O" is their mean,
 * derived here); os.stat stats a scratch file and os.open_close opens it read-only and
 * closes it ("Simple stat", "Simple open/close"; the file sits in $TMPDIR or /tmp, which
 * the point records in its measures text). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "os_util.h"

typedef struct syscall_state {
    const mb_context_t *ctx;
    int fd;
    char path[256];
} syscall_state_t;

static void syscall_teardown(void *state)
{
    syscall_state_t *s = state;
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    if (s->path[0])
        unlink(s->path);
    free(s);
}

static syscall_state_t *syscall_new(const mb_context_t *ctx, char *err, size_t errlen)
{
    syscall_state_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->ctx = ctx;
    s->fd = -1;
    return s;
}

/* --- os.null_call --- */

static int null_call_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen)
{
    (void)pt;
    *state = syscall_new(ctx, err, errlen);
    return *state ? 0 : -1;
}

static void null_call_run(void *state, uint64_t iters)
{
    (void)state;
    for (uint64_t i = iters; i > 0; i--)
        mb_use_int((uint64_t)getppid());
}

const mb_bench_t mb_bench_os_null_call = {
    .name = "os.null_call",
    .group = "os",
    .summary = "null system call: getppid() (lmbench lat_syscall null)",
    .measures = "one getppid() system call; loop overhead subtracted",
    .scope = MB_SCOPE_ONE,
    .setup = null_call_setup,
    .run = null_call_run,
    .teardown = syscall_teardown,
    .subtract_loop_overhead = true,
};

/* --- os.null_io --- */

enum { NULL_IO_READ, NULL_IO_WRITE };
static const char *const null_io_labels[] = {"read", "write", NULL};
static const mb_dim_t null_io_dims[] = {{.name = "op", .labels = null_io_labels}};

static int null_io_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t op = NULL_IO_READ; op <= NULL_IO_WRITE && n < max; op++)
        pts[n++] = (mb_point_t){.v = {op}};
    return (int)n;
}

static int null_io_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state, char *err,
                         size_t errlen)
{
    syscall_state_t *s = syscall_new(ctx, err, errlen);
    if (!s)
        return -1;
    const char *dev = pt->v[0] == NULL_IO_READ ? "/dev/zero" : "/dev/null";
    s->fd = open(dev, pt->v[0] == NULL_IO_READ ? O_RDONLY : O_WRONLY);
    if (s->fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", dev, strerror(errno));
        syscall_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void null_io_read(void *state, uint64_t iters)
{
    syscall_state_t *s = state;
    char c;
    for (uint64_t i = iters; i > 0; i--)
        if (read(s->fd, &c, 1) != 1) {
            mb_point_fail(s->ctx, "read of 1 byte from /dev/zero failed: %s", strerror(errno));
            return;
        }
}

static void null_io_write(void *state, uint64_t iters)
{
    syscall_state_t *s = state;
    char c = 0;
    for (uint64_t i = iters; i > 0; i--)
        if (write(s->fd, &c, 1) != 1) {
            mb_point_fail(s->ctx, "write of 1 byte to /dev/null failed: %s", strerror(errno));
            return;
        }
}

/* The run is chosen per point by the fd's access mode. */
static void null_io_run(void *state, uint64_t iters)
{
    syscall_state_t *s = state;
    if ((fcntl(s->fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
        null_io_read(state, iters);
    else
        null_io_write(state, iters);
}

/* lmbench's summary column "null I/O": the mean of the read and the write. */
static json_t *null_io_derive(const mb_point_t *pts, const mb_measurement_t *ms, size_t n)
{
    double read_ns = NAN, write_ns = NAN;
    for (size_t i = 0; i < n; i++) {
        if (ms[i].n == 0)
            continue;
        if (pts[i].v[0] == NULL_IO_READ)
            read_ns = ms[i].stats.median;
        else
            write_ns = ms[i].stats.median;
    }
    if (!isfinite(read_ns) || !isfinite(write_ns))
        return NULL;
    return json_pack("{s:f}", "null_io_ns", (read_ns + write_ns) / 2);
}

const mb_bench_t mb_bench_os_null_io = {
    .name = "os.null_io",
    .group = "os",
    .summary = "1-byte read of /dev/zero and write to /dev/null (lmbench lat_syscall read/write)",
    .measures = "one read() of 1 byte from /dev/zero, or one write() of 1 byte to /dev/null; "
                "loop overhead subtracted; derived null_io_ns: their mean (lmbench's null I/O)",
    .scope = MB_SCOPE_ONE,
    .dims = null_io_dims,
    .ndims = MB_COUNT(null_io_dims),
    .points = null_io_points,
    .setup = null_io_setup,
    .run = null_io_run,
    .teardown = syscall_teardown,
    .subtract_loop_overhead = true,
    .derive = null_io_derive,
};

/* --- os.stat and os.open_close: on a scratch file --- */

static int file_call_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                           char *err, size_t errlen)
{
    (void)pt;
    syscall_state_t *s = syscall_new(ctx, err, errlen);
    if (!s)
        return -1;
    s->fd = mb_os_scratch_file(1, s->path, sizeof s->path, err, errlen);
    if (s->fd < 0) {
        s->path[0] = '\0';
        syscall_teardown(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void stat_run(void *state, uint64_t iters)
{
    syscall_state_t *s = state;
    struct stat st;
    for (uint64_t i = iters; i > 0; i--)
        if (stat(s->path, &st) != 0) {
            mb_point_fail(s->ctx, "stat(%s) failed: %s", s->path, strerror(errno));
            return;
        }
}

static void open_close_run(void *state, uint64_t iters)
{
    syscall_state_t *s = state;
    for (uint64_t i = iters; i > 0; i--) {
        int fd = open(s->path, O_RDONLY);
        if (fd < 0) {
            mb_point_fail(s->ctx, "open(%s) failed: %s", s->path, strerror(errno));
            return;
        }
        close(fd);
    }
}

const mb_bench_t mb_bench_os_stat = {
    .name = "os.stat",
    .group = "os",
    .summary = "stat() of a file (lmbench lat_syscall stat)",
    .measures = "one stat() of a 1-byte scratch file in $TMPDIR (or /tmp), its inode cached; "
                "loop overhead subtracted",
    .scope = MB_SCOPE_ONE,
    .setup = file_call_setup,
    .run = stat_run,
    .teardown = syscall_teardown,
    .subtract_loop_overhead = true,
};

const mb_bench_t mb_bench_os_open_close = {
    .name = "os.open_close",
    .group = "os",
    .summary = "open() + close() of a file (lmbench lat_syscall open)",
    .measures = "one open(O_RDONLY) and close() of a 1-byte scratch file in $TMPDIR (or /tmp); "
                "loop overhead subtracted",
    .scope = MB_SCOPE_ONE,
    .setup = file_call_setup,
    .run = open_close_run,
    .teardown = syscall_teardown,
    .subtract_loop_overhead = true,
};
