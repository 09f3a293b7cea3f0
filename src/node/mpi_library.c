/* SPDX-License-Identifier: MIT */
#include "mpi_library.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A version token: digits, a dot, a digit ("4.0.2", "2021.6"), optionally after a "v". */
static bool mpi_library_is_version(const char *s)
{
    if (*s == 'v' || *s == 'V')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    return s[0] == '.' && isdigit((unsigned char)s[1]);
}

static void mpi_library_copy(char *dst, size_t len, const char *src, size_t n)
{
    if (len == 0)
        return;
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void mb_mpi_library_parse(const char *text, char *name, size_t name_len, char *version,
                          size_t version_len)
{
    mpi_library_copy(name, name_len, "unknown", 7);
    mpi_library_copy(version, version_len, "unknown", 7);
    if (!text)
        return;
    size_t line_len = strcspn(text, "\n");

    /* The first version token that starts a word. */
    size_t at = 0;
    bool found = false;
    for (; at < line_len; at++) {
        if ((at == 0 || isspace((unsigned char)text[at - 1]) || text[at - 1] == ':') &&
            mpi_library_is_version(text + at)) {
            found = true;
            break;
        }
    }
    if (!found) {
        size_t n = strcspn(text, ",\n");
        while (n > 0 && isspace((unsigned char)text[n - 1]))
            n--;
        if (n > 0)
            mpi_library_copy(name, name_len, text, n);
        return;
    }
    const char *v = text + at + (text[at] == 'v' || text[at] == 'V');
    size_t vn = 0;
    while (v + vn < text + line_len && !isspace((unsigned char)v[vn]) && v[vn] != ',' &&
           v[vn] != ')' && v[vn] != ';')
        vn++;
    mpi_library_copy(version, version_len, v, vn);

    /* The name: what precedes the version, less trailing blanks, colons and "version". */
    size_t start = 0, end = at;
    for (;;) {
        while (end > start && (isspace((unsigned char)text[end - 1]) || text[end - 1] == ':'))
            end--;
        if (end - start >= 7 && strncasecmp(text + end - 7, "version", 7) == 0 &&
            (end - start == 7 || isspace((unsigned char)text[end - 8])))
            end -= 7;
        else
            break;
    }
    /* "MPI VERSION : CRAY MPICH": the label before a colon is not the name. */
    for (size_t i = end; i > start; i--) {
        if (text[i - 1] == ':') {
            start = i;
            break;
        }
    }
    while (start < end && isspace((unsigned char)text[start]))
        start++;
    if (end > start)
        mpi_library_copy(name, name_len, text + start, end - start);
}

/* Whether word occurs in name, any case. */
static bool mpi_library_has(const char *name, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, word, n) == 0)
            return true;
    return false;
}

bool mb_mpi_library_protocol_cvar(const char *name)
{
    return name && ((mpi_library_has(name, "eager") &&
                     (mpi_library_has(name, "limit") || mpi_library_has(name, "max"))) ||
                    mpi_library_has(name, "iqueue_cell_size"));
}
