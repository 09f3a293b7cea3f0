/* SPDX-License-Identifier: MIT */
/* File reread bandwidth (seed 003 Table 7's "file reread" and "mmap reread" of lmbench's
 * summary), lmbench 3's bw_file_rd io_only and bw_mmap_rd mmap_only: a scratch file of
 * OS_FILE_RD_BYTES, just written and so in the page cache, read from the start with read()
 * in 64 KiB chunks, each chunk summed (bw_file_rd), or mapped once and the whole mapping
 * summed (bw_mmap_rd); one operation is one pass over the file. The mapping is touched
 * before timing, so page faults are not counted (os.pagefault counts them). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "os_util.h"

#define OS_FILE_RD_BYTES ((uint64_t)8 << 20)
#define OS_FILE_RD_XFER (64 << 10)

enum { FILE_RD_READ, FILE_RD_MMAP };
static const char *const file_rd_labels[] = {"read", "mmap", NULL};
static const mb_dim_t file_rd_dims[] = {{.name = "access", .labels = file_rd_labels}};

typedef struct file_rd_state {
    const mb_context_t *ctx;
    int access, fd;
    char path[256];
    uint64_t *buf;
    const uint64_t *map;
} file_rd_state_t;

/* lmbench's bread: read every word. */
static uint64_t file_rd_sum(const uint64_t *p, size_t bytes)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = 0; i + 4 <= bytes / 8; i += 4) {
        s0 += p[i];
        s1 += p[i + 1];
        s2 += p[i + 2];
        s3 += p[i + 3];
    }
    return s0 + s1 + s2 + s3;
}

static int file_rd_points(const mb_context_t *ctx, mb_point_t *pts, size_t max, char *err,
                          size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    size_t n = 0;
    for (int64_t a = FILE_RD_READ; a <= FILE_RD_MMAP && n < max; a++)
        pts[n++] = (mb_point_t){.v = {a}};
    return (int)n;
}

static void file_rd_teardown(void *state)
{
    file_rd_state_t *s = state;
    if (!s)
        return;
    if (s->map)
        munmap((void *)s->map, OS_FILE_RD_BYTES);
    if (s->fd >= 0)
        close(s->fd);
    if (s->path[0])
        unlink(s->path);
    free(s->buf);
    free(s);
}

static int file_rd_setup(const mb_context_t *ctx, const mb_point_t *pt, void **state,
                         char *err, size_t errlen)
{
    file_rd_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = aligned_alloc(4096, OS_FILE_RD_XFER))) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return -1;
    }
    s->ctx = ctx;
    s->access = (int)pt->v[0];
    s->fd = mb_os_scratch_file(OS_FILE_RD_BYTES, s->path, sizeof s->path, err, errlen);
    if (s->fd < 0) {
        s->path[0] = '\0';
        file_rd_teardown(s);
        return -1;
    }
    if (s->access == FILE_RD_MMAP) {
        void *m = mmap(NULL, OS_FILE_RD_BYTES, PROT_READ, MAP_SHARED, s->fd, 0);
        if (m == MAP_FAILED) {
            snprintf(err, errlen, "cannot mmap %s: %s", s->path, strerror(errno));
            file_rd_teardown(s);
            return -1;
        }
        s->map = m;
        mb_use_int(file_rd_sum(s->map, OS_FILE_RD_BYTES));
    }
    *state = s;
    return 0;
}

static void file_rd_run(void *state, uint64_t iters)
{
    file_rd_state_t *s = state;
    uint64_t sum = 0;
    for (uint64_t i = iters; i > 0; i--) {
        if (s->access == FILE_RD_MMAP) {
            sum += file_rd_sum(s->map, OS_FILE_RD_BYTES);
            continue;
        }
        if (lseek(s->fd, 0, SEEK_SET) != 0) {
            mb_point_fail(s->ctx, "lseek failed: %s", strerror(errno));
            return;
        }
        for (uint64_t done = 0; done < OS_FILE_RD_BYTES; done += OS_FILE_RD_XFER) {
            if (mb_os_read_full(s->fd, s->buf, OS_FILE_RD_XFER) != 0) {
                mb_point_fail(s->ctx, "read of %s failed: %s", s->path, strerror(errno));
                return;
            }
            sum += file_rd_sum(s->buf, OS_FILE_RD_XFER);
        }
    }
    mb_use_int(sum);
}

static uint64_t file_rd_bytes(const mb_context_t *ctx, const mb_point_t *pt)
{
    (void)ctx, (void)pt;
    return OS_FILE_RD_BYTES;
}

const mb_bench_t mb_bench_os_file_rd = {
    .name = "os.file_rd",
    .group = "os",
    .summary = "file reread and mmap reread bandwidth, 8 MiB file in the page cache (lmbench "
               "bw_file_rd io_only, bw_mmap_rd mmap_only)",
    .measures = "one pass over an 8 MiB scratch file in the page cache: read: lseek to 0, "
                "read() 64 KiB chunks, sum each; mmap: sum the whole (pre-faulted) mapping",
    .scope = MB_SCOPE_ONE,
    .dims = file_rd_dims,
    .ndims = MB_COUNT(file_rd_dims),
    .points = file_rd_points,
    .setup = file_rd_setup,
    .run = file_rd_run,
    .teardown = file_rd_teardown,
    .bytes_per_op = file_rd_bytes,
};
