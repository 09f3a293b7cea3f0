/* SPDX-License-Identifier: MIT */
/* Text into HTML: every string that comes from a results document (host names, command
 * lines, benchmark summaries, failure reasons) is escaped, so no value can open a tag. */
#ifndef MB_HTML_ESCAPE_H
#define MB_HTML_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

/* Write s to f with & < > " ' as character references; NULL writes nothing. Valid in
 * element content and in quoted attribute values. */
void mb_html_escape(FILE *f, const char *s);

/* printf into f, the whole formatted text escaped as by mb_html_escape. */
void mb_html_escapef(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as an id or fragment: letters and digits kept, every other byte '-', into buf
 * (cut to len - 1), e.g. "mpi.pingpong" gives "mpi-pingpong". */
void mb_html_id(const char *s, char *buf, size_t len);

/* A table header cell <th>text</th>. */
void mb_html_th(FILE *f, const char *text);

/* A table cell, right-aligned when numeric; NULL or "" shows "-". */
void mb_html_td(FILE *f, const char *text, bool numeric);

/* A row <tr><th>key</th><td>value</td></tr>. */
void mb_html_kv(FILE *f, const char *key, const char *value);

#endif
