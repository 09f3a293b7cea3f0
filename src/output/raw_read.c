/* SPDX-License-Identifier: MIT */
#include "raw_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "raw_samples.h"

/* The file's first `limit` bytes (0: all), NULL with err on failure. */
static unsigned char *raw_read_file(const char *path, long long limit, size_t *len, char *err,
                                    size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, used = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (used == cap) {
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errlen, "%s: %s", path, bad ? "read error" : "out of memory");
        return NULL;
    }
    if (limit > 0 && (long long)used > limit)
        used = (size_t)limit;
    *len = used;
    return buf;
}

/* Between two members' lines in raw_inflate's text: no line of the CSV is this. */
#define RAW_MEMBER_MARK "\x1e"

/* Inflate every gzip member of in into one NUL-terminated text, a line RAW_MEMBER_MARK
 * between members. */
static char *raw_inflate(const char *path, const unsigned char *in, size_t len, char *err,
                         size_t errlen)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        snprintf(err, errlen, "%s: zlib cannot start", path);
        return NULL;
    }
    size_t cap = len * 4 + 4096, used = 0;
    char *out = malloc(cap);
    zs.next_in = (unsigned char *)in;
    zs.avail_in = (uInt)len;
    int zrc = Z_OK;
    bool member_ended = false;
    while (out) {
        if (cap - used < 4096) {
            char *grown = realloc(out, cap * 2);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
            cap *= 2;
        }
        if (member_ended) { /* the grown buffer has room */
            used += (size_t)sprintf(out + used, "\n" RAW_MEMBER_MARK "\n");
            member_ended = false;
        }
        zs.next_out = (unsigned char *)out + used;
        zs.avail_out = (uInt)(cap - used - 1);
        zrc = inflate(&zs, Z_NO_FLUSH);
        used = (size_t)((char *)zs.next_out - out);
        if (zrc == Z_STREAM_END) {
            if (zs.avail_in == 0)
                break;
            inflateReset(&zs); /* the next benchmark's member */
            member_ended = true;
        } else if (zrc != Z_OK) {
            break;
        }
    }
    inflateEnd(&zs);
    if (!out) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (zrc != Z_STREAM_END) {
        snprintf(err, errlen, "%s: not a whole gzip file (%s)", path,
                 zrc == Z_BUF_ERROR ? "it ends inside a member" : zs.msg ? zs.msg : "bad data");
        free(out);
        return NULL;
    }
    out[used] = '\0';
    return out;
}

static int raw_point_cmp(const void *x, const void *y)
{
    const mb_raw_point_t *a = x, *b = y;
    int c = strcmp(a->bench, b->bench);
    return c ? c : (a->point > b->point) - (a->point < b->point);
}

/* raw_point_cmp, then the member: a point read twice sorts in the order measured. */
static int raw_point_member_cmp(const void *x, const void *y)
{
    const mb_raw_point_t *a = x, *b = y;
    int c = raw_point_cmp(x, y);
    return c ? c : (a->member > b->member) - (a->member < b->member);
}

/* Sorted by raw_point_member_cmp: keep only each benchmark's points from its last member,
 * the measurement its record holds (a benchmark measured again replaces the record whole,
 * so its earlier points, whichever they were, are not its record's). */
static void raw_keep_last_members(mb_raw_data_t *d)
{
    size_t kept = 0;
    for (size_t from = 0; from < d->npoints;) {
        size_t to = from, last = 0;
        for (; to < d->npoints && strcmp(d->points[to].bench, d->points[from].bench) == 0; to++)
            last = d->points[to].member > last ? d->points[to].member : last;
        for (size_t i = from; i < to; i++) {
            if (d->points[i].member == last) {
                d->points[kept++] = d->points[i];
                continue;
            }
            d->rows -= d->points[i].n;
            free(d->points[i].bench);
            free(d->points[i].samples_ns);
        }
        from = to;
    }
    d->npoints = kept;
}

/* One line "bench,params,point,experiment,time_ns" (params maybe quoted) into its parts. */
static bool raw_parse_line(char *line, char **bench, size_t *point, double *t)
{
    char *p = strchr(line, ',');
    if (!p)
        return false;
    *p++ = '\0';
    *bench = line;
    if (*p == '"') { /* a quoted field: "" is a quote */
        for (p++; *p; p++)
            if (*p == '"' && *++p != '"')
                break;
        if (*p != ',')
            return false;
    } else {
        p = strchr(p, ',');
        if (!p)
            return false;
    }
    char *end;
    errno = 0;
    unsigned long long pt = strtoull(p + 1, &end, 10);
    if (end == p + 1 || *end != ',')
        return false;
    strtoull(end + 1, &p, 10);
    if (p == end + 1 || *p != ',')
        return false;
    *t = strtod(p + 1, &end);
    if (end == p + 1 || *end != '\0' || errno)
        return false;
    *point = (size_t)pt;
    return true;
}

static int raw_add(mb_raw_data_t *d, size_t *cap, const char *bench, size_t point, size_t member,
                   double t)
{
    mb_raw_point_t *last = d->npoints ? &d->points[d->npoints - 1] : NULL;
    if (!last || last->point != point || last->member != member ||
        strcmp(last->bench, bench) != 0) {
        if (d->npoints == *cap) {
            size_t grown_cap = *cap ? *cap * 2 : 256;
            mb_raw_point_t *grown = realloc(d->points, grown_cap * sizeof *grown);
            if (!grown)
                return -1;
            d->points = grown;
            *cap = grown_cap;
        }
        last = &d->points[d->npoints++];
        *last = (mb_raw_point_t){.bench = strdup(bench), .point = point, .member = member};
        if (!last->bench)
            return -1;
    }
    /* Grown by doubling: n a power of two means full. */
    if ((last->n & (last->n - 1)) == 0) {
        double *grown = realloc(last->samples_ns, (last->n ? 2 * last->n : 1) * sizeof *grown);
        if (!grown)
            return -1;
        last->samples_ns = grown;
    }
    last->samples_ns[last->n++] = t;
    d->rows++;
    return 0;
}

int mb_raw_read(const char *dir, const json_t *section, mb_raw_data_t *out, char *err,
                size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *file = json_string_value(json_object_get(section, "file"));
    if (!file) {
        const char *off = json_string_value(json_object_get(section, "off"));
        snprintf(err, errlen, "%s kept no raw samples (%s)", dir,
                 off ? off : "results.json has no \"raw\" section: written before raw.csv.gz");
        return 1;
    }
    if (strchr(file, '/')) {
        snprintf(err, errlen, "%s/results.json: raw file \"%s\" is not a name in the directory",
                 dir, file);
        return -1;
    }
    bool complete = json_is_true(json_object_get(section, "complete"));
    long long limit = complete ? 0 : (long long)json_integer_value(json_object_get(section, "bytes"));
    snprintf(out->path, sizeof out->path, "%s/%s", dir, file);
    FILE *probe = fopen(out->path, "rb");
    const char *writing = json_string_value(json_object_get(section, "writing"));
    if (!probe && !complete && writing && !strchr(writing, '/'))
        snprintf(out->path, sizeof out->path, "%s/%s", dir, writing); /* a killed run's part */
    if (probe)
        fclose(probe);
    size_t len = 0;
    unsigned char *gz = raw_read_file(out->path, limit, &len, err, errlen);
    if (!gz)
        return -1;
    char *text = raw_inflate(out->path, gz, len, err, errlen);
    free(gz);
    if (!text)
        return -1;
    int rc = -1;
    size_t cap = 0, lineno = 1, member = 0;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, MB_RAW_HEADER) != 0) {
        snprintf(err, errlen, "%s:1: not mbsuite's raw samples (want the header %s)", out->path,
                 MB_RAW_HEADER);
        goto out;
    }
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (strcmp(line, RAW_MEMBER_MARK) == 0) {
            member++;
            continue;
        }
        lineno++;
        char *bench;
        size_t point;
        double t;
        if (!raw_parse_line(line, &bench, &point, &t)) {
            snprintf(err, errlen, "%s:%zu: malformed line (decompressed)", out->path, lineno);
            goto out;
        }
        if (raw_add(out, &cap, bench, point, member, t) != 0) {
            snprintf(err, errlen, "%s: out of memory", out->path);
            goto out;
        }
    }
    qsort(out->points, out->npoints, sizeof *out->points, raw_point_member_cmp);
    raw_keep_last_members(out);
    rc = 0;
out:
    free(text);
    if (rc != 0)
        mb_raw_data_free(out);
    return rc;
}

const mb_raw_point_t *mb_raw_find(const mb_raw_data_t *d, const char *bench, size_t point)
{
    mb_raw_point_t key = {.bench = (char *)bench, .point = point};
    return d->npoints ? bsearch(&key, d->points, d->npoints, sizeof key, raw_point_cmp) : NULL;
}

void mb_raw_data_free(mb_raw_data_t *d)
{
    for (size_t i = 0; i < d->npoints; i++) {
        free(d->points[i].bench);
        free(d->points[i].samples_ns);
    }
    free(d->points);
    d->points = NULL;
    d->npoints = d->rows = 0;
}
