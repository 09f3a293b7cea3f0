/* SPDX-License-Identifier: MIT */
/* A plot's SVG file (gnuplot's svg terminal) inlined into an HTML page: the XML prolog
 * and doctype dropped, scripts dropped (the page loads nothing), and every id and every
 * reference to one (id=, href="#...", url(#...)) prefixed, so that several plots on one
 * page do not share ids (gnuplot names its point shapes gpPt0, gpPt1, ... in every file). */
#ifndef MB_HTML_SVG_H
#define MB_HTML_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Largest SVG file inlined; a larger one is reported as too large. */
#define MB_HTML_SVG_MAX_BYTES (32u << 20)

/* Write the <svg>...</svg> element of the file at path into f, its ids prefixed with
 * prefix (e.g. "plot3-"). Returns 0, or -1 with a reason in why (missing, empty, too
 * large, no <svg> element) and nothing written. */
int mb_html_svg_inline(FILE *f, const char *path, const char *prefix, char *why, size_t whylen);

/* The same from the text svg (len bytes), for tests. */
int mb_html_svg_inline_text(FILE *f, const char *svg, size_t len, const char *prefix, char *why,
                            size_t whylen);

#endif
