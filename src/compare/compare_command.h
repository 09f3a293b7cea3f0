/* SPDX-License-Identifier: MIT */
/* `mbsuite compare RUN_A RUN_B [--out DIR]`: two runs side by side (compare_runs.h), as
 * text on stdout and, with --out, DIR/compare.txt, compare.json and compare.html. */
#ifndef MB_COMPARE_COMMAND_H
#define MB_COMPARE_COMMAND_H

/* argv[0] is "compare". Returns the exit status: 0 compared (whatever the verdicts), 1 a run
 * that cannot be read (missing, not a results directory or file) or an output that cannot
 * be written (nothing half-written is left), 2 bad arguments. */
int mb_command_compare(int argc, char **argv);

#endif
