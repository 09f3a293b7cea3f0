/* SPDX-License-Identifier: MIT */
/* `mbsuite predict RESULTS.json OP -p P -d BYTES [--pair intra|inter]`: a time from the
 * fitted models, with its standard error, warning on stderr when it extrapolates; for a
 * composite pattern, the sum of its recipe beside the measured time and the error. */
#ifndef MB_PREDICT_COMMAND_H
#define MB_PREDICT_COMMAND_H

/* Run the command (argv[0] is "predict"). Returns 0, 1 on a file error (missing,
 * malformed, no fit, a pattern's component without a model), 2 on a usage error (bad or
 * missing option, unknown OP or pair). */
int mb_command_predict(int argc, char **argv);

#endif
