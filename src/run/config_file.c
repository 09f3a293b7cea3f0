/* SPDX-License-Identifier: MIT */
/* Reading a configuration file as text, refusing at once what cannot be one: a directory,
 * more than 1 MiB (a regular file by its size, before reading a byte; a device or pipe such
 * as /dev/zero after 1 MiB), or binary data (a NUL byte or another control character,
 * which ends the read where it is found). A wrong --config then fails in milliseconds,
 * naming the file and line, instead of reading until memory runs out. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Far beyond any configuration (config/default.ini is 2 KiB). */
#define FILE_MAX_BYTES ((size_t)1 << 20)
#define FILE_CHUNK_BYTES ((size_t)1 << 16)

/* The first byte of buf[0..len) that no configuration file holds, NULL if none: controls
 * other than whitespace, and DEL. Bytes from 0x80 up pass, for UTF-8 (or Latin-1) comments. */
static const char *file_find_binary(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') ||
            c == 0x7f)
            return buf + i;
    }
    return NULL;
}

/* "PATH:LINE: ..." for the binary byte at buf[at]. */
static void file_binary_error(const char *path, const char *buf, size_t at, char *err,
                              size_t errlen)
{
    unsigned char c = (unsigned char)buf[at];
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += buf[i] == '\n';
    if (c == 0)
        snprintf(err, errlen, "%s:%d: a NUL byte: binary data, not a configuration file", path,
                 line);
    else
        snprintf(err, errlen,
                 "%s:%d: control character 0x%02x: binary data, not a configuration file", path,
                 line, c);
}

char *mb_config_read_file(const char *path, char *err, size_t errlen)
{
    char sink[1], *buf = NULL;
    size_t len = 0;
    struct stat st;
    if (!err || errlen == 0) {
        err = sink;
        errlen = sizeof sink;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        goto fail;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(EISDIR));
        goto fail;
    }
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > FILE_MAX_BYTES) {
        snprintf(err, errlen, "%s: %jd bytes, larger than 1 MiB: not a configuration file", path,
                 (intmax_t)st.st_size);
        goto fail;
    }
    /* One byte over the limit tells a stream that is too long; one more for the NUL. */
    buf = malloc(FILE_MAX_BYTES + 2);
    if (!buf) {
        snprintf(err, errlen, "%s: cannot read: out of memory", path);
        goto fail;
    }
    for (;;) {
        /* In chunks, so that binary data stops the read within its first 64 KiB. */
        size_t want = FILE_MAX_BYTES + 1 - len;
        ssize_t n = read(fd, buf + len, want < FILE_CHUNK_BYTES ? want : FILE_CHUNK_BYTES);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
            goto fail;
        }
        const char *bad = file_find_binary(buf + len, (size_t)n);
        if (bad) {
            file_binary_error(path, buf, (size_t)(bad - buf), err, errlen);
            goto fail;
        }
        len += (size_t)n;
        if (n == 0)
            break;
        if (len > FILE_MAX_BYTES) {
            snprintf(err, errlen, "%s: larger than 1 MiB: not a configuration file", path);
            goto fail;
        }
    }
    close(fd);
    buf[len] = '\0';
    char *fit = realloc(buf, len + 1);
    return fit ? fit : buf;
fail:
    if (fd >= 0)
        close(fd);
    free(buf);
    return NULL;
}

int mb_config_parse_buffer(mb_config_t *cfg, const char *buf, size_t len, const char *name,
                           char *err, size_t errlen)
{
    char sink[1];
    if (!err || errlen == 0) {
        err = sink;
        errlen = sizeof sink;
    }
    name = name ? name : "<string>";
    if (len > FILE_MAX_BYTES) {
        snprintf(err, errlen, "%s: %zu bytes, larger than 1 MiB: not a configuration file", name,
                 len);
        return -1;
    }
    const char *bad = file_find_binary(buf, len);
    if (bad) {
        file_binary_error(name, buf, (size_t)(bad - buf), err, errlen);
        return -1;
    }
    char *text = malloc(len + 1);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(text, buf, len);
    text[len] = '\0';
    int rc = mb_config_parse_string(cfg, text, name, err, errlen);
    free(text);
    return rc;
}

int mb_config_load_file(mb_config_t *cfg, const char *path, char *err, size_t errlen)
{
    char *text = mb_config_read_file(path, err, errlen);
    if (!text)
        return -1;
    int rc = mb_config_parse_string(cfg, text, path, err, errlen);
    free(text);
    return rc;
}
