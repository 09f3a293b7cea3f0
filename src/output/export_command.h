/* SPDX-License-Identifier: MIT */
/* `mbsuite export --simgrid RUN --out DIR [--pair P]`: a run's fitted network as files a
 * simulator runs (export_simgrid.h). */
#ifndef MB_EXPORT_COMMAND_H
#define MB_EXPORT_COMMAND_H

/* Run the command (argv[0] is "export"). Returns 0, 1 on a file error (missing or
 * malformed results, nothing to export, a file that cannot be written), 2 on a usage
 * error. */
int mb_command_export(int argc, char **argv);

#endif
