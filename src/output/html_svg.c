/* SPDX-License-Identifier: MIT */
/* Inlining gnuplot's SVG: a textual rewrite of the few constructs gnuplot writes (ids on
 * defs and groups, xlink:href="#..." uses, url(#...) clip paths), not an XML parser; the
 * file is one a template of ours produced, and anything unexpected is left as it is. */
#include "html_svg.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The first "<tag" at or after s, followed by a blank, '>' or '/', or NULL. */
static const char *html_svg_find_tag(const char *s, const char *end, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *p = s; p + n < end; p++) {
        p = memmem(p, (size_t)(end - p), tag, n);
        if (!p || p + n >= end)
            return NULL;
        char c = p[n];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/')
            return p;
    }
    return NULL;
}

/* The last occurrence of needle in [s, end), or NULL. */
static const char *html_svg_last(const char *s, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    const char *last = NULL;
    for (const char *p = s; (p = memmem(p, (size_t)(end - p), needle, n)) != NULL; p += n)
        last = p;
    return last;
}

static bool html_svg_starts(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

static bool html_svg_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int mb_html_svg_inline_text(FILE *f, const char *svg, size_t len, const char *prefix, char *why,
                            size_t whylen)
{
    const char *end = svg + len;
    const char *start = html_svg_find_tag(svg, end, "<svg");
    const char *close = html_svg_last(svg, end, "</svg>");
    if (len == 0) {
        snprintf(why, whylen, "the file is empty");
        return -1;
    }
    if (!start || !close || close < start) {
        snprintf(why, whylen, "no <svg> element in the file");
        return -1;
    }
    end = close + strlen("</svg>");
    for (const char *p = start; p < end;) {
        if (*p == '<' && html_svg_find_tag(p, p + 8 < end ? p + 8 : end, "<script") == p) {
            const char *stop = memmem(p, (size_t)(end - p), "</script>", 9);
            const char *gt = memchr(p, '>', (size_t)(end - p));
            if (gt && gt[-1] == '/') /* <script .../> */
                p = gt + 1;
            else
                p = stop ? stop + 9 : end;
            continue;
        }
        /* id='X' or id="X" as an attribute (after a blank). */
        if (p > start && html_svg_blank(p[-1]) &&
            (html_svg_starts(p, end, "id='") || html_svg_starts(p, end, "id=\""))) {
            fwrite(p, 1, 4, f);
            fputs(prefix, f);
            p += 4;
            continue;
        }
        if (html_svg_starts(p, end, "href='#") || html_svg_starts(p, end, "href=\"#")) {
            fwrite(p, 1, 7, f);
            fputs(prefix, f);
            p += 7;
            continue;
        }
        if (html_svg_starts(p, end, "url(#")) {
            fputs("url(#", f);
            fputs(prefix, f);
            p += 5;
            continue;
        }
        fputc(*p++, f);
    }
    fputc('\n', f);
    return 0;
}

int mb_html_svg_inline(FILE *f, const char *path, const char *prefix, char *why, size_t whylen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "not a regular file");
        return -1;
    }
    if ((unsigned long long)st.st_size > MB_HTML_SVG_MAX_BYTES) {
        snprintf(why, whylen, "%lld bytes, more than the %u inlined", (long long)st.st_size,
                 MB_HTML_SVG_MAX_BYTES);
        return -1;
    }
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    size_t size = (size_t)st.st_size;
    char *buf = malloc(size + 1);
    size_t got = buf ? fread(buf, 1, size, in) : 0;
    int ret = -1;
    if (!buf)
        snprintf(why, whylen, "out of memory");
    else if (got != size || ferror(in))
        snprintf(why, whylen, "read error");
    else
        ret = mb_html_svg_inline_text(f, buf, got, prefix, why, whylen);
    fclose(in);
    free(buf);
    return ret;
}
