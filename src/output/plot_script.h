/* SPDX-License-Identifier: MIT */
/* The files of one plot: DIR/plots/NAME.dat and NAME.gp, the script filled in from a
 * template of the repository's plots/ directory (the part users restyle). Strings go into
 * the scripts as single-quoted gnuplot literals, in which gnuplot expands neither
 * backquotes nor macros. Also the text buffers and the context every plot is drawn in. */
#ifndef MB_PLOT_SCRIPT_H
#define MB_PLOT_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "plot.h"

/* Between two plot clauses of a script's `plot` command. */
#define MB_PLOT_CLAUSE_SEP ", \\\n     "

/* What every plot is drawn with: where, from which document, and what was written. */
typedef struct mb_plot_ctx {
    char *plots_dir;
    const json_t *root;
    mb_plot_files_t *files;
    char *err;
    size_t errlen;
    bool plan_only; /* list each NAME.gp in files, write nothing (mb_plot_plan) */
} mb_plot_ctx_t;

/* A key-value substitution of a template: @KEY@ becomes value. */
typedef struct mb_plot_sub {
    const char *key;
    const char *value;
} mb_plot_sub_t;

/* open_memstream text; mb_plot_text_take hands the buffer over. */
typedef struct mb_plot_text {
    char *buf;
    size_t len;
    FILE *f;
} mb_plot_text_t;

/* The texts of one plot, and its strings, freed together. */
typedef struct mb_plot_parts {
    mb_plot_text_t dat, clauses, tics, ytics, marks;
    char *dat_s, *clauses_s, *tics_s, *ytics_s, *marks_s, *file, *title, *xlabel, *ylabel;
} mb_plot_parts_t;

/* Open t for writing into memory. Returns 0, or -1 when memory runs out. */
int mb_plot_text_open(mb_plot_text_t *t);

/* Close t and return its text (the caller frees it), or NULL when writing failed. */
char *mb_plot_text_take(mb_plot_text_t *t);

/* Close t and drop its text (nothing when t is not open). */
void mb_plot_text_discard(mb_plot_text_t *t);

/* Write s to f as a single-quoted gnuplot string expression; a newline becomes "\n". */
void mb_plot_gp_quote(FILE *f, const char *s);

/* Write s to f as one double-quoted column of a data file. */
void mb_plot_dat_quote(FILE *f, const char *s);

/* s as a new single-quoted gnuplot string expression, or NULL when memory runs out. */
char *mb_plot_quoted(const char *s);

/* "first\nsecond" as a new gnuplot string expression, second cut at a word to about 100
 * characters (with "...") when cut_second; NULL when memory runs out. */
char *mb_plot_title(const char *first, const char *second, bool cut_second);

/* "dir/nameext" as a new string, or NULL when memory runs out. */
char *mb_plot_path(const char *dir, const char *name, const char *ext);

/* A new file name from a benchmark name ("mpi.pingpong" gives "mpi_pingpong"), or NULL. */
char *mb_plot_file_name(const char *bench);

/* Append s (owned by the list afterwards, freed on failure) to *list. Returns 0, or -1. */
int mb_plot_list_add(char ***list, size_t *n, char *s);

/* Write c's NAME.dat (dat) and NAME.gp (template_file filled with subs, @OUTPUT@ and
 * @DATA@), each atomically, and list NAME.gp in c->files; with c->plan_only, only list it.
 * Returns 0, or -1 with c->err. */
int mb_plot_emit(mb_plot_ctx_t *c, const char *name, const char *template_file, const char *dat,
                 const mb_plot_sub_t *subs, size_t nsubs);

/* Open every text of p, its strings NULL. Returns 0, or nonzero when memory runs out. */
int mb_plot_parts_open(mb_plot_parts_t *p);

/* Close p's texts into their strings. Returns 0, or -1 when one could not be written. */
int mb_plot_parts_take(mb_plot_parts_t *p);

/* Free everything p holds. */
void mb_plot_parts_free(mb_plot_parts_t *p);

/* p's clause list without the separator in front of the first clause (after take). */
const char *mb_plot_parts_clauses(const mb_plot_parts_t *p);

/* Set c->err to "plot WHAT: out of memory" and return -1. */
int mb_plot_oom(mb_plot_ctx_t *c, const char *what);

/* Every plot's NAME.dat and NAME.gp for c->root into c->plots_dir (which exists), listed in
 * c->files; no gnuplot (plot.c). Returns 0, or -1 with c->err. */
int mb_plot_write_scripts(mb_plot_ctx_t *c);

#endif
