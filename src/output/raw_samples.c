/* SPDX-License-Identifier: MIT */
/* Writing raw.csv.gz with zlib's gz interface: gzflush(Z_FINISH) ends a gzip member and the
 * next write starts another, and gzip readers (zcat, Python's gzip, R) read concatenated
 * members as one stream, so one file grows by whole members only. */
#include "raw_samples.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

struct mb_raw {
    char *dir, *part, *final;
    int fd;
    gzFile gz;
    bool pending;        /* rows written since the last commit */
    char error[256];     /* the first write error, reported at the next commit */
    long long rows;      /* committed rows */
    long long points;    /* committed points */
    long long bytes;     /* committed bytes of the part: whole gzip members */
    long long rows_open, points_open;
};

static const char *const raw_columns[] = {"benchmark", "params", "point", "experiment",
                                          "time_ns"};

static void raw_free(mb_raw_t *r)
{
    if (!r)
        return;
    if (r->gz)
        gzclose(r->gz); /* closes its duplicate of fd */
    if (r->fd >= 0)
        close(r->fd);
    free(r->dir);
    free(r->part);
    free(r->final);
    free(r);
}

static void raw_write(mb_raw_t *r, const char *text, size_t len)
{
    if (r->error[0])
        return;
    if (gzwrite(r->gz, text, (unsigned)len) != (int)len) {
        int zerr;
        const char *why = gzerror(r->gz, &zerr);
        snprintf(r->error, sizeof r->error, "%s: writing: %s", r->part,
                 zerr == Z_ERRNO ? strerror(errno) : why);
    }
    r->pending = true;
}

mb_raw_t *mb_raw_open(const char *dir, char *err, size_t errlen)
{
    mb_raw_t *r = calloc(1, sizeof *r);
    if (!r)
        goto oom;
    r->fd = -1;
    if (!(r->dir = strdup(dir)) || asprintf(&r->part, "%s/%s", dir, MB_RAW_PART) < 0 ||
        asprintf(&r->final, "%s/%s", dir, MB_RAW_FILE) < 0)
        goto oom;
    r->fd = open(r->part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (r->fd < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", r->part, strerror(errno));
        raw_free(r);
        return NULL;
    }
    /* gzclose closes the descriptor; a dup keeps ours for fsync and the size. */
    int gzfd = dup(r->fd);
    r->gz = gzfd >= 0 ? gzdopen(gzfd, "wb6") : NULL;
    if (!r->gz) {
        if (gzfd >= 0)
            close(gzfd);
        snprintf(err, errlen, "%s: cannot start the gzip stream", r->part);
        raw_free(r);
        return NULL;
    }
    raw_write(r, MB_RAW_HEADER "\n", strlen(MB_RAW_HEADER) + 1);
    if (mb_raw_commit(r, err, errlen) != 0) {
        raw_free(r);
        return NULL;
    }
    return r;
oom:
    snprintf(err, errlen, "%s/%s: out of memory", dir, MB_RAW_PART);
    raw_free(r);
    return NULL;
}

/* The params text as one CSV field: quoted (quotes doubled) when it needs to be. */
static size_t raw_field(char *buf, size_t len, const char *s)
{
    if (!strpbrk(s, ",\"\r\n"))
        return (size_t)snprintf(buf, len, "%s", s);
    size_t used = 0;
    if (used + 1 < len)
        buf[used++] = '"';
    for (; *s && used + 3 < len; s++) {
        if (*s == '"')
            buf[used++] = '"';
        buf[used++] = *s;
    }
    buf[used++] = '"';
    buf[used] = '\0';
    return used;
}

void mb_raw_add_point(mb_raw_t *r, const char *bench, const char *params, size_t point,
                      const double *samples_ns, size_t n)
{
    if (!r || n == 0)
        return;
    char prefix[640], field[520], row[768];
    raw_field(field, sizeof field, params);
    snprintf(prefix, sizeof prefix, "%s,%s,%zu,", bench, field, point);
    for (size_t k = 0; k < n; k++) {
        /* 10 significant digits, as results.json has its figures. */
        int len = snprintf(row, sizeof row, "%s%zu,%.10g\n", prefix, k, samples_ns[k]);
        raw_write(r, row, (size_t)len < sizeof row ? (size_t)len : sizeof row - 1);
    }
    r->rows_open += (long long)n;
    r->points_open++;
}

int mb_raw_commit(mb_raw_t *r, char *err, size_t errlen)
{
    if (!r->pending && !r->error[0])
        return 0;
    if (!r->error[0] && gzflush(r->gz, Z_FINISH) != Z_OK)
        snprintf(r->error, sizeof r->error, "%s: finishing a gzip member failed", r->part);
    if (!r->error[0] && fsync(r->fd) != 0)
        snprintf(r->error, sizeof r->error, "%s: fsync: %s", r->part, strerror(errno));
    struct stat st;
    if (!r->error[0] && fstat(r->fd, &st) != 0)
        snprintf(r->error, sizeof r->error, "%s: stat: %s", r->part, strerror(errno));
    if (r->error[0]) {
        snprintf(err, errlen, "%s", r->error);
        return -1;
    }
    r->bytes = (long long)st.st_size;
    r->rows += r->rows_open;
    r->points += r->points_open;
    r->rows_open = r->points_open = 0;
    r->pending = false;
    return 0;
}

int mb_raw_discard(mb_raw_t *r, char *err, size_t errlen)
{
    if (!r->pending || r->error[0])
        return mb_raw_commit(r, err, errlen); /* nothing to take back, or an error to say */
    /* The stream is closed with what it holds and the part cut back to its whole members; a
     * new stream on another duplicate appends from there (the duplicates share the offset). */
    gzclose(r->gz);
    r->gz = NULL;
    int gzfd = -1;
    if (ftruncate(r->fd, (off_t)r->bytes) != 0 || lseek(r->fd, (off_t)r->bytes, SEEK_SET) < 0)
        snprintf(r->error, sizeof r->error, "%s: cutting back: %s", r->part, strerror(errno));
    else if ((gzfd = dup(r->fd)) < 0 || !(r->gz = gzdopen(gzfd, "wb6"))) {
        if (gzfd >= 0)
            close(gzfd);
        snprintf(r->error, sizeof r->error, "%s: cannot start the gzip stream again", r->part);
    }
    r->rows_open = r->points_open = 0;
    r->pending = false;
    if (r->error[0]) {
        snprintf(err, errlen, "%s", r->error);
        return -1;
    }
    return 0;
}

static json_t *raw_columns_json(void)
{
    json_t *cols = json_array();
    for (size_t i = 0; i < sizeof raw_columns / sizeof raw_columns[0]; i++)
        json_array_append_new(cols, json_string(raw_columns[i]));
    return cols;
}

static json_t *raw_section(const mb_raw_t *r, bool complete)
{
    json_t *j = json_pack(
        "{s:s, s:s, s:o, s:I, s:I, s:I, s:b, s:s}", "file", MB_RAW_FILE, "format",
        "csv, gzip (one member per benchmark)", "columns", raw_columns_json(), "rows",
        (json_int_t)r->rows, "points", (json_int_t)r->points, "bytes", (json_int_t)r->bytes,
        "complete", complete, "samples",
        "per kept experiment, the point's headline time per operation on world rank 0 (its "
        "own, or for timed calls the slowest rank's or the mean over the ranks, as the scheme "
        "says), in ns: the series the point's statistics summarise");
    if (!complete)
        json_object_set_new(j, "writing", json_string(MB_RAW_PART));
    return j;
}

json_t *mb_raw_json(const mb_raw_t *r)
{
    return raw_section(r, false);
}

int mb_raw_close(mb_raw_t *r, json_t **section, char *err, size_t errlen)
{
    if (section)
        *section = NULL;
    int rc = mb_raw_commit(r, err, errlen);
    if (rc == 0) {
        int zrc = gzclose(r->gz);
        r->gz = NULL;
        if (zrc != Z_OK) {
            snprintf(err, errlen, "%s: closing the gzip stream failed", r->part);
            rc = -1;
        }
    }
    if (rc == 0 && rename(r->part, r->final) != 0) {
        snprintf(err, errlen, "%s: rename from %s: %s", r->final, r->part, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        /* Best effort: the rename itself durable. */
        int dfd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    if (section)
        *section = raw_section(r, rc == 0);
    raw_free(r);
    return rc;
}

json_t *mb_raw_off_json(const char *why)
{
    return json_pack("{s:n, s:s}", "file", "off", why);
}
