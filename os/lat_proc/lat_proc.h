/* SPDX-License-Identifier: MIT */
/* What os/proc.c and mbsuite-lat-proc (lat_proc.c: the small process whose fork() os.fork,
 * os.exec and os.shell time) agree on. */
#ifndef MB_LAT_PROC_H
#define MB_LAT_PROC_H

/* The program, found next to the mbsuite executable (as mbsuite-hello). */
#define MB_LAT_PROC_NAME "mbsuite-lat-proc"

/* Bytes of each reply: a NUL-terminated reason, empty on success; under PIPE_BUF, so that
 * one write() is whole. */
#define MB_LAT_PROC_REPLY 256

#endif
