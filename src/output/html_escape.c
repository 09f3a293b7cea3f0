/* SPDX-License-Identifier: MIT */
/* HTML escaping for report.html. */
#include "html_escape.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>

void mb_html_escape(FILE *f, const char *s)
{
    if (!s)
        return;
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

void mb_html_escapef(FILE *f, const char *fmt, ...)
{
    va_list ap;
    char *text = NULL;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    mb_html_escape(f, text);
    free(text);
}

void mb_html_id(const char *s, char *buf, size_t len)
{
    size_t w = 0;
    if (len == 0)
        return;
    for (; s && *s && w + 1 < len; s++)
        buf[w++] = isalnum((unsigned char)*s) ? *s : '-';
    buf[w] = '\0';
}

void mb_html_th(FILE *f, const char *text)
{
    fputs("<th>", f);
    mb_html_escape(f, text);
    fputs("</th>", f);
}

void mb_html_td(FILE *f, const char *text, bool numeric)
{
    fputs(numeric ? "<td class=\"n\">" : "<td>", f);
    mb_html_escape(f, text && *text ? text : "-");
    fputs("</td>", f);
}

void mb_html_kv(FILE *f, const char *key, const char *value)
{
    fputs("<tr>", f);
    mb_html_th(f, key);
    mb_html_td(f, value, false);
    fputs("</tr>\n", f);
}
