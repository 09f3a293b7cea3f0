/* SPDX-License-Identifier: MIT */
/* Drawing the scripts of a plots directory: `gnuplot NAME.gp` run there (fork and exec, no
 * shell), as a user would rerun it, for NAME.png and NAME.svg. */
#ifndef MB_PLOT_GNUPLOT_H
#define MB_PLOT_GNUPLOT_H

#include "plot_script.h"

/* gnuplot's path from PATH (a new string), or NULL when it is not there. */
char *mb_plot_gnuplot_find(void);

/* Run gnuplot (a path) on every script listed in c->files, from c->plots_dir, and list the
 * non-empty images in c->files. Every script is run; returns 0, or -1 with c->err naming
 * the first that failed or drew no image. */
int mb_plot_gnuplot_draw(mb_plot_ctx_t *c, const char *gnuplot);

#endif
