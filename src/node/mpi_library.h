/* SPDX-License-Identifier: MIT */
/* The MPI library's name and version, read from MPI_Get_library_version's text, whose form
 * each MPI chooses: "Open MPI v4.1.4, package: ...", "MPICH Version:\t4.0.2\n...",
 * "Intel(R) MPI Library 2021.6 for Linux* OS", "MVAPICH2 Version :\t2.3.7\n...",
 * "MPI VERSION    : CRAY MPICH version 8.1.4.31 (ANL base 3.4a2)\n...". Pure text, no
 * MPI call, so the unit tests feed it each library's string. */
#ifndef MB_MPI_LIBRARY_H
#define MB_MPI_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

/* From the first line of text: name gets what precedes the first version number (less
 * "Version" and colons; after the last colon when one remains), version the number (less
 * a leading "v"), or "unknown" when the line has none, in which case name is the line up
 * to its first comma. Both are always terminated; an empty or NULL text names "unknown". */
void mb_mpi_library_parse(const char *text, char *name, size_t name_len, char *version,
                          size_t version_len);

/* Whether an MPI_T control variable of this name is one of the library's message-protocol
 * limits, the sizes where its messages change protocol (eager to rendezvous) that the
 * fitted models' breaks should meet: any name with "eager" and "limit" or "max" in it, any
 * case (Open MPI's btl_vader_eager_limit, btl_sm_eager_limit, btl_tcp_eager_limit and
 * their rndv_eager_limit; MPICH's MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE,
 * MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ), and MPICH ch4's shared-memory cell size
 * (MPIR_CVAR_CH4_SHM_POSIX_IQUEUE_CELL_SIZE: a message that fits a cell goes eagerly). */
bool mb_mpi_library_protocol_cvar(const char *name);

#endif
