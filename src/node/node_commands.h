/* SPDX-License-Identifier: MIT */
/* `mbsuite mhz` and `mbsuite perturb`: the pre-flight's two tests on this machine alone,
 * without MPI, as lmbench's mhz and p1bench run. */
#ifndef MB_NODE_COMMANDS_H
#define MB_NODE_COMMANDS_H

/* argv[0] is the command's name. Each returns the exit status: 0 success, 1 no
 * trustworthy figure (mhz: system too busy), 2 bad arguments. */
int mb_command_mhz(int argc, char **argv);
int mb_command_perturb(int argc, char **argv);

#endif
