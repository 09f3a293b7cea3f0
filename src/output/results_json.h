/* SPDX-License-Identifier: MIT */
/* results.json's text, byte for byte what json_dumpf(root, MB_RESULTS_JSON_FLAGS) writes,
 * with each benchmark record formatted once and kept as text. The document is rewritten
 * after every benchmark (results.h), and formatting all of it each time grew with the
 * square of the run: at the end of a default run at -np 2 one write of its 1.4 MB took
 * 55 ms, most of it in printf's number formatting, and the run's writes 2 s of its 80.
 * A record is formatted when a write first holds it and again only when the document holds
 * another in its place; records are never changed once in the document (results.c adds,
 * replaces and appends them whole). Rank 0, under results.c's lock. */
#ifndef MB_RESULTS_JSON_H
#define MB_RESULTS_JSON_H

#include <stdio.h>

#include <jansson.h>

/* 10 significant digits keep every measured figure exact enough and the file stable to
 * read; jansson keeps keys in insertion order. */
#define MB_RESULTS_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))

typedef struct mb_results_json_cache mb_results_json_cache_t;

/* An empty cache, or NULL when out of memory. */
mb_results_json_cache_t *mb_results_json_cache_new(void);

/* Frees c and the references to the records it holds; NULL is a no-op. */
void mb_results_json_cache_free(mb_results_json_cache_t *c);

/* root (a JSON object) into f as json_dumpf with MB_RESULTS_JSON_FLAGS, then a newline;
 * the records of root's "benchmarks" from c where it holds them, c updated to the records
 * written. Returns 0, or -1 (out of memory or a write error). */
int mb_results_json_write(FILE *f, const json_t *root, mb_results_json_cache_t *c);

#endif
