/* SPDX-License-Identifier: MIT */
/* report.html: the run on one self-contained page (issue 16), rendered from results.json's
 * document like report.txt: warnings first, then the system and provenance, the pre-flight
 * (flagged nodes first), Howell's table, memory, the OS and other node figures, the fitted
 * models each with its plot, and a contents list. Plots are the SVG images that gnuplot
 * drew into DIR/plots/ (plot.h), inlined; a plot that is not there is a visible note. The
 * page loads nothing: no script, no external style sheet, font or image. */
#ifndef MB_REPORT_HTML_H
#define MB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Write the page for the results document root of the run directory dir (whose plots/
 * holds the images) into f. Returns 0, or -1 on a write error or when memory runs out. */
int mb_report_html_write(FILE *f, const json_t *root, const char *dir);

/* Atomically write dir/report.html for root. Returns 0, or -1 with err naming the file. */
int mb_report_html_write_file(const char *dir, const json_t *root, char *err, size_t errlen);

/* Read dir/results.json and atomically write dir/report.html from it, e.g. after the plots
 * were drawn again. Returns 0, or -1 with err naming the file. */
int mb_report_html_regenerate(const char *dir, char *err, size_t errlen);

#endif
